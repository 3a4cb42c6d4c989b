import { describe, expect, it } from "vitest";
import type { ReplySetEntry, ReplySetResult } from "../../fisk/client/reply-set.ts";
import { toolOutcome } from "../../fisk/client/tool-outcome.ts";
import type { NatsMessage } from "../../nats/port.ts";
import { BRIDGE_META_KEY, bridgeResult } from "./bridge-result.ts";

const NS = "io.choria.fisk-ai.v1";
const call = { remoteName: "stream_info", host: "nats-tools" };
const empty: NatsMessage = { subject: "_INBOX.x", data: new Uint8Array(0) };
const entry = (disposition: ReplySetEntry["disposition"], value: Record<string, unknown>): ReplySetEntry => ({ at: 0, message: empty, disposition, value, final: false, protocol: String(value.protocol) });
function replied(reply: Record<string, unknown>, ack?: Record<string, unknown>): ReplySetResult {
  const last = entry("terminal", { protocol: `${NS}.tool.reply`, ...reply });
  return { entries: ack ? [entry("ack", { protocol: `${NS}.ack`, ...ack }), last] : [last], end: { kind: "terminal", entry: last }, gaps: 0, elapsedMs: 1 };
}
const ended = (end: ReplySetResult["end"]): ReplySetResult => ({ entries: [], end, gaps: 0, elapsedMs: 1 });
/** The reply set as the bridge reads it: fisk-ai's outcome rules, then the MCP mapping. */
const mapped = (set: ReplySetResult) => bridgeResult(toolOutcome(set), call);
const textOf = (r: ReturnType<typeof mapped>) => r.content[0]!.text;
const capacity = 'tool "stream_info" on agent "nats-tools" did not run: the agent is already running its maximum of 4 concurrent tool calls';

describe("bridgeResult: a fisk-ai reply set as an MCP tool result (note §4 and §5)", () => {
  it("a command that exited 0 is a success with exit_code 0 always present", () => {
    const r = mapped(replied({ output: "Messages: 1,024\n", exec: { command: "stream info -- ORDERS" } }));
    expect(r.isError).toBe(false);
    expect(JSON.parse(textOf(r))).toEqual({ command: "stream info -- ORDERS", exit_code: 0, output: "Messages: 1,024\n" });
    expect(Object.keys(JSON.parse(textOf(r)))).toEqual(["command", "exit_code", "output"]);
  });

  it("a non-zero exit is still a success, carrying its code", () => {
    const r = mapped(replied({ output: "nats: error: stream not found\n", exec: { command: "stream info -- MISSING", exit_code: 1 } }));
    expect(r.isError).toBe(false);
    expect(JSON.parse(textOf(r))).toEqual({ command: "stream info -- MISSING", exit_code: 1, output: "nats: error: stream not found\n" });
  });

  it("truncated output says so, and only then", () => {
    const r = mapped(replied({ output: "a…b", exec: { command: "x", exit_code: 2, truncated: true } }));
    expect(JSON.parse(textOf(r))).toEqual({ command: "x", exit_code: 2, output: "a…b", truncated: true });
  });

  it("an in-process tool's output (no exec) passes verbatim", () => {
    const r = mapped(replied({ output: '{"hits":[]}' }));
    expect(r).toMatchObject({ isError: false, content: [{ type: "text", text: '{"hits":[]}' }] });
  });

  it("is_error is an error result with the peer's text", () => {
    const r = mapped(replied({ is_error: true, output: 'running command "stream info": context deadline exceeded' }, { accepted: true }));
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('running command "stream info": context deadline exceeded');
    expect(r._meta).toEqual({ [BRIDGE_META_KEY]: { outcome: "harness-failure", agent: "nats-tools", tool: "stream_info" } });
  });

  it("a capacity refusal is an error result with the refusal text, named as capacity", () => {
    const r = mapped(replied({ is_error: true, output: capacity, code: "capacity" }, { accepted: false, reason: capacity }));
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(capacity);
    expect((r._meta as Record<string, { outcome: string }>)[BRIDGE_META_KEY]!.outcome).toBe("capacity");
  });

  it("a tool the agent no longer has is an error result in its words", () => {
    const r = mapped(replied({ is_error: true, output: 'tool "stream_info" is not available' }, { accepted: false, reason: 'tool "stream_info" is not available' }));
    expect(r).toMatchObject({ isError: true, content: [{ text: 'tool "stream_info" is not available' }] });
  });

  it.each<[string, ReplySetResult["end"], RegExp]>([
    ["no responders", { kind: "no-responders" }, /^calling tool "stream_info" on agent "nats-tools": the agent is unavailable: nothing answers on choria\.fisk-ai\.tool\.nats-tools \(no responders\)$/],
    ["no responders found by PING", { kind: "no-responders", via: { subject: "$SRV.PING.nats-tools", silentMs: 1500 } } as ReplySetResult["end"], /the agent is unavailable: nothing answers \(its PING/],
    ["idle timeout", { kind: "idle-timeout", idleMs: 120_000 }, /: the agent is unavailable: the peer sent nothing for 120 s$/],
    ["a micro refusal", { kind: "refused", code: "400", description: "request exceeds 786432 bytes" }, /"choria\.fisk-ai\.tool\.nats-tools" refused the request: 400: request exceeds 786432 bytes$/],
    ["a protocol error", { kind: "protocol-error", message: "a second ack" }, /: protocol error: a second ack$/],
    ["disconnected", { kind: "disconnected" }, /the NATS connection dropped while the call was in flight; it was not sent again$/],
    ["cancelled", { kind: "cancelled" }, /the call was cancelled before the agent answered$/],
    ["not sent", { kind: "send-failed", message: "connection closed" }, /: not sent: connection closed$/],
  ])("%s is an error result naming the tool and the agent", (_name, end, text) => {
    const r = mapped(ended(end));
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(text);
    expect(textOf(r)).toMatch(/^calling tool "stream_info" on agent "nats-tools": /);
  });

  it("a set that ends on the final header without a tool.reply is a protocol error, not a success", () => {
    const last = entry("event", { protocol: `${NS}.event.status` });
    const r = mapped({ entries: [last], end: { kind: "final-without-terminal", entry: last }, gaps: 0, elapsedMs: 1 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("without a tool.reply");
  });
});
