import type { Generation } from "./generations.ts";
import { GEN1_BLOCK_TYPES, NAME_PATTERN, STOP_REASON_PATTERN } from "./protocol.ts";

/**
 * Small JSON Schema builders and the definitions every fisk-ai message shares (header, identity,
 * usage, budget, blocks). Written from the wire facts; strictness and field sets follow the
 * generation.
 */

export type Schema = Record<string, unknown>;
export type Defs = Record<string, Schema>;

export const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });
export const str = (extra: Schema = {}): Schema => ({ type: "string", ...extra });
export const bool = (): Schema => ({ type: "boolean" });
export const count = (): Schema => ({ type: "integer", minimum: 0 });
export const strings = (): Schema => ({ type: "array", items: { type: "string" } });
export const named = (): Schema => str({ pattern: NAME_PATTERN });

/** The definition name of a block kind: `tool_call` is `toolCallBlock`. */
export const blockDef = (kind: string): string => `${kind.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}Block`;

/** An object schema; closed (no unknown properties) when the generation is strict. */
export function object(gen: Generation, properties: Schema, required: readonly string[] = []): Schema {
  const schema: Schema = { type: "object" };
  if (required.length > 0) schema.required = [...required];
  schema.properties = properties;
  if (gen.strict) schema.additionalProperties = false;
  return schema;
}

function header(gen: Generation): Schema {
  const gen2 = gen.generation === 2;
  const properties: Schema = {
    protocol: str(),
    // Gen 1 left ids unconstrained; Gen 2 puts them in NATS subjects, so it constrains them.
    id: gen2 ? named() : str(),
    request: gen2 ? str({ pattern: NAME_PATTERN, maxLength: 64 }) : str(),
    conversation: gen2 ? named() : str(),
    parent: str(),
    sequence: count(),
    // An annotation only: fisk-ai never asserts formats.
    time: str({ format: "date-time" }),
    sender: ref("identity"),
    recipient: ref("identity"),
    must_understand: { type: "boolean", default: false },
  };
  if (gen2) properties.traceparent = str();
  // Left open on purpose: each message closes itself with unevaluatedProperties, which sees these.
  return {
    type: "object",
    required: ["protocol", "id", "request", "conversation", "sequence", "time", "sender"],
    properties,
  };
}

function usage(gen: Generation): Schema {
  const fields =
    gen.generation === 2
      ? ["input_tokens", "output_tokens", "cache_read_tokens", "cache_create_tokens", "thinking_tokens", "llm_calls", "tool_calls"]
      : ["input_tokens", "output_tokens"];
  return object(gen, Object.fromEntries(fields.map((f) => [f, count()])));
}

function stopReason(gen: Generation): Schema {
  if (gen.stopReasons) return str({ enum: [...gen.stopReasons] });
  return str({ minLength: 1, maxLength: 64, pattern: STOP_REASON_PATTERN });
}

function toolDescriptor(gen: Generation): Schema {
  const properties: Schema = { name: str(), description: str(), input_schema: { type: "object" } };
  if (gen.generation === 2) properties.behavior = ref("toolBehavior");
  return object(gen, properties, ["name"]);
}

/** Block bodies by kind. Gen 1 adds a `type` discriminator; Gen 2 names the kind in the id. */
function blocks(gen: Generation): Defs {
  const gen2 = gen.generation === 2;
  const body: Record<string, [Schema, string[]]> = {
    thinking: [{ text: str(), signature: str(), provider: str() }, ["text"]],
    text: [gen2 ? { text: str(), final: bool() } : { text: str() }, ["text"]],
    tool_call: [{ id: str(), name: str(), input: { type: "object" } }, ["id", "name"]],
    tool_result: [{ call_id: str(), is_error: bool(), output: str(), exec: ref("execResult") }, ["call_id"]],
    agent_call: [{ id: str(), name: str(), task: str() }, ["id", "name", "task"]],
    status: [
      gen2
        ? { iteration: count(), phase: str(), usage: ref("usage"), count: count(), truncated: bool() }
        : { iteration: count(), phase: str(), usage: ref("usage") },
      [],
    ],
  };
  if (gen2) {
    body.prompt = [{ text: str() }, ["text"]];
    body.warning = [{ kind: str({ minLength: 1 }), name: str(), count: count(), params: strings(), error: str() }, ["kind"]];
  }
  const defs: Defs = {};
  for (const [kind, [properties, required]] of Object.entries(body)) {
    defs[blockDef(kind)] = gen2 ? object(gen, properties, required) : object(gen, { type: { const: kind }, ...properties }, ["type", ...required]);
  }
  if (!gen2) defs.block = { oneOf: GEN1_BLOCK_TYPES.map((t) => ref(blockDef(t))) };
  return defs;
}

/** Gen 2 only: the task path's token, answers and questions. */
function taskParts(gen: Generation): Defs {
  if (gen.generation !== 2) return {};
  return {
    toolBehavior: object(gen, { read_only: bool(), destructive: bool(), idempotent: bool(), open_world: bool() }),
    conversationToken: str({ pattern: NAME_PATTERN, maxLength: 128 }),
    questionId: named(),
    toolUseId: str({ maxLength: 256 }),
    waitMs: count(),
    elicitChoice: str({ enum: ["no", "once", "always"] }),
    elicitValue: str({ maxLength: 4096 }),
    answer: object(
      gen,
      {
        tool_use_id: ref("toolUseId"),
        kind: str({ enum: ["approve", "confirm", "select", "input"] }),
        answer: str({ enum: ["choice", "confirmed", "value", "no_operator"] }),
        choice: ref("elicitChoice"),
        confirmed: bool(),
        value: ref("elicitValue"),
      },
      ["tool_use_id", "kind", "answer"],
    ),
  };
}

/** The definitions shared by every message of a generation. */
export function sharedDefs(gen: Generation): Defs {
  return {
    identity: object(gen, { name: named(), instance: named() }, ["name"]),
    header: header(gen),
    usage: usage(gen),
    budget: object(gen, { max_tokens: count(), max_iterations: count(), call_timeout: str() }),
    stopReason: stopReason(gen),
    execResult: object(gen, { command: str(), exit_code: { type: "integer" }, truncated: bool() }),
    toolDescriptor: toolDescriptor(gen),
    ...taskParts(gen),
    ...blocks(gen),
  };
}
