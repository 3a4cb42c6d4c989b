import { NAMESPACE } from "../../packs/fisk-ai/protocol.ts";
import type { AgentCard, JsonObject, ToolBehavior, ToolDescriptor } from "../../fisk/codec/index.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import type { ServedEntry } from "../toolkit/served-set.ts";
import type { ToolDef, Toolkit } from "../toolkit/toolkit-types.ts";

/** Which wire the agent speaks: Gen 2 reply sets, or Gen 1 single replies for v0.0.x peers. */
export type FiskGeneration = "gen2" | "gen1";

/**
 * Behaviour as fisk-ai derives it from tags: read-only unless something writes, additive is a
 * non-destructive write, and each flag is absent when no tag declared it.
 */
export function fiskBehavior(tags: readonly string[]): ToolBehavior {
  const b = readBehaviour(tags);
  const out: ToolBehavior = {};
  const readOnly = b.destructiveHint !== undefined ? false : b.readOnlyHint;
  if (readOnly !== undefined) out.read_only = readOnly;
  if (b.destructiveHint !== undefined) out.destructive = b.destructiveHint;
  if (b.idempotentHint) out.idempotent = true;
  return out;
}

/** The model-facing text: the description, then the tags as fisk-ai appends them. */
export function fiskDescription(tool: ToolDef): string {
  return tool.tags.length > 0 ? `${tool.description}\n\nTags: ${tool.tags.join(", ")}` : tool.description;
}

export function toolDescriptor(tool: ToolDef, generation: FiskGeneration): ToolDescriptor {
  const schema = Object.keys(tool.inputSchema).length > 0 ? tool.inputSchema : { type: "object" };
  const out: ToolDescriptor = { name: tool.name, description: fiskDescription(tool), input_schema: schema as JsonObject };
  // A Gen 1 card has no behaviour: its strict schema refuses the field.
  if (generation === "gen2") {
    const behavior = fiskBehavior(tool.tags);
    if (Object.keys(behavior).length > 0) out.behavior = behavior;
  }
  return out;
}

/** The `model` a Gen 2 card names: the agent answers prompts, with a scripted runner instead of a model. */
export const SCRIPTED_MODEL = "patchbay-scripted";

/**
 * The card discovery answers with: the served tools only (no confirm-gated or denied ones). A
 * Gen 2 agent answers prompts too, which fisk-ai's card says with `model`.
 */
export function agentCard(toolkit: Toolkit, served: readonly ServedEntry[], generation: FiskGeneration, version: string, identity = toolkit.name): AgentCard {
  const tools = served.filter((e) => e.served).map((e) => toolDescriptor(e.tool, generation));
  return {
    name: identity,
    version: version || "dev",
    ...(toolkit.description ? { description: toolkit.description } : {}),
    protocols: [NAMESPACE],
    ...(tools.length > 0 ? { tools } : {}),
    ...(generation === "gen2" ? { model: SCRIPTED_MODEL } : {}),
  };
}
