import { describe, expect, it } from "vitest";
import { manualClock } from "../../../core/env/index.ts";
import { WireLog, type WireEntry } from "../../../core/wire/index.ts";
import { methodText, trafficColumns } from "./columns.ts";

const enc = new TextEncoder();

function entries(): WireEntry[] {
  const clock = manualClock();
  const log = new WireLog(clock, 10);
  log.record({ channel: "mcp", direction: "out", target: "u", correlationId: "1", bytes: enc.encode('{"id":1,"method":"notifications/resources/list_changed"}') });
  clock.advance(12_345.6);
  log.record({ channel: "mcp", direction: "in", target: "u", correlationId: "1", rttMs: 1234.5, bytes: enc.encode('{"id":1,"result":{}}') });
  return log.entries();
}

describe("Traffic columns", () => {
  it("a reply shows the method of its request, marked as an answer", () => {
    const [asked, answer] = entries();
    expect(methodText(asked!)).toBe("notifications/resources/list_changed");
    expect(methodText(answer!)).toBe("↩ notifications/resources/list_changed");
  });

  it("sizes the method, offset and latency columns to the longest value", () => {
    const cols = trafficColumns(entries(), 0).split(" ");
    expect(cols[1]).toBe(`${"12,345.6".length + 1}ch`);
    expect(cols[3]).toBe("7ch");
    expect(cols[5]).toBe(`${"↩ notifications/resources/list_changed".length}ch`);
    expect(cols[8]).toBe(`${"1,234.5 ms".length}ch`);
  });

  it("keeps narrow columns wide enough for their headings when there is little in them", () => {
    expect(trafficColumns([], 0)).toBe("12ch 4ch 2ch 7ch minmax(16ch,1fr) 6ch 6ch 10ch 3ch");
  });
});
