import { describe, expect, it } from "vitest";
import type { ToolCallResult } from "../../../core/fisk/client/index.ts";
import { AgentsState } from "./agents-state.svelte.ts";
import { NOT_CONNECTED } from "./fisk-api.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { cardResult, entry, FakeClient, fakeSource, VALID } from "./test-fakes.ts";
import { ToolCallState } from "./tool-call-state.svelte.ts";

const SCHEMA = { type: "object", properties: { stream: { type: "string" } }, required: ["stream"] };

async function setup(validate?: (text: string) => Promise<Verdict>) {
  const client = new FakeClient();
  client.discoveries.set("alpha", cardResult("alpha", { tools: [{ name: "stream_report", description: "d", input_schema: SCHEMA }, { name: "other" }] }));
  const source = fakeSource(client, validate);
  const agents = new AgentsState(source);
  await agents.discover("alpha");
  return { client, source, call: new ToolCallState(source, agents) };
}

function result(outcome: ToolCallResult["outcome"], entries = [entry("ack", { sequence: 1 }, "ack")]): ToolCallResult {
  return { subject: "choria.fisk-ai.tool.alpha", request: "req1", requestText: "{}", set: { entries, end: { kind: "cancelled" }, gaps: 0, elapsedMs: 5 }, outcome };
}

