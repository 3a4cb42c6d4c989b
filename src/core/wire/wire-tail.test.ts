import { describe, expect, it } from "vitest";
import { manualClock } from "../env/index.ts";
import { importWireJsonl } from "./jsonl.ts";
import { WireLog } from "./wire-log.ts";
import { restoreWireTail, wireLogTail } from "./wire-tail.ts";

const enc = new TextEncoder();

function filled(n: number, capacity = 100): WireLog {
  const log = new WireLog(manualClock(0, 1_700_000_000_000), capacity);
  for (let i = 1; i <= n; i++) {
    log.record({ channel: "mcp", direction: i % 2 ? "out" : "in", target: `t${i}`, correlationId: String(Math.ceil(i / 2)), bytes: enc.encode(i % 2 ? `{"id":${Math.ceil(i / 2)},"method":"tools/call"}` : `{"id":${i / 2},"result":{}}`) });
  }
  return log;
}

describe("wire log tail", () => {
  it("writes every entry when they fit, as a valid export, and restores them with their fields", () => {
    const log = filled(6);
    const tail = wireLogTail(log, 100_000, 1_700_000_000_500);
    expect(tail).toMatchObject({ kept: 6, left: 0 });
    expect(importWireJsonl(tail.text).problems).toEqual([]);
    const back = new WireLog(manualClock(), 100);
    expect(restoreWireTail(back, tail.text)).toBe(6);
    expect(back.entries().map((e) => [e.seq, e.target, e.wall, e.decoded.requestMethod])).toEqual(
      log.entries().map((e) => [e.seq, e.target, e.wall, e.decoded.requestMethod]),
    );
    expect(back.entries()[1]?.decoded.requestMethod).toBe("tools/call");
  });

  it("keeps only the newest entries within the character budget", () => {
    const log = filled(50);
    const tail = wireLogTail(log, 2_000, 0);
    expect(tail.text.length).toBeLessThanOrEqual(2_000);
    expect(tail.kept).toBeGreaterThan(0);
    expect(tail.kept + tail.left).toBe(50);
    const { header, entries } = importWireJsonl(tail.text);
    expect(header.count).toBe(tail.kept);
    expect(entries.at(-1)?.target).toBe("t50");
    expect(entries[0]?.seq).toBe(51 - tail.kept);
  });

  it("never holds more than the ring does", () => {
    const log = filled(30, 10);
    expect(wireLogTail(log, 1_000_000, 0)).toMatchObject({ kept: 10, left: 0 });
  });
});
