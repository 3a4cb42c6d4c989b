/**
 * Which tool a message asks for. A data part `{"skill": "<id>", "arguments": {…}}` names the tool
 * and its arguments; a message with text only runs the default skill, the text as its one
 * argument; anything else is refused with the skills it could have named.
 */
import type { Message } from "@a2a-js/sdk";
import { isJsonObject } from "../../json/index.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";

/** The skill that takes a text-only message, and the argument the text becomes. */
export interface DefaultSkill {
  readonly tool: ToolDef;
  readonly argument: string;
}

export type CallReading =
  | { readonly kind: "call"; readonly tool: ToolDef; readonly args: Readonly<Record<string, unknown>>; readonly via: "data" | "text" }
  | { readonly kind: "refused"; readonly text: string };

/** The one string property a tool's input has, or undefined when it has another shape. */
export function textArgument(tool: ToolDef): string | undefined {
  const properties = isJsonObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const names = Object.keys(properties);
  const only = names[0];
  if (names.length !== 1 || only === undefined) return undefined;
  const prop = properties[only];
  return isJsonObject(prop) && prop.type === "string" ? only : undefined;
}

/** The default skill, which must be served and take one text argument; none when `wanted` is undefined. */
export function defaultSkillOf(tools: readonly ToolDef[], wanted: string | undefined): DefaultSkill | undefined {
  if (wanted === undefined) return undefined;
  const tool = tools.find((t) => t.name === wanted);
  if (!tool) throw new Error(`the default skill "${wanted}" is not among the served skills (${tools.map((t) => t.name).join(", ") || "none"})`);
  const argument = textArgument(tool);
  if (argument === undefined) throw new Error(`the default skill "${wanted}" cannot take a text message: its input is not one string argument`);
  return { tool, argument };
}

function skillList(skills: ReadonlyMap<string, ToolDef>): string {
  return skills.size > 0 ? [...skills.keys()].join(", ") : "none (this agent serves no tools)";
}

function refusal(why: string, skills: ReadonlyMap<string, ToolDef>): CallReading {
  return { kind: "refused", text: `${why} Send a data part {"skill": "<id>", "arguments": {…}} naming one of this agent's skills: ${skillList(skills)}.` };
}

/** The text of the message's text parts, joined by newlines; undefined when it has none. */
function textOf(message: Message): string | undefined {
  const texts = message.parts.flatMap((p) => (p.content?.$case === "text" ? [p.content.value] : []));
  return texts.length > 0 ? texts.join("\n") : undefined;
}

export function readCall(message: Message, skills: ReadonlyMap<string, ToolDef>, defaultSkill: DefaultSkill | undefined): CallReading {
  const calls = message.parts.flatMap((p) => (p.content?.$case === "data" && isJsonObject(p.content.value) && "skill" in p.content.value ? [p.content.value] : []));
  if (calls.length > 1) return refusal(`Not run: the message names ${calls.length} skills, and a task runs one.`, skills);
  const call = calls[0];
  if (call) {
    if (typeof call.skill !== "string") return refusal('Not run: "skill" in the data part must be a skill id (a string).', skills);
    const tool = skills.get(call.skill);
    if (!tool) return refusal(`Not run: this agent has no skill ${JSON.stringify(call.skill)}.`, skills);
    const args = call.arguments ?? {};
    if (!isJsonObject(args)) return { kind: "refused", text: `Not run: "arguments" for ${tool.name} must be a JSON object.` };
    return { kind: "call", tool, args, via: "data" };
  }
  // Parts beside the text (files, data naming no skill) are not arguments of any tool.
  const text = textOf(message);
  if (text !== undefined) {
    if (!defaultSkill) return refusal("Not run: this agent has no default skill for a message with text only.", skills);
    return { kind: "call", tool: defaultSkill.tool, args: { [defaultSkill.argument]: text }, via: "text" };
  }
  return refusal("Not run: the message names no skill.", skills);
}
