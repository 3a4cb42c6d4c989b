import { describe, expect, it } from "vitest";
import { DocumentError } from "./document-store.ts";
import { decodeEnvelope, encodeEnvelope, formatOf } from "./envelope.ts";
import { MIGRATIONS, type MigrationTable } from "./migrations.ts";

const T = Date.UTC(2026, 10, 29, 12, 0, 0);

function failure(fn: () => unknown): DocumentError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DocumentError);
    return err as DocumentError;
  }
  throw new Error("expected a DocumentError");
}

const envelope = (fields: Record<string, unknown>) => JSON.stringify({ format: "patchbay.servers", version: 1, savedAt: "x", data: null, ...fields });

describe("envelope codec", () => {
  it("encodes kind, current version, ISO savedAt and data", () => {
    const text = encodeEnvelope("servers", { a: 1 }, T);
    expect(JSON.parse(text)).toEqual({ format: "patchbay.servers", version: 1, savedAt: "2026-11-29T12:00:00.000Z", data: { a: 1 } });
    expect(text.endsWith("\n")).toBe(true);
  });

  it("round-trips any JSON payload unchanged", () => {
    for (const data of [null, 0, false, "s", [1, [2]], { nested: { deep: ["x"] } }]) {
      expect(decodeEnvelope("servers", encodeEnvelope("servers", data, T))).toEqual({ data, storedVersion: 1, migrated: false });
    }
  });

  it("every kind is at version 1 today", () => {
    for (const [kind, entry] of Object.entries(MIGRATIONS)) {
      expect(entry.current, kind).toBe(1);
      expect(formatOf(kind as keyof typeof MIGRATIONS)).toBe(`patchbay.${kind}`);
    }
  });

  it("refuses to encode undefined", () => {
    expect(failure(() => encodeEnvelope("servers", undefined, T)).code).toBe("invalid_document");
  });

  it("not JSON → corrupt, with the parser's message and where", () => {
    const err = failure(() => decodeEnvelope("servers", "{ nope", "servers/x.json"));
    expect(err.code).toBe("corrupt");
    expect(err.message).toMatch(/^servers\/x\.json is not valid JSON: /);
  });

  it.each([
    ["an array", "[1]"],
    ["a string", '"hi"'],
    ["no format", JSON.stringify({ version: 1, data: 1 })],
    ["another kind", envelope({ format: "patchbay.connections" })],
    ["a foreign format", envelope({ format: "something.else" })],
    ["a fractional version", envelope({ version: 1.5 })],
    ["a negative version", envelope({ version: -1 })],
    ["a string version", envelope({ version: "1" })],
  ])("%s → invalid_document", (_label, text) => {
    expect(failure(() => decodeEnvelope("servers", text)).code).toBe("invalid_document");
  });

  it("a missing data field → invalid_document", () => {
    const text = JSON.stringify({ format: "patchbay.servers", version: 1, savedAt: "x" });
    expect(failure(() => decodeEnvelope("servers", text)).message).toMatch(/no data field/);
  });

  it("a newer version → unknown_version, naming both versions", () => {
    const err = failure(() => decodeEnvelope("servers", envelope({ version: 2 })));
    expect(err.code).toBe("unknown_version");
    expect(err.message).toMatch(/version 2, newer than this Patchbay understands \(1\)/);
  });

  it("an older version with no upgrade step → unknown_version", () => {
    expect(failure(() => decodeEnvelope("servers", envelope({ version: 0 }))).code).toBe("unknown_version");
  });
});

describe("migrations", () => {
  const withServers = (entry: MigrationTable["servers"]): MigrationTable => ({ ...MIGRATIONS, servers: entry });

  it("runs a v0→v1 step passed in as a parameter", () => {
    const table = withServers({ current: 1, steps: { 0: (d) => ({ command: (d as { cmd: string }).cmd }) } });
    const decoded = decodeEnvelope("servers", envelope({ version: 0, data: { cmd: "echo" } }), "doc", table);
    expect(decoded).toEqual({ data: { command: "echo" }, storedVersion: 0, migrated: true });
  });

  it("chains steps in order from the stored version to the current one", () => {
    const seen: number[] = [];
    const step = (v: number) => (d: unknown) => {
      seen.push(v);
      return [...(d as number[]), v];
    };
    const table = withServers({ current: 3, steps: { 0: step(0), 1: step(1), 2: step(2) } });
    expect(decodeEnvelope("servers", envelope({ version: 1, data: [] }), "doc", table).data).toEqual([1, 2]);
    expect(seen).toEqual([1, 2]);
    expect(decodeEnvelope("servers", envelope({ version: 3, data: ["as-is"] }), "doc", table).data).toEqual(["as-is"]);
  });

  it("a gap in the chain → unknown_version", () => {
    const table = withServers({ current: 2, steps: { 1: (d) => d } });
    expect(failure(() => decodeEnvelope("servers", envelope({ version: 0 }), "doc", table)).code).toBe("unknown_version");
  });

  it("a step that throws → invalid_document naming the version", () => {
    const table = withServers({
      current: 1,
      steps: {
        0: () => {
          throw new Error("bad shape");
        },
      },
    });
    const err = failure(() => decodeEnvelope("servers", envelope({ version: 0 }), "doc", table));
    expect(err.code).toBe("invalid_document");
    expect(err.message).toMatch(/upgraded from version 0: bad shape/);
  });

  it("writes at the table's current version", () => {
    const table = withServers({ current: 4, steps: {} });
    expect(JSON.parse(encodeEnvelope("servers", 1, T, table)).version).toBe(4);
  });
});
