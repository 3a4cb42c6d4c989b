import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../core/packs/index.ts";
import { ValidationClient } from "../validate/validation-client.ts";
import { inProcessWorker } from "../validate/fake-worker.ts";
import { checkable, checkCallArguments, checkResult } from "./result-check.ts";

const client = new ValidationClient(() => inProcessWorker(createValidationEngine));
const WEATHER = {
  inputSchema: { type: "object" },
  outputSchema: { type: "object", required: ["temp"], properties: { temp: { type: "number" } } },
};
const GOOD = { content: [{ type: "text", text: "21.5" }], structuredContent: { temp: 21.5 } };

describe("checkResult", () => {
  it("finds a good result valid against the version's CallToolResult and the tool's outputSchema", async () => {
    const parts = await checkResult(client, GOOD, "2025-11-25", "weather", WEATHER);
    expect(parts).toEqual([
      { id: "result", label: "Result checked against MCP 2025-11-25", issues: [] },
      { id: "structured-content", label: "structuredContent checked against the tool's outputSchema", issues: [] },
    ]);
  });

  it("names what is wrong with the result and with its structuredContent", async () => {
    const parts = await checkResult(client, { content: [{ type: "text" }], structuredContent: { temp: "warm" } }, "2025-06-18", "weather", WEATHER);
    expect(parts[0]?.label).toBe("Result checked against MCP 2025-06-18");
    expect(parts[0]?.issues.some((i) => i.severity === "error" && i.pointer.startsWith("/content/0"))).toBe(true);
    expect(parts[1]?.issues).toEqual([expect.objectContaining({ pointer: "/structuredContent/temp", severity: "error", source: "tool-schema" })]);
  });

  it("requires structuredContent from 2025-06-18 when the tool declares an outputSchema", async () => {
    const parts = await checkResult(client, { content: [] }, "2025-06-18", "weather", WEATHER);
    expect(parts[1]?.issues).toEqual([expect.objectContaining({ pointer: "", rule: "mcp.structured-content" })]);
  });

  it("skips the outputSchema for a tool error, a tool without one, or a tool not listed", async () => {
    const failed = { content: [{ type: "text", text: "boom" }], isError: true };
    expect((await checkResult(client, failed, "2025-11-25", "weather", WEATHER)).map((p) => [p.id, p.issues.length])).toEqual([["result", 0]]);
    expect(await checkResult(client, GOOD, "2025-11-25", "weather", { inputSchema: {}, outputSchema: undefined })).toHaveLength(1);
    expect(await checkResult(client, GOOD, "2025-11-25", "weather", undefined)).toHaveLength(1);
  });

  it("uses the nearest known pack for an unlisted version", async () => {
    const [part] = await checkResult(client, GOOD, "2025-07-01", "weather", undefined);
    expect(part?.label).toBe("Result checked against MCP 2025-06-18");
  });

  it("checks the arguments against the tool's inputSchema, at the request's pointers", async () => {
    const sum = { inputSchema: { type: "object", properties: { a: { type: "number" } } }, outputSchema: undefined };
    expect(await checkCallArguments(client, { a: 1 }, "2025-11-25", "sum", sum)).toEqual([{ id: "arguments", label: "Arguments checked against the tool's inputSchema", issues: [] }]);
    const [part] = await checkCallArguments(client, { a: "x" }, "2025-11-25", "sum", sum);
    expect(part?.issues).toEqual([expect.objectContaining({ pointer: "/params/arguments/a", severity: "error", source: "tool-schema" })]);
    // Nothing to check against: a tool not listed, or one whose inputSchema is no schema object.
    expect(await checkCallArguments(client, { a: "x" }, "2025-11-25", "sum", undefined)).toEqual([]);
    expect(await checkCallArguments(client, { a: "x" }, "2025-11-25", "sum", { inputSchema: true, outputSchema: undefined })).toEqual([]);
  });

  it("checks only results the server gave", () => {
    expect(checkable({ kind: "tool-error", result: {} })).toBe(true);
    expect(checkable({ kind: "cancelled", reason: "x" })).toBe(false);
  });
});
