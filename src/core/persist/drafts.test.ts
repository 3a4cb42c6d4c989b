import { describe, expect, it } from "vitest";
import { DRAFT_FORMAT, DraftStore, fitsShape, memoryDraftStorage, type DraftStorage } from "./drafts.ts";

const T = 1_700_000_000_000;

function store(storage: DraftStorage = memoryDraftStorage()) {
  return { storage, drafts: new DraftStore(storage, () => T) };
}

describe("draft store", () => {
  it("round-trips a value in a versioned envelope under a prefixed key", () => {
    const { storage, drafts } = store();
    expect(drafts.write("nats.form", { servers: "ws://x", rows: [{ name: "a" }] })).toEqual({ ok: true, chars: expect.any(Number) });
    expect(JSON.parse(storage.getItem("patchbay.draft.nats.form") ?? "")).toEqual({
      format: DRAFT_FORMAT,
      version: 1,
      savedAt: T,
      data: { servers: "ws://x", rows: [{ name: "a" }] },
    });
    expect(drafts.read("nats.form")).toEqual({ kind: "ok", data: { servers: "ws://x", rows: [{ name: "a" }] }, savedAt: T });
  });

  it("a missing draft reads as none", () => {
    expect(store().drafts.read("nope")).toEqual({ kind: "none" });
  });

  it.each([
    ["not JSON", "{ nope", /not JSON/],
    ["another format", JSON.stringify({ format: "x", version: 1, data: 1 }), /not a patchbay\.draft envelope/],
    ["no data", JSON.stringify({ format: DRAFT_FORMAT, version: 1 }), /not a patchbay\.draft envelope/],
    ["a bad version", JSON.stringify({ format: DRAFT_FORMAT, version: "1", data: 1 }), /no valid version/],
    ["a newer version", JSON.stringify({ format: DRAFT_FORMAT, version: 2, data: 1 }), /version 2, newer than this Patchbay understands \(1\)/],
  ])("%s is unreadable, says why, and is left in place", (_label, text, why) => {
    const { storage, drafts } = store();
    storage.setItem("patchbay.draft.x", text);
    const read = drafts.read("x");
    expect(read.kind).toBe("unreadable");
    expect(read.kind === "unreadable" && read.reason).toMatch(why);
    expect(storage.getItem("patchbay.draft.x")).toBe(text);
  });

  it("a full storage is reported, not thrown", () => {
    const full: DraftStorage = {
      ...memoryDraftStorage(),
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const result = store(full).drafts.write("big", "x".repeat(100));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/refused \d+ characters: QuotaExceededError/);
  });

  it("lists and clears only drafts, leaving other keys alone", () => {
    const { storage, drafts } = store();
    storage.setItem("patchbay.dev-token", "t");
    drafts.write("b", 1);
    drafts.write("a", 2);
    expect(drafts.names()).toEqual(["a", "b"]);
    expect(drafts.clear()).toBe(2);
    expect(drafts.names()).toEqual([]);
    expect(storage.getItem("patchbay.dev-token")).toBe("t");
  });
});

describe("fitsShape", () => {
  it.each([
    ["", "text", true],
    ["", 1, false],
    [0, 5, true],
    [false, true, true],
    [{ a: "", b: 0 }, { a: "x", b: 1, extra: true }, true],
    [{ a: "", b: 0 }, { a: "x" }, false],
    [[{ name: "", value: "" }], [{ name: "a", value: "b" }, { name: "c", value: "d" }], true],
    [[{ name: "", value: "" }], [{ name: "a" }], false],
    [[], [1, "x"], true],
    ["", ["x"], false],
    ["", { a: 1 }, false],
    [null, null, true],
    [null, "saved-name", true],
    [null, { a: 1 }, false],
    ["", null, false],
  ])("%j against %j → %s", (template, value, fits) => {
    expect(fitsShape(template, value)).toBe(fits);
  });
});
