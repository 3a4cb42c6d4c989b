import { describe, expect, it } from "vitest";
import { clientFeatureServer, linked } from "../../../core/mcp/test-servers.ts";
import { CallOptionsState, parseMeta, type ProgressSource } from "./call-options-state.svelte.ts";
import { McpWorkbenchState } from "./mcp-state.svelte.ts";
import { pageCompiler } from "./page-compiler.ts";
import { memoryHandle } from "./test-transports.ts";

/** A progress source the test drives by hand. */
function source() {
  const listeners = new Set<(p: { progressToken: string | number; progress: number; total?: number; message?: string }) => void>();
  const src: ProgressSource = {
    on: (_type, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { src, emit: (p: { progressToken: string | number; progress: number; total?: number; message?: string }) => listeners.forEach((l) => l(p)), listeners };
}

describe("parseMeta", () => {
  it("takes an object, nothing for empty text, and says why anything else is refused", () => {
    expect(parseMeta("  ")).toEqual({ ok: true, meta: undefined });
    expect(parseMeta('{"progressToken": 7, "trace": "x"}')).toEqual({ ok: true, meta: { progressToken: 7, trace: "x" } });
    expect(parseMeta('{"a": }')).toEqual({ ok: false, error: expect.stringMatching(/^The _meta is not JSON: .+ \(line 1, column 7\)\.$/) });
    expect(parseMeta("[1]")).toEqual({ ok: false, error: 'The _meta must be a JSON object, such as {"progressToken": "my-token"}.' });
    expect(parseMeta('{"progressToken": 1.5}')).toEqual({ ok: false, error: "The _meta progressToken must be a string or an integer." });
    expect(parseMeta('{"progressToken": null}')).toEqual({ ok: false, error: "The _meta progressToken must be a string or an integer." });
  });
});

describe("CallOptionsState", () => {
  it("uses the connection's time limit unless the call overrides it, and refuses a bad one", () => {
    const options = new CallOptionsState();
    const { src } = source();
    expect(options.prepare(src, 60_000)).toMatchObject({ ok: true, options: { timeoutMs: 60_000 } });
    options.timeoutText = "2.5";
    expect(options.prepare(src, 60_000)).toMatchObject({ ok: true, options: { timeoutMs: 2_500 } });
    options.timeoutText = "soon";
    expect(options.prepare(src, 60_000)).toEqual({ ok: false, error: "The call's time limit must be a number of seconds between 0 and 86400" });
  });

  it("asks the SDK for progress when wanted, and shows it determinate or counted", () => {
    const options = new CallOptionsState();
    const { src, emit, listeners } = source();
    const call = options.prepare(src, 1_000);
    if (!call.ok) throw new Error(call.error);
    expect(call.options.meta).toBeUndefined();
    call.options.onProgress?.({ progress: 1, total: 4, message: "one" });
    expect(options.progress).toEqual({ progress: 1, total: 4, message: "one", count: 1 });
    call.options.onProgress?.({ progress: 9 });
    expect(options.progress).toEqual({ progress: 9, total: undefined, message: undefined, count: 2 });
    // Late progress the SDK dropped comes as an event under its numeric token; typed tokens are not ours.
    emit({ progressToken: "someone-else", progress: 99 });
    emit({ progressToken: 3, progress: 10 });
    expect(options.progress).toEqual({ progress: 10, total: undefined, message: undefined, count: 3 });
    call.end();
    expect(listeners.size).toBe(0);

    options.wantProgress = false;
    const quiet = options.prepare(src, 1_000);
    expect(quiet).toMatchObject({ ok: true, options: { timeoutMs: 1_000 } });
    expect(quiet.ok && "onProgress" in quiet.options).toBe(false);
    expect(listeners.size).toBe(0);
    expect(options.progress).toBeNull();
  });

  it("sends a typed progressToken as typed and follows only its progress until the call ends", () => {
    const options = new CallOptionsState();
    const { src, emit, listeners } = source();
    options.metaText = '{"progressToken": "mine"}';
    const call = options.prepare(src, 1_000);
    if (!call.ok) throw new Error(call.error);
    expect(call.options).toEqual({ timeoutMs: 1_000, meta: { progressToken: "mine" } });
    emit({ progressToken: "other", progress: 50 });
    emit({ progressToken: "mine", progress: 2, total: 3 });
    expect(options.progress).toEqual({ progress: 2, total: 3, message: undefined, count: 1 });
    call.end();
    expect(listeners.size).toBe(0);
  });
});

describe("call options through the workbench", () => {
  async function bench() {
    const { server, seen } = clientFeatureServer();
    const transport = memoryHandle(await linked(server));
    const b = new McpWorkbenchState(() => transport, pageCompiler(true));
    b.form.command = "srv";
    await b.connect();
    return { b, seen, select: (name: string) => b.select(b.filteredTools.findIndex((t) => t.name === name)) };
  }
  const text = (b: McpWorkbenchState) => JSON.stringify(b.outcome);

  it("sends the typed _meta and progressToken, and shows that token's progress", async () => {
    const { b, select } = await bench();
    select("count");
    b.argsDraft = '{"steps": 3, "withTotal": false}';
    b.callOptions.metaText = '{"progressToken": "bench-1", "trace": "abc"}';
    await b.send();
    expect(text(b)).toContain('token \\"bench-1\\"');
    expect(b.callOptions.progress).toEqual({ progress: 30, total: undefined, message: "tick 3", count: 3 });
    expect(b.consoleLines.filter((l) => l.type === "note")).toEqual([]);
  });

  it("adds a token when progress is wanted and none was typed, and none when it is not", async () => {
    const { b, select } = await bench();
    select("count");
    b.argsDraft = '{"steps": 2, "withTotal": true}';
    await b.send();
    expect(text(b)).toMatch(/token \d+/);
    expect(b.callOptions.progress).toEqual({ progress: 20, total: 20, message: "tick 2", count: 2 });
    b.callOptions.wantProgress = false;
    await b.send();
    expect(text(b)).toContain("token undefined");
    expect(b.callOptions.progress).toBeNull();
  });

  it("refuses bad _meta before sending anything", async () => {
    const { b, select } = await bench();
    select("count");
    b.argsDraft = '{"steps": 1, "withTotal": true}';
    b.callOptions.metaText = "{oops";
    await b.send();
    expect(b.callError).toMatch(/^The _meta is not JSON: /);
    expect(b.outcome).toBeNull();
    expect(b.callOptions.metaText).toBe("{oops");
  });

  it("lets a call override the connection's time limit, and a cancel reaches the server", async () => {
    const { b, seen, select } = await bench();
    select("wait");
    b.callOptions.timeoutText = "0.05";
    await b.send();
    expect(b.outcome).toEqual({ kind: "timeout", timeoutMs: 50 });
    b.callOptions.timeoutText = "";
    const pending = b.send();
    await expect.poll(() => b.calling).toBe(true);
    b.cancel();
    await pending;
    expect(b.outcome).toEqual({ kind: "cancelled", reason: "cancelled by the user" });
    await expect.poll(() => seen.cancelled.length).toBe(2);
    expect(seen.cancelled[1]).toEqual({ reason: "cancelled by the user" });
    expect(String((seen.cancelled[0]?.reason as Error | undefined)?.message ?? seen.cancelled[0]?.reason)).toMatch(/timed out/i);
  });
});