describe("ToolCallState", () => {
  it("picks a tool, attaches its schema and starts the input from its required properties", async () => {
    const { call } = await setup();
    call.choose("alpha", "stream_report");
    expect(call.schema).toEqual(SCHEMA);
    expect(JSON.parse(call.input)).toEqual({ stream: "" });
    call.chooseAgent("alpha");
    expect(call.tool).toBe("stream_report");
    call.tool = "other";
    expect(call.schema).toEqual({ type: "object" });
  });

  it("refuses to send without a connection, an agent, a valid input or a sane idle timeout", async () => {
    const { client, source, call } = await setup();
    await call.send();
    expect(call.error).toBe("choose an agent first (discover one in Agents)");
    call.choose("alpha", "stream_report");
    call.input = "[1]";
    await call.send();
    expect(call.error).toBe("the input must be a JSON object (or empty for no input)");
    call.input = "{}";
    call.idleSeconds = 0.5;
    await call.send();
    expect(call.error).toBe("the idle timeout must be between 1 and 3600 seconds");
    source.connected = false;
    await call.send();
    expect(call.error).toBe(NOT_CONNECTED);
    expect(client.calls.filter((c) => c[0] === "callTool")).toEqual([]);
  });

  it("shows entries as they arrive, then the whole set and the outcome in words", async () => {
    const { client, call } = await setup();
    call.choose("alpha", "stream_report");
    call.input = '{"stream":"ORDERS"}';
    let seenLive = 0;
    client.toolResult = (onEntry) => {
      const ack = entry("ack", { sequence: 1 }, "ack");
      onEntry?.(ack);
      seenLive = call.entries.length;
      return Promise.resolve(result({ kind: "ran", exitCode: 1, output: "nope", truncated: false }, [ack, entry("tool.reply", { sequence: 2 }, "terminal", 3, true)]));
    };
    await call.send();
    expect(client.calls.at(-1)).toEqual(["callTool", "alpha", "stream_report", { stream: "ORDERS" }, 120_000]);
    expect(seenLive).toBe(1);
    expect(call.entries).toHaveLength(2);
    expect(call.view?.headline).toBe("exit code 1");
    expect(call.view?.tone).toBe("bad");
    expect(call.running).toBe(false);
  });

  it("cancel aborts the read; a thrown failure is shown, not lost", async () => {
    const { client, call } = await setup();
    call.choose("alpha", "other");
    call.input = "";
    client.toolResult = (_onEntry, signal) =>
      new Promise((resolve) => signal?.addEventListener("abort", () => resolve(result({ kind: "cancelled" }))));
    const sending = call.send();
    expect(call.running).toBe(true);
    call.cancel();
    await sending;
    expect(call.view).toMatchObject({ headline: "cancelled (no reply)", tone: "warn" });
    expect(client.calls.at(-1)?.[3]).toBeNull();
    client.toolResult = () => Promise.reject(new Error("port closed"));
    await call.send();
    expect(call.error).toBe("The call failed before any reply: port closed");
  });

  it("checks the request sent and every message of the set, foreign and empty ones included", async () => {
    const invalid: Verdict = { ...VALID, status: "invalid", issues: [{ pointer: "/request", message: "bad", severity: "error", source: "schema" }] };
    const { client, source, call } = await setup((text) => Promise.resolve(text.includes("other") ? invalid : VALID));
    call.choose("alpha", "other");
    call.input = '{"stream":"ORDERS"}';
    const ack = entry("ack", { sequence: 1 }, "ack");
    const foreign = entry("tool.reply", { request: "other" }, "foreign");
    const refusal = { ...entry("x", {}, "refusal"), message: { subject: "_INBOX.a", data: new Uint8Array() } };
    client.toolResult = (onEntry) => {
      onEntry?.(ack);
      return Promise.resolve({ ...result({ kind: "cancelled" }, [ack, foreign, refusal]), requestText: '{"protocol":"io.choria.fisk-ai.v1.tool.request"}' });
    };
    const before = source.checked.length;
    await call.send();
    await new Promise((r) => setTimeout(r, 0));
    expect(source.checked.slice(before)).toEqual([new TextDecoder().decode(ack.message.data), new TextDecoder().decode(foreign.message.data), '{"protocol":"io.choria.fisk-ai.v1.tool.request"}']);
    expect(call.checks.get(ack)).toBe(VALID);
    expect(call.checks.get(foreign)).toBe(invalid);
    expect(call.checks.get(refusal)).toEqual({ skipped: "an empty body: nothing to check" });
    expect(call.requestCheck).toBe(VALID);
    client.toolResult = () => new Promise(() => undefined);
    void call.send();
    expect(call.checks.get(ack)).toBeUndefined();
    expect(call.requestCheck).toBeUndefined();
  });

  it("waits less than fisk-ai's 30 s floor when asked to, and says it is below it", async () => {
    const { client, call } = await setup();
    call.choose("alpha", "other");
    call.idleSeconds = 2;
    expect(call.shortIdle).toBe(true);
    client.toolResult = () => Promise.resolve(result({ kind: "idle-timeout", idleMs: 2000 }));
    await call.send();
    expect(client.calls.at(-1)).toEqual(["callTool", "alpha", "other", {}, 2000]);
    expect(call.view?.headline).toBe("idle timeout: nothing for 2 s");
  });

  it("marks a result stale, and hides a problem, once the tool, the agent or the input changes", async () => {
    const { client, call } = await setup();
    call.choose("alpha", "other");
    call.input = '{"a":1}';
    client.toolResult = () => Promise.resolve(result({ kind: "harness-failure", output: "bad input" }));
    await call.send();
    expect(call.view?.headline).toBe("is_error: the tool did not run cleanly");
    expect(call.stale).toBeNull();
    call.choose("alpha", "stream_report");
    expect(call.stale).toBe("the tool is now stream_report; this result is from other");
    call.choose("alpha", "other");
    call.input = '{"a":1}';
    expect(call.stale).toBeNull();
    call.input = '{"a":';
    await call.send();
    expect(call.shownError).toMatch(/^the input is not valid JSON/);
    expect(call.stale).toBe("the input has changed since this call");
    call.input = '{"a":2}';
    expect(call.shownError).toBeNull();
  });

  it("warns before sending an input that fails the tool's schema; Send anyway sends it as typed", async () => {
    const { client, source, call } = await setup();
    call.choose("alpha", "stream_report");
    call.input = '{"stream": 3}';
    source.inputIssues = [{ pointer: "/stream", message: "must be string", severity: "error", source: "tool-schema" }];
    client.toolResult = () => Promise.resolve(result({ kind: "output", output: "ok" }));
    await call.send();
    expect(source.inputs).toEqual([{ stream: 3 }]);
    expect(call.shownSchemaIssues.map((i) => i.pointer)).toEqual(["/stream"]);
    expect(client.calls.filter((c) => c[0] === "callTool")).toEqual([]);
    call.input = '{"stream": 4}';
    expect(call.shownSchemaIssues).toEqual([]);
    call.input = '{"stream": 3}';
    await call.sendAnyway();
    expect(client.calls.at(-1)).toEqual(["callTool", "alpha", "stream_report", { stream: 3 }, 120_000]);
    expect(call.view?.headline).toBe("success: the tool ran in process");
    source.inputIssues = [];
    call.input = '{"stream": "ORDERS"}';
    await call.send();
    expect(client.calls.at(-1)?.[3]).toEqual({ stream: "ORDERS" });
  });

  it("a call that finds no responders marks the agent gone until it is rediscovered", async () => {
    const { client, call } = await setup();
    call.choose("alpha", "other");
    client.toolResult = () => Promise.resolve(result({ kind: "no-such-agent", via: { subject: "$SRV.PING.alpha", silentMs: 1500 } }));
    await call.send();
    expect(call.gone).toBe("a tool call got no responders ($SRV.PING.alpha)");
    expect(call.agents.gone.alpha?.reason).toBe("a tool call got no responders ($SRV.PING.alpha)");
    await call.agents.discover("alpha");
    expect(call.gone).toBeNull();
  });
});
