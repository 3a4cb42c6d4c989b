import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../schema/compiler.ts";
import { ValidationEngine } from "./engine.ts";
import { ParsedAhead } from "./parsed-ahead.ts";
import { validateItem } from "./report.ts";
import { batchItem, type BatchItem } from "./split-result.ts";
import { candidate, D7_PACK, fakeFamily } from "./test-packs.ts";

function session() {
  const family = fakeFamily("mcp", [D7_PACK], { recognise: () => ({ candidates: [candidate(D7_PACK, "request", 0.95)] }) });
  return new ValidationEngine([family], new SchemaCompiler()).session();
}

const ping = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

/** Items of every sort a split makes: valid, not JSON, nested too deep, unreadable, and a few large ones. */
function items(count: number): BatchItem[] {
  return Array.from({ length: count }, (_, i) => {
    if (i % 50 === 7) return batchItem("t", `{"jsonrpc": "2.0", "id": ${i},`);
    if (i % 50 === 11) return batchItem("t", "[".repeat(5000) + "]".repeat(5000));
    if (i % 50 === 13) return { source: "t", text: "", error: "The message is 9.0 M characters, over the 8 M this tool validates." };
    if (i % 50 === 17) return batchItem("t", JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping", params: { pad: "x".repeat(50_000) } }));
    return batchItem("t", i % 3 === 0 ? ping(i) : JSON.stringify({ jsonrpc: "2.0", id: i }));
  });
}

describe("ParsedAhead", () => {
  it("gives, in order, the items and the verdicts validateItem gives, across blocks of any size", () => {
    const list = items(300);
    const asked: number[] = [];
    const ahead = new ParsedAhead(list.length, (i) => (asked.push(i), list[i]!));
    const mine = session();
    const theirs = session();
    const statuses = new Set<string>();
    for (let i = 0; i < list.length; i++) {
      expect(ahead.item(i)).toBe(list[i]);
      const verdict = ahead.validate(mine, i);
      expect(verdict).toEqual(validateItem(theirs, list[i]!));
      statuses.add(verdict.status);
    }
    // Each item read once, in order: a block is read ahead, never twice.
    expect(asked).toEqual(list.map((_, i) => i));
    expect(statuses).toEqual(new Set(["valid", "invalid", "unparseable"]));
  });

  it("holds no more than about a megabyte of large messages parsed at once", () => {
    const big = Array.from({ length: 10 }, (_, i) => batchItem("t", JSON.stringify({ jsonrpc: "2.0", id: i, method: "ping", params: { pad: "y".repeat(300_000) } })));
    let read = 0;
    const ahead = new ParsedAhead(big.length, (i) => (read++, big[i]!));
    ahead.validate(session(), 0);
    // 300 KB each: four reach the megabyte; a block of 64 small ones would have read all ten.
    expect(read).toBe(4);
    // One message larger than the cap is still a block of its own.
    const huge = [batchItem("t", JSON.stringify({ pad: "z".repeat(2_000_000) })), batchItem("t", ping(1))];
    let hugeRead = 0;
    const one = new ParsedAhead(huge.length, (i) => (hugeRead++, huge[i]!));
    expect(one.validate(session(), 0).status).not.toBe("unparseable");
    expect(hugeRead).toBe(1);
  });

  it("reads a new block when asked out of order, and refuses an index outside the input", () => {
    const list = items(200);
    const ahead = new ParsedAhead(list.length, (i) => list[i]!);
    const s = session();
    expect(ahead.validate(s, 150)).toEqual(validateItem(session(), list[150]!));
    expect(ahead.item(3)).toBe(list[3]);
    expect(ahead.item(199)).toBe(list[199]);
    for (const bad of [-1, 200, 1.5, Number.NaN]) expect(() => ahead.item(bad)).toThrow(RangeError);
    expect(() => new ParsedAhead(0, () => list[0]!).item(0)).toThrow(/no message #0: the input holds 0/);
  });

  it("passes a chosen classification through, and never to an unreadable item", () => {
    const list = [batchItem("t", ping(1)), { source: "t", text: "", error: "not UTF-8" }];
    const ahead = new ParsedAhead(list.length, (i) => list[i]!);
    const override = { packId: D7_PACK.id };
    expect(ahead.validate(session(), 0, override)).toEqual(session().validateText(ping(1), override));
    const unread = ahead.validate(session(), 1, override);
    expect(unread.status).toBe("unparseable");
    expect(unread.issues[0]!.message).toBe("not UTF-8");
  });
});
