import { describe, expect, it } from "vitest";
import { wireJsonlLines } from "../wire/jsonl.ts";
import type { WireEntry } from "../wire/wire-entry.ts";
import { DIFF_INPUT_MAX_CHARS, detectDiffKind, diffByKind, diffIsEmpty, pairDiffKinds, parseDiffInput, readDiffInput } from "./diff-kind.ts";
import { DiffInputError } from "./diff-json.ts";
import type { RunReport } from "./run-types.ts";
import { CaptureKit } from "./testing/wire-captures.ts";

function capture(echoed: string, first = 0): WireEntry[] {
  const kit = new CaptureKit();
  const s = kit.mcp("http://127.0.0.1:3001/mcp");
  s.request(first, "tools/call", { name: "echo", arguments: { message: "hi" } });
  s.result(first, { content: [{ type: "text", text: echoed }] });
  return kit.entries();
}

const jsonl = (entries: readonly WireEntry[]): string => [...wireJsonlLines(entries, { capacity: 100, dropped: 0, exportedAt: 0 })].join("");

const run = (status: "passed" | "failed"): RunReport => ({
  format: "patchbay.run",
  version: 1,
  collection: "smoke",
  environment: "local",
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 10,
  stopped: false,
  steps: [{ index: 0, name: "echo", protocol: "mcp", target: "everything", status, assertions: [], frames: [], captured: {}, outcome: { kind: "result", message: "ok" } }],
  totals: { steps: 1, passed: status === "passed" ? 1 : 0, failed: status === "failed" ? 1 : 0, errors: 0, skipped: 0 },
});

const tools = (type: string) => [{ name: "echo", inputSchema: { type: "object", properties: { message: { type } } } }];
const a2aCard = (version: string) => ({ name: "Echo", url: "http://127.0.0.1:10000/", version, capabilities: {}, skills: [{ id: "echo", name: "Echo" }] });
const fiskCard = (description: string) => ({ name: "demo", version: "1.0.0", protocols: ["io.choria.fisk-ai.v1"], tools: [{ name: "echo", description }] });

describe("parseDiffInput", () => {
  it("reads a JSON document, with a byte-order mark or surrounding space", () => {
    expect(parseDiffInput('\ufeff  {"tools": []}\n')).toEqual({ tools: [] });
    expect(parseDiffInput("[1, 2]")).toEqual([1, 2]);
  });

  it("reads a Traffic JSONL export as its wire entries, and names the lines it skipped", () => {
    const entries = capture("Echo: hi");
    const value = parseDiffInput(jsonl(entries));
    expect(Array.isArray(value)).toBe(true);
    expect((value as WireEntry[]).map((e) => e.decoded.method ?? null)).toEqual(["tools/call", null]);
    const read = readDiffInput(jsonl(entries) + '{"seq":"bad"}\n');
    expect((read.value as WireEntry[]).length).toBe(2);
    expect(read.problems.some((p) => /^line 4: /.test(p))).toBe(true);
    expect(read.problems.some((p) => /announces 2 entries but the file holds 3/.test(p))).toBe(true);
  });

  it("reads a header-only export as no entries", () => {
    expect(parseDiffInput(jsonl([]))).toEqual([]);
  });

  it("refuses empty, oversize and unreadable text with what was expected", () => {
    expect(() => parseDiffInput("  \n")).toThrow(/the input is empty/);
    expect(() => parseDiffInput("{ nope")).toThrow(DiffInputError);
    expect(() => parseDiffInput("{ nope")).toThrow(/not JSON .*and not a Traffic capture/);
    expect(() => parseDiffInput('{"a":1}\n{"b":2}\n')).toThrow(/not a Traffic capture \(JSONL whose first line has "format": "patchbay.wirelog"\)/);
    expect(() => parseDiffInput('{"format":"patchbay.wirelog","version":9,"exportedAt":"x","capacity":1,"dropped":0,"count":0}\n{}\n')).toThrow(/format version 9/);
    expect(() => parseDiffInput(" ".repeat(DIFF_INPUT_MAX_CHARS + 1))).toThrow(/at most/);
  });

  it("reads deeply nested hostile JSON without throwing anything but its verdict", () => {
    const deep = "[".repeat(5000) + "]".repeat(5000);
    expect(detectDiffKind(parseDiffInput(deep))).toBeNull();
  });
});

