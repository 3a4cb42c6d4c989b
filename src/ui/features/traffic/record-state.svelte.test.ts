import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import { parseCollection } from "../../../core/harness/index.ts";
import { CaptureKit } from "../../../core/harness/testing/wire-captures.ts";
import { wireJsonlLines, type WireEntry } from "../../../core/wire/index.ts";
import { checkedStore } from "../collections/collections-fakes.ts";
import { defaultRecordName } from "./record-name.ts";
import { RECORD_FILE_MAX_BYTES, RecordState } from "./record-state.svelte.ts";

const WALL = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

/** An echo call against server-everything, and one request the peer asked of Patchbay. */
function echoCapture(): WireEntry[] {
  const kit = new CaptureKit();
  const s = kit.mcp("http://127.0.0.1:3001/mcp");
  s.request(0, "tools/call", { name: "echo", arguments: { message: "hi" } });
  s.result(0, { content: [{ type: "text", text: "Echo: hi" }] });
  s.serverAsks(0, "roots/list");
  return kit.entries();
}

function setup() {
  const store = checkedStore();
  const opened: string[] = [];
  const record = new RecordState(store, () => WALL, (name) => opened.push(name));
  return { store, opened, record };
}

const jsonl = (entries: readonly WireEntry[]): string => [...wireJsonlLines(entries, { capacity: 100, dropped: 0, exportedAt: WALL })].join("");

describe("defaultRecordName", () => {
  it("names the recording after the wall time, as a safe document name", () => {
    expect(defaultRecordName(WALL)).toBe("recorded-2026-01-02T03-04-05");
  });
});

describe("RecordState", () => {
  it("records the frames shown, lists what it left out, saves a valid collection and opens it", async () => {
    const { store, opened, record } = setup();
    await record.fromEntries(echoCapture(), "the 3 frames shown");
    expect(record.open).toBe(true);
    expect(record.name).toBe("recorded-2026-01-02T03-04-05");
    expect(record.steps).toBe(1);
    expect(record.result?.skipped.map((s) => s.reason)).toEqual(["roots/list: asked by the peer, not by Patchbay"]);
    record.openSaved();
    expect(opened).toEqual([]);
    record.name = "  echo-recorded ";
    await record.save();
    expect(record.error).toBeNull();
    expect(record.notice).toBe('saved "echo-recorded" (1 step)');
    const saved = store.docs.get("collections/echo-recorded");
    expect(parseCollection(saved).ok).toBe(true);
    expect(saved).toMatchObject({ name: "echo-recorded", steps: [{ name: "tools/call echo" }] });
    record.openSaved();
    expect(opened).toEqual(["echo-recorded"]);
  });

  it("picks a default name no collection has, and refuses a taken or bad name", async () => {
    const { store, record } = setup();
    store.docs.set("collections/recorded-2026-01-02T03-04-05", {});
    await record.fromEntries(echoCapture(), "frames");
    expect(record.name).toBe("recorded-2026-01-02T03-04-05-2");
    record.name = "recorded-2026-01-02T03-04-05";
    await record.save();
    expect(record.error).toBe('a collection named "recorded-2026-01-02T03-04-05" already exists: choose another name');
    record.name = "a/b";
    await record.save();
    expect(record.error).toMatch(/^cannot name a collection "a\/b": the name contains a path separator$/);
    expect(record.saved).toBeNull();
  });

  it("shows the backend's refusal verbatim and keeps the recording to try again", async () => {
    const { store, record } = setup();
    await record.fromEntries(echoCapture(), "frames");
    store.failNext.write = new BackendError(400, "invalid_collection", "the collection is not valid: /steps/0/target: no such target");
    await record.save();
    expect(record.error).toBe("the collection is not valid: /steps/0/target: no such target");
    expect(record.saved).toBeNull();
    expect(record.steps).toBe(1);
    await record.save();
    expect(record.saved).toBe("recorded-2026-01-02T03-04-05");
  });

  it("refuses to save a recording without steps", async () => {
    const { store, record } = setup();
    const kit = new CaptureKit();
    kit.mcp("http://x/mcp").serverAsks(0, "roots/list");
    await record.fromEntries(kit.entries(), "the 1 frame shown");
    expect(record.steps).toBe(0);
    await record.save();
    expect(record.error).toBe("nothing to save: none of the frames of the 1 frame shown is a request Patchbay sent");
    expect(store.docs.size).toBe(0);
  });

  it("records a capture file, naming the lines it could not read", async () => {
    const { record } = setup();
    await record.fromFile(new File([jsonl(echoCapture()) + "not json\n"], "cap.jsonl"));
    expect(record.source).toBe("the capture cap.jsonl");
    expect(record.steps).toBe(1);
    expect(record.fileProblems.some((p) => p.startsWith("line 5: not JSON"))).toBe(true);
    expect(record.error).toBeNull();
  });

  it("refuses a file that is no capture, or too big, saying why", async () => {
    const { record } = setup();
    await record.fromFile(new File(['{"hello": 1}\n'], "other.json"));
    expect(record.result).toBeNull();
    expect(record.error).toMatch(/^could not import other.json: line 1: not a Patchbay wire log/);
    const big = new File(["x"], "big.jsonl");
    Object.defineProperty(big, "size", { value: RECORD_FILE_MAX_BYTES + 1 });
    await record.fromFile(big);
    expect(record.error).toBe(`big.jsonl is ${RECORD_FILE_MAX_BYTES + 1} bytes; a capture of at most ${RECORD_FILE_MAX_BYTES} bytes is read`);
  });
});
