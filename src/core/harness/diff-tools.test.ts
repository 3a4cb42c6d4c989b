import { describe, expect, it } from "vitest";
import { DiffInputError, DIFF_MAX_DEPTH } from "./diff-json.ts";
import { diffSchemas } from "./diff-schema.ts";
import { diffToolLists, toolListsEqual } from "./diff-tools.ts";

const DRAFT = "http://json-schema.org/draft-07/schema#";
const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Tools as @modelcontextprotocol/server-everything lists them (zod schemas as JSON Schema). */
function everythingTools(): Record<string, unknown>[] {
  return [
    { name: "echo", title: "Echo Tool", description: "Echoes back the input string", inputSchema: { $schema: DRAFT, type: "object", properties: { message: { type: "string", description: "Message to echo" } }, required: ["message"], additionalProperties: false }, annotations },
    { name: "get-sum", title: "Get Sum Tool", description: "Returns the sum of two numbers", inputSchema: { $schema: DRAFT, type: "object", properties: { a: { type: "number", description: "First number" }, b: { type: "number", description: "Second number" } }, required: ["a", "b"], additionalProperties: false }, annotations },
    {
      name: "get-structured-content",
      title: "Get Structured Content Tool",
      description: "Returns structured content along with an output schema for client data validation",
      inputSchema: { $schema: DRAFT, type: "object", properties: { location: { type: "string", enum: ["New York", "Chicago", "Los Angeles"], description: "Choose city" } }, required: ["location"], additionalProperties: false },
      outputSchema: { $schema: DRAFT, type: "object", properties: { temperature: { type: "number" }, conditions: { type: "string" }, humidity: { type: "number" } }, required: ["temperature", "conditions", "humidity"], additionalProperties: false },
      annotations,
    },
    {
      name: "simulate-research-query",
      description: "Simulates a research query",
      inputSchema: { $schema: DRAFT, type: "object", properties: { topic: { type: "string" }, options: { type: "object", properties: { depth: { type: "integer", minimum: 1 }, sources: { type: "array", items: { type: "string" } } } } }, required: ["topic"] },
    },
    { name: "trigger-long-running-operation", title: "Trigger Long Running Operation Tool", description: "Demonstrates a long running operation with progress updates.", inputSchema: { $schema: DRAFT, type: "object", properties: { duration: { type: "number", default: 10 }, steps: { type: "number", default: 5 } } }, annotations },
  ];
}

