import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../env/scheduler.ts";
import type { Collection, Step } from "./collection-types.ts";
import { runCollection, STOP_GRACE_MS } from "./runner.ts";
import type { ExecutorContext, ResolvedStep, RunEvent, RunOptions, StepExecutor, StepFrame, StepObservation } from "./run-types.ts";

type Script = (step: ResolvedStep, ctx: ExecutorContext) => StepObservation | Promise<StepObservation>;

/** An executor that answers by a script and records what it was asked. */
class FakeExecutor implements StepExecutor {
  readonly seen: ResolvedStep[] = [];
  closed = 0;
  #started: (() => void)[] = [];
  readonly script: Script;
  constructor(script: Script) {
    this.script = script;
  }
  async run(step: ResolvedStep, ctx: ExecutorContext): Promise<StepObservation> {
    this.seen.push(step);
    for (const notify of this.#started.splice(0)) notify();
    return this.script(step, ctx);
  }
  async close(): Promise<void> {
    this.closed++;
  }
  /** Resolves when the next step starts running. */
  nextStart(): Promise<void> {
    return new Promise((resolve) => this.#started.push(resolve));
  }
}

const frame = (text: string, direction: StepFrame["direction"] = "received"): StepFrame => ({ direction, atMs: 1, text, channel: "POST /mcp" });

function answer(body: unknown, extra: Partial<StepObservation> = {}): StepObservation {
  return { outcome: { kind: "result", message: "answered" }, body, frames: [frame('{"req":1}', "sent"), frame(JSON.stringify(body))], latencyMs: 5, ...extra };
}

const echo: Script = (step) => answer({ result: { echoed: step.action } });

const mcpStep = (name: string, extra: Partial<Step> = {}, params: Record<string, unknown> = {}): Step => ({
  name,
  target: "api",
  action: { protocol: "mcp", method: "tools/call", params },
  assert: [{ kind: "outcome", is: "result" }],
  ...extra,
});

function collectionOf(steps: Step[], extra: Partial<Collection> = {}): Collection {
  return {
    name: "runner",
    targets: { api: { protocol: "mcp", url: "{{baseUrl}}/mcp", headers: { Authorization: "Bearer {{token}}" } }, bus: { protocol: "nats", server: "nats://localhost:4222" } },
    environments: { dev: { baseUrl: "http://localhost:3001" } },
    secrets: { token: { env: "MCP_TOKEN" } },
    steps,
    ...extra,
  };
}

function options(extra: Partial<RunOptions> = {}): RunOptions & { events: RunEvent[]; scheduler: ManualScheduler } {
  let t = 1000;
  const events: RunEvent[] = [];
  return {
    environment: "dev",
    secrets: { token: "tok-123456" },
    now: () => (t += 10),
    wallNow: () => Date.UTC(2026, 0, 1),
    scheduler: new ManualScheduler(),
    onEvent: (e) => events.push(e),
    events,
    ...extra,
  } as RunOptions & { events: RunEvent[]; scheduler: ManualScheduler };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("runCollection", () => {
  it("runs steps in order, resolves references and feeds captures to later steps", async () => {
    const mcp = new FakeExecutor((step) => (step.index === 0 ? answer({ result: { sessionId: "s-1", n: 5, obj: { a: 1 } } }) : echo(step, { signal: new AbortController().signal })));
    const collection = collectionOf([
      mcpStep("start", { capture: { sessionId: "/result/sessionId", count: "/result/n", obj: "/result/obj" } }),
      mcpStep("use", { assert: [{ kind: "equals", pointer: "/result/echoed/params/text", value: "s-1 5 {\"a\":1}" }] }, { text: "{{sessionId}} {{count}} {{obj}}" }),
    ]);
    const opts = options();
    const report = await runCollection(collection, { mcp }, opts);
    expect(mcp.seen.map((s) => [s.name, s.target])).toEqual([
      ["start", { protocol: "mcp", url: "http://localhost:3001/mcp", headers: { Authorization: "Bearer tok-123456" } }],
      ["use", { protocol: "mcp", url: "http://localhost:3001/mcp", headers: { Authorization: "Bearer tok-123456" } }],
    ]);
    expect(report.steps.map((s) => [s.name, s.status, s.captured])).toEqual([
      ["start", "passed", { sessionId: "s-1", count: "5", obj: '{"a":1}' }],
      ["use", "passed", {}],
    ]);
    expect(report).toMatchObject({ format: "patchbay.run", version: 1, collection: "runner", environment: "dev", startedAt: "2026-01-01T00:00:00.000Z", stopped: false });
    expect(report.totals).toEqual({ steps: 2, passed: 2, failed: 0, errors: 0, skipped: 0 });
    expect(report.durationMs).toBe(10);
    expect(opts.events.map((e) => (e.type === "step-start" ? `start ${e.index}/${e.total}` : `end ${e.report.index} ${e.report.status}`))).toEqual(["start 0/2", "end 0 passed", "start 1/2", "end 1 passed"]);
    expect(mcp.closed).toBe(1);
  });

  it("resolves references in assertions too, so a later step can expect a captured id", async () => {
    const mcp = new FakeExecutor((step) => answer({ result: { id: step.index === 0 ? "t-9" : "t-9", other: "x" } }));
    const collection = collectionOf([
      mcpStep("make", { capture: { taskId: "/result/id" } }),
      mcpStep("check", { assert: [{ kind: "equals", pointer: "/result/id", value: "{{taskId}}" }, { kind: "equals", pointer: "/result/other", value: "{{taskId}}" }] }),
    ]);
    const report = await runCollection(collection, { mcp }, options());
    expect(report.steps[1]?.assertions.map((a) => a.passed)).toEqual([true, false]);
    expect(report.steps[1]?.assertions[1]?.message).toContain('"t-9"');
  });

  it("fails a step whose capture finds nothing, and still runs the next", async () => {
    const mcp = new FakeExecutor(() => answer({ result: {} }));
    const report = await runCollection(collectionOf([mcpStep("a", { capture: { taskId: "/result/id" } }), mcpStep("b")]), { mcp }, options());
    expect(report.steps[0]).toMatchObject({ status: "failed", captured: {} });
    expect(report.steps[0]!.assertions).toEqual([
      { assertion: { kind: "outcome", is: "result" }, passed: true, message: "outcome is result: answered" },
      { assertion: { kind: "exists", pointer: "/result/id" }, passed: false, message: 'capture \'taskId\': nothing at /result/id: /result has no member "id"' },
    ]);
    expect(report.steps[1]!.status).toBe("passed");
  });

  it("reports an unresolved reference or missing secret as an error and goes on", async () => {
    const mcp = new FakeExecutor(echo);
    const collection = collectionOf([mcpStep("needs task", {}, { id: "{{taskId}}" }), mcpStep("fine")]);
    const report = await runCollection(collection, { mcp }, options());
    expect(report.steps.map((s) => [s.status, s.error])).toEqual([
      ["error", "step 'needs task': {{taskId}} in action /params/id is not a variable of environment 'dev', a secret, or a value captured so far (nothing captured yet)"],
      ["passed", undefined],
    ]);
    expect(mcp.seen.map((s) => s.name)).toEqual(["fine"]);
    const noSecret = await runCollection(collection, { mcp }, options({ secrets: {} }));
    expect(noSecret.steps[1]!.error).toBe("step 'fine': secret 'token' has no value: set the environment variable MCP_TOKEN or type it in");
    expect(noSecret.totals).toEqual({ steps: 2, passed: 0, failed: 0, errors: 2, skipped: 0 });
  });

  it("reports a missing executor and an executor that throws", async () => {
    const mcp = new FakeExecutor(() => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:3001");
    });
    const natsStep: Step = { name: "ping", target: "bus", action: { protocol: "nats", kind: "request", subject: "a", payload: "" } };
    const report = await runCollection(collectionOf([mcpStep("a"), natsStep]), { mcp }, options());
    expect(report.steps.map((s) => [s.protocol, s.status, s.error])).toEqual([
      ["mcp", "error", "connect ECONNREFUSED 127.0.0.1:3001"],
      ["nats", "error", "no nats executor in this run, so the step cannot run"],
    ]);
  });

  it("refuses a target override of another protocol", async () => {
    const mcp = new FakeExecutor(echo);
    const report = await runCollection(collectionOf([mcpStep("a")]), { mcp }, options({ targets: { api: { protocol: "nats", server: "nats://x" } } }));
    expect(report.steps[0]).toMatchObject({ status: "error", protocol: "nats", error: "step 'a': target 'api' is nats but the step's action is mcp" });
  });

  it("stops mid-run: the current step as its executor returns it, the rest skipped", async () => {
    const controller = new AbortController();
    const mcp = new FakeExecutor((step, ctx) => {
      if (step.index === 1) {
        controller.abort();
        expect(ctx.signal.aborted).toBe(true);
        return answer({ partial: true }, { outcome: { kind: "cancelled", message: "cancelled by the user" } });
      }
      return answer({});
    });
    const opts = options({ signal: controller.signal });
    const report = await runCollection(collectionOf([mcpStep("a"), mcpStep("b"), mcpStep("c"), mcpStep("d")]), { mcp }, opts);
    expect(report.steps.map((s) => [s.name, s.status, s.error])).toEqual([
      ["a", "passed", undefined],
      ["b", "failed", undefined],
      ["c", "skipped", "the run was stopped"],
      ["d", "skipped", "the run was stopped"],
    ]);
    expect(report.steps[1]!.outcome).toEqual({ kind: "cancelled", message: "cancelled by the user" });
    expect(report.stopped).toBe(true);
    expect(report.totals).toEqual({ steps: 4, passed: 1, failed: 1, errors: 0, skipped: 2 });
    expect(opts.events.filter((e) => e.type === "step-start")).toHaveLength(2);
    expect(opts.events.filter((e) => e.type === "step-end")).toHaveLength(4);
    expect(mcp.closed).toBe(1);
  });

  it("reports a stopped step whose executor throws as stopped", async () => {
    const controller = new AbortController();
    const mcp = new FakeExecutor((_s, ctx) => {
      controller.abort();
      throw ctx.signal.reason;
    });
    const report = await runCollection(collectionOf([mcpStep("a"), mcpStep("b")]), { mcp }, options({ signal: controller.signal }));
    expect(report.steps.map((s) => [s.status, s.error])).toEqual([
      ["error", "stopped"],
      ["skipped", "the run was stopped"],
    ]);
  });

  it("skips everything when stopped before it starts, and still closes the executors", async () => {
    const controller = new AbortController();
    controller.abort();
    const mcp = new FakeExecutor(echo);
    const report = await runCollection(collectionOf([mcpStep("a"), mcpStep("b")]), { mcp }, options({ signal: controller.signal }));
    expect(report.steps.map((s) => s.status)).toEqual(["skipped", "skipped"]);
    expect(mcp.seen).toHaveLength(0);
    expect(mcp.closed).toBe(1);
  });

  it("aborts a step at its time limit, on the injected scheduler", async () => {
    const mcp = new FakeExecutor(
      (_s, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => resolve(answer(null, { outcome: { kind: "timeout", message: `gave up: ${(ctx.signal.reason as Error).message}` } })));
        }),
    );
    const opts = options();
    const started = mcp.nextStart();
    const running = runCollection(collectionOf([mcpStep("slow", { timeoutMs: 500, assert: [{ kind: "outcome", is: "timeout" }] })]), { mcp }, opts);
    await started;
    opts.scheduler.advance(499);
    await flush();
    expect(mcp.seen).toHaveLength(1);
    opts.scheduler.advance(1);
    const report = await running;
    expect(report.steps[0]).toMatchObject({ status: "passed", outcome: { kind: "timeout", message: "gave up: timed out after 500 ms" } });
    expect(opts.scheduler.pending).toBe(0);
  });

  it("uses the collection's time limit, and reports an executor that rejects once timed out", async () => {
    const mcp = new FakeExecutor((_s, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("This operation was aborted")))));
    const opts = options();
    const started = mcp.nextStart();
    const running = runCollection(collectionOf([mcpStep("slow")], { timeoutMs: 2000 }), { mcp }, opts);
    await started;
    opts.scheduler.advance(2000);
    const report = await running;
    expect(report.steps[0]).toMatchObject({ status: "error", error: "timed out after 2000 ms: This operation was aborted" });
  });

  it("gives up on an executor that ignores the abort, after a grace period", async () => {
    const mcp = new FakeExecutor(() => new Promise(() => {}));
    const opts = options();
    const started = mcp.nextStart();
    const running = runCollection(collectionOf([mcpStep("stuck", { timeoutMs: 100 }), mcpStep("next", { timeoutMs: 100 })]), { mcp }, opts);
    await started;
    const second = mcp.nextStart();
    opts.scheduler.advance(100);
    opts.scheduler.advance(STOP_GRACE_MS);
    await second;
    opts.scheduler.advance(100 + STOP_GRACE_MS);
    const report = await running;
    expect(report.steps.map((s) => s.error)).toEqual([
      "timed out after 100 ms, and the step did not stop when told to",
      "timed out after 100 ms, and the step did not stop when told to",
    ]);
  });

  it("re-runs only the listed steps, with captured values seeded", async () => {
    const mcp = new FakeExecutor(echo);
    const collection = collectionOf([mcpStep("start", { capture: { sessionId: "/result/sid" } }), mcpStep("use", {}, { sid: "{{sessionId}}" }), mcpStep("other")]);
    const opts = options({ only: [1], captured: { sessionId: "s-earlier" } });
    const report = await runCollection(collection, { mcp }, opts);
    expect(report.steps.map((s) => [s.index, s.name, s.status])).toEqual([[1, "use", "passed"]]);
    expect(mcp.seen[0]!.action).toEqual({ protocol: "mcp", method: "tools/call", params: { sid: "s-earlier" } });
    expect(opts.events[0]).toEqual({ type: "step-start", index: 1, name: "use", total: 1 });
    expect(report.totals.steps).toBe(1);
  });

  it("rejects a step index out of range or an unknown environment, closing the executors", async () => {
    const mcp = new FakeExecutor(echo);
    await expect(runCollection(collectionOf([mcpStep("a")]), { mcp }, options({ only: [3] }))).rejects.toThrow("step index 3 is out of range: the collection has 1 steps");
    await expect(runCollection(collectionOf([mcpStep("a")]), { mcp }, options({ environment: "prod" }))).rejects.toThrow("no environment 'prod' in the collection (environments: dev)");
    expect(mcp.closed).toBe(2);
    expect(mcp.seen).toHaveLength(0);
  });

  it("scrubs secrets from frames, outcomes, assertion messages, captures and errors", async () => {
    const mcp = new FakeExecutor((step) => {
      if (step.index === 2) throw new Error("401 for Bearer tok-123456");
      const auth = (step.target as { headers: Record<string, string> }).headers.Authorization!;
      return {
        outcome: { kind: "result", message: `sent ${auth}` },
        body: { result: { echo: auth } },
        frames: [
          { direction: "sent", atMs: 0, text: `{"auth":"${auth}"}`, channel: `POST /mcp ${auth}` },
          { direction: "received", atMs: 1, text: `{"echo":"${auth}"}`, validity: { valid: false, kind: auth, problems: [`/echo: ${auth}`] } },
        ],
        latencyMs: 1,
      };
    });
    const collection = collectionOf([
      mcpStep("a", { assert: [{ kind: "equals", pointer: "/result/echo", value: "nope" }], capture: { echoed: "/result/echo" } }),
      mcpStep("b", {}, { again: "{{echoed}}" }),
      mcpStep("c"),
    ]);
    const report = await runCollection(collection, { mcp }, options());
    const text = JSON.stringify(report);
    expect(text).not.toContain("tok-123456");
    expect(report.steps[0]!.frames.map((f) => f.text)).toEqual(['{"auth":"Bearer •••"}', '{"echo":"Bearer •••"}']);
    expect(report.steps[0]!.frames[0]!.channel).toBe("POST /mcp Bearer •••");
    expect(report.steps[0]!.frames[1]!.validity).toEqual({ valid: false, kind: "Bearer •••", problems: ["/echo: Bearer •••"] });
    expect(report.steps[0]!.outcome!.message).toBe("sent Bearer •••");
    expect(report.steps[0]!.assertions[0]!.message).toBe('/result/echo is "Bearer •••"; expected "nope"');
    expect(report.steps[0]!.captured).toEqual({ echoed: "Bearer •••" });
    // The later step still got the real captured value.
    expect(mcp.seen[1]!.action).toEqual({ protocol: "mcp", method: "tools/call", params: { again: "Bearer tok-123456" } });
    expect(report.steps[2]!.error).toBe("401 for Bearer •••");
  });

  it("keeps frames only for failed and errored steps when asked", async () => {
    const mcp = new FakeExecutor((step) => answer({ ok: step.index !== 1 }));
    const collection = collectionOf([0, 1, 2].map((i) => mcpStep(`s${i}`, { assert: [{ kind: "equals", pointer: "/ok", value: true }] })));
    const all = await runCollection(collection, { mcp }, options());
    expect(all.steps.map((s) => s.frames.length)).toEqual([2, 2, 2]);
    const failed = await runCollection(collection, { mcp }, options({ keepFrames: "failed" }));
    expect(failed.steps.map((s) => [s.status, s.frames.length])).toEqual([
      ["passed", 0],
      ["failed", 2],
      ["passed", 0],
    ]);
  });

  it("caps the frame text a step keeps, with one marker for the rest", async () => {
    const frames = ["aaaa", "bbbb", "cccc", "dddd", "eeee"].map((t, i) => ({ direction: "received" as const, atMs: i, text: t }));
    const mcp = new FakeExecutor(() => answer({}, { frames }));
    const report = await runCollection(collectionOf([mcpStep("a")]), { mcp }, options({ frameTextLimit: 10 }));
    expect(report.steps[0]!.frames).toEqual([
      frames[0],
      frames[1],
      { direction: "received", atMs: 2, channel: "patchbay", text: "3 more frames (12 characters) not kept: a step keeps at most 10 characters of frames" },
    ]);
    const big = Array.from({ length: 3 }, (_, i) => ({ direction: "received" as const, atMs: i, text: "x".repeat(100 * 1024) }));
    const byDefault = await runCollection(collectionOf([mcpStep("a")]), { mcp: new FakeExecutor(() => answer({}, { frames: big })) }, options());
    expect(byDefault.steps[0]!.frames.map((f) => f.text.length)).toEqual([102_400, 102_400, 93]);
    expect(byDefault.steps[0]!.frames[2]!.text).toBe("1 more frame (102,400 characters) not kept: a step keeps at most 262,144 characters of frames");
  });

  it("runs a thousand steps, keeping no frames for passing ones", async () => {
    const mcp = new FakeExecutor((step) => answer({ n: step.index }));
    const steps = Array.from({ length: 1000 }, (_, i) => mcpStep(`step ${i}`, { assert: [{ kind: "equals", pointer: "/n", value: i === 500 ? -1 : i }], capture: { last: "/n" } }));
    const report = await runCollection(collectionOf(steps), { mcp }, options({ keepFrames: "failed" }));
    expect(report.totals).toEqual({ steps: 1000, passed: 999, failed: 1, errors: 0, skipped: 0 });
    expect(report.steps.filter((s) => s.frames.length > 0).map((s) => s.index)).toEqual([500]);
    expect(report.steps[999]!.captured).toEqual({ last: "999" });
    expect(mcp.closed).toBe(1);
  });
});
