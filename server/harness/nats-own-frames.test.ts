import { describe, expect, it } from "vitest";
import { manualClock } from "../../src/core/env/index.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { EarlierSends, LATE_ANSWER_MS, ownEntries } from "./nats-own-frames.ts";

const enc = new TextEncoder();

function logWith(): { log: WireLog; rec: (direction: "out" | "in", id: string | undefined, body: string) => void } {
  const log = new WireLog(manualClock(0, 0), 100);
  const rec = (direction: "out" | "in", id: string | undefined, body: string) =>
    log.record({ channel: "nats", direction, target: "svc.echo", bytes: enc.encode(body), ...(id === undefined ? {} : { correlationId: id }) });
  return { log, rec };
}

const texts = (entries: readonly { bytes: Uint8Array }[]) => entries.map((e) => new TextDecoder().decode(e.bytes));

describe("a NATS step's own frames", () => {
  it("leave out a late answer to an earlier step's send, and keep the step's own frames and unsolicited ones", () => {
    const { log, rec } = logWith();
    const earlier = new EarlierSends();
    rec("out", "nats-1", "first ask");
    expect(texts(ownEntries(earlier, log.entriesAfter(0), 1_000))).toEqual(["first ask"]);
    const mark = log.lastSeq;
    rec("in", "nats-1", "late answer to the first");
    rec("out", "nats-2", "second ask");
    rec("in", "nats-2", "second answer");
    rec("in", undefined, "a frame no send asked for");
    expect(texts(ownEntries(earlier, log.entriesAfter(mark), 2_000))).toEqual(["second ask", "second answer", "a frame no send asked for"]);
  });

  it("forget a send once no late answer to it can come, so a long session's ids do not pile up", () => {
    const { log, rec } = logWith();
    const earlier = new EarlierSends();
    for (let i = 1; i <= 50; i++) rec("out", `nats-${i}`, `ask ${i}`);
    ownEntries(earlier, log.entriesAfter(0), 0);
    expect(earlier.size).toBe(50);
    const mark = log.lastSeq;
    rec("out", "nats-51", "ask 51");
    // Still within the window: the earlier ids are kept, and the new send joins them.
    ownEntries(earlier, log.entriesAfter(mark), LATE_ANSWER_MS);
    expect(earlier.size).toBe(51);
    // Past the first 50's window, not the 51st's.
    const later = log.lastSeq;
    ownEntries(earlier, log.entriesAfter(later), LATE_ANSWER_MS + 1);
    expect(earlier.size).toBe(1);
    expect(earlier.has("nats-51")).toBe(true);
    expect(earlier.has("nats-1")).toBe(false);
    ownEntries(earlier, [], 2 * LATE_ANSWER_MS + 1);
    expect(earlier.size).toBe(0);
  });
});
