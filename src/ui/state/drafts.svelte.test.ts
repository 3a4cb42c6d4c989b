import { afterEach, describe, expect, it, vi } from "vitest";
import { manualClock } from "../../core/env/index.ts";
import { memoryDraftStorage } from "../../core/persist/drafts.ts";
import { WireLog } from "../../core/wire/index.ts";
import { Drafts, fieldsOf, restoreFields } from "./drafts.svelte.ts";
import { keepWireLog, WIRE_DRAFT } from "./wire-log-draft.ts";

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
});
