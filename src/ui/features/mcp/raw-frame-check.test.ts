import { describe, expect, it } from "vitest";
import { manualClock } from "../../../core/env/index.ts";
import { createValidationEngine } from "../../../core/packs/index.ts";
import type { Override, Verdict } from "../../../core/validation/types.ts";
import { WireLog, type WireEntry } from "../../../core/wire/index.ts";
import { CheckQueue } from "./raw-check-queue.ts";
import { checkJob, type FrameVerdict, frameVerdict, MAX_BATCH_ELEMENTS, MAX_CHECKED_BYTES } from "./raw-frame-check.ts";

// The real engine answers here as the worker would: these tests hold the questions to the packs.
const engine = createValidationEngine();
const worker = { validateOne: (text: string, override?: Override): Promise<Verdict> => Promise.resolve(engine.session().validateText(text, override)) };
const log = new WireLog(manualClock(), 100);
const enc = new TextEncoder();

function frame(direction: "out" | "in", body: string | Uint8Array): WireEntry {
  return log.record({ channel: "mcp", direction, target: "t", bytes: typeof body === "string" ? enc.encode(body) : body });
}

async function verdictOf(entry: WireEntry, version: string, answering?: string): Promise<FrameVerdict> {
  const job = checkJob(entry, version, answering);
  if (!("seq" in job)) return job;
  const got = new Map<number, FrameVerdict>();
  const queue = new CheckQueue(worker, (v) => v.forEach((verdict, seq) => got.set(seq, verdict)), { defer: (run) => run() });
  queue.add(job);
  await expect.poll(() => got.size).toBe(1);
  return got.get(entry.seq)!;
}

const rpc = (message: object) => JSON.stringify({ jsonrpc: "2.0", ...message });

