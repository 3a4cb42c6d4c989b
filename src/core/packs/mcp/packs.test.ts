import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../schema/compiler.ts";
import { buildDocument, definitionsContainer } from "./document.ts";
import { MCP_PACKS, packFor } from "./packs.ts";
import { MCP_VERSIONS, type McpVersion } from "./versions.ts";

/** Every `description` keyword in a schema (not a property that happens to be named so). */
function descriptionKeywords(schema: unknown, found: string[] = [], path = ""): string[] {
  if (Array.isArray(schema)) schema.forEach((item, i) => descriptionKeywords(item, found, `${path}/${i}`));
  else if (schema && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      if (key === "description" && typeof value === "string") found.push(path);
      if (key === "properties" && value && typeof value === "object") {
        for (const [name, sub] of Object.entries(value)) descriptionKeywords(sub, found, `${path}/properties/${name}`);
      } else descriptionKeywords(value, found, `${path}/${key}`);
    }
  }
  return found;
}

describe("MCP schema packs", () => {
  it("has one pack per version, oldest first, with unique ids and orders", () => {
    expect(MCP_PACKS.map((pack) => pack.version)).toEqual([...MCP_VERSIONS]);
    expect(new Set(MCP_PACKS.map((pack) => pack.id)).size).toBe(MCP_PACKS.length);
    expect(new Set(MCP_PACKS.map((pack) => pack.document.$id)).size).toBe(MCP_PACKS.length);
    expect(MCP_PACKS.map((pack) => pack.order)).toEqual([1, 2, 3, 4, 5]);
  });

  it("uses draft-07 with definitions up to 2025-06-18 and 2020-12 with $defs from 2025-11-25", () => {
    for (const pack of MCP_PACKS) {
      const modern = pack.version >= "2025-11-25";
      expect(pack.draft).toBe(modern ? "2020-12" : "draft-07");
      expect(String(pack.document.$schema)).toContain(modern ? "2020-12" : "draft-07");
      expect(Object.keys(pack.document)).toContain(modern ? "$defs" : "definitions");
      expect(pack.document.$id).toBe(`https://patchbay.dev/schemas/mcp/${pack.version}.json`);
      expect(pack.assertFormats).toBe(false);
      expect(pack.sources.map((source) => source.url)).toContain(`https://modelcontextprotocol.io/specification/${pack.version}`);
    }
  });

  // Compiles every kind of every version at once, which takes seconds on a busy machine.
  it("compiles every kind's definition", { timeout: 30_000 }, () => {
    const compiler = new SchemaCompiler();
    for (const pack of MCP_PACKS) expect(() => compiler.compileAll(pack)).not.toThrow();
  });

  it("gives every kind an existing definition and a unique id", () => {
    for (const pack of MCP_PACKS) {
      const defs = pack.document[definitionsContainer(pack.version as McpVersion)] as Record<string, unknown>;
      for (const kind of pack.kinds) expect(defs, `${pack.id} ${kind.id}`).toHaveProperty([kind.definition]);
      expect(new Set(pack.kinds.map((kind) => kind.id)).size).toBe(pack.kinds.length);
    }
  });

  it("carries no prose: no description keywords anywhere", () => {
    for (const version of MCP_VERSIONS) expect(descriptionKeywords(buildDocument(version))).toEqual([]);
  });

  it("gives requests, notifications and results the right direction", () => {
    const kinds = new Map(packFor("2025-06-18").kinds.map((kind) => [kind.id, kind]));
    expect(kinds.get("tools/call:request")).toMatchObject({ role: "request", direction: "client-to-server", definition: "CallToolRequestMessage" });
    expect(kinds.get("tools/call:result")).toMatchObject({ role: "result", direction: "server-to-client", definition: "CallToolResultResponse" });
    expect(kinds.get("sampling/createMessage:request")).toMatchObject({ direction: "server-to-client" });
    expect(kinds.get("sampling/createMessage:result")).toMatchObject({ direction: "client-to-server" });
    expect(kinds.get("ping:request")).toMatchObject({ direction: "either" });
    expect(kinds.get("notifications/progress:notification")).toMatchObject({ direction: "either" });
    expect(kinds.get("notifications/initialized:notification")).toMatchObject({ direction: "client-to-server" });
    expect(kinds.get("notifications/message:notification")).toMatchObject({ direction: "server-to-client" });
    expect(kinds.get("error")).toMatchObject({ role: "error", definition: "ErrorResponse" });
    expect(kinds.get("CallToolResult")).toMatchObject({ role: "payload", direction: "server-to-client" });
  });

  it("follows each version's method set", () => {
    const ids = (version: McpVersion) => new Set(packFor(version).kinds.map((kind) => kind.id));
    expect(ids("2024-11-05").has("elicitation/create:request")).toBe(false);
    expect(ids("2025-06-18").has("elicitation/create:request")).toBe(true);
    expect(ids("2025-11-25").has("tasks/get:request")).toBe(true);
    expect(ids("2026-07-28").has("tasks/get:request")).toBe(false);
    expect(ids("2026-07-28").has("initialize:request")).toBe(false);
    expect(ids("2026-07-28").has("server/discover:request")).toBe(true);
    expect(ids("2026-07-28").has("sampling/createMessage:request")).toBe(false);
    expect(ids("2026-07-28").has("CreateMessageRequest")).toBe(true);
    expect(packFor("2026-07-28").kinds.find((kind) => kind.id === "tools/call:request")?.definition).toBe("CallToolRequest");
  });
});
