import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../core/packs/index.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { A2aState } from "./a2a-state.svelte.ts";
import { checkWords, summaryWords } from "./frame-check-words.ts";
import { FrameChecks, MAX_IN_FLIGHT, MAX_WAITING, REQUEST_KEY, type Validate } from "./frame-checks.svelte.ts";
import { FakeAgent, fakeDeps, json, rpc, sse } from "./test-fakes.ts";

// The same engine the Validate workbench's worker runs, called in-process.
const engine = createValidationEngine();
const realValidate: Validate = async (text, override) => engine.session().validateText(text, override);

const BASE = "http://agent.test";
const cardV02 = { name: "n", description: "d", url: `${BASE}/`, version: "1", capabilities: { streaming: true }, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [], securitySchemes: {} };
const cardV10 = (binding: string) => ({ name: "n", description: "d", version: "1", capabilities: { streaming: true }, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [], supportedInterfaces: [{ url: `${BASE}/a2a`, protocolBinding: binding, protocolVersion: "1.0" }] });
const cardV03Rest = { ...cardV02, protocolVersion: "0.3.0", preferredTransport: "HTTP+JSON", url: `${BASE}/rest` };
type Body = { id: unknown; method: string };
const rpcBody = (result: unknown) => ({ jsonrpc: "2.0", id: 1, result });

async function open(agent: FakeAgent, card: object) {
  agent.on((s) => s.method === "GET" && s.url.includes("/.well-known/"), () => json(card));
  const { deps } = fakeDeps(agent);
  const a2a = new A2aState({ ...deps, validate: realValidate });
  a2a.card.url = BASE;
  await a2a.card.fetch();
  return a2a;
}

/** Waits until no frame is with the engine. */
async function settled(checks: FrameChecks): Promise<void> {
  for (let i = 0; i < 100 && checks.counts.checking > 0; i++) await new Promise((r) => setTimeout(r, 0));
  expect(checks.counts.checking).toBe(0);
}

const texts = (a2a: A2aState) => a2a.compose.live!.frames.map((_, i) => checkWords(a2a.compose.live!.checks.get(i))?.text ?? "");

