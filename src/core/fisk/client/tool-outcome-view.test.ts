import { describe, expect, it } from "vitest";
import type { NatsMessage } from "../../nats/port.ts";
import type { ReplySetEntry, ReplySetResult } from "./reply-set.ts";
import { toolOutcome } from "./tool-outcome.ts";
import { viewToolOutcome, type OutcomeView } from "./tool-outcome-view.ts";

const NS = "io.choria.fisk-ai.v1";
const empty: NatsMessage = { subject: "_INBOX.x", data: new Uint8Array(0) };
const entry = (disposition: ReplySetEntry["disposition"], value: Record<string, unknown>, at = 1): ReplySetEntry => ({
  at,
  message: empty,
  disposition,
  value,
  final: false,
  protocol: String(value.protocol),
  ...(typeof value.sequence === "number" ? { sequence: value.sequence } : {}),
});
const ack = (fields: Record<string, unknown>) => entry("ack", { protocol: `${NS}.ack`, sequence: 1, ...fields }, 3);

function terminal(reply: Record<string, unknown>, first = ack({ accepted: true })): ReplySetResult {
  const last = entry("terminal", { protocol: `${NS}.tool.reply`, sequence: 2, ...reply }, 9);
  return { entries: [first, last], end: { kind: "terminal", entry: last }, gaps: 0, elapsedMs: 10 };
}
const ended = (end: ReplySetResult["end"], entries: ReplySetEntry[] = [], elapsedMs = 10): ReplySetResult => ({ entries, end, gaps: 0, elapsedMs });
const view = (set: ReplySetResult): OutcomeView => viewToolOutcome(set, toolOutcome(set));
const capacity = 'tool "slow" on agent "a" did not run: the agent is already running its maximum of 1 concurrent tool calls';

