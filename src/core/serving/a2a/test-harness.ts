/**
 * The served agent driven in-process through its JSON-RPC endpoint, for tests: request bodies
 * in, JSON answers and collected stream events out, exactly as the listener would write them.
 */
import { silentLogger } from "../../env/index.ts";
import { systemScheduler, type Scheduler } from "../../env/scheduler.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { createA2aAgent, type A2aAgent, type A2aAgentOptions } from "./a2a-agent.ts";

export type Json = Record<string, unknown>;

let counter = 0;
export const nextId = (): string => `id-${++counter}`;

export function testAgent(options: Partial<A2aAgentOptions> = {}, scheduler: Scheduler = systemScheduler()): A2aAgent {
  return createA2aAgent({
    toolkit: DEMO_TOOLKIT,
    jsonRpcUrl: "http://127.0.0.1:1/a2a/jsonrpc",
    restUrl: "http://127.0.0.1:1/a2a/rest",
    scheduler,
    logger: silentLogger,
    newId: nextId,
    ...options,
  });
}

/** One JSON-RPC call answered as JSON (not a stream). */
export async function rpc(agent: A2aAgent, method: string, params: unknown, version?: string): Promise<Json> {
  const answer = await agent.jsonRpc.answer(JSON.stringify({ jsonrpc: "2.0", id: nextId(), method, params }), version ? { version } : {});
  if (answer.kind !== "json") throw new Error(`${method} answered with a stream`);
  return answer.body as Json;
}

/** Every event of a streamed call, until the stream ends. */
export async function streamed(agent: A2aAgent, method: string, params: unknown, version?: string): Promise<Json[]> {
  const answer = await agent.jsonRpc.answer(JSON.stringify({ jsonrpc: "2.0", id: nextId(), method, params }), version ? { version } : {});
  if (answer.kind !== "stream") return [answer.body as Json];
  const events: Json[] = [];
  for await (const event of answer.events) events.push(event.data as Json);
  return events;
}

/** A v0.3 message (`kind` parts). */
export function v03(parts: readonly Json[], extra: Json = {}): Json {
  return { message: { kind: "message", messageId: nextId(), role: "user", parts: parts.map((p) => ({ kind: "data" in p ? "data" : "text", ...p })), ...extra } };
}

/** A v1.0 message (member-named parts). */
export function v10(parts: readonly Json[], extra: Json = {}, configuration?: Json): Json {
  return { message: { messageId: nextId(), role: "ROLE_USER", parts, ...extra }, ...(configuration ? { configuration } : {}) };
}

export const call = (skill: string, args: Json = {}): Json => ({ data: { skill, arguments: args } });

/** Lets pending promise callbacks run (the SDK's event processing is asynchronous). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}
