import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../schema/compiler.ts";
import { FISK_AI_GEN1_V002, FISK_AI_GEN1_V003, FISK_AI_GEN2, FISK_AI_PACKS } from "./build-pack.ts";
import { NAMESPACE } from "./protocol.ts";

const compiler = new SchemaCompiler();

function header(suffix: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: `${NAMESPACE}.${suffix}`,
    id: "3t5isGXNwAMnEYYnWLeEdpomsCr",
    request: "3t5isGXNwAMnEYYnWLeEdpomsCr",
    conversation: "3t5isGXNwAMnEYYnWLeEdpomsCr",
    sequence: 0,
    time: "2026-08-21T09:14:05.00311728Z",
    sender: { name: "console-1" },
    ...extra,
  };
}

const valid = (pack: typeof FISK_AI_GEN2, definition: string, value: unknown): boolean => compiler.check(pack, definition, value).length === 0;

/** Every `description` annotation (a property named description holds a schema object, not a string). */
function annotations(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap((n) => annotations(n));
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, child]) => [...(key === "description" && typeof child === "string" ? [child] : []), ...annotations(child)]);
}

describe("fisk-ai schema packs", () => {
  it("are three 2020-12 packs, oldest first, with unique $ids and formats off", () => {
    expect(FISK_AI_PACKS.map((p) => [p.id, p.label, p.order])).toEqual([
      ["fisk-ai/gen1-v0.0.2", "fisk-ai Gen 1 (v0.0.1–v0.0.2)", 1],
      ["fisk-ai/gen1-v0.0.3", "fisk-ai Gen 1 (v0.0.3)", 2],
      ["fisk-ai/gen2", "fisk-ai Gen 2 (main 4515e16)", 3],
    ]);
    const ids = FISK_AI_PACKS.map((p) => p.document.$id);
    expect(new Set(ids).size).toBe(3);
    expect(ids).toContain("https://patchbay.dev/schemas/fisk-ai/gen2.json");
    for (const pack of FISK_AI_PACKS) {
      expect(pack.draft).toBe("2020-12");
      expect(pack.assertFormats).toBe(false);
      expect(pack.document.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(pack.notes.length).toBeGreaterThan(0);
    }
  });

  // Compiles every kind of every generation at once, which takes seconds on a busy machine.
  it("compile, with a definition for every kind", { timeout: 30_000 }, () => {
    for (const pack of FISK_AI_PACKS) expect(() => compiler.compileAll(pack)).not.toThrow();
  });

  it("have one kind per protocol id: 10 in Gen 1, 30 plus the unknown-event fallback in Gen 2", () => {
    expect(FISK_AI_GEN1_V003.kinds.map((k) => k.id).sort()).toEqual(
      ["ack", "cancel", "discovery.reply", "discovery.request", "error", "event", "request", "result", "tool.reply", "tool.request"].sort(),
    );
    expect(FISK_AI_GEN2.kinds).toHaveLength(31);
    expect(FISK_AI_GEN2.kinds.find((k) => k.id === "event.*")?.label).toBe("event (unknown kind)");
    expect(FISK_AI_GEN2.kinds.find((k) => k.id === "error")?.role).toBe("error");
    expect(FISK_AI_GEN2.kinds.filter((k) => k.id.startsWith("elicit.")).map((k) => k.id)).toHaveLength(10);
  });

  it("carry no description text and record upstream paths and commits", () => {
    for (const pack of FISK_AI_PACKS) {
      expect(annotations(pack.document)).toEqual([]);
      expect(pack.sources.some((s) => s.url.includes("choria-io/fisk-ai") && s.url.includes("schemas/v1"))).toBe(true);
    }
    expect(FISK_AI_GEN2.sources[0]?.revision).toBe("4515e16cb8b9a9f78bd58683e62fce3caa1db70f");
    expect(FISK_AI_GEN1_V002.sources[0]?.url).toContain("/a2a/schemas/v1");
    expect(FISK_AI_GEN1_V003.sources[0]?.revision).toContain("88a39670de950d43bd916ce4c81063c8dce4ed1d");
  });

  it("Gen 1 is strict and Gen 2 permissive", () => {
    const reply = header("tool.reply", { output: "ok", bogus: "nope" });
    expect(valid(FISK_AI_GEN1_V003, "ToolReply", reply)).toBe(false);
    expect(valid(FISK_AI_GEN2, "ToolReply", reply)).toBe(true);
    const sender = header("discovery.request", { sender: { name: "a", extra: 1 } });
    expect(valid(FISK_AI_GEN1_V002, "DiscoveryRequest", sender)).toBe(false);
    expect(valid(FISK_AI_GEN2, "DiscoveryRequest", sender)).toBe(true);
  });

  it("differ in stop reasons: v0.0.2 lacks suspended, Gen 2 takes any reason of the right shape", () => {
    const result = (reason: unknown) => header("result", { stop_reason: reason });
    expect(valid(FISK_AI_GEN1_V002, "Result", result("suspended"))).toBe(false);
    expect(valid(FISK_AI_GEN1_V003, "Result", result("suspended"))).toBe(true);
    expect(valid(FISK_AI_GEN1_V003, "Result", result("throttled"))).toBe(false);
    expect(valid(FISK_AI_GEN2, "Result", result("throttled"))).toBe(true);
    for (const bad of ["", "Throttled", "two words", "a\nb", "x".repeat(65), 7, null]) {
      expect(valid(FISK_AI_GEN2, "Result", result(bad))).toBe(false);
    }
    expect(valid(FISK_AI_GEN2, "Result", result("x".repeat(64)))).toBe(true);
  });

  it("accept RFC 3339 times with nanoseconds and, formats being off, any string", () => {
    expect(valid(FISK_AI_GEN2, "DiscoveryRequest", header("discovery.request", { time: "2026-08-21T09:14:03.512309871Z" }))).toBe(true);
    expect(valid(FISK_AI_GEN1_V003, "DiscoveryRequest", header("discovery.request", { time: "yesterday" }))).toBe(true);
  });

  it("pin each message to its own protocol id", () => {
    expect(valid(FISK_AI_GEN2, "ToolRequest", header("tool.reply", { name: "x" }))).toBe(false);
    expect(valid(FISK_AI_GEN2, "EventUnknownKind", header("event.citation", { block: {} }))).toBe(true);
    expect(valid(FISK_AI_GEN2, "EventUnknownKind", header("event.text.evil", { block: {} }))).toBe(false);
  });

  it("Gen 1 blocks carry a type discriminator; Gen 2 blocks do not need one", () => {
    expect(valid(FISK_AI_GEN1_V003, "Event", header("event", { block: { type: "text", text: "hi" } }))).toBe(true);
    expect(valid(FISK_AI_GEN1_V003, "Event", header("event", { block: { text: "hi" } }))).toBe(false);
    expect(valid(FISK_AI_GEN1_V003, "Event", header("event", { block: { type: "bogus" } }))).toBe(false);
    expect(valid(FISK_AI_GEN2, "EventText", header("event.text", { block: { text: "hi", final: true } }))).toBe(true);
  });

  it("Gen 2 sibling kinds refuse each other's fields", () => {
    const q = { question_id: "q1", question: "Which?", options: ["a"], wait_ms: 1 };
    expect(valid(FISK_AI_GEN2, "ElicitRequestSelect", header("elicit.request.select", q))).toBe(true);
    expect(valid(FISK_AI_GEN2, "ElicitRequestConfirm", header("elicit.request.confirm", q))).toBe(false);
    expect(valid(FISK_AI_GEN2, "ElicitWaiting", header("elicit.waiting", { question_id: "q1", value: "" }))).toBe(false);
    expect(valid(FISK_AI_GEN2, "RequestResume", header("request.resume", { conversation_token: "t", replay: 1 }))).toBe(false);
  });
});