describe("frame checks against the negotiated version", () => {
  it("checks a response as the result of the request it answers", async () => {
    const tools = frame("in", rpc({ id: 1, result: { tools: [{ name: "a", inputSchema: { type: "object" } }] } }));
    expect(await verdictOf(tools, "2025-06-18", "tools/list")).toEqual({ status: "valid", kind: "tools/list result", judged: "tools/list result, MCP 2025-06-18 (the version you chose)", problems: [] });
    const broken = frame("in", rpc({ id: 1, result: { tools: [{ name: "a" }] } }));
    const verdict = await verdictOf(broken, "2025-06-18", "tools/list");
    expect(verdict).toMatchObject({ status: "invalid", kind: "tools/list result" });
    expect("problems" in verdict && verdict.problems[0]).toMatch(/inputSchema/);
  });

  it("falls back to the version's own guess when the answered method has no result there", async () => {
    const result = frame("in", rpc({ id: 4, result: { taskId: "t", status: "working" } }));
    const verdict = await verdictOf(result, "2025-06-18", "tasks/get");
    expect(verdict.status).not.toBe("unrecognised");
  });

  it("judges live frames of a 2026-07-28 connection by that era: the envelope required, a legacy-shaped answer invalid", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const call = await verdictOf(frame("out", rpc({ id: 3, method: "tools/call", params: { _meta: meta, name: "echo", arguments: {} } })), "2026-07-28");
    expect(call).toMatchObject({ status: "valid", kind: "tools/call request" });
    const bare = await verdictOf(frame("out", rpc({ id: 4, method: "tools/call", params: { name: "echo" } })), "2026-07-28");
    expect(bare).toMatchObject({ status: "invalid", kind: "tools/call request" });
    const answer = await verdictOf(frame("in", rpc({ id: 3, result: { resultType: "complete", content: [{ type: "text", text: "hi" }] } })), "2026-07-28", "tools/call");
    expect(answer).toMatchObject({ status: "valid" });
    const legacyShape = await verdictOf(frame("in", rpc({ id: 4, result: { content: [{ type: "text", text: "hi" }] } })), "2026-07-28", "tools/call");
    expect(legacyShape).toMatchObject({ status: "invalid" });
    const inputRequired = await verdictOf(frame("in", rpc({ id: 5, result: { resultType: "input_required", requestState: "abc" } })), "2026-07-28", "tools/call");
    expect(inputRequired.status).toBe("valid");
    // The same legacy call is fine on a 2025-11-25 connection.
    expect(await verdictOf(frame("out", rpc({ id: 6, method: "tools/call", params: { name: "echo" } })), "2025-11-25")).toMatchObject({ status: "valid" });
  });

  it("names a wrong jsonrpc version, a missing method and an error response", async () => {
    const wrong = await verdictOf(frame("out", '{"jsonrpc":"1.0","id":1,"method":"ping"}'), "2025-06-18");
    expect(wrong).toMatchObject({ status: "invalid", problems: [expect.stringMatching(/jsonrpc/)] });
    const noMethod = await verdictOf(frame("out", rpc({ id: 1, params: {} })), "2025-06-18");
    expect(noMethod).toMatchObject({ status: "invalid", problems: ['Missing required property "method".'] });
    expect(await verdictOf(frame("out", "42"), "2025-06-18")).toMatchObject({ problems: ["A JSON-RPC message is a JSON object, not a number."] });
    const badParams = await verdictOf(frame("out", rpc({ id: 2, method: "tools/call", params: { arguments: {} } })), "2025-06-18");
    expect(badParams).toMatchObject({ status: "invalid", kind: "tools/call request", problems: [expect.stringMatching(/name/)] });
    const error = await verdictOf(frame("in", rpc({ id: 1, error: { code: -32601, message: "Method not found" } })), "2025-06-18");
    expect(error).toMatchObject({ status: "error-response" });
    const notJson = await verdictOf(frame("out", "hello"), "2025-06-18");
    expect(notJson).toMatchObject({ status: "unparseable", problems: [expect.stringMatching(/^Not JSON/)] });
  });

  it("refuses a request sent the wrong way", async () => {
    const verdict = await verdictOf(frame("out", rpc({ id: 1, method: "roots/list" })), "2025-06-18");
    expect(verdict).toMatchObject({ status: "invalid", kind: "roots/list request", problems: ["roots/list request travels from server to client, but the client sent it."] });
  });

  it("checks each message of a batch, and names the versions without batches", async () => {
    const batch = JSON.stringify([JSON.parse(rpc({ id: 1, method: "ping" })), { jsonrpc: "2.0", method: 5 }]);
    const in0326 = await verdictOf(frame("out", batch), "2025-03-26");
    expect(in0326).toMatchObject({ status: "invalid", kind: "batch of 2", problems: [expect.stringMatching(/^element 1: /)] });
    const in0618 = await verdictOf(frame("out", batch), "2025-06-18");
    expect(in0618).toMatchObject({ status: "invalid", problems: ["MCP 2025-06-18 has no JSON-RPC batches; only 2025-03-26 allowed them.", expect.stringMatching(/^element 1: /)] });
    const empty = await verdictOf(frame("out", "[]"), "2025-03-26");
    expect(empty).toEqual({ status: "invalid", kind: "batch of 0", problems: ["An empty batch: JSON-RPC answers it with an Invalid Request error."] });
    const long = checkJob(frame("out", JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ jsonrpc: "2.0", method: "notifications/initialized", i })))), "2025-03-26", undefined);
    expect("texts" in long && [long.texts.length, long.unchecked]).toEqual([MAX_BATCH_ELEMENTS, 10]);
  });

  it("does not ask about frames it cannot read, or too large to check in time", () => {
    expect(checkJob(frame("in", new Uint8Array([0xff, 0xfe])), "2025-06-18", undefined)).toEqual({ status: "unparseable", problems: ["The frame is not UTF-8 text."] });
    expect(checkJob(frame("in", ""), "2025-06-18", undefined)).toEqual({ status: "unparseable", problems: ["The frame is empty."] });
    expect(checkJob(frame("out", new Uint8Array(MAX_CHECKED_BYTES + 1)), "2025-06-18", undefined)).toEqual({ status: "not-checked", reason: "Not checked: larger than the 4 MB checked per frame." });
  });

  it("reports a worker that failed as a frame not checked", async () => {
    const broken = { validateOne: () => Promise.reject(new Error("The validation worker stopped: blocked.")) };
    const got: FrameVerdict[] = [];
    const queue = new CheckQueue(broken, (v) => got.push(...v.values()), { defer: (run) => run() });
    const job = checkJob(frame("in", rpc({ id: 1, result: {} })), "2025-06-18", "ping");
    expect("seq" in job && queue.add(job)).toBe(true);
    await expect.poll(() => got).toEqual([{ status: "not-checked", reason: "Not checked: The validation worker stopped: blocked." }]);
  });
});

describe("what a frame was judged by", () => {
  it("names the kind, the version and why that version, under the verdict", () => {
    const job = { seq: 1, direction: "out", version: "2025-06-18", texts: ["{}"], batch: false, unchecked: 0, override: { packId: "mcp/2025-06-18" } } as const;
    const verdict = engine.session().validateText('{"jsonrpc":"2.0","id":1,"method":"ping"}', { packId: "mcp/2025-06-18" });
    expect(frameVerdict(job, [verdict])).toMatchObject({ status: "valid", kind: "ping request", judged: "ping request, MCP 2025-06-18 (the version you chose)" });
  });
});