describe("frame verdicts from the validation engine", () => {
  it("a v0.2 stream: each frame judged by its stream kind; a wrong state is invalid with its pointer, never valid", async () => {
    const agent = new FakeAgent().on((_, b) => (b as Body | undefined)?.method === "message/stream", (_, b) => {
      const id = (b as Body).id;
      return sse([
        rpc(id, { kind: "task", id: "t1", contextId: "c1", status: { state: "submitted" } }),
        rpc(id, { kind: "status-update", taskId: "t1", contextId: "c1", status: { state: "done" }, final: false }),
        rpc(id, { kind: "status-update", taskId: "t1", contextId: "c1", status: { state: "completed" }, final: true }),
      ]);
    });
    const a2a = await open(agent, cardV02);
    a2a.compose.operation = "stream";
    await a2a.compose.send();
    const live = a2a.compose.live!;
    await settled(live.checks);
    expect(checkWords(live.checks.get(REQUEST_KEY))?.text).toBe("valid · A2A v0.2.x message/stream request");
    const [first, wrong, last] = texts(a2a);
    expect(first).toBe("valid · A2A v0.2.x stream event: Task or Message (message/stream, tasks/resubscribe)");
    expect(wrong).toMatch(/^invalid · A2A v0\.2\.x stream status-update \(message\/stream, tasks\/resubscribe\) · \/result\/status\/state: /);
    expect(checkWords(live.checks.get(1))?.tone).toBe("bad");
    expect(last).toMatch(/^valid · /);
    expect(summaryWords(live.checks.counts, live.reading.dialect)).toEqual({ text: "4 frames checked against A2A v0.2.x: 3 valid, 1 invalid.", tone: "bad" });
  });

  it("a v1.0 JSON-RPC stream with a state outside the enum, and an error response counted as a valid frame, its warning shown", async () => {
    const agent = new FakeAgent()
      .on((_, b) => (b as Body | undefined)?.method === "SendStreamingMessage", (_, b) =>
        sse([
          rpc((b as Body).id, { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_SUBMITTED" } } }),
          rpc((b as Body).id, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_DONE" } } }),
        ]),
      )
      .on((_, b) => (b as Body | undefined)?.method === "GetTask", (_, b) => json({ jsonrpc: "2.0", id: (b as Body).id, error: { code: -32001, message: "Task not found" } }));
    const a2a = await open(agent, cardV10("JSONRPC"));
    a2a.compose.operation = "stream";
    await a2a.compose.send();
    await settled(a2a.compose.live!.checks);
    const [task, wrong] = texts(a2a);
    expect(task).toBe("valid · A2A v1.0 StreamResponse event (SendStreamingMessage, SubscribeToTask)");
    expect(wrong).toMatch(/^invalid · A2A v1\.0 StreamResponse event .* · \/result\/statusUpdate\/status\/state: /);

    a2a.compose.operation = "get";
    a2a.compose.taskId = "t9";
    await a2a.compose.send();
    const live = a2a.compose.live!;
    await settled(live.checks);
    // The v1.0 rule wants an ErrorInfo in error.data: a warning, shown with the valid verdict.
    expect(texts(a2a)).toEqual([expect.stringMatching(/^valid · A2A v1\.0 error response · warning \/error: .*ErrorInfo/)]);
    expect(checkWords(live.checks.get(0))?.tone).toBe("warn");
    expect(summaryWords(live.checks.counts, "1.0")?.text).toBe("2 frames checked against A2A v1.0: 2 valid (1 of them an error response).");
  });

  it("REST: a v1.0 stream is judged as StreamResponse; v0.3's proto JSON is plainly not checked", async () => {
    const agent = new FakeAgent()
      .on((s) => s.url.endsWith("/a2a/message:stream"), () => sse([{ task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_SUBMITTED" } } }, { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "working" } } }]))
      .on((s) => s.url.endsWith("/rest/v1/message:send"), () => json({ task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } }));
    const v10 = await open(agent, cardV10("HTTP+JSON"));
    v10.compose.operation = "stream";
    await v10.compose.send();
    await settled(v10.compose.live!.checks);
    expect(checkWords(v10.compose.live!.checks.get(REQUEST_KEY))?.text).toBe("not checked: no schema kind for the A2A v1.0 HTTP+JSON SendMessageRequest body");
    const [first, lower] = texts(v10);
    expect(first).toBe("valid · A2A v1.0 StreamResponse (REST stream or push notification body)");
    // v0.x spelling in a v1.0 stream.
    expect(lower).toMatch(/^invalid · A2A v1\.0 StreamResponse .* · \/statusUpdate\/status\/state: /);

    const v03 = await open(new FakeAgent().on((s) => s.url.endsWith("/rest/v1/message:send"), () => json({ task: { id: "t1", status: { state: "TASK_STATE_COMPLETED" } } })), cardV03Rest);
    await v03.compose.send();
    const live = v03.compose.live!;
    await settled(live.checks);
    expect(texts(v03)).toEqual(["not checked: no schema for A2A v0.3 HTTP+JSON bodies (proto JSON); the v0.3 pack has the JSON-RPC shapes only"]);
    expect(live.checks.counts).toMatchObject({ valid: 0, invalid: 0, notChecked: 2 });
    expect(summaryWords(live.checks.counts, "0.3")).toEqual({ text: "0 frames checked against A2A v0.3: 0 valid; 2 frames not checked.", tone: "muted" });
  });

  it("frames are shown before their verdicts, a few at a time with the worker, and a flood beyond the queue is counted, not checked", async () => {
    const waiting: ((v: Verdict) => void)[] = [];
    const checks = new FrameChecks(() => new Promise<Verdict>((resolve) => waiting.push(resolve)));
    const plan = { check: true as const };
    for (let i = 0; i < MAX_IN_FLIGHT + MAX_WAITING + 1; i++) checks.add(i, "{}", plan);
    expect(checks.get(0)).toEqual({ state: "checking" });
    expect(waiting).toHaveLength(MAX_IN_FLIGHT);
    expect(checks.get(MAX_IN_FLIGHT + MAX_WAITING)).toEqual({ state: "not-checked", reason: `more than ${MAX_WAITING} frames were waiting for the validator` });
    const verdict = engine.session().validateText('{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x"}}', { packId: "a2a/v0.3.0", kindId: "error" });
    waiting[0]!(verdict);
    await Promise.resolve();
    await Promise.resolve();
    expect(checkWords(checks.get(0))?.text).toBe("valid · A2A v0.3.0 error response");
    // One answered, one more sent.
    expect(waiting).toHaveLength(MAX_IN_FLIGHT + 1);
    expect(checks.counts).toMatchObject({ errorResponses: 1, checking: MAX_IN_FLIGHT + MAX_WAITING - 1, notChecked: 1 });
  });

  it("an invalid frame names its first problem and counts the rest", async () => {
    const checks = new FrameChecks(realValidate);
    const text = JSON.stringify(rpcBody({ kind: "status-update", taskId: 5, contextId: "c1", status: { state: "done" } }));
    checks.add(0, text, { check: true, override: { packId: "a2a/v0.3.0", kindId: "stream:status-update" } });
    await settled(checks);
    const words = checkWords(checks.get(0))!;
    expect(words.tone).toBe("bad");
    expect(words.text).toMatch(/^invalid · A2A v0\.3\.0 stream status-update \(message\/stream, tasks\/resubscribe\) · \/result(\/\w+)*: .*; [1-9]\d* more problems?$/);
  });

  it("a validator that fails leaves the frame not checked, with the reason", async () => {
    const checks = new FrameChecks(async () => {
      throw new Error("The validation worker stopped");
    });
    checks.add(0, "{}", { check: true });
    await settled(checks);
    expect(checkWords(checks.get(0))).toEqual({ text: "not checked: the validator failed: The validation worker stopped", tone: "muted" });
    expect(checks.counts).toMatchObject({ valid: 0, invalid: 0, notChecked: 1 });
  });
});
