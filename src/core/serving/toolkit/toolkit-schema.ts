import { BUILTIN_TOOLS, MAX_TOOL_TIMEOUT_MS, TOOLKIT_FORMAT, TOOLKIT_VERSION } from "./toolkit-types.ts";

const stringList = { type: "array", items: { type: "string" } };

/**
 * A JSON Schema of the toolkit file, for the editor's completion and hover. readToolkit stays the
 * judge (it also checks what a schema cannot, such as positionals naming declared properties).
 */
export const TOOLKIT_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Patchbay toolkit",
  type: "object",
  required: ["format", "version", "name", "tools"],
  properties: {
    format: { const: TOOLKIT_FORMAT },
    version: { const: TOOLKIT_VERSION },
    name: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$", description: "The agent identity: MCP server name and NATS identity." },
    description: { type: "string" },
    instructions: { type: "string", description: "Sent to MCP clients in the initialize result." },
    filter: {
      type: "object",
      properties: {
        include: { ...stringList, description: "Name patterns (* wildcard) or tag:<tag>; empty serves all." },
        exclude: { ...stringList, description: "Name patterns (* wildcard) or tag:<tag>." },
      },
      additionalProperties: false,
    },
    tools: {
      type: "array",
      items: {
        type: "object",
        required: ["name", "run"],
        properties: {
          name: { type: "string" },
          title: { type: "string" },
          description: { type: "string" },
          tags: { ...stringList, description: "ai:deny, ai:confirm, ai:read_only, ai:destructive, ai:additive, ai:idempotent, or your own." },
          inputSchema: { type: "object", description: "A JSON Schema whose type is object; served verbatim." },
          outputSchema: { type: "object" },
          run: {
            oneOf: [
              { type: "object", required: ["builtin"], properties: { builtin: { enum: [...BUILTIN_TOOLS] } }, additionalProperties: false },
              {
                type: "object",
                required: ["command"],
                properties: {
                  command: { ...stringList, minItems: 1, description: "The program and its fixed arguments; no shell is used." },
                  positionals: { ...stringList, description: "Input properties passed after --, in order." },
                  timeoutMs: { type: "integer", minimum: 1, maximum: MAX_TOOL_TIMEOUT_MS },
                  env: { type: "object", additionalProperties: { type: "string" } },
                  cwd: { type: "string" },
                },
                additionalProperties: false,
              },
            ],
          },
        },
      },
    },
  },
} as const;
