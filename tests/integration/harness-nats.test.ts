/**
 * The harness's NATS executor against a real nats-server: plain requests to a responder of the
 * test's own, fisk-ai tool calls to Patchbay's served agent (the demo toolkit) and tasks to the
 * wire-level fisk-ai test peer. Frames are the request and every reply as they crossed, each
 * fisk-ai reply judged by the validation engine; a token-protected server checks the target's token.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { nodeExecutors } from "../../server/harness/node-executors.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";
import type { NatsAction, NatsTargetSpec } from "../../src/core/harness/collection-types.ts";
import type { ResolvedStep, StepExecutor, StepFrame } from "../../src/core/harness/run-types.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import type { FiskServer } from "../../src/core/serving/fisk/index.ts";
import { startFiskPeer, type FiskPeer, type TaskScript } from "../helpers/fisk-peer/index.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const TOKEN = "tok-harness-51c2";
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const SCRIPTS: Record<string, TaskScript> = {
  answer: { steps: [{ kind: "event", event: "text", block: { text: "Thinking." } }], end: { kind: "result", text: "There are 2 streams." } },
  broken: { end: { kind: "error", error: "the model is unavailable", code: "upstream" } },
  hold: { steps: [{ kind: "until-cancel" }] },
};

let port: NatsPort;
let agent: FiskServer;
let worker: FiskPeer;
let busy: FiskPeer;
let guarded: ManagedNats;
let executor: StepExecutor;
const subjects = { json: tag("harness.json"), text: tag("harness.text"), silent: tag("harness.silent"), late: tag("harness.late") };

beforeAll(async () => {
  port = await tcpConnector().connect({ servers: natsUrl, name: "harness-nats-test" });
  // The timeout and stop test leaves two slow calls running (5 s each): room for both and the
  // next test's own call, in whatever order the tests run.
  agent = await startDemoAgent(port, tag("demo"), { concurrency: 4 });
  worker = await startFiskPeer(natsUrl, { identity: tag("harness-worker"), taskWorkers: 2, task: (req) => SCRIPTS[String(req.prompt)] ?? {} });
  busy = await startFiskPeer(natsUrl, { identity: tag("harness-busy"), task: { refuse: { reason: "all workers busy", code: "capacity" } } });
  port.subscribe(subjects.json, (m) => m.reply && port.publish(m.reply, new TextEncoder().encode(JSON.stringify({ echoed: new TextDecoder().decode(m.data) }))));
  port.subscribe(subjects.text, (m) => m.reply && port.publish(m.reply, new TextEncoder().encode("plain words")));
  port.subscribe(subjects.silent, () => undefined);
  port.subscribe(subjects.late, (m) => m.reply && setTimeout(() => port.publish(m.reply!, new TextEncoder().encode("late but there")), 150));
  await port.flush();
  const started = await startNatsServer({ extraConfig: `authorization { token: "${TOKEN}" }` });
  if (!started.ok) throw new Error(started.message);
  guarded = started.server;
  executor = nodeExecutors().nats!;
}, 30_000);
afterAll(async () => {
  await executor?.close();
  await Promise.all([agent?.stop(), worker?.stop(), busy?.stop()]);
  await port?.close();
  await guarded?.stop();
});

const target = (): NatsTargetSpec => ({ protocol: "nats", server: natsUrl });
function step(action: NatsAction, timeoutMs = 15_000, spec: NatsTargetSpec = target(), targetName = "bus"): ResolvedStep {
  return { index: 0, name: action.kind, targetName, target: spec, action, timeoutMs };
}
const run = (s: ResolvedStep, signal = new AbortController().signal) => executor.run(s, { signal });
const tool = (identity: string, name: string, input: Record<string, unknown> | null = null): NatsAction => ({ protocol: "nats", kind: "tool", identity, tool: name, input });
const request = (subject: string, payload: string): NatsAction => ({ protocol: "nats", kind: "request", subject, payload });
const received = (frames: readonly StepFrame[]) => frames.filter((f) => f.direction === "received");

describe("plain NATS requests", () => {
  it("a reply is a result: its JSON payload as the body, the request and reply verbatim", async () => {
    const obs = await run(step(request(subjects.json, "ping 1")));
    expect(obs.outcome.kind).toBe("result");
    expect(obs.body).toEqual({ echoed: "ping 1" });
    expect(obs.frames.map((f) => [f.direction, f.text])).toEqual([
      ["sent", "ping 1"],
      ["received", '{"echoed":"ping 1"}'],
    ]);
    expect(obs.frames[0]!.channel).toBe(subjects.json);
    expect(obs.stream).toBeUndefined();
  });

  it("a reply that is not JSON is its text", async () => {
    const obs = await run(step(request(subjects.text, "{}")));
    expect([obs.outcome.kind, obs.body]).toEqual(["result", "plain words"]);
  });

  it("a subject nobody serves is no responders; one that never replies is a timeout within the step's limit", async () => {
    const none = await run(step(request(tag("nobody.here"), "x")));
    expect(none.outcome.kind).toBe("no-responders");
    const started = performance.now();
    const silent = await run(step(request(subjects.silent, "x"), 300));
    expect(silent.outcome.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2_000);
    // The request is given up with its step, so the step shows how it ended, and the next step,
    // waiting for its own reply, shows only its own two frames.
    expect(silent.frames.map((f) => [f.direction, f.channel, f.text])).toEqual([
      ["sent", subjects.silent, "x"],
      ["received", subjects.silent, ""],
    ]);
    const next = await run(step(request(subjects.late, "y")));
    expect(next.frames.map((f) => [f.direction, f.channel?.startsWith("_INBOX.") ? "inbox" : f.channel, f.text])).toEqual([
      ["sent", subjects.late, "y"],
      ["received", "inbox", "late but there"],
    ]);
  });
  it("a stopped request is cancelled at once, its step showing how the request ended", async () => {
    // The connection is opened first, so the stop lands while the request waits.
    expect((await run(step(request(subjects.json, "open")))).outcome.kind).toBe("result");
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const started = performance.now();
    const stopped = await run(step(request(subjects.silent, "z")), stop.signal);
    expect(stopped.outcome.kind).toBe("cancelled");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(stopped.frames.map((f) => [f.direction, f.channel, f.text])).toEqual([
      ["sent", subjects.silent, "z"],
      ["received", subjects.silent, ""],
    ]);
  });
});

describe("fisk-ai tool calls to the served agent", () => {
  it("echo is a result: the final tool.reply as the body, ack then reply as the stream, every reply valid fisk-ai", async () => {
    const obs = await run(step(tool(agent.identity, "echo", { message: "over the harness" })));
    expect(obs.outcome).toMatchObject({ kind: "result", message: expect.stringMatching(/^success/) });
    expect(obs.body).toMatchObject({ protocol: `${NS}.tool.reply`, output: "over the harness" });
    expect(obs.stream).toEqual({ kinds: ["ack", "tool.reply"], final: true });
    const [sent] = obs.frames.filter((f) => f.direction === "sent");
    expect(sent!.channel).toBe(`choria.fisk-ai.tool.${agent.identity}`);
    expect(JSON.parse(sent!.text)).toMatchObject({ protocol: `${NS}.tool.request`, name: "echo", input: { message: "over the harness" } });
    const replies = received(obs.frames).filter((f) => f.text !== "");
    expect(replies.map((f) => (JSON.parse(f.text) as { protocol: string }).protocol)).toEqual([`${NS}.ack`, `${NS}.tool.reply`]);
    expect(JSON.parse(replies[1]!.text)).toEqual(obs.body);
    expect(replies.every((f) => f.validity?.valid === true && f.validity.kind !== undefined)).toBe(true);
  });

  it("a command that exits 3 is exit-code 3; exit 0 is a result", async () => {
    const three = await run(step(tool(agent.identity, "fail", { exit_code: 3, output: "boom\n" })));
    expect(three.outcome).toMatchObject({ kind: "exit-code", code: 3, message: expect.stringMatching(/^exit code 3/) });
    expect(three.body).toMatchObject({ output: "boom\n", exec: { exit_code: 3 } });
    const zero = await run(step(tool(agent.identity, "fail", { exit_code: 0 })));
    expect(zero.outcome.kind).toBe("result");
  });

  it("is_error is is-error; a tool the agent does not serve is not-available; an identity nobody serves is no-responders", async () => {
    const harness = await run(step(tool(agent.identity, "echo", {})));
    expect(harness.outcome).toMatchObject({ kind: "is-error", message: expect.stringContaining('"message" must be a string') });
    const missing = await run(step(tool(agent.identity, "no-such-tool", { action: "x" })));
    expect(missing.outcome.kind).toBe("not-available");
    const nobody = await run(step(tool(tag("nobody"), "echo", { message: "x" })));
    expect(nobody.outcome.kind).toBe("no-responders");
    expect(nobody.stream?.final).toBe(false);
  });

  it("a tool slower than the step's limit is a timeout; a stop is cancelled; both promptly", async () => {
    const started = performance.now();
    const slow = await run(step(tool(agent.identity, "slow", { seconds: 5 }), 400));
    expect(slow.outcome.kind).toBe("timeout");
    expect(slow.stream?.final).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("the run was stopped")), 200);
    const stopped = await run(step(tool(agent.identity, "slow", { seconds: 5 })), stop.signal);
    expect(stopped.outcome.kind).toBe("cancelled");
  });
});

describe("fisk-ai tasks to the test peer", () => {
  it("a result is a result: ack, events and the result as the stream, the result as the body, the prompt as the peer received it", async () => {
    const obs = await run(step({ protocol: "nats", kind: "task", identity: worker.identity, text: "answer" }));
    expect(obs.outcome.kind).toBe("result");
    expect(obs.body).toMatchObject({ protocol: `${NS}.result`, text: "There are 2 streams." });
    expect(obs.stream).toEqual({ kinds: ["ack", "event.text", "result"], final: true });
    const sent = obs.frames.find((f) => f.direction === "sent")!;
    expect(worker.received.map((r) => r.text)).toContain(sent.text);
    expect(JSON.parse(sent.text)).toMatchObject({ protocol: `${NS}.request.prompt`, prompt: "answer" });
    // The ack's conversation token is a credential: the report never holds it (it was judged as it crossed).
    const ack = received(obs.frames).find((f) => f.text.includes(`${NS}.ack`))!;
    expect((JSON.parse(ack.text) as { conversation_token?: string }).conversation_token).toBe("•••");
    expect(received(obs.frames).every((f) => f.validity?.valid === true)).toBe(true);
  });

  it("an error is the task's state by its code; a refusal for capacity is capacity-refusal", async () => {
    const broken = await run(step({ protocol: "nats", kind: "task", identity: worker.identity, text: "broken" }));
    expect(broken.outcome).toMatchObject({ kind: "task-state", state: "upstream", message: expect.stringContaining("the model is unavailable") });
    const full = await run(step({ protocol: "nats", kind: "task", identity: busy.identity, text: "anything" }));
    expect(full.outcome.kind).toBe("capacity-refusal");
  });

  it("a task past the step's limit is a timeout, and the agent is told to cancel it", async () => {
    const started = performance.now();
    const held = await run(step({ protocol: "nats", kind: "task", identity: worker.identity, text: "hold" }, 500));
    expect(held.outcome.kind).toBe("timeout");
    // Cut short, the body is the last message heard (the ack, or the end after the cancel): the token is in neither it nor a frame.
    const request = (JSON.parse(held.frames.find((f) => f.direction === "sent")!.text) as { request: string }).request;
    const ack = worker.sent.filter((r) => r.kind === "fisk-ai").map((r) => JSON.parse(r.text) as Record<string, unknown>).find((m) => m.protocol === `${NS}.ack` && m.request === request)!;
    const token = String(ack.conversation_token);
    expect(token.length).toBeGreaterThan(8);
    expect(JSON.stringify(held.body)).not.toContain(token);
    expect(held.frames.some((f) => f.text.includes(token))).toBe(false);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(worker.received.some((r) => r.kind === "cancel")).toBe(true);
  });
});

describe("NATS connections", () => {
  it("the target's token authenticates; without it the server's refusal is a transport error", async () => {
    const withToken = await run(step(request(tag("nobody.guarded"), "x"), 5_000, { protocol: "nats", server: guarded.url, token: TOKEN }, "guarded"));
    expect(withToken.outcome.kind).toBe("no-responders");
    const without = await run(step(request(tag("nobody.guarded"), "x"), 5_000, { protocol: "nats", server: guarded.url }, "unguarded"));
    expect(without.outcome.kind).toBe("transport-error");
    expect(without.outcome.message).toMatch(/authorization/i);
    expect(without.outcome.message).not.toContain(TOKEN);
  });

  it("an identity that cannot be a subject is refused before anything is sent, naming it", async () => {
    const obs = await run(step(tool("a.b", "echo", { message: "x" })));
    expect(obs.outcome.kind).toBe("transport-error");
    expect(obs.outcome.message).toMatch(/identity "a\.b" is not valid/);
    expect(obs.frames).toEqual([]);
  });

  it("a server URL that is not one, and a server nobody listens on, are transport errors at once", async () => {
    const bad = await run(step(request("x", "x"), 10_000, { protocol: "nats", server: "http://127.0.0.1:4222 nonsense" }, "bad-url"));
    expect(bad.outcome.kind).toBe("transport-error");
    expect(bad.outcome.message).toMatch(/could not connect/);
  });

  it("a server nobody listens on is a transport error at once", async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const obs = await run(step(request("x", "x"), 10_000, { protocol: "nats", server: url }, "dead"));
    expect(obs.outcome.kind).toBe("transport-error");
    expect(obs.outcome.message).toContain(`could not connect to ${url}`);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
