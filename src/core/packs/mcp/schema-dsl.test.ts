import { describe, expect, it } from "vitest";
import { anyOf, between, lit, obj, ref, resolve, since, str, until } from "./schema-dsl.ts";
import type { McpVersion } from "./versions.ts";

const at = (version: McpVersion, container = "definitions") => ({ version, container });

describe("schema DSL", () => {
  it("keeps a since() fragment from its version on, and the alternative before", () => {
    const node = since("2025-06-18", str("uri"), str());
    expect(resolve(node, at("2025-03-26"))).toEqual({ type: "string" });
    expect(resolve(node, at("2025-06-18"))).toEqual({ type: "string", format: "uri" });
    expect(resolve(node, at("2026-07-28"))).toEqual({ type: "string", format: "uri" });
  });

  it("drops an until() fragment from its version on, and between() outside its range", () => {
    expect(resolve(until("2026-07-28", str()), at("2026-07-28"))).toBeUndefined();
    expect(resolve(until("2026-07-28", str()), at("2025-11-25"))).toEqual({ type: "string" });
    const tasks = between("2025-11-25", "2026-07-28", str());
    expect(resolve(tasks, at("2025-06-18"))).toBeUndefined();
    expect(resolve(tasks, at("2025-11-25"))).toEqual({ type: "string" });
    expect(resolve(tasks, at("2026-07-28"))).toBeUndefined();
  });

  it("drops absent properties and removes them from required", () => {
    const node = obj({ name: str(), title: since("2025-06-18", str()) }, ["name", "title"]);
    expect(resolve(node, at("2024-11-05"))).toEqual({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    expect(resolve(node, at("2025-06-18"))).toEqual({
      type: "object",
      properties: { name: { type: "string" }, title: { type: "string" } },
      required: ["name", "title"],
    });
  });

  it("lets required differ by version while the property stays", () => {
    const node = obj({ requestId: str() }, [until("2025-11-25", "requestId", since("2026-07-28", "requestId"))]);
    expect(resolve(node, at("2025-06-18"))).toHaveProperty("required", ["requestId"]);
    expect(resolve(node, at("2025-11-25"))).not.toHaveProperty("required");
    expect(resolve(node, at("2026-07-28"))).toHaveProperty("required", ["requestId"]);
  });

  it("writes refs into the version's container and drops absent union members", () => {
    const node = anyOf(ref("TextContent"), since("2025-03-26", ref("AudioContent")));
    expect(resolve(node, at("2024-11-05"))).toEqual({ anyOf: [{ $ref: "#/definitions/TextContent" }] });
    expect(resolve(node, at("2025-11-25", "$defs"))).toEqual({ anyOf: [{ $ref: "#/$defs/TextContent" }, { $ref: "#/$defs/AudioContent" }] });
  });

  it("leaves a property named required alone", () => {
    const node = obj({ required: { type: "boolean" }, type: lit("x") }, ["type"]);
    expect(resolve(node, at("2024-11-05"))).toEqual({
      type: "object",
      properties: { required: { type: "boolean" }, type: { type: "string", const: "x" } },
      required: ["type"],
    });
  });
});
