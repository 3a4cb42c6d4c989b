import { describe, expect, it } from "vitest";
import type { ToolCallResult } from "../../../core/a2a-nats/client/index.ts";
import { AgentsState } from "./agents-state.svelte.ts";
import { NOT_CONNECTED } from "./fisk-api.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { cardResult, entry, FakeClient, fakeSource, VALID } from "./test-fakes.ts";
import { outcomeTone, ToolCallState } from "./tool-call-state.svelte.ts";

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
    call.idleSeconds = 5;
    await call.send();
    expect(call.error).toBe("the idle timeout must be between 30 and 3600 seconds");
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
    expect(call.outcomeText).toBe("ran with exit code 1");
    expect(call.tone).toBe("warn");
    expect(call.running).toBe(false);
  });

  it("cancel aborts the read; a thrown failure is shown, not lost", async () => {
    const { client, call } = await setup();
    call.choose("alpha", "stream_report");
    call.input = "";
    client.toolResult = (_onEntry, signal) =>
      new Promise((resolve) => signal?.addEventListener("abort", () => resolve(result({ kind: "cancelled" }))));
    const sending = call.send();
    expect(call.running).toBe(true);
    call.cancel();
    await sending;
    expect(call.outcomeText).toBe("cancelled before the reply");
    expect(client.calls.at(-1)?.[3]).toBeNull();
    client.toolResult = () => Promise.reject(new Error("port closed"));
    await call.send();
    expect(call.error).toBe("The call failed before any reply: port closed");
  });

  it("checks the request sent and every message of the set, foreign and empty ones included", async () => {
    const invalid: Verdict = { ...VALID, status: "invalid", issues: [{ pointer: "/request", message: "bad", severity: "error", source: "schema" }] };
    const { client, source, call } = await setup((text) => Promise.resolve(text.includes("other") ? invalid : VALID));
    call.choose("alpha", "stream_report");
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

  it("colours outcomes: a non-zero exit is a result, a refusal is bad", () => {
    expect(outcomeTone(result({ kind: "ran", exitCode: 0, output: "", truncated: false }))).toBe("ok");
    expect(outcomeTone(result({ kind: "capacity", reason: "busy" }))).toBe("warn");
    expect(outcomeTone(result({ kind: "refused", code: "400", description: "bad" }))).toBe("bad");
  });
});
