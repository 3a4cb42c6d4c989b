#!/usr/bin/env node
/**
 * Prints a digest of every verdict of the validate benchmark's capture and of the mutation suite's
 * seeds and near-misses (tests/helpers/verdict-digest.ts), and writes the verdicts themselves to a
 * file, one per line. Run it before and after a change meant only to make validation faster: the
 * digests (and the files, with cmp) must be equal.
 * Usage: node scripts/verdict-digest.mjs [out.jsonl]   (default: verdicts.jsonl in the system temp folder)
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, createServerModuleRunner } from "vite";
import { ROOT } from "./bootstrap-lib.mjs";

const out = process.argv[2] ?? join(tmpdir(), "verdicts.jsonl");
const server = await createServer({ root: ROOT, configFile: false, logLevel: "error", appType: "custom", server: { middlewareMode: true, hmr: false, ws: false } });
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  const { verdictDigest } = await runner.import(join(ROOT, "tests/helpers/verdict-digest.ts"));
  const { referenceDir } = await runner.import(join(ROOT, "tests/helpers/reference.ts"));
  const dir = referenceDir();
  if (!dir) process.stderr.write("the upstream reference folder is absent: upstream's MCP examples are left out of the seeds\n");
  const digest = verdictDigest(dir);
  writeFileSync(out, `${digest.lines.join("\n")}\n`);
  for (const s of digest.sections) process.stdout.write(`${s.name}: ${s.count} verdicts, sha256 ${s.sha256}\n`);
  process.stdout.write(`verdicts written to ${out}\n`);
} finally {
  await runner.close();
  await server.close();
}
