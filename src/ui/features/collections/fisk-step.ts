/**
 * The fisk-ai tool call and task panels' requests as collection steps: the agent by identity, on
 * the NATS server this console is connected to. Steps run on the backend over TCP, so the
 * server is saved with its TCP address, as the NATS request composer's steps are.
 */
import type { NatsServiceStatus } from "../../../core/backend/backend-client.ts";
import { isValidIdentityName } from "../../../core/fisk/codec/index.ts";
import type { NatsToolAction, TargetSpec } from "../../../core/harness/index.ts";
import { parseToolInput } from "../fisk/tool-input.ts";
import { tcpServer } from "./nats-step.ts";
import type { SavedRequestResult } from "./step-drafts.ts";

export interface FiskToolInput {
  /** The agent chosen in the panel. */
  readonly identity: string;
  readonly tool: string;
  /** The input as typed: empty for no input, else one JSON object. */
  readonly input: string;
}

/** The task panel's fields; a step sends the prompt alone, so the options beside it are named as left out. */
export interface FiskTaskInput {
  readonly identity: string;
  /** The panel's request mode: prompt, resume or read. */
  readonly mode: string;
  readonly prompt: string;
  readonly context: string;
  readonly stream: boolean;
  readonly replay: string;
  readonly force: boolean;
  readonly maxTokens: string;
  readonly maxIterations: string;
  /** Never saved; only whether one is typed matters here. */
  readonly tokenInput: string;
}

/** The task options set in the panel that a step does not carry. */
export function unsavedTaskOptions(task: FiskTaskInput): string[] {
  const set: [boolean, string][] = [
    [task.context.trim() !== "", "context"],
    [!task.stream, "stream off"],
    [task.replay.trim() !== "", "replay"],
    [task.force, "force"],
    [task.maxTokens.trim() !== "", "max tokens"],
    [task.maxIterations.trim() !== "", "max iterations"],
    [task.tokenInput.trim() !== "", "the conversation token"],
  ];
  return set.filter(([on]) => on).map(([, name]) => name);
}

/** The server the console is connected to: the NATS session's servers, undefined before any. */
export type ConnectedServers = string | undefined;

type Where = { readonly target: TargetSpec; readonly notes: string[] } | { readonly error: string };

function natsTarget(servers: ConnectedServers, nats: NatsServiceStatus | undefined): Where {
  if (servers === undefined || servers.trim() === "") return { error: "connect to NATS first: the step is saved with the server this console is connected to" };
  const where = tcpServer(servers, nats);
  if ("error" in where) return where;
  const notes = where.server !== servers.trim() ? [`saved with the backend's TCP address ${where.server}`] : [];
  // The session keeps no credentials; the backend's own managed server needs none.
  if (nats?.mode !== "managed") notes.push("the connection's credentials are not saved: give the target a token if its server needs one");
  return { target: { protocol: "nats", server: where.server }, notes };
}

function identityError(identity: string): string | null {
  if (identity === "") return "choose an agent first (discover one in Agents)";
  return isValidIdentityName(identity) ? null : `agent identity ${JSON.stringify(identity)} is not valid: use letters, digits, '-' and '_' only`;
}

/** A tool call to the chosen agent, with the input as typed. */
export function fiskToolStep(call: FiskToolInput, servers: ConnectedServers, nats: NatsServiceStatus | undefined): SavedRequestResult {
  const identity = call.identity.trim();
  const tool = call.tool.trim();
  const problem = identityError(identity) ?? (tool === "" ? "choose or type a tool name" : null);
  if (problem) return { ok: false, error: problem };
  const parsed = parseToolInput(call.input);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const where = natsTarget(servers, nats);
  if ("error" in where) return { ok: false, error: where.error };
  const action: NatsToolAction = { protocol: "nats", kind: "tool", identity, tool, ...(parsed.input ? { input: parsed.input } : {}) };
  return { ok: true, request: { draft: { name: tool, target: where.target, targetHint: "nats", action }, secrets: {}, notes: where.notes } };
}

/** A new task with the typed prompt; resumed and read conversations need a token a file never holds. */
export function fiskTaskStep(task: FiskTaskInput, servers: ConnectedServers, nats: NatsServiceStatus | undefined): SavedRequestResult {
  const identity = task.identity.trim();
  const problem =
    (identity === "" ? "type the agent identity first" : identityError(identity)) ??
    (task.mode !== "prompt" ? `only a new prompt is saved as a step, not ${task.mode}: continuing a conversation needs its token, which a collection never holds` : null) ??
    (task.prompt.trim() === "" ? "type a prompt" : null);
  if (problem) return { ok: false, error: problem };
  const where = natsTarget(servers, nats);
  if ("error" in where) return { ok: false, error: where.error };
  const left = unsavedTaskOptions(task);
  const notes = left.length > 0 ? [`the step sends the prompt alone; not saved: ${left.join(", ")}`, ...where.notes] : where.notes;
  return { ok: true, request: { draft: { name: `task ${identity}`, target: where.target, targetHint: "nats", action: { protocol: "nats", kind: "task", identity, text: task.prompt } }, secrets: {}, notes } };
}

/** Asks the backend where its NATS server listens, then builds the step; without an answer only a nats:// server saves. */
export async function withBackendNats(status: () => Promise<{ readonly nats: NatsServiceStatus }>, build: (nats: NatsServiceStatus | undefined) => SavedRequestResult): Promise<SavedRequestResult> {
  let nats: NatsServiceStatus | undefined;
  try {
    nats = (await status()).nats;
  } catch {
    // tcpServer says what is missing when the address cannot be known.
  }
  return build(nats);
}
