import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../core/packs/index.ts";
import { ValidationEngine } from "../../../core/validation/engine.ts";
import type { Verdict } from "../../../core/validation/types.ts";
import { TEST_FAMILY, testEngine } from "./fake-worker.ts";
import type { MessageDetail, RunDone, VerdictRow, WorkerEvent, WorkerRequest } from "./validation-protocol.ts";
import { MAX_NAMED_SESSIONS, SLICE_MESSAGES, ValidationRunner, type RunnerHost } from "./validation-runner.ts";

function harness(createEngine: () => ValidationEngine = testEngine, hooks: Partial<RunnerHost> = {}) {
  const events: WorkerEvent[] = [];
  const runner = new ValidationRunner(createEngine, {
    post: (e) => events.push(e),
    pause: () => Promise.resolve(),
    now: () => 0,
    wallNow: () => Date.UTC(2025, 0, 2, 3, 4, 5),
    ...hooks,
  });
  const rows = () => events.flatMap((e) => (e.type === "progress" ? e.rows : []));
  const done = () => events.find((e): e is RunDone => e.type === "done");
  const reply = (id: number) => events.find((e) => e.type === "reply" && e.id === id);
  return { runner, events, rows, done, reply };
}

const LINES = ['{"ping":true,"n":1}', '{"ping":true,"n":"two"}', "{not json", '{"fault":"gone"}', '{"other":1}'];

