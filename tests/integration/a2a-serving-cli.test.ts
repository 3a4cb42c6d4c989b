/**
 * `patchbay serve --a2a` run through the real command line (in-process, as `main` runs it): the
 * demo agent and a YAML toolkit with a command tool, reached by `patchbay call a2a`; a port in
 * use and a default skill that cannot take text are refused with the reason.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliRun } from "../helpers/http-client.ts";
import { trackedCli } from "../helpers/processes.ts";

const cli = trackedCli();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "a2a-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function serving(run: CliRun): Promise<string> {
  for (let i = 0; i < 400; i++) {
    const base = /as an A2A agent .* at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(run.stdout.join(""))?.[1];
    if (base) return base;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`serve --a2a did not start: ${run.stderr.join("")}`);
}

async function call(...args: string[]) {
  const run = runCli(["call", "a2a", ...args]);
  const code = await run.done;
  return { code, out: run.stdout.join(""), err: run.stderr.join("") };
}

describe("patchbay serve --a2a", () => {
  it("serves the demo agent: the URLs printed, a message answered, Ctrl-C stops it", async () => {
    const run = cli(["serve", "--a2a", "--port", "0"]);
    const base = await serving(run);
    const out = run.stdout.join("");
    expect(out).toContain(`Agent Card: ${base}/.well-known/agent-card.json`);
    expect(out).toContain(`JSON-RPC:   ${base}/a2a/jsonrpc`);
    expect(out).toContain("Skills:     echo, add, sleep, fail, large-output, slow (text-only messages run echo)");
    for (const version of ["1.0", "0.3"]) {
      const answered = await call(base, `hi in ${version}`, "--a2a-version", version);
      expect(answered.code, answered.err).toBe(0);
      expect(answered.out).toContain(`hi in ${version}`);
    }
    run.stop();
    expect(await run.done).toBe(0);
  });

  it("serves a YAML toolkit with its default skill and asks before a confirm-gated tool", async () => {
    const file = join(dir, "kit.yaml");
    const node = JSON.stringify(process.execPath);
    await writeFile(
      file,
      [
        "format: patchbay.toolkit",
        "version: 1",
        "name: yaml-kit",
        "tools:",
        "  - name: greet",
        "    description: Greets.",
        "    inputSchema: { type: object, properties: { who: { type: string } }, required: [who] }",
        `    run: { command: [${node}, "-e", "console.log('hello ' + process.argv.at(-1))"], positionals: [who] }`,
        "  - name: risky",
        "    description: Needs approval.",
        "    tags: [ai:confirm]",
        "    inputSchema: { type: object }",
        `    run: { command: [${node}, "-e", "console.log('ran')"] }`,
        "",
      ].join("\n"),
    );
    const run = cli(["serve", "--a2a", "--port", "0", "--default-skill", "greet", "--confirm", "ask", file]);
    const base = await serving(run);
    expect(run.stdout.join("")).toContain("Skills:     greet, risky (text-only messages run greet)");
    const greeted = await call(base, "world");
    expect(greeted.code, greeted.err).toBe(0);
    expect(greeted.out).toContain("hello world");
    const risky = await fetch(`${base}/a2a/jsonrpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "m", role: "user", parts: [{ kind: "data", data: { skill: "risky" } }] } } }),
    });
    expect(((await risky.json()) as { result: { status: { state: string } } }).result.status.state).toBe("input-required");
  });

  it("refuses a port in use and a default skill that takes no text, saying why", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const busy = cli(["serve", "--a2a", "--port", String(port)]);
      expect(await busy.done).toBe(1);
      expect(busy.stderr.join("")).toContain(`cannot serve over A2A on 127.0.0.1:${port}: port ${port} is already in use`);
    } finally {
      blocker.close();
    }
    const wrong = cli(["serve", "--a2a", "--port", "0", "--default-skill", "add"]);
    expect(await wrong.done).toBe(1);
    expect(wrong.stderr.join("")).toContain('the default skill "add" cannot take a text message');
  });
});
