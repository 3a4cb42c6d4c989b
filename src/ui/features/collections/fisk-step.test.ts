import { describe, expect, it } from "vitest";
import { appendStep, DEFAULT_ASSERTIONS, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import { fiskTaskStep, fiskToolStep, unsavedTaskOptions, withBackendNats } from "./fisk-step.ts";
import { natsStepRequest } from "./nats-step.ts";

const MANAGED = { mode: "managed", url: "nats://127.0.0.1:4222", wsUrl: "ws://127.0.0.1:8222" } as const;
const WS = "ws://127.0.0.1:8222";
const call = { identity: "patchbay-demo", tool: " echo ", input: '{"message": "hi"}' };
const task = { identity: " nats-worker ", mode: "prompt", prompt: "say hi", context: "", stream: true, replay: "", force: false, maxTokens: "", maxIterations: "", tokenInput: "" };

describe("fiskToolStep", () => {
  it("saves the chosen agent, tool and input on the managed server's TCP address, with the default assertions", () => {
    const made = fiskToolStep(call, WS, MANAGED);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.action).toEqual({ protocol: "nats", kind: "tool", identity: "patchbay-demo", tool: "echo", input: { message: "hi" } });
    expect(made.request.draft.target).toEqual({ protocol: "nats", server: "nats://127.0.0.1:4222" });
    expect(made.request.draft.name).toBe("echo");
    expect(made.request.notes).toEqual(["saved with the backend's TCP address nats://127.0.0.1:4222"]);
    const saved = appendStep(emptyCollection("c"), made.request.draft);
    expect(saved.steps[0]?.assert).toEqual(DEFAULT_ASSERTIONS);
    expect(parseCollection(saved)).toMatchObject({ ok: true });
  });

  it("shares one target with a plain request saved from the same server", () => {
    const tool = fiskToolStep(call, WS, MANAGED);
    const plain = natsStepRequest({ servers: WS, authMode: "none", subject: "svc.echo", headerRows: [], payload: "", readAll: false }, MANAGED);
    if (!tool.ok || !plain.ok) throw new Error("not made");
    const both = appendStep(appendStep(emptyCollection("c"), tool.request.draft), plain.request.draft);
    expect(Object.keys(both.targets)).toEqual(["nats"]);
    expect(both.steps.map((s) => s.target)).toEqual(["nats", "nats"]);
  });

  it("empty input sends no input at all", () => {
    const made = fiskToolStep({ ...call, input: "  \n" }, WS, MANAGED);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.action).toEqual({ protocol: "nats", kind: "tool", identity: "patchbay-demo", tool: "echo" });
    expect(parseCollection(appendStep(emptyCollection("c"), made.request.draft))).toMatchObject({ ok: true });
  });

  it("refuses what cannot be a step, saying why", () => {
    expect(fiskToolStep({ ...call, identity: "" }, WS, MANAGED)).toEqual({ ok: false, error: "choose an agent first (discover one in Agents)" });
    expect(fiskToolStep({ ...call, identity: "a.b>" }, WS, MANAGED)).toEqual({ ok: false, error: `agent identity "a.b>" is not valid: use letters, digits, '-' and '_' only` });
    expect(fiskToolStep({ ...call, tool: "  " }, WS, MANAGED)).toEqual({ ok: false, error: "choose or type a tool name" });
    expect(fiskToolStep({ ...call, input: "{oops" }, WS, MANAGED)).toMatchObject({ ok: false, error: expect.stringMatching(/^the input is not valid JSON: .* at line 1, column \d+$/) });
    expect(fiskToolStep({ ...call, input: "[1, 2]" }, WS, MANAGED)).toEqual({ ok: false, error: "the input must be a JSON object (or empty for no input)" });
    expect(fiskToolStep({ ...call, input: "[".repeat(100_000) }, WS, MANAGED)).toMatchObject({ ok: false, error: expect.stringMatching(/^the input is not valid JSON/) });
    expect(fiskToolStep(call, undefined, MANAGED)).toEqual({ ok: false, error: "connect to NATS first: the step is saved with the server this console is connected to" });
    expect(fiskToolStep(call, "wss://elsewhere:443", MANAGED)).toMatchObject({ ok: false, error: expect.stringContaining("the TCP address of wss://elsewhere:443 is not known") });
  });

  it("keeps hostile keys as data", () => {
    const made = fiskToolStep({ ...call, input: '{"__proto__": {"polluted": true}, "constructor": 1}' }, WS, MANAGED);
    if (!made.ok) throw new Error(made.error);
    const action = made.request.draft.action;
    expect(action.protocol === "nats" && action.kind === "tool" ? Object.keys(action.input ?? {}) : []).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("says the credentials are not saved when the server is not the backend's own", () => {
    const made = fiskToolStep(call, "ws://n:8080", { mode: "external", url: "nats://n:4222", wsUrl: "ws://n:8080" });
    if (!made.ok) throw new Error(made.error);
    expect(made.request.notes).toEqual(["saved with the backend's TCP address nats://n:4222", "the connection's credentials are not saved: give the target a token if its server needs one"]);
  });
});

describe("fiskTaskStep", () => {
  it("saves a new prompt as a task to the identity typed", () => {
    const made = fiskTaskStep(task, WS, MANAGED);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft).toMatchObject({ name: "task nats-worker", target: { protocol: "nats", server: "nats://127.0.0.1:4222" }, action: { protocol: "nats", kind: "task", identity: "nats-worker", text: "say hi" } });
    expect(parseCollection(appendStep(emptyCollection("c"), made.request.draft))).toMatchObject({ ok: true });
  });

  it("names every option it leaves out", () => {
    const busy = { ...task, context: "ctx", stream: false, replay: "2", force: true, maxTokens: "10", maxIterations: "3", tokenInput: "tok" };
    expect(unsavedTaskOptions(busy)).toEqual(["context", "stream off", "replay", "force", "max tokens", "max iterations", "the conversation token"]);
    const made = fiskTaskStep(busy, WS, MANAGED);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.notes[0]).toBe("the step sends the prompt alone; not saved: context, stream off, replay, force, max tokens, max iterations, the conversation token");
    expect(JSON.stringify(made.request.draft)).not.toContain("tok\"");
  });

  it("refuses resume, read, an empty prompt and a bad identity", () => {
    expect(fiskTaskStep({ ...task, mode: "resume" }, WS, MANAGED)).toEqual({ ok: false, error: "only a new prompt is saved as a step, not resume: continuing a conversation needs its token, which a collection never holds" });
    expect(fiskTaskStep({ ...task, mode: "read" }, WS, MANAGED)).toMatchObject({ ok: false, error: expect.stringContaining("not read") });
    expect(fiskTaskStep({ ...task, prompt: " \n " }, WS, MANAGED)).toEqual({ ok: false, error: "type a prompt" });
    expect(fiskTaskStep({ ...task, identity: "" }, WS, MANAGED)).toEqual({ ok: false, error: "type the agent identity first" });
    expect(fiskTaskStep({ ...task, identity: "x y" }, WS, MANAGED)).toMatchObject({ ok: false, error: expect.stringContaining("is not valid") });
  });
});

describe("withBackendNats", () => {
  it("builds with the backend's status, or without it when the backend does not answer", async () => {
    const up = await withBackendNats(() => Promise.resolve({ nats: MANAGED }), (nats) => fiskToolStep(call, WS, nats));
    expect(up).toMatchObject({ ok: true });
    const down = await withBackendNats(() => Promise.reject(new Error("unreachable")), (nats) => fiskToolStep(call, WS, nats));
    expect(down).toMatchObject({ ok: false, error: expect.stringContaining("is not known") });
  });
});
