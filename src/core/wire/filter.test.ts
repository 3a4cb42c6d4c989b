import { describe, expect, it } from "vitest";
import { manualClock } from "../env/defaults.ts";
import { compileWireFilter, filterWireEntries, isErrorEntry, SEARCH_PAYLOAD_LIMIT } from "./filter.ts";
import type { WireEntry, WireFrameInput } from "./wire-entry.ts";
import { WireLog } from "./wire-log.ts";

const enc = new TextEncoder();

function entry(payload: string | Uint8Array, extra: Partial<WireFrameInput> = {}): WireEntry {
  const log = new WireLog(manualClock(), 10);
  const bytes = typeof payload === "string" ? enc.encode(payload) : payload;
  return log.record({ channel: "nats", direction: "out", target: "svc.echo", bytes, ...extra });
}

const rpc = (method: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method });

describe("compileWireFilter", () => {
  const mcpList = entry(rpc("tools/list"), { channel: "mcp", target: "http://127.0.0.1:3000/mcp" });
  const mcpCall = entry(rpc("tools/call"), { channel: "mcp", direction: "in", target: "http://127.0.0.1:3000/mcp", status: 200 });
  const a2a = entry(rpc("message/send"), { channel: "a2a-http", target: "https://agent.example/a2a", status: 500 });
  const fisk = entry(JSON.stringify({ protocol: "fisk.a2a.v1", body: {} }), { target: "agents.alpha.inbox" });
  const all = [mcpList, mcpCall, a2a, fisk];
  const pick = (spec: Parameters<typeof compileWireFilter>[0]) => filterWireEntries(all, spec);

  it("matches everything with an empty spec", () => {
    expect(pick({})).toEqual(all);
  });

  it("filters by channel set; an empty set matches nothing", () => {
    expect(pick({ channels: new Set(["mcp"]) })).toEqual([mcpList, mcpCall]);
    expect(pick({ channels: new Set(["nats", "a2a-http"]) })).toEqual([a2a, fisk]);
    expect(pick({ channels: new Set() })).toEqual([]);
  });

  it("filters by direction", () => {
    expect(pick({ direction: "in" })).toEqual([mcpCall]);
  });

  it("matches a method box against method or protocol id, by case-insensitive prefix", () => {
    expect(pick({ method: "tools/" })).toEqual([mcpList, mcpCall]);
    expect(pick({ method: "  TOOLS/CA " })).toEqual([mcpCall]);
    expect(pick({ method: "FISK" })).toEqual([fisk]);
    expect(pick({ method: "list" })).toEqual([]);
  });

  it("matches protocolId against the protocol id only", () => {
    expect(pick({ protocolId: "fisk.a2a" })).toEqual([fisk]);
    expect(pick({ protocolId: "tools" })).toEqual([]);
  });

  it("filters by status class or exact status", () => {
    expect(pick({ status: "error" })).toEqual([a2a]);
    expect(pick({ status: "ok" })).toEqual([mcpList, mcpCall, fisk]);
    expect(pick({ status: 200 })).toEqual([mcpCall]);
    expect(pick({ status: "any" })).toEqual(all);
  });

  it("combines every field with AND", () => {
    expect(pick({ channels: new Set(["mcp"]), method: "tools", direction: "out" })).toEqual([mcpList]);
  });
});

describe("isErrorEntry", () => {
  it("flags status >= 400, failure notes and JSON-RPC error replies", () => {
    expect(isErrorEntry(entry("", { status: 503, note: "no responders" }))).toBe(true);
    expect(isErrorEntry(entry("", { status: 404 }))).toBe(true);
    expect(isErrorEntry(entry("", { note: "timeout after 5000 ms" }))).toBe(true);
    expect(isErrorEntry(entry("", { note: "No Responders" }))).toBe(true);
    expect(isErrorEntry(entry('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}'))).toBe(true);
  });

  it("does not flag successful frames", () => {
    expect(isErrorEntry(entry("", { status: 200 }))).toBe(false);
    expect(isErrorEntry(entry("", { status: 399 }))).toBe(false);
    expect(isErrorEntry(entry('{"jsonrpc":"2.0","id":1,"result":{},"error":null}'))).toBe(false);
    expect(isErrorEntry(entry('[{"error":1}]'))).toBe(false);
    expect(isErrorEntry(entry("plain text mentioning error in the payload"))).toBe(false);
  });
});

describe("free-text search", () => {
  const search = (e: WireEntry, text: string) => compileWireFilter({ text })(e);

  it("searches target, correlation id, note, header names and values, and payload, case-insensitively", () => {
    const e = entry("Hello Payload", {
      target: "orders.created",
      correlationId: "corr-77",
      note: "timeout after 10 ms",
      headers: { "X-Trace": ["abc-123"] },
    });
    for (const hit of ["ORDERS.CR", "corr-77", "after 10", "x-trace", "ABC-123", "hello payload"]) {
      expect(search(e, hit)).toBe(true);
    }
    expect(search(e, "absent")).toBe(false);
    expect(search(e, "   ")).toBe(true);
  });

  it("finds text in binary payloads without throwing", () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...enc.encode("needle"), 0x00]);
    expect(search(entry(bytes), "needle")).toBe(true);
  });

  it("searches only the first 64 KiB of a payload", () => {
    const head = "a".repeat(SEARCH_PAYLOAD_LIMIT - 6);
    const big = entry(`${head}inside${"b".repeat(1000)}beyond`);
    expect(search(big, "inside")).toBe(true);
    expect(search(big, "beyond")).toBe(false);
  });

  it("gives the same answer on a second pass over the same entries", () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(`msg ${i % 5 === 0 ? "match" : "other"}`));
    const first = filterWireEntries(entries, { text: "match" });
    expect(first).toHaveLength(10);
    expect(filterWireEntries(entries, { text: "MATCH" })).toEqual(first);
  });
});

describe("method filter keeps request and answer together", () => {
  it("matches an answer by the method of its request", () => {
    const log = new WireLog(manualClock(), 10);
    const e = enc;
    log.record({ channel: "mcp", direction: "out", target: "u", correlationId: "1", bytes: e.encode('{"id":1,"method":"tools/call"}') });
    log.record({ channel: "mcp", direction: "out", target: "u", correlationId: "2", bytes: e.encode('{"id":2,"method":"ping"}') });
    log.record({ channel: "mcp", direction: "in", target: "u", correlationId: "1", bytes: e.encode('{"id":1,"result":{}}') });
    log.record({ channel: "mcp", direction: "in", target: "u", correlationId: "2", bytes: e.encode('{"id":2,"result":{}}') });
    expect(filterWireEntries(log.entries(), { method: "tools/" }).map((x) => x.seq)).toEqual([1, 3]);
  });
});
