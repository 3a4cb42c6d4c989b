import { afterEach, describe, expect, it, vi } from "vitest";
import { manualClock } from "../../core/env/index.ts";
import { memoryDraftStorage } from "../../core/persist/drafts.ts";
import { WireLog, wireLogTail } from "../../core/wire/index.ts";
import { Drafts, fieldsOf, restoreFields } from "./drafts.svelte.ts";
import { keepWireLog, WIRE_DRAFT, WIRE_PIECE_CHARS } from "./wire-log-draft.ts";

function fresh(): Drafts {
  const d = new Drafts();
  d.use(memoryDraftStorage(), () => 1000);
  return d;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("Drafts", () => {
  it("saves, lists, debounces a burst into one write, flushes and clears", () => {
    vi.useFakeTimers();
    const d = fresh();
    let reads = 0;
    for (let i = 0; i < 5; i++) d.schedule("form", () => (reads++, { n: i }));
    expect(d.read("form").kind).toBe("none");
    vi.advanceTimersByTime(300);
    expect(reads).toBe(1);
    expect(d.read("form")).toMatchObject({ kind: "ok", data: { n: 4 } });
    d.schedule("other", () => "x");
    d.flush();
    expect(d.names).toEqual(["form", "other"]);
    expect(d.clear()).toBe(2);
    expect(d.names).toEqual([]);
    expect(d.read("form").kind).toBe("none");
  });

  it("a refused write is shown as a problem until one succeeds", () => {
    const d = new Drafts();
    let refuse = true;
    const storage = memoryDraftStorage();
    const setItem = storage.setItem.bind(storage);
    storage.setItem = (key, value) => {
      if (refuse) throw new Error("quota");
      setItem(key, value);
    };
    d.use(storage, () => 0);
    expect(d.save("big", "x")).toBe(false);
    expect(d.problem).toMatch(/Could not keep the big draft: .*quota/);
    refuse = false;
    expect(d.save("big", "x")).toBe(true);
    expect(d.problem).toBeNull();
  });
});

describe("form fields", () => {
  it("restores only the listed fields that still fit their shape", () => {
    const form = { servers: "", authMode: "none", pass: "", rows: [{ name: "", value: "" }], timeoutMs: 5000 };
    const copied = restoreFields(form, ["servers", "rows", "timeoutMs"], {
      servers: "ws://a",
      pass: "secret",
      rows: [{ name: "A", value: "1" }],
      timeoutMs: "soon",
    });
    expect(copied).toEqual(["servers", "rows"]);
    expect(form).toEqual({ servers: "ws://a", authMode: "none", pass: "", rows: [{ name: "A", value: "1" }], timeoutMs: 5000 });
    expect(fieldsOf(form, ["servers", "authMode"])).toEqual({ servers: "ws://a", authMode: "none" });
    expect(restoreFields(form, ["servers"], "not an object")).toEqual([]);
  });
});

describe("the Traffic log across a reload", () => {
  const enc = new TextEncoder();

  it("keeps the newest frames as the log changes and brings them back into a new page's log", async () => {
    vi.useFakeTimers();
    const d = fresh();
    const before = new WireLog(manualClock(), 100);
    const keeper = keepWireLog(before, d, () => 5);
    for (let i = 0; i < 20; i++) before.record({ channel: "nats", direction: "out", target: `s.${i}`, bytes: enc.encode(`{"i":${i}}`) });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(d.names).toContain(WIRE_DRAFT);
    keeper.stop();
    const after = new WireLog(manualClock(), 100);
    keepWireLog(after, d, () => 6).stop();
    expect(after.entries().map((e) => e.target)).toEqual(before.entries().map((e) => e.target));
    expect(after.size).toBe(20);
  });

  it("a save armed before a clear, flushed as the page goes, does not bring the cleared log back", async () => {
    const d = fresh();
    const log = new WireLog(manualClock(), 10);
    const keeper = keepWireLog(log, d, () => 0);
    // The log tells of changes a moment after them.
    const settle = () => new Promise((r) => setTimeout(r, 0));
    log.record({ channel: "nats", direction: "out", target: "s", bytes: enc.encode("{}") });
    await settle();
    d.clear();
    keeper.flush();
    expect(d.names).not.toContain(WIRE_DRAFT);
    log.record({ channel: "nats", direction: "out", target: "t", bytes: enc.encode("{}") });
    await settle();
    keeper.flush();
    expect(d.names).toContain(WIRE_DRAFT);
    keeper.stop();
  });

  it("a cleared draft brings nothing back; an unreadable one says so", () => {
    const d = fresh();
    d.save(WIRE_DRAFT, "not a wire log");
    const log = new WireLog(manualClock(), 10);
    keepWireLog(log, d, () => 0).stop();
    expect(log.size).toBe(0);
    expect(d.problem).toMatch(/The saved Traffic log could not be read back/);
    d.clear();
    keepWireLog(log, d, () => 0).stop();
    expect(log.size).toBe(0);
  });

  /** A storage that remembers the size of every write, to show no single one is big. */
  function countingDrafts(): { d: Drafts; writes: number[]; storage: ReturnType<typeof memoryDraftStorage> } {
    const storage = memoryDraftStorage();
    const writes: number[] = [];
    const counted = { ...storage, get length() { return storage.length; }, setItem: (k: string, v: string) => (writes.push(v.length), storage.setItem(k, v)) };
    const d = new Drafts();
    d.use(counted, () => 1000);
    return { d, writes, storage: counted };
  }
  const bigLog = (n: number) => {
    const log = new WireLog(manualClock(), 1000);
    const payload = "x".repeat(60_000);
    for (let i = 0; i < n; i++) log.record({ channel: "nats", direction: "in", target: `big.${i}`, bytes: enc.encode(JSON.stringify({ i, payload })) });
    return log;
  };

  it("a big log is written in pieces, one per task, and comes back whole", async () => {
    vi.useFakeTimers();
    const { d, writes } = countingDrafts();
    const before = bigLog(20);
    const keeper = keepWireLog(before, d, () => 5);
    before.record({ channel: "nats", direction: "out", target: "last", bytes: enc.encode("{}") });
    await vi.advanceTimersByTimeAsync(0);
    // The save's own task writes one piece; each later piece waits for a task of its own.
    await vi.advanceTimersToNextTimerAsync();
    expect(writes).toHaveLength(1);
    await vi.advanceTimersToNextTimerAsync();
    expect(writes).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(100);
    keeper.stop();
    expect(writes.length).toBeGreaterThan(10);
    expect(Math.max(...writes)).toBeLessThanOrEqual(WIRE_PIECE_CHARS + 100);
    const after = new WireLog(manualClock(), 1000);
    keepWireLog(after, d, () => 6).stop();
    expect(d.problem).toBeNull();
    expect(after.entries().map((e) => e.target)).toEqual(before.entries().map((e) => e.target));
  });

  it("keeps only the newest frames that fit its budget in the storage", async () => {
    vi.useFakeTimers();
    const { d } = countingDrafts();
    const log = bigLog(30);
    log.record({ channel: "nats", direction: "out", target: "last", bytes: enc.encode("{}") });
    const keeper = keepWireLog(log, d, () => 5, 500_000);
    log.record({ channel: "nats", direction: "out", target: "after", bytes: enc.encode("{}") });
    await vi.advanceTimersByTimeAsync(0);
    keeper.flush();
    keeper.stop();
    const index = d.read(WIRE_DRAFT);
    expect(index.kind).toBe("ok");
    expect((index as { data: { chars: number } }).data.chars).toBeLessThanOrEqual(500_000);
    const after = new WireLog(manualClock(), 1000);
    keepWireLog(after, d, () => 6).stop();
    expect(after.size).toBeGreaterThan(2);
    expect(after.size).toBeLessThan(log.size);
    expect(after.entries().slice(-2).map((e) => e.target)).toEqual(["last", "after"]);
  });

  it("a reload in the middle of a write says the saved log is half written, and Clear removes its pieces", async () => {
    vi.useFakeTimers();
    const { d, storage } = countingDrafts();
    const log = bigLog(20);
    const keeper = keepWireLog(log, d, () => 5);
    log.record({ channel: "nats", direction: "out", target: "a", bytes: enc.encode("{}") });
    await vi.advanceTimersByTimeAsync(1_700);
    log.record({ channel: "nats", direction: "out", target: "b", bytes: enc.encode("{}") });
    await vi.advanceTimersByTimeAsync(0);
    // The second save has written its first pieces when the page goes.
    for (let i = 0; i < 3; i++) await vi.advanceTimersToNextTimerAsync();
    keeper.stop();
    const after = new WireLog(manualClock(), 1000);
    keepWireLog(after, d, () => 6).stop();
    expect(after.size).toBe(0);
    expect(d.problem).toMatch(/could not be read back: piece \d+ of \d+ belongs to another save/);
    expect(storage.length).toBeGreaterThan(10);
    d.clear();
    expect(storage.length).toBe(0);
  });

  it("flushing as the page goes writes a pending save whole, at once", async () => {
    vi.useFakeTimers();
    const { d, writes } = countingDrafts();
    const log = bigLog(20);
    const keeper = keepWireLog(log, d, () => 5);
    log.record({ channel: "nats", direction: "out", target: "a", bytes: enc.encode("{}") });
    await vi.advanceTimersByTimeAsync(0);
    keeper.flush();
    keeper.stop();
    expect(writes.length).toBeGreaterThan(10);
    const after = new WireLog(manualClock(), 1000);
    keepWireLog(after, d, () => 6).stop();
    expect(after.size).toBe(log.size);
  });

  it("a log saved whole by an earlier Patchbay still comes back", () => {
    const d = fresh();
    const before = new WireLog(manualClock(), 10);
    before.record({ channel: "nats", direction: "out", target: "old", bytes: enc.encode("{}") });
    const keeper = keepWireLog(before, d, () => 5);
    keeper.stop();
    d.save(WIRE_DRAFT, wireLogTail(before, 10_000, 5).text);
    const after = new WireLog(manualClock(), 10);
    keepWireLog(after, d, () => 6).stop();
    expect(after.entries().map((e) => e.target)).toEqual(["old"]);
  });
});
