import { describe, expect, it } from "vitest";
import { manualClock } from "../../env/index.ts";
import { isValidConversationToken, isValidId, isValidIdentityName, isValidRequestId, ksuidFromBytes, ksuidTimestamp, mintKsuid } from "./ids.ts";

const hex = (h: string): Uint8Array => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));

describe("KSUIDs", () => {
  it("writes the segmentio reference KSUID from its 20 bytes", () => {
    // Timestamp 107608047 (2017-10-10T04:00:47Z) and its payload, as the ksuid tool inspects it.
    expect(ksuidFromBytes(hex("0669F7EFB5A1CD34B5F99D1154FB6853345C9735"))).toBe("0ujtsYcgvSTl8PAuAdqWYSMnLOv");
    expect(ksuidTimestamp("0ujtsYcgvSTl8PAuAdqWYSMnLOv")).toBe(1_507_608_047);
  });

  it("pads the smallest and reaches the largest 27-character value", () => {
    expect(ksuidFromBytes(new Uint8Array(20))).toBe("0".repeat(27));
    expect(ksuidFromBytes(new Uint8Array(20).fill(255))).toBe("aWgEPTl1tmebfsQzFP4bxwgy80V");
    expect(() => ksuidFromBytes(new Uint8Array(16))).toThrow(RangeError);
  });

  it("mints from the injected clock and randomness: seconds since 1400000000, then 16 random bytes", () => {
    const clock = manualClock(0, 1_787_303_645_512);
    const id = mintKsuid(clock, (b) => b.fill(0xab));
    expect(id).toHaveLength(27);
    expect(id).toMatch(/^[0-9A-Za-z]{27}$/);
    expect(ksuidTimestamp(id)).toBe(1_787_303_645);
    expect(isValidRequestId(id)).toBe(true);
    // The same second and bytes give the same id; other bytes give another.
    expect(mintKsuid(clock, (b) => b.fill(0xab))).toBe(id);
    expect(mintKsuid(clock, (b) => b.fill(0xac))).not.toBe(id);
  });

  it("sorts by time as text, like Go's KSUIDs", () => {
    const early = mintKsuid(manualClock(0, 1_500_000_000_000), (b) => b.fill(255));
    const late = mintKsuid(manualClock(0, 1_500_000_001_000), (b) => b.fill(0));
    expect(early < late).toBe(true);
  });

  it("wraps a time before the KSUID epoch like Go's uint32 instead of failing", () => {
    const id = mintKsuid(manualClock(0, 1_399_999_999_000), (b) => b.fill(0));
    expect(ksuidTimestamp(id)).toBe(1_400_000_000 + 0xffffffff);
  });

  it("refuses a random source that does not fill 16 bytes", () => {
    expect(() => mintKsuid(manualClock(), () => new Uint8Array(3))).toThrow(/16 bytes/);
  });

  it("reads no timestamp from text that is not a KSUID", () => {
    expect(ksuidTimestamp("short")).toBeNull();
    expect(ksuidTimestamp("0ujtsYcgvSTl8PAuAdqWYSMnLO-")).toBeNull();
    expect(ksuidTimestamp("zzzzzzzzzzzzzzzzzzzzzzzzzzz")).toBeNull();
  });
});

describe("id rules", () => {
  it.each(["agent", "agent-1", "agent_1", "AGENT9"])("accepts the identity %s", (name) => {
    expect(isValidIdentityName(name)).toBe(true);
  });

  it.each(["", "svc.example", "with space", "sl/ash"])("refuses the identity %j", (name) => {
    expect(isValidIdentityName(name)).toBe(false);
  });

  it.each(["2abc", "task-1", "task_1", "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3", "x".repeat(64)])("accepts the request id %s", (id) => {
    expect(isValidRequestId(id)).toBe(true);
  });

  it.each(["", "task.other", "task>", "task*", "task with space", "sl/ash", "x".repeat(65), "tâsk"])("refuses the request id %j", (id) => {
    expect(isValidRequestId(id)).toBe(false);
  });

  it("puts no length limit on ids and conversations, 128 on tokens", () => {
    expect(isValidId("x".repeat(1000))).toBe(true);
    expect(isValidConversationToken("x".repeat(128))).toBe(true);
    expect(isValidConversationToken("x".repeat(129))).toBe(false);
    expect(isValidConversationToken("a.b")).toBe(false);
  });
});
