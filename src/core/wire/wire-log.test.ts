import { describe, expect, it } from "vitest";
import { manualClock } from "../env/index.ts";
import { WireLog } from "./wire-log.ts";
import type { WireFrameInput } from "./wire-entry.ts";

const enc = new TextEncoder();
const frame = (n: number, extra: Partial<WireFrameInput> = {}): WireFrameInput => ({
  channel: "nats",
  direction: "out",
  target: `s.${n}`,
  bytes: enc.encode(`{"n":${n}}`),
  ...extra,
});
const targets = (log: WireLog) => log.entries().map((e) => e.target);
const tick = () => new Promise<void>((r) => queueMicrotask(r));

describe("WireLog", () => {
  it("keeps the exact bytes, sizes, sequence and clock readings", () => {
    const clock = manualClock(0, 5000);
    const log = new WireLog(clock, 10);
    clock.advance(1.25);
    const bytes = new Uint8Array([0xff, 0x00, 0x7b]);
    const e = log.record(frame(1, { bytes, headers: { A: ["1", "2"] }, status: 503, note: "no responders" }));
    expect(e).toMatchObject({ seq: 1, ts: 1.25, wall: 5001.25, size: 3, status: 503, note: "no responders" });
    expect(e.bytes).toBe(bytes);
    expect(e.headers).toEqual({ A: ["1", "2"] });
    expect(e.decoded.jsonError).toBe("not valid UTF-8");
  });

  it("decodes JSON with its method and protocol id", () => {
    const log = new WireLog(manualClock(), 4);
    const a = log.record(frame(1, { bytes: enc.encode('{"jsonrpc":"2.0","id":1,"method":"tools/call"}') }));
    const b = log.record(frame(2, { bytes: enc.encode('{"protocol":"io.choria.fisk-ai.v1.tool.request"}') }));
    expect(a.decoded).toMatchObject({ method: "tools/call" });
    expect(b.decoded).toMatchObject({ protocolId: "io.choria.fisk-ai.v1.tool.request" });
  });

  it("drops the oldest frames past capacity and counts them", async () => {
    const log = new WireLog(manualClock(), 3);
    for (let i = 1; i <= 7; i++) log.record(frame(i));
    expect(targets(log)).toEqual(["s.5", "s.6", "s.7"]);
    expect(log.dropped).toBe(4);
    await tick();
    expect(log.snapshot).toMatchObject({ dropped: 4, total: 7, capacity: 3 });
    expect(log.snapshot.entries.map((e) => e.seq)).toEqual([5, 6, 7]);
  });

  it("publishes one snapshot per burst of frames", async () => {
    const log = new WireLog(manualClock(), 100);
    let changes = 0;
    log.on("change", () => changes++);
    for (let i = 0; i < 50; i++) log.record(frame(i));
    expect(changes).toBe(0);
    await tick();
    expect(changes).toBe(1);
    expect(log.snapshot.entries).toHaveLength(50);
  });

  it("shrinks keeping the newest, grows keeping everything", () => {
    const log = new WireLog(manualClock(), 5);
    for (let i = 1; i <= 5; i++) log.record(frame(i));
    log.resize(2);
    expect(targets(log)).toEqual(["s.4", "s.5"]);
    expect(log.dropped).toBe(3);
    log.resize(10);
    log.record(frame(6));
    expect(targets(log)).toEqual(["s.4", "s.5", "s.6"]);
    expect(log.capacity).toBe(10);
  });

  it("clears entries and the dropped count but keeps numbering forward", () => {
    const log = new WireLog(manualClock(), 2);
    for (let i = 1; i <= 3; i++) log.record(frame(i));
    log.clear();
    expect(log.entries()).toEqual([]);
    expect(log.dropped).toBe(0);
    expect(log.record(frame(9)).seq).toBe(4);
  });

  it("restores imported entries with their own sequence numbers", () => {
    const source = new WireLog(manualClock(), 10);
    const a = source.record(frame(1));
    const b = source.record(frame(2));
    const target = new WireLog(manualClock(), 10);
    target.restore([a, b]);
    expect(target.entries()).toEqual([a, b]);
    expect(target.record(frame(3)).seq).toBe(3);
  });

  it("counts its entries in O(1) as they come, go and are cleared", () => {
    const log = new WireLog(manualClock(), 3);
    expect(log.size).toBe(0);
    for (let i = 1; i <= 5; i++) log.record(frame(i));
    expect(log.size).toBe(3);
    log.resize(2);
    expect(log.size).toBe(2);
    log.clear();
    expect(log.size).toBe(0);
  });

  it("lists the distinct statuses present, ascending, forgetting those pushed out", async () => {
    const log = new WireLog(manualClock(), 5);
    for (const status of [503, undefined, 200, 503, 404]) log.record(frame(1, status === undefined ? {} : { status }));
    await tick();
    expect(log.snapshot.statuses).toEqual([200, 404, 503]);
    log.record(frame(2)); // pushes out the first 503; the second one remains
    log.record(frame(3)); // pushes out the status-less entry
    log.record(frame(4, { status: 201 })); // pushes out 200
    await tick();
    expect(log.snapshot.statuses).toEqual([201, 404, 503]);
    log.resize(2); // keeps frame 3 and the 201
    expect(log.snapshot.statuses).toEqual([201]);
    log.clear();
    expect(log.snapshot.statuses).toEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN, 10_000_001])("refuses capacity %s", (cap) => {
    expect(() => new WireLog(manualClock(), cap)).toThrow(RangeError);
    expect(() => new WireLog(manualClock(), 5).resize(cap)).toThrow(/capacity must be an integer/);
  });
});

