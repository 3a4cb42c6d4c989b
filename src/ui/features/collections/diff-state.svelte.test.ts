import { describe, expect, it } from "vitest";
import { CaptureKit } from "../../../core/harness/testing/wire-captures.ts";
import { wireJsonlLines } from "../../../core/wire/index.ts";
import { runReport, stepReport } from "./collections-fakes.ts";
import { compareSides, DiffState, readSide, sideStatus } from "./diff-state.svelte.ts";
import { exchangeLabel, outcomeHeadline } from "./diff-words.ts";

const json = (v: unknown): string => JSON.stringify(v, null, 2);

const tools = (messageType: string, extra: object[] = []) => ({
  tools: [{ name: "echo", description: "Echoes", inputSchema: { type: "object", properties: { message: { type: messageType } }, required: ["message"] } }, ...extra],
});

function captureText(echoed: string, first: number): string {
  const kit = new CaptureKit();
  const s = kit.mcp("http://127.0.0.1:3001/mcp");
  s.request(first, "tools/call", { name: "echo", arguments: { message: "hi" } });
  s.result(first, { content: [{ type: "text", text: echoed }] });
  return [...wireJsonlLines(kit.entries(), { capacity: 10, dropped: 0, exportedAt: 0 })].join("");
}

const card = (version: string, skills: object[]) => ({ name: "Echo", url: "http://127.0.0.1:10000/", version, capabilities: { streaming: true }, skills });

function both(before: string, after: string): DiffState {
  const state = new DiffState();
  state.before.paste(before);
  state.after.paste(after);
  return state;
}

describe("reading a side", () => {
  it("says what it detected, and why it detected nothing", () => {
    expect(sideStatus(readSide(""), "before").tone).toBe("muted");
    expect(sideStatus(readSide(json(tools("string"))), "before")).toEqual({ tone: "ok", text: "Detected a tool list" });
    expect(sideStatus(readSide(captureText("x", 0) + "junk\n"), "after")).toEqual({ tone: "ok", text: "Detected a Traffic capture (2 lines not read)" });
    expect(sideStatus(readSide("{ nope"), "after")).toMatchObject({ tone: "bad", text: expect.stringMatching(/^after: not JSON/) });
    expect(sideStatus(readSide('{"hello": 1}'), "before")).toMatchObject({ tone: "bad", text: expect.stringMatching(/^before: not something to diff: .*"hello"$/) });
  });
});

describe("DiffState", () => {
  it("waits for both sides, then lists a tool's schema change by pointer", () => {
    const state = new DiffState();
    state.before.paste(json(tools("string")));
    expect(state.result).toEqual({ kind: "waiting" });
    state.after.paste(json(tools("number", [{ name: "get-sum", inputSchema: { type: "object" } }])));
    const r = state.result;
    expect(r.kind).toBe("done");
    if (r.kind !== "done" || r.outcome.kind !== "tools") throw new Error("expected a tool diff");
    expect(r.empty).toBe(false);
    expect(r.outcome.diff.added.map((t) => t.name)).toEqual(["get-sum"]);
    expect(r.outcome.diff.changed[0]?.inputSchema.map((c) => [c.pointer, c.kind])).toEqual([["/properties/message/type", "type-changed"]]);
    expect(outcomeHeadline(r.outcome)).toBe("Tool lists: 1 tool added · 1 tool changed");
  });

  it("finds no differences between equal inputs", () => {
    const r = both(json(tools("string")), JSON.stringify(tools("string").tools)).result;
    expect(r.kind === "done" && r.empty).toBe(true);
  });

  it("refuses two kinds with a message naming both", () => {
    const r = both(json(tools("string")), json(card("1", []))).result;
    expect(r).toEqual({ kind: "error", message: "before is a tool list and after is an agent card: compare two inputs of one kind" });
  });

  it("diffs agent cards: fields and skills added, removed and changed", () => {
    const r = both(json(card("1", [{ id: "echo", name: "Echo" }, { id: "old", name: "Old" }])), json(card("2", [{ id: "echo", name: "Echo back" }, { id: "new", name: "New" }]))).result;
    if (r.kind !== "done" || r.outcome.kind !== "card") throw new Error("expected a card diff");
    expect(r.outcome.diff.fields.map((c) => c.pointer)).toEqual(["/version"]);
    expect(r.outcome.diff.skills).toMatchObject({ added: [{ id: "new" }], removed: [{ id: "old" }], changed: [{ id: "echo", changes: [{ pointer: "/name" }] }] });
    expect(outcomeHeadline(r.outcome)).toBe("A2A Agent Cards: 1 field change · 1 skills added · 1 skills removed · 1 skills changed");
  });

  it("diffs run reports through the run comparison", () => {
    const before = runReport("smoke", [stepReport(0, "echo", "passed")]);
    const after = runReport("smoke", [stepReport(0, "echo", "failed")]);
    const r = both(json(before), json(after)).result;
    if (r.kind !== "done" || r.outcome.kind !== "run") throw new Error("expected a run diff");
    expect(r.outcome.diff.counts.regression).toBe(1);
    expect(outcomeHeadline(r.outcome)).toBe('Run reports of "smoke": 1 regression');
  });

  it("diffs captures: a changed answer by pointer, ids ignored, exchanges found by seq", () => {
    const r = both(captureText("Echo: hi", 0), captureText("Echo: ho", 9)).result;
    if (r.kind !== "done" || r.outcome.kind !== "capture") throw new Error("expected a capture diff");
    expect(r.outcome.diff.changed.map((c) => [c.method, c.response.map((x) => x.pointer)])).toEqual([["tools/call", ["/result/content/0/text"]]]);
    expect(exchangeLabel(r.outcome.diff.changed[0]!.before)).toBe("mcp tools/call → http://127.0.0.1:3001/mcp (#1, answered by #2)");
    expect(outcomeHeadline(r.outcome)).toBe("Captures: 1 exchange changed");
  });

  it("reports a side that is unreadable without comparing, and a diff's own refusal", () => {
    const state = both("{ nope", json(tools("string")));
    expect(state.result).toEqual({ kind: "waiting" });
    expect(state.before.status.tone).toBe("bad");
    const fiskCard = { name: "demo", version: "1", protocols: ["io.choria.fisk-ai.v1"], tools: [] };
    expect(compareSides(readSide(json(card("1", []))), readSide(json(fiskCard)))).toMatchObject({ kind: "error", message: expect.stringMatching(/an A2A Agent Card and after is not/) });
  });

  it("reads files, keeps their name, refuses oversize ones, and swaps the sides", async () => {
    const state = new DiffState();
    await state.before.load(new File([json(tools("string"))], "before.json"));
    expect(state.before.fileName).toBe("before.json");
    const big = new File(["x"], "huge.json");
    Object.defineProperty(big, "size", { value: 1e12 });
    await state.after.load(big);
    expect(state.after.status).toMatchObject({ tone: "bad", text: expect.stringMatching(/^after: huge.json is 1000000000000 bytes; at most/) });
    state.after.paste(json(card("1", [])));
    state.swap();
    expect(state.before.reading).toMatchObject({ kind: "read", detected: "card" });
    expect(state.after.fileName).toBe("before.json");
    state.after.clear();
    expect(state.after.reading).toEqual({ kind: "empty" });
  });
});