describe("ValidationRunner", () => {
  it("splits the inputs, validates in order and reports rows, progress and a summary", async () => {
    const h = harness();
    const blob = new Blob([LINES.join("\n")]);
    await h.runner.handle({ type: "run", run: 1, inputs: [{ name: "one.json", text: '{"ping":true,"n":7}' }, { name: "capture.jsonl", blob }] });
    const rows = h.rows();
    expect(rows.map((r) => [r.index, r.status])).toEqual([
      [0, "valid"],
      [1, "valid"],
      [2, "invalid"],
      [3, "unparseable"],
      [4, "error-response"],
      [5, "unrecognised"],
    ]);
    expect(rows[0]).toEqual({ index: 0, place: "one.json", status: "valid", family: "mcp", pack: "MCP test", kind: "ping request" });
    expect(rows[2]).toMatchObject({ place: "capture.jsonl #1 (line 2)", problem: expect.stringContaining('"n"') as string, at: "1:18" });
    expect(rows[3]).toMatchObject({ at: "1:2", problem: expect.stringMatching(/^Not JSON/) as string });
    expect(rows[5]?.problem).toContain("no ping or fault property");
    const done = h.done();
    expect(done).toMatchObject({ run: 1, cancelled: false, done: 6, total: 6 });
    expect(done?.summary.byStatus).toEqual({ valid: 2, "error-response": 1, invalid: 1, unrecognised: 1, unparseable: 1 });
    expect(done?.inputs.map((i) => [i.source, i.format, i.messages])).toEqual([
      ["one.json", "json", 1],
      ["capture.jsonl", "jsonl", 5],
    ]);
    const progress = h.events.filter((e) => e.type === "progress");
    expect(progress[0]).toMatchObject({ done: 0, total: 6, rows: [] });
    expect(progress.at(-1)).toMatchObject({ done: 6, total: 6 });
  });

  it("answers detail, override, validate-one, catalog and export queries about the batch", async () => {
    const h = harness();
    await h.runner.handle({ type: "run", run: 1, inputs: [{ name: "c.jsonl", text: LINES.join("\n") }] });
    const ask = async (q: WorkerRequest) => {
      await h.runner.handle(q);
      const r = h.reply((q as { id: number }).id);
      if (r?.type !== "reply" || !r.ok) throw new Error(`no answer: ${JSON.stringify(r)}`);
      return r.value;
    };
    const detail = (await ask({ type: "detail", id: 1, index: 1 })) as MessageDetail;
    expect(detail.text).toBe(LINES[1]);
    expect(detail.place).toBe("c.jsonl #1 (line 2)");
    expect(detail.verdict.issues[0]).toMatchObject({ pointer: "/n", line: 1, column: 18 });
    const overridden = (await ask({ type: "detail", id: 2, index: 0, override: { packId: "mcp/test", kindId: "fault" } })) as MessageDetail;
    expect(overridden.verdict).toMatchObject({ status: "invalid", overridden: true, kindId: "fault", confidence: 1 });
    const one = await ask({ type: "validate-one", id: 3, text: '{"ping":true,"n":2}' });
    expect(one).toMatchObject({ status: "valid" });
    expect(await ask({ type: "catalog", id: 4 })).toEqual([
      {
        id: "mcp/test",
        label: "MCP test",
        family: "mcp",
        draft: "draft-07",
        sources: [{ title: "Ping protocol notes", url: "https://example.org/ping", revision: "v1" }],
        notes: ["Fault is ours: any object with a fault string."],
        kinds: [{ id: "ping", label: "ping request" }, { id: "fault", label: "fault" }],
      },
    ]);
    const exported = (await ask({ type: "export", id: 5 })) as { blob: Blob; messages: number; generatedAtMs: number };
    expect(exported.messages).toBe(5);
    const report = JSON.parse(await exported.blob.text()) as { format: string; summary: { total: number }; messages: { source: string; line: number }[]; generatedAt: string };
    expect(report.format).toBe("patchbay.validation-report");
    expect(report.summary.total).toBe(5);
    expect(report.generatedAt).toBe("2025-01-02T03:04:05.000Z");
    expect(report.messages[4]).toMatchObject({ source: "c.jsonl", line: 5, status: "unrecognised" });
    await h.runner.handle({ type: "detail", id: 6, index: 99 });
    expect(h.reply(6)).toMatchObject({ ok: false, message: expect.stringContaining("#99") as string });
  });

  it("checks a value against a peer-supplied schema, in the schema's draft or the one given", async () => {
    const h = harness();
    const schema = { type: "object", required: ["temp"], properties: { temp: { type: "number" } } };
    await h.runner.handle({ type: "check-schema", id: 1, schema, value: { temp: 21.5 }, pointer: "/structuredContent", draft: "2020-12" });
    expect(h.reply(1)).toEqual({ type: "reply", id: 1, ok: true, value: [] });
    await h.runner.handle({ type: "check-schema", id: 2, schema, value: { temp: "warm" }, pointer: "/structuredContent", draft: "draft-07" });
    const bad = h.reply(2);
    if (bad?.type !== "reply" || !bad.ok) throw new Error("no answer");
    expect(bad.value).toEqual([expect.objectContaining({ pointer: "/structuredContent/temp", severity: "error", source: "tool-schema" })]);
    await h.runner.handle({ type: "check-schema", id: 3, schema: "not a schema", value: 1, pointer: "", draft: "draft-07" });
    expect(h.reply(3)).toMatchObject({ ok: true, value: [{ severity: "warning", message: expect.stringContaining("not an object") as string }] });
  });

  it("stops at the next slice when cancelled, keeping what was validated", async () => {
    const ref: { runner?: ValidationRunner } = {};
    const h = harness(testEngine, {
      pause: async () => {
        await ref.runner?.handle({ type: "cancel", run: 1 });
      },
    });
    ref.runner = h.runner;
    const text = Array.from({ length: SLICE_MESSAGES * 3 }, (_, i) => `{"ping":true,"n":${i}}`).join("\n");
    await h.runner.handle({ type: "run", run: 1, inputs: [{ name: "big.jsonl", text }] });
    expect(h.done()).toMatchObject({ cancelled: true, done: SLICE_MESSAGES, total: SLICE_MESSAGES * 3 });
    expect(h.rows()).toHaveLength(SLICE_MESSAGES);
    await h.runner.handle({ type: "export", id: 1 });
    expect(h.reply(1)).toMatchObject({ ok: true, value: { messages: SLICE_MESSAGES } });
  });

  it("cuts a slice after its time budget, however few messages it holds", async () => {
    let clock = 0;
    const h = harness(testEngine, { now: () => (clock += 30) });
    await h.runner.handle({ type: "run", run: 1, inputs: [{ name: "x.jsonl", text: LINES.join("\n") }] });
    const sizes = h.events.flatMap((e) => (e.type === "progress" && e.rows.length > 0 ? [e.rows.length] : []));
    expect(sizes.every((n) => n <= 2)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it("reports an engine that cannot be built, or that throws, as a failed run", async () => {
    const broken = harness(() => {
      throw new Error("Schema pack mcp/test does not compile: bad");
    });
    await broken.runner.handle({ type: "run", run: 3, inputs: [{ name: "p", text: "{}" }] });
    expect(broken.events).toEqual([{ type: "failed", run: 3, message: "Validation stopped (at message #0): Schema pack mcp/test does not compile: bad" }]);

    const throwing = harness(() => new ValidationEngine([{ ...TEST_FAMILY, createSession: () => { throw new Error("boom"); } }]));
    await throwing.runner.handle({ type: "run", run: 4, inputs: [{ name: "p", text: "{}" }] });
    expect(throwing.events.at(-1)).toEqual({ type: "failed", run: 4, message: "Validation stopped (at message #0): boom" });
  });

  it("lets a newer run replace one in progress; only the newer one reports done", async () => {
    const ref: { runner?: ValidationRunner } = {};
    let started = false;
    const h = harness(testEngine, {
      pause: async () => {
        if (started) return;
        started = true;
        await ref.runner?.handle({ type: "run", run: 2, inputs: [{ name: "b", text: '{"ping":true,"n":1}' }] });
      },
    });
    ref.runner = h.runner;
    const text = Array.from({ length: SLICE_MESSAGES * 2 }, () => '{"ping":true,"n":1}').join("\n");
    await h.runner.handle({ type: "run", run: 1, inputs: [{ name: "a", text }] });
    const dones = h.events.filter((e) => e.type === "done");
    expect(dones.map((d) => d.run)).toEqual([2]);
    const rows: VerdictRow[] = h.events.flatMap((e) => (e.type === "progress" && e.run === 2 ? e.rows : []));
    expect(rows.map((r) => r.place)).toEqual(["b"]);
  });
  it("keeps what a named session learnt for its later messages, for the most recent sessions only", async () => {
    const h = harness(createValidationEngine);
    let id = 0;
    const one = async (text: string, session?: string): Promise<Verdict> => {
      const q = ++id;
      await h.runner.handle({ type: "validate-one", id: q, text, ...(session !== undefined && { session }) });
      const r = h.reply(q);
      if (r?.type !== "reply" || !r.ok) throw new Error(`no answer: ${JSON.stringify(r)}`);
      return r.value as Verdict;
    };
    const override = { packId: "mcp/2025-06-18" };
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "n", inputSchema: { type: "object", properties: { x: { type: "number" } } } }] } });
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "n", arguments: { x: "y" } } });
    const listed = async (session: string) => {
      await h.runner.handle({ type: "validate-one", id: ++id, text: list, override: { ...override, kindId: "tools/list:result" }, session });
    };
    await listed("a");
    const checked = await one(call, "a");
    expect(checked.status).toBe("invalid");
    expect(checked.issues[0]).toMatchObject({ pointer: "/params/arguments/x", source: "tool-schema" });
    // Unnamed, or under another name, the call is judged without the listing.
    expect((await one(call)).status).toBe("valid");
    expect((await one(call, "b")).status).toBe("valid");
    // Sessions "c" and "d" and the others fill the room; one more drops the least recently used, "c".
    await listed("c");
    await listed("d");
    for (let i = 2; i < MAX_NAMED_SESSIONS; i++) await one("{}", `other-${i}`);
    expect((await one(call, "d")).status).toBe("invalid");
    await one("{}", "one-more");
    expect((await one(call, "c")).status).toBe("valid");
  });
});