type Tool = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("diffToolLists", () => {
  it("finds nothing between identical lists, in any key order", () => {
    const reordered = everythingTools().map((t) => Object.fromEntries(Object.entries(t).reverse()));
    const d = diffToolLists(everythingTools(), reordered);
    expect(toolListsEqual(d)).toBe(true);
    expect(d.unchanged).toHaveLength(5);
    expect(d.problems).toEqual([]);
  });

  it("names tools added and removed, and reads tools/list results and responses alike", () => {
    const after = everythingTools().filter((t) => t.name !== "get-sum");
    after.push({ name: "get-env", description: "Returns the environment", inputSchema: { type: "object" } });
    const d = diffToolLists({ tools: everythingTools() }, { jsonrpc: "2.0", id: 2, result: { tools: after } });
    expect(d.removed).toEqual([{ name: "get-sum", title: "Get Sum Tool", description: "Returns the sum of two numbers" }]);
    expect(d.added.map((t) => t.name)).toEqual(["get-env"]);
    expect(d.changed).toEqual([]);
  });

  it("shows a changed schema as schema changes at their pointers", () => {
    const after = everythingTools() as Tool[];
    const research = after[3]!;
    const options = research.inputSchema.properties.options;
    options.properties.depth.type = "string";
    options.properties.breadth = { type: "integer" };
    delete research.inputSchema.properties.topic;
    research.inputSchema.required = ["options"];
    options.properties.sources.items = { type: "string", format: "uri" };
    after[2]!.inputSchema.properties.location.enum = ["New York", "Chicago", "Paris"];
    after[0]!.inputSchema.properties.message.description = "Text to echo back";
    const d = diffToolLists(everythingTools(), after);
    const byTool = Object.fromEntries(d.changed.map((c) => [c.name, c.inputSchema.map((x) => [x.kind, x.pointer, x.name ?? null])]));
    expect(byTool["simulate-research-query"]).toEqual([
      ["property-removed", "/properties/topic", "topic"],
      ["type-changed", "/properties/options/properties/depth/type", null],
      ["added", "/properties/options/properties/sources/items/format", null],
      ["property-added", "/properties/options/properties/breadth", "breadth"],
      ["required-added", "/required", "options"],
      ["required-removed", "/required", "topic"],
    ]);
    expect(byTool["get-structured-content"]).toEqual([
      ["enum-added", "/properties/location/enum", null],
      ["enum-removed", "/properties/location/enum", null],
    ]);
    expect(byTool.echo).toEqual([["description-changed", "/properties/message/description", null]]);
    const depth = d.changed.find((c) => c.name === "simulate-research-query")!.inputSchema[1]!;
    expect(depth.text).toBe("type of /properties/options/properties/depth changed: integer → string");
  });

  it("reports title, description, annotations and output schema changes in their own places", () => {
    const after = everythingTools() as Tool[];
    const sc = after[2]!;
    sc.title = "Structured";
    sc.annotations = { ...annotations, readOnlyHint: false };
    sc.outputSchema.properties.humidity = { type: "integer" };
    sc.icons = [{ src: "https://example.test/i.png" }];
    const d = diffToolLists(everythingTools(), after);
    const change = d.changed[0]!;
    expect(change.name).toBe("get-structured-content");
    expect(change.fields.map((f) => f.text)).toEqual([
      'changed at /title: "Get Structured Content Tool" → "Structured"',
      "changed at /annotations/readOnlyHint: true → false",
      'added /icons: [{"src":"https://example.test/i.png"}]',
    ]);
    expect(change.outputSchema.map((c) => c.text)).toEqual(["type of /properties/humidity changed: number → integer"]);
    expect(change.inputSchema).toEqual([]);
  });

  it("compares fisk-ai card tools, an absent input_schema meaning an object", () => {
    const card = (tools: unknown[]) => ({ name: "demo", version: "1.0.0", protocols: ["io.choria.fisk-ai.v1"], tools });
    const before = card([{ name: "uptime", description: "Uptime" }, { name: "ls", input_schema: { type: "object", properties: { path: { type: "string" } } }, behavior: { read_only: true } }]);
    const same = card([{ name: "uptime", description: "Uptime", input_schema: { type: "object" } }, { name: "ls", input_schema: { properties: { path: { type: "string" } }, type: "object" }, behavior: { read_only: true } }]);
    expect(toolListsEqual(diffToolLists(before, same))).toBe(true);
    const changed = card([{ name: "uptime", description: "Uptime" }, { name: "ls", input_schema: { type: "object", properties: { path: { type: "string" }, all: { type: "boolean" } } }, behavior: { read_only: false } }]);
    const d = diffToolLists(before, changed);
    expect(d.changed[0]!.inputSchema.map((c) => c.kind)).toEqual(["property-added"]);
    expect(d.changed[0]!.fields.map((c) => c.pointer)).toEqual(["/behavior/read_only"]);
  });

  it("refuses a side that is no list, naming it, and lists bad entries and repeats as problems", () => {
    expect(() => diffToolLists("tools", [])).toThrow(DiffInputError);
    expect(() => diffToolLists([], { tools: "x" })).toThrow(/after: expected an array of tools/);
    const d = diffToolLists([null, { name: 3 }, { name: "a" }, { name: "a", description: "second" }], [{ name: "a" }, { name: "a" }]);
    expect(d.problems).toHaveLength(4);
    expect(d.problems[0]).toMatch(/^before\[0\]: a tool must be an object/);
    expect(d.problems[2]).toMatch(/^before\[3\]: tool "a" is listed 2 times/);
    expect(d.problems[3]).toMatch(/^after\[1\]: tool "a" is listed 2 times/);
    expect(d.changed.map((c) => [c.name, c.fields[0]?.kind])).toEqual([["a #2", "removed"]]);
  });
});

describe("diffSchemas on hostile schemas", () => {
  function nested(depth: number, leaf: unknown): Record<string, unknown> {
    let s: Record<string, unknown> = { type: "string", description: leaf };
    for (let i = 0; i < depth; i++) s = { type: "object", properties: { n: s } };
    return s;
  }

  it("stops at the depth limit with a note when the deep parts differ, and says nothing when they match", () => {
    const changes = diffSchemas(nested(5000, "a"), nested(5000, "b"));
    expect(changes).toHaveLength(1);
    expect(changes[0]!.kind).toBe("note");
    expect(changes[0]!.text).toMatch(new RegExp(`nested deeper than ${DIFF_MAX_DEPTH} levels`));
    expect(diffSchemas(nested(20, "a"), nested(20, "a"))).toEqual([]);
    expect(diffSchemas(nested(10, "a"), nested(10, "b"))[0]!.kind).toBe("description-changed");
  });

  it("lists at most the change limit for a huge schema, then a note", () => {
    const wide = (n: number, type: string) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type }])) });
    const changes = diffSchemas(wide(5000, "string"), wide(5000, "number"), { maxChanges: 100 });
    expect(changes).toHaveLength(101);
    expect(changes[100]!.kind).toBe("note");
  });

  it("reports anything else as changed at its pointer, and a boolean schema too", () => {
    expect(diffSchemas({ type: "string", maxLength: 3 }, { type: "string", maxLength: 4 }).map((c) => c.text)).toEqual(["changed at /maxLength: 3 → 4"]);
    expect(diffSchemas({ items: true }, { items: false }).map((c) => c.text)).toEqual(["changed at /items: true → false"]);
    expect(diffSchemas({ anyOf: [{ type: "string" }] }, { anyOf: [{ type: "number" }, { type: "null" }] }).map((c) => [c.kind, c.pointer])).toEqual([
      ["type-changed", "/anyOf/0/type"],
      ["added", "/anyOf/1"],
    ]);
    expect(diffSchemas({ type: "array" }, { type: "array", items: { type: "string" } })[0]!.kind).toBe("items-added");
  });
});