describe("WireLog followers", () => {
  it("list only the entries after a sequence number, also once the ring has wrapped", () => {
    const log = new WireLog(manualClock(), 4);
    expect(log.lastSeq).toBe(0);
    expect(log.entriesAfter(0)).toEqual([]);
    for (let i = 1; i <= 6; i++) log.record(frame(i));
    expect(log.lastSeq).toBe(6);
    expect(log.entriesAfter(4).map((e) => e.target)).toEqual(["s.5", "s.6"]);
    expect(log.entriesAfter(6)).toEqual([]);
    // Asked for more than the ring still holds: what is left, the gap showing in the sequence numbers.
    expect(log.entriesAfter(0).map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    log.clear();
    expect([log.lastSeq, log.entriesAfter(0).length]).toEqual([0, 0]);
  });
});

describe("WireLog snapshots", () => {
  it("report the size without building the entries array, and build it once when read", async () => {
    const log = new WireLog(manualClock(), 1000);
    for (let i = 0; i < 10; i++) log.record(frame(i));
    await tick();
    const snap = log.snapshot;
    expect(snap.size).toBe(10);
    const first = snap.entries;
    expect(first).toHaveLength(10);
    expect(snap.entries).toBe(first);
    log.record(frame(10));
    await tick();
    expect(log.snapshot).not.toBe(snap);
    expect(log.snapshot.size).toBe(11);
    expect(log.snapshot.entries).not.toBe(first);
  });
});

describe("WireLog pairs answers with their requests", () => {
  const json = (value: unknown) => enc.encode(JSON.stringify(value));

  it("a response without a method is given its request's, per channel and correlation id", () => {
    const log = new WireLog(manualClock(), 10);
    log.record(frame(1, { channel: "mcp", correlationId: "1", bytes: json({ jsonrpc: "2.0", id: 1, method: "tools/call" }) }));
    log.record(frame(2, { channel: "mcp", correlationId: "2", bytes: json({ jsonrpc: "2.0", id: 2, method: "tools/list" }) }));
    const answer = log.record(frame(3, { channel: "mcp", direction: "in", correlationId: "1", bytes: json({ jsonrpc: "2.0", id: 1, result: {} }) }));
    const other = log.record(frame(4, { channel: "nats", direction: "in", correlationId: "1", bytes: json({ ok: true }) }));
    expect(answer.decoded.requestMethod).toBe("tools/call");
    expect(answer.decoded.method).toBeUndefined();
    expect(other.decoded.requestMethod).toBeUndefined();
  });

  it("a reused id takes the newest request's method; a reply set keeps its request's protocol", () => {
    const log = new WireLog(manualClock(), 10);
    log.record(frame(1, { channel: "mcp", correlationId: "0", bytes: json({ id: 0, method: "initialize" }) }));
    log.record(frame(2, { channel: "mcp", correlationId: "0", bytes: json({ id: 0, method: "ping" }) }));
    expect(log.record(frame(3, { channel: "mcp", correlationId: "0", bytes: json({ id: 0, result: {} }) })).decoded.requestMethod).toBe("ping");
    log.record(frame(4, { correlationId: "x", bytes: json({ protocol: "fisk.tool.request" }) }));
    log.record(frame(5, { correlationId: "x", bytes: json({ protocol: "fisk.tool.reply" }) }));
    const status = log.record(frame(6, { correlationId: "x", bytes: new Uint8Array(0), status: 408 }));
    expect(status.decoded.requestMethod).toBe("fisk.tool.request");
  });

  it("restored entries are paired again, and clear() forgets the requests", () => {
    const source = new WireLog(manualClock(), 10);
    const asked = source.record(frame(1, { correlationId: "7", bytes: json({ id: 7, method: "tools/call" }) }));
    const bare = { ...source.record(frame(2, { correlationId: "7", bytes: json({ id: 7, result: 1 }) })) };
    const plain = { ...bare, decoded: { json: bare.decoded.json } };
    const log = new WireLog(manualClock(), 10);
    log.restore([asked, plain]);
    expect(log.entries()[1]?.decoded.requestMethod).toBe("tools/call");
    log.clear();
    expect(log.record(frame(3, { correlationId: "7", bytes: json({ id: 7, result: 1 }) })).decoded.requestMethod).toBeUndefined();
  });
});
