/**
 * The served agent's Agent Card, built from the tools its surface serves: one skill per tool. The
 * v1.0 card lists an interface per binding and version (the SDK accepts exactly the versions it
 * lists); the v0.3 card, for requests without A2A-Version (which means 0.3), carries the same
 * skills in v0.3's own members only, so a v0.3 validator or client reads it as it is.
 */
import type { AgentCard, AgentInterface, AgentSkill } from "@a2a-js/sdk";
import { isJsonObject } from "../../json/index.ts";
import type { ToolDef, Toolkit } from "../toolkit/toolkit-types.ts";
import type { DefaultSkill } from "./message-call.ts";

/** The versions served, newest (the preferred one) first. */
export const SERVED_VERSIONS = ["1.0", "0.3"] as const;
export type ServedVersion = (typeof SERVED_VERSIONS)[number];
export const LEGACY_PROTOCOL_VERSION = "0.3.0";

export const TEXT_MODE = "text/plain";
export const DATA_MODE = "application/json";

export interface CardInput {
  readonly toolkit: Toolkit;
  /** The served tools, in toolkit order. */
  readonly tools: readonly ToolDef[];
  readonly defaultSkill?: DefaultSkill;
  readonly jsonRpcUrl: string;
  readonly restUrl: string;
  /** The agent's version (the serving build). */
  readonly version: string;
}

const MAX_ARGUMENT_LINES = 12;

/** Text without its closing full stop, so it can be followed by more. */
const sentence = (text: string): string => text.trim().replace(/[.\s]+$/, "");

function propertyLines(schema: Readonly<Record<string, unknown>>): string[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const lines = Object.entries(properties).map(([name, raw]) => {
    const prop = isJsonObject(raw) ? raw : {};
    const type = typeof prop.type === "string" ? prop.type : Array.isArray(prop.type) ? prop.type.join(" or ") : "any";
    const description = typeof prop.description === "string" && prop.description.trim() !== "" ? `: ${sentence(prop.description)}` : "";
    return `${name} (${type}${required.has(name) ? ", required" : ""})${description}`;
  });
  return lines.length > MAX_ARGUMENT_LINES ? [...lines.slice(0, MAX_ARGUMENT_LINES), `and ${lines.length - MAX_ARGUMENT_LINES} more`] : lines;
}

function placeholder(raw: unknown): unknown {
  const type = isJsonObject(raw) ? raw.type : undefined;
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object") return {};
  return "…";
}

/** The data part that calls the tool, its required arguments filled with placeholders. */
export function callExample(tool: ToolDef): string {
  const properties = isJsonObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.filter((r): r is string => typeof r === "string") : [];
  const args = Object.fromEntries(required.map((name) => [name, placeholder(properties[name])]));
  return JSON.stringify({ skill: tool.name, arguments: args });
}

function skillOf(tool: ToolDef, defaultSkill: DefaultSkill | undefined): AgentSkill {
  const isDefault = defaultSkill?.tool.name === tool.name;
  const args = propertyLines(tool.inputSchema);
  const description = [
    `${tool.description.trim() ? sentence(tool.description) : `Runs the tool ${tool.name}`}.`,
    `Call it with a data part {"skill": ${JSON.stringify(tool.name)}, "arguments": {…}}${args.length > 0 ? `; arguments: ${args.join("; ")}` : " (it takes no arguments)"}.`,
    ...(isDefault ? [`A message with text only runs this skill, the text as "${defaultSkill.argument}".`] : []),
  ].join(" ");
  return {
    id: tool.name,
    name: tool.title ?? tool.name,
    description,
    tags: tool.tags.length > 0 ? [...tool.tags] : ["tool"],
    examples: isDefault ? [callExample(tool), "any text"] : [callExample(tool)],
    inputModes: isDefault ? [DATA_MODE, TEXT_MODE] : [DATA_MODE],
    outputModes: tool.outputSchema ? [TEXT_MODE, DATA_MODE] : [TEXT_MODE],
    securityRequirements: [],
  };
}

function interfaces(input: CardInput): AgentInterface[] {
  return SERVED_VERSIONS.flatMap((protocolVersion) => [
    { url: input.jsonRpcUrl, protocolBinding: "JSONRPC", tenant: "", protocolVersion },
    { url: input.restUrl, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion },
  ]);
}

function cardDescription(input: CardInput): string {
  const base = input.toolkit.description.trim() || `The toolkit ${input.toolkit.name}, served by Patchbay.`;
  const text = input.defaultSkill ? ` A message with text only runs ${input.defaultSkill.tool.name}.` : " A message with text only is refused: name a skill.";
  return `${base} Each skill is one tool: send a data part {"skill": "<id>", "arguments": {…}} to run it as a task.${text}`;
}

/** The v1.0 card, in the SDK's object model. */
export function agentCard(input: CardInput): AgentCard {
  return {
    name: input.toolkit.name,
    description: cardDescription(input),
    supportedInterfaces: interfaces(input),
    provider: undefined,
    version: input.version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [TEXT_MODE, DATA_MODE],
    defaultOutputModes: [TEXT_MODE, DATA_MODE],
    skills: input.tools.map((tool) => skillOf(tool, input.defaultSkill)),
    signatures: [],
  };
}

/** The same card for v0.3 clients, as wire JSON: `url` and `preferredTransport` name the JSON-RPC endpoint, `additionalInterfaces` both bindings. */
export function legacyCard(card: AgentCard): Record<string, unknown> {
  const jsonRpc = card.supportedInterfaces.find((i) => i.protocolBinding === "JSONRPC");
  const additional = card.supportedInterfaces.filter((i) => i.protocolVersion === "0.3").map((i) => ({ url: i.url, transport: i.protocolBinding }));
  return {
    protocolVersion: LEGACY_PROTOCOL_VERSION,
    name: card.name,
    description: card.description,
    url: jsonRpc?.url ?? "",
    preferredTransport: "JSONRPC",
    additionalInterfaces: additional,
    version: card.version,
    capabilities: { streaming: card.capabilities?.streaming ?? false, pushNotifications: card.capabilities?.pushNotifications ?? false, stateTransitionHistory: false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((s) => ({ id: s.id, name: s.name, description: s.description, tags: s.tags, examples: s.examples, inputModes: s.inputModes, outputModes: s.outputModes })),
    supportsAuthenticatedExtendedCard: false,
  };
}