describe("detectDiffKind", () => {
  it("detects each kind by shape", () => {
    expect(detectDiffKind(run("passed"))).toBe("run");
    expect(detectDiffKind(capture("x"))).toBe("capture");
    expect(detectDiffKind(tools("string"))).toBe("tools");
    expect(detectDiffKind({ tools: tools("string"), nextCursor: "2" })).toBe("tools");
    expect(detectDiffKind({ jsonrpc: "2.0", id: 2, result: { tools: [] } })).toBe("tools");
    expect(detectDiffKind(a2aCard("1"))).toBe("card");
    expect(detectDiffKind({ name: "x", supportedInterfaces: [] })).toBe("card");
    expect(detectDiffKind(fiskCard("d"))).toBe("card");
    expect(detectDiffKind({ protocol: "io.choria.fisk-ai.v1.discovery.reply", tools: [] })).toBe("card");
    expect(detectDiffKind([])).toBe("tools");
  });

  it("detects nothing in values of no kind", () => {
    for (const v of [null, 3, "text", true, {}, { format: "patchbay.run" }, [1, 2], [{ name: "a" }, { title: "b" }], { result: {} }]) {
      expect(detectDiffKind(v)).toBeNull();
    }
  });
});

describe("pairDiffKinds", () => {
  it("names the undetected side and what it got", () => {
    expect(() => pairDiffKinds({ hello: 1 }, tools("string"))).toThrow(/^before: not something to diff: .*got an object with members "hello"$/);
    expect(() => pairDiffKinds(tools("string"), "x")).toThrow(/^after: .*got a string$/);
  });

  it("refuses two kinds, naming both", () => {
    expect(() => pairDiffKinds(run("passed"), tools("string"))).toThrow("before is a run report and after is a tool list: compare two inputs of one kind");
  });

  it("lets an empty array stand for an empty capture", () => {
    expect(pairDiffKinds([], capture("x"))).toBe("capture");
    expect(pairDiffKinds(capture("x"), [])).toBe("capture");
    expect(pairDiffKinds([], [])).toBe("tools");
  });
});

describe("diffByKind", () => {
  it("diffs tool lists, with a schema change at its pointer", () => {
    const out = diffByKind(tools("string"), { tools: tools("number") });
    expect(out.kind).toBe("tools");
    if (out.kind !== "tools") return;
    expect(out.diff.changed[0]?.inputSchema.map((c) => c.pointer)).toEqual(["/properties/message/type"]);
    expect(diffIsEmpty(out)).toBe(false);
    expect(diffIsEmpty(diffByKind(tools("string"), tools("string")))).toBe(true);
  });

  it("diffs A2A and fisk-ai cards, and refuses one of each", () => {
    const a2a = diffByKind(a2aCard("1"), a2aCard("2"));
    expect(a2a.kind === "card" && a2a.diff.fields.map((c) => c.pointer)).toEqual(["/version"]);
    const fisk = diffByKind(fiskCard("a"), fiskCard("b"));
    expect(fisk.kind === "card" && fisk.diff.tools?.changed.map((t) => t.name)).toEqual(["echo"]);
    expect(diffIsEmpty(diffByKind(fiskCard("a"), fiskCard("a")))).toBe(true);
    expect(() => diffByKind(a2aCard("1"), fiskCard("a"))).toThrow(/an A2A Agent Card and after is not/);
  });

  it("diffs runs, a status flip counting as a difference", () => {
    const out = diffByKind(run("passed"), run("failed"));
    expect(out.kind === "run" && out.diff.counts.regression).toBe(1);
    expect(diffIsEmpty(out)).toBe(false);
    expect(diffIsEmpty(diffByKind(run("passed"), run("passed")))).toBe(true);
  });

  it("diffs captures read from JSONL, a changed answer by pointer, ids ignored", () => {
    const before = parseDiffInput(jsonl(capture("Echo: hi", 0)));
    const after = parseDiffInput(jsonl(capture("Echo: ho", 7)));
    const out = diffByKind(before, after);
    expect(out.kind).toBe("capture");
    if (out.kind !== "capture") return;
    expect(out.diff.changed[0]?.response.map((c) => c.pointer)).toEqual(["/result/content/0/text"]);
    expect(diffIsEmpty(diffByKind(before, parseDiffInput(jsonl(capture("Echo: hi", 3)))))).toBe(true);
    const gone = diffByKind(before, []);
    expect(gone.kind === "capture" && gone.diff.onlyBefore.length).toBe(1);
  });
});