describe("viewToolOutcome: one headline, colour and evidence per outcome", () => {
  it("exit code 0 is a success, with the exit code field as evidence", () => {
    expect(view(terminal({ output: "ok\n", exec: { command: "fail 0" } }))).toEqual({
      tone: "ok",
      headline: "success: exit code 0",
      detail: 'the command "fail 0" ran and exited 0 (exec.exit_code absent means 0)',
      evidence: [
        { message: "tool.reply #2", field: "exec.exit_code", value: "absent" },
        { message: "tool.reply #2", field: "exec.command", value: '"fail 0"' },
      ],
    });
  });

  it("a non-zero exit is red and names the code, never a success", () => {
    const v = view(terminal({ output: "exiting with 3\n", exec: { command: "fail 3", exit_code: 3 } }));
    expect(v.tone).toBe("bad");
    expect(v.headline).toBe("exit code 3");
    expect(v.evidence).toContainEqual({ message: "tool.reply #2", field: "exec.exit_code", value: "3" });
    expect(v.evidence).toContainEqual({ message: "tool.reply #2", field: "is_error", value: "absent" });
    expect(view(terminal({ exec: { exit_code: 2, truncated: true } })).headline).toBe("exit code 2 (output truncated)");
  });

  it("an in-process answer is a success that says there was no exec", () => {
    const v = view(terminal({ output: "hello" }));
    expect(v).toMatchObject({ tone: "ok", headline: "success: the tool ran in process" });
    expect(v.evidence).toEqual([
      { message: "tool.reply #2", field: "exec", value: "absent" },
      { message: "tool.reply #2", field: "is_error", value: "absent" },
    ]);
  });

  it("is_error is the tool's failure, with its output", () => {
    const v = view(terminal({ is_error: true, output: '"message" must be a string' }));
    expect(v).toMatchObject({ tone: "bad", headline: "is_error: the tool did not run cleanly", detail: '"message" must be a string' });
    expect(v.evidence[0]).toEqual({ message: "tool.reply #2", field: "is_error", value: "true" });
    expect(view(terminal({ is_error: true, output: "x", code: "draining" })).headline).toBe("is_error: the tool did not run cleanly (code draining)");
  });

  it("capacity is a refusal, amber: nothing ran", () => {
    const v = view(terminal({ is_error: true, output: capacity, code: "capacity" }, ack({ accepted: false, reason: capacity })));
    expect(v).toMatchObject({ tone: "warn", headline: "refused: the agent is at capacity" });
    expect(v.evidence).toEqual([
      { message: "ack #1", field: "accepted", value: "false" },
      { message: "tool.reply #2", field: "code", value: '"capacity"' },
    ]);
  });

  it("not available names the ack that refused", () => {
    const reason = 'tool "gone" is not available';
    const v = view(terminal({ is_error: true, output: reason }, ack({ accepted: false, reason })));
    expect(v).toMatchObject({ tone: "bad", headline: "not available: the agent does not serve this tool", detail: reason });
    expect(v.evidence).toEqual([
      { message: "ack #1", field: "accepted", value: "false" },
      { message: "ack #1", field: "reason", value: JSON.stringify(reason) },
    ]);
  });

  it.each(["400", "500"])("micro %s names the headers it came in", (code) => {
    const v = view(ended({ kind: "refused", code, description: "invalid request: /input: must be object" }));
    expect(v).toMatchObject({ tone: "bad", headline: `refused with micro error ${code}` });
    expect(v.detail).toContain("invalid request: /input: must be object");
    expect(v.evidence).toEqual([
      { message: "empty-bodied reply", field: "Nats-Service-Error-Code", value: code },
      { message: "empty-bodied reply", field: "Nats-Service-Error", value: '"invalid request: /input: must be object"' },
    ]);
  });

  it("no responders, from NATS at once or from the agent's micro PING after silence", () => {
    expect(view(ended({ kind: "no-responders" }))).toMatchObject({ tone: "bad", headline: "no responders (503): nothing serves this subject", evidence: [{ field: "NATS status", value: "503" }] });
    const v = view(ended({ kind: "no-responders", via: { subject: "$SRV.PING.demo", silentMs: 1500 } }, [], 1600));
    expect(v).toMatchObject({ tone: "bad", headline: "no responders: the agent is not running" });
    expect(v.detail).toContain("nothing answered for 1.5 s, and nothing serves $SRV.PING.demo");
    expect(v.evidence).toEqual([
      { message: "reply set", field: "messages", value: "none in 1.6 s" },
      { message: "reply to $SRV.PING.demo", field: "NATS status", value: "503" },
    ]);
  });

  it("an idle timeout says how long and what came last", () => {
    const v = view(ended({ kind: "idle-timeout", idleMs: 2000 }, [ack({ accepted: true })], 2003));
    expect(v).toMatchObject({ tone: "bad", headline: "idle timeout: nothing for 2 s" });
    expect(v.evidence).toEqual([{ message: "ack #1", field: "arrived", value: "3 ms after sending, the last of 1" }]);
  });

  it("cancelled is amber and never a success, whether or not the ack came", () => {
    const none = view(ended({ kind: "cancelled" }));
    expect(none).toMatchObject({ tone: "warn", headline: "cancelled (no reply)", evidence: [{ message: "reply set", field: "messages", value: "none in 10 ms" }] });
    const acked = view(ended({ kind: "cancelled" }, [ack({ accepted: true })]));
    expect(acked.headline).toBe("cancelled (no reply)");
    expect(acked.evidence[0]?.message).toBe("ack #1");
  });

  it("a protocol error and a send that failed are red", () => {
    expect(view(ended({ kind: "protocol-error", message: "a second ack" }))).toMatchObject({ tone: "bad", headline: "protocol error", detail: "a second ack" });
    expect(view(ended({ kind: "send-failed", message: "closed" }))).toMatchObject({ tone: "bad", headline: "not sent", detail: "closed" });
  });

  it("keeps the detail to one line of at most 200 characters", () => {
    expect(view(terminal({ is_error: true, output: "first\nsecond" })).detail).toBe("first");
    expect(view(terminal({ is_error: true, output: "x".repeat(300) })).detail).toHaveLength(200);
  });
});
