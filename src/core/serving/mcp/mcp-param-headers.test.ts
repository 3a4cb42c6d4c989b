import { describe, expect, it } from "vitest";
import { decodeHeaderValue, headerDeclarations, mcpParamProblem } from "./mcp-param-headers.ts";

const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    count: { type: "integer", "x-mcp-header": "Count" },
    note: { type: "string" },
    empty: { type: "string", "x-mcp-header": "" },
  },
};
const headers = (h: Record<string, string>) => new Headers(h);
const b64 = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;

describe("Mcp-Param headers", () => {
  it("reads the declarations, skipping an empty name", () => {
    expect([...headerDeclarations(schema)]).toEqual([
      ["region", "Region"],
      ["count", "Count"],
    ]);
    expect(headerDeclarations({ type: "object" }).size).toBe(0);
  });

  it("decodes a value: trimmed, Base64 when wrapped, undefined when the wrapping holds no Base64 of UTF-8", () => {
    expect(decodeHeaderValue("  north  ")).toBe("north");
    expect(decodeHeaderValue(b64("Zürich"))).toBe("Zürich");
    expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?SGVs!!!bG8=?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined();
    expect(decodeHeaderValue("SGVsbG8=")).toBe("SGVsbG8=");
    expect(decodeHeaderValue("=?base64?SGVsbG8=")).toBe("=?base64?SGVsbG8=");
  });

  it("accepts headers that agree with the arguments, however they are spelled", () => {
    expect(mcpParamProblem(schema, { region: "north", count: 3 }, headers({ "Mcp-Param-Region": "north", "mcp-param-count": "3" }))).toBeUndefined();
    expect(mcpParamProblem(schema, { region: "Zürich", count: 3.0 }, headers({ "MCP-PARAM-REGION": b64("Zürich"), "Mcp-Param-Count": "3.0" }))).toBeUndefined();
    expect(mcpParamProblem(schema, {}, headers({}))).toBeUndefined();
    expect(mcpParamProblem(schema, { note: "no header needed" }, headers({}))).toBeUndefined();
  });

  it("names what disagrees: a missing header, a different value, bad Base64, a header without its argument", () => {
    expect(mcpParamProblem(schema, { region: "north" }, headers({}))).toBe('the Mcp-Param-Region header is missing; it must carry the "region" argument ("north")');
    expect(mcpParamProblem(schema, { region: "north" }, headers({ "Mcp-Param-Region": "south" }))).toBe('the Mcp-Param-Region header says "south", but the "region" argument is "north"');
    expect(mcpParamProblem(schema, { region: "north" }, headers({ "Mcp-Param-Region": "=?base64?bm9ydGg?=" }))).toMatch(/is not valid: its =\?base64\?…\?= value is not Base64/);
    expect(mcpParamProblem(schema, {}, headers({ "Mcp-Param-Count": "3" }))).toBe('the Mcp-Param-Count header is sent, but the call has no "count" argument');
    expect(mcpParamProblem(schema, { count: 3 }, headers({ "Mcp-Param-Count": "4" }))).toMatch(/says "4"/);
  });
});
