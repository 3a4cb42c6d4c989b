import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../env/scheduler.ts";
import { BUILTIN_DEFS } from "./builtin-tools.ts";
import type { CommandRunner, RunRequest } from "./run-types.ts";
import type { ToolProgress } from "./tool-run.ts";
import { executeTool } from "./tool-executor.ts";
import type { ToolDef } from "./toolkit/toolkit-types.ts";

const def = (name: string): ToolDef => BUILTIN_DEFS.find((t) => t.name === name)!;
const flush = () => new Promise((r) => setTimeout(r, 0));

describe("built-in demo tools", () => {
  const scheduler = new ManualScheduler();

  it("echo and add answer at once; bad input is an arguments error, not a crash", async () => {
    expect(await executeTool(def("echo"), { message: "hi" }, { scheduler })).toEqual({ kind: "text", text: "hi" });
    expect(await executeTool(def("add"), { a: 2, b: 3.5 }, { scheduler })).toEqual({ kind: "text", text: "5.5", structured: { sum: 5.5 } });
    expect(await executeTool(def("add"), { a: "2", b: 1 }, { scheduler })).toEqual({ kind: "harness-error", reason: "arguments", message: '"a" must be a finite number' });
    expect(await executeTool(def("echo"), [1], { scheduler })).toMatchObject({ kind: "harness-error", reason: "arguments" });
    expect(await executeTool(def("sleep"), { seconds: 1e9 }, { scheduler })).toMatchObject({ kind: "harness-error", reason: "arguments" });
  });

  it("sleep reports progress each second and can be cancelled", async () => {
    const seen: ToolProgress[] = [];
    const done = executeTool(def("sleep"), { seconds: 2.5 }, { scheduler, onProgress: (p) => seen.push(p) });
    for (let i = 0; i < 3; i++) {
      await flush();
      scheduler.advance(1000);
    }
    expect(await done).toEqual({ kind: "text", text: "slept 2.5 s" });
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen[0]).toEqual({ progress: 1, total: 3, message: "1 of 3 s" });

    const abort = new AbortController();
    const slow = executeTool(def("slow"), {}, { scheduler, signal: abort.signal });
    await flush();
    abort.abort();
    expect(await slow).toEqual({ kind: "harness-error", reason: "cancelled", message: "the call was cancelled" });
    expect(scheduler.pending).toBe(0);
  });

  it("fail and large-output behave like commands that ran", async () => {
    expect(await executeTool(def("fail"), { exit_code: 4 }, { scheduler })).toEqual({
      kind: "ran",
      commandLine: "fail 4",
      exitCode: 4,
      signal: null,
      output: { text: "exiting with 4\n", truncated: false },
    });
    const big = await executeTool(def("large-output"), { bytes: 200_000 }, { scheduler });
    expect(big).toMatchObject({ kind: "ran", exitCode: 0, output: { truncated: true } });
  });

  it("every built-in declares an object input schema and a description", () => {
    for (const tool of BUILTIN_DEFS) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.description.length, tool.name).toBeGreaterThan(0);
    }
  });
});

describe("command tools", () => {
  const scheduler = new ManualScheduler();
  const tool: ToolDef = {
    name: "ls",
    description: "List",
    inputSchema: { type: "object", properties: { path: { type: "string" }, all: { type: "boolean" } } },
    tags: [],
    impl: { kind: "command", argv: ["ls"], positionals: ["path"], timeoutMs: 1234, env: { A: "1" } },
  };

  it("maps the input to the argv and hands the runner the tool's limits", async () => {
    const requests: RunRequest[] = [];
    const runner: CommandRunner = async (request) => {
      requests.push(request);
      return { kind: "ran", commandLine: request.argv.join(" "), exitCode: 0, signal: null, output: { text: "x", truncated: false }, durationMs: 1 };
    };
    expect(await executeTool(tool, { path: "/tmp", all: true }, { scheduler, runner })).toMatchObject({ kind: "ran", commandLine: "ls --all -- /tmp" });
    expect(requests[0]).toMatchObject({ argv: ["ls", "--all", "--", "/tmp"], env: { A: "1" }, timeoutMs: 1234 });
  });

  it("refuses unknown arguments before running anything, and says when commands cannot run", async () => {
    let ran = false;
    const runner: CommandRunner = async () => {
      ran = true;
      throw new Error("unreachable");
    };
    expect(await executeTool(tool, { rm: true }, { scheduler, runner })).toMatchObject({ kind: "harness-error", reason: "arguments" });
    expect(ran).toBe(false);
    expect(await executeTool(tool, {}, { scheduler })).toEqual({ kind: "harness-error", reason: "start", message: "command tools cannot run here" });
    expect(await executeTool(tool, {}, { scheduler, runner })).toEqual({ kind: "harness-error", reason: "failed", message: "the tool failed: unreachable" });
  });
});
