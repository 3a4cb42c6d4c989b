// What the TCK and conformance steps share: Patchbay's served agent started for a suite to test,
// and a failure said so that it cannot be missed in a long log.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./bootstrap-lib.mjs";

/** A message framed in a bar of "!", for what must not scroll by unseen. */
export function loud(lines) {
  const bar = "!".repeat(78);
  process.stdout.write(`\n${bar}\n${lines.map((l) => `!! ${l}`).join("\n")}\n${bar}\n\n`);
}

/**
 * Starts `patchbay <args>` and resolves `url` with the first capture of `announced` in its
 * stdout; rejects with its stderr when it exits first or says nothing within 120 s.
 */
export function startServedAgent(args, announced) {
  const child = spawn(process.execPath, [join(ROOT, "bin", "patchbay.mjs"), ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const url = new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the agent did not start within 120 s:\n${err}`)), 120_000);
    child.stdout.on("data", () => {
      const found = announced.exec(out)?.[1];
      if (found) {
        clearTimeout(timer);
        resolveUrl(found);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the agent exited (${code}) before serving:\n${err}`));
    });
  });
  return { child, url, log: () => err };
}
