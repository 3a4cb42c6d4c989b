import { describe, expect, it } from "vitest";
import { commandLine } from "../run-types.ts";
import { nodeCommandRunner, scrubbedEnv } from "./command-runner.ts";

const run = nodeCommandRunner({ PATH: process.env.PATH, HOME: "/tmp", SECRET_TOKEN: "hunter2" });
const node = process.execPath;

describe("nodeCommandRunner", () => {
  it("runs an argv without a shell and reports the exit code, also when non-zero", async () => {
    const ok = await run({ argv: ["echo", "pong", "$HOME", "; rm -rf /"], env: {}, timeoutMs: 5_000 });
    expect(ok).toMatchObject({ kind: "ran", exitCode: 0, output: { text: "pong $HOME ; rm -rf /\n", truncated: false } });
    const four = await run({ argv: [node, "-e", "process.stderr.write('bad'); process.exit(4)"], env: {}, timeoutMs: 5_000 });
    expect(four).toMatchObject({ kind: "ran", exitCode: 4, output: { text: "bad" } });
  });

  it("passes only the scrubbed environment plus the tool's own variables", async () => {
    const out = await run({ argv: [node, "-e", "console.log(JSON.stringify(process.env))"], env: { TOOL_VAR: "x" }, timeoutMs: 5_000 });
    expect(out.kind).toBe("ran");
    const env = JSON.parse(out.kind === "ran" ? out.output.text : "{}") as Record<string, string>;
    expect(env.TOOL_VAR).toBe("x");
    expect(env.HOME).toBe("/tmp");
    expect(env.SECRET_TOKEN).toBeUndefined();
    expect(scrubbedEnv({ AWS_SECRET_ACCESS_KEY: "k", PATH: "/bin" }, {})).toEqual({ PATH: "/bin" });
  });

  it("a missing program is a harness error that names it", async () => {
    const out = await run({ argv: ["/nonexistent/patchbay-tool"], env: {}, timeoutMs: 5_000 });
    expect(out).toMatchObject({ kind: "harness-error", reason: "start" });
    expect(out.kind === "harness-error" && out.message).toContain("could not start /nonexistent/patchbay-tool");
  });

  it("stops a command that runs past its time limit, child processes included", async () => {
    const script = "require('child_process').spawn(process.execPath, ['-e', 'setTimeout(()=>{}, 60000)'], { stdio: 'inherit' }); setTimeout(()=>{}, 60000)";
    const out = await run({ argv: [node, "-e", script], env: {}, timeoutMs: 300 });
    expect(out).toMatchObject({ kind: "harness-error", reason: "timeout" });
  });

  it("stops on abort and caps huge output", async () => {
    const abort = new AbortController();
    const pending = run({ argv: [node, "-e", "setTimeout(()=>{}, 60000)"], env: {}, timeoutMs: 10_000, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    expect(await pending).toMatchObject({ kind: "harness-error", reason: "cancelled" });
    const big = await run({ argv: [node, "-e", "process.stdout.write('x'.repeat(1_000_000) + 'END')"], env: {}, timeoutMs: 10_000 });
    expect(big).toMatchObject({ kind: "ran", exitCode: 0, output: { truncated: true } });
    expect(big.kind === "ran" && big.output.text.endsWith("END")).toBe(true);
    expect(big.kind === "ran" && Buffer.byteLength(big.output.text)).toBeLessThanOrEqual(64 * 1024);
  });

  it("writes command lines a person can paste back", () => {
    expect(commandLine(["git", "log", "--author=a b", "it's"])).toBe("git log '--author=a b' 'it'\\''s'");
  });
});
