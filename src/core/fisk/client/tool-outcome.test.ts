import { describe, expect, it } from "vitest";
import type { NatsMessage } from "../../nats/port.ts";
import type { ReplySetEntry, ReplySetResult } from "./reply-set.ts";
import { toolOutcome, type ToolOutcome } from "./tool-outcome.ts";

const NS = "io.choria.fisk-ai.v1";
const empty: NatsMessage = { subject: "_INBOX.x", data: new Uint8Array(0) };
const entry = (disposition: ReplySetEntry["disposition"], value: Record<string, unknown>): ReplySetEntry => ({ at: 0, message: empty, disposition, value, final: false, protocol: String(value.protocol) });

function terminal(reply: Record<string, unknown>, ack?: Record<string, unknown>): ReplySetResult {
  const last = entry("terminal", { protocol: `${NS}.tool.reply`, ...reply });
  const entries = ack ? [entry("ack", { protocol: `${NS}.ack`, ...ack }), last] : [last];
  return { entries, end: { kind: "terminal", entry: last }, gaps: 0, elapsedMs: 1 };
}
const ended = (end: ReplySetResult["end"]): ReplySetResult => ({ entries: [], end, gaps: 0, elapsedMs: 1 });
const capacityText = 'tool "slow" on agent "a" did not run: the agent is already running its maximum of 1 concurrent tool calls';

describe("toolOutcome: a reply set in the terms of §2.4", () => {
  it.each<[string, ReplySetResult, ToolOutcome]>([
    ["exec with no exit code is exit 0", terminal({ output: "ok\n", exec: { command: "stream info -- ORDERS" } }), { kind: "ran", exitCode: 0, output: "ok\n", command: "stream info -- ORDERS", truncated: false }],
    ["a non-zero exit is a result", terminal({ output: "nope\n", exec: { command: "x", exit_code: 1 } }), { kind: "ran", exitCode: 1, output: "nope\n", command: "x", truncated: false }],
    ["a truncated run says so", terminal({ exec: { exit_code: 2, truncated: true } }), { kind: "ran", exitCode: 2, output: "", truncated: true }],
    ["no exec is an in-process tool", terminal({ output: '{"a":1}' }), { kind: "output", output: '{"a":1}' }],
    ["is_error is a harness failure", terminal({ is_error: true, output: 'running command "x": context deadline exceeded' }), { kind: "harness-failure", output: 'running command "x": context deadline exceeded' }],
    ["code capacity is a capacity refusal", terminal({ is_error: true, output: capacityText, code: "capacity" }, { accepted: false, reason: capacityText }), { kind: "capacity", reason: capacityText }],
    ["ack false and not available (Gen 2)", terminal({ is_error: true, output: 'tool "nope" is not available' }, { accepted: false, reason: 'tool "nope" is not available' }), { kind: "not-available", reason: 'tool "nope" is not available' }],
    ["not available in a single reply (Gen 1)", terminal({ is_error: true, output: 'tool "nope" is not available' }), { kind: "not-available", reason: 'tool "nope" is not available' }],
    ["another code stays a harness failure with its code", terminal({ is_error: true, output: "x", code: "draining" }), { kind: "harness-failure", output: "x", code: "draining" }],
    ["a micro error", ended({ kind: "refused", code: "400", description: "request exceeds 786432 bytes" }), { kind: "refused", code: "400", description: "request exceeds 786432 bytes" }],
    ["503", ended({ kind: "no-responders" }), { kind: "no-such-agent" }],
    ["idle", ended({ kind: "idle-timeout", idleMs: 30_000 }), { kind: "idle-timeout", idleMs: 30_000 }],
    ["a protocol error", ended({ kind: "protocol-error", message: "a second ack" }), { kind: "protocol-error", message: "a second ack" }],
    ["cancelled", ended({ kind: "cancelled" }), { kind: "cancelled" }],
    ["not sent", ended({ kind: "send-failed", message: "closed" }), { kind: "send-failed", message: "closed" }],
  ])("%s", (_name, set, outcome) => {
    expect(toolOutcome(set)).toEqual(outcome);
  });

  it("keeps how a silent set was found gone", () => {
    const via = { subject: "$SRV.PING.a", silentMs: 1500 };
    expect(toolOutcome(ended({ kind: "no-responders", via }))).toEqual({ kind: "no-such-agent", via });
  });

  it("calls a set that ends on the final header without a tool.reply a protocol error", () => {
    const last = entry("event", { protocol: `${NS}.event.status` });
    const o = toolOutcome({ entries: [last], end: { kind: "final-without-terminal", entry: last }, gaps: 0, elapsedMs: 1 });
    expect(o).toEqual({ kind: "protocol-error", message: `the set ended (final header on ${NS}.event.status) without a tool.reply` });
  });
});
