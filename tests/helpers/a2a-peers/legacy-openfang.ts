/**
 * A v0.1-era agent as OpenFang v0.6.9 serves it, quirks included: POST /a2a/tasks/send answers
 * a bare Task (no JSON-RPC envelope) with a server-chosen id, `status` is a bare camelCase string
 * ("completed", "inputRequired", "cancelled"), `messages` replaces `history`, absent options are
 * written as null, and the card's `url` ({base}/a2a) has no POST route. The card claims streaming,
 * yet nothing streams. Only echo, `slow <ms>` and `fail` behave; every other text is echoed.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { isObject, sendJson } from "./json-rpc.ts";
import { parseCommand, PEER_TEXT, wait, type CommandKind } from "./peer-script.ts";
import type { RecordedRequest } from "./request-log.ts";

export const OPENFANG_CARD_PATH = "/.well-known/agent.json";
const COMMANDS: ReadonlySet<CommandKind> = new Set(["echo", "slow", "fail"]);

type OpenFangStatus = "submitted" | "working" | "inputRequired" | "completed" | "cancelled" | "failed";

interface OpenFangMessage {
  readonly role: "user" | "agent";
  readonly parts: readonly { readonly type: "text"; readonly text: string }[];
}

interface OpenFangTask {
  readonly id: string;
  readonly sessionId: string | null;
  status: OpenFangStatus;
  readonly messages: OpenFangMessage[];
  readonly artifacts: unknown[];
}

export function openFangCard(base: string, name: string): Record<string, unknown> {
  return {
    name,
    description: "Patchbay test peer behaving as OpenFang v0.6.9",
    url: `${base}/a2a`,
    version: "0.1.0",
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: true },
    skills: [{ id: "web_search", name: "web search", description: "Can use the web_search tool", tags: ["tool"], examples: [] }],
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
  };
}

const say = (role: OpenFangMessage["role"], text: string): OpenFangMessage => ({ role, parts: [{ type: "text", text }] });

/** An empty 404 or 405, as axum answers a route it lacks or a method a route lacks. */
function bare(res: ServerResponse, status: 404 | 405, allow?: string): void {
  res.writeHead(status, { "content-length": "0", ...(allow ? { allow } : {}) }).end();
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(body)) }).end(body);
}

export class OpenFangPeer {
  readonly tasks = new Map<string, OpenFangTask>();
  readonly #card: Record<string, unknown>;

  constructor(base: string, name: string) {
    this.#card = openFangCard(base, name);
  }

  async handle(entry: RecordedRequest, res: ServerResponse): Promise<void> {
    const { method, path } = entry;
    if (path === OPENFANG_CARD_PATH || path === "/a2a/agents") {
      if (method !== "GET") return bare(res, 405, "GET,HEAD");
      return sendJson(res, 200, path === OPENFANG_CARD_PATH ? this.#card : { agents: [this.#card], total: 1 });
    }
    if (path === "/a2a/tasks/send") {
      if (method !== "POST") return bare(res, 405, "POST");
      return this.#send(entry, res);
    }
    const cancel = /^\/a2a\/tasks\/([^/]+)\/cancel$/.exec(path);
    if (cancel) {
      if (method !== "POST") return bare(res, 405, "POST");
      return this.#cancel(decodeURIComponent(cancel[1]!), res);
    }
    const get = /^\/a2a\/tasks\/([^/]+)$/.exec(path);
    if (get) {
      if (method !== "GET") return bare(res, 405, "GET,HEAD");
      const task = this.tasks.get(decodeURIComponent(get[1]!));
      return task ? sendJson(res, 200, task) : notFound(res, decodeURIComponent(get[1]!));
    }
    bare(res, 404);
  }

  async #send(entry: RecordedRequest, res: ServerResponse): Promise<void> {
    const type = String(entry.headers["content-type"] ?? "");
    if (!/^application\/(.+\+)?json/i.test(type)) return text(res, 415, "Expected request with `Content-Type: application/json`");
    let body: unknown;
    try {
      body = JSON.parse(entry.body);
    } catch (err) {
      return text(res, 400, `Failed to parse the request body as JSON: ${(err as Error).message}`);
    }
    const params = isObject(body) && isObject(body.params) ? body.params : {};
    const message = isObject(params.message) ? params.message : {};
    const parts = Array.isArray(message.parts) ? message.parts : [];
    const found = parts.find((p): p is { type: "text"; text: string } => isObject(p) && p.type === "text" && typeof p.text === "string");
    const userText = found?.text ?? "No message provided";
    const task: OpenFangTask = {
      id: randomUUID(),
      sessionId: typeof params.sessionId === "string" ? params.sessionId : null,
      status: "working",
      messages: [say("user", userText)],
      artifacts: [],
    };
    this.tasks.set(task.id, task);
    const command = parseCommand(userText, COMMANDS);
    if (command.kind === "fail") {
      task.messages.push(say("agent", `Error: ${PEER_TEXT.failed}`));
      task.status = "failed";
      return sendJson(res, 500, task);
    }
    if (command.kind === "slow") await wait(command.ms);
    const reply = command.kind === "echo" ? command.text : userText;
    // As OpenFang's store does, completing overwrites whatever state the task reached meanwhile.
    task.messages.push(say("agent", reply));
    task.status = "completed";
    sendJson(res, 200, task);
  }

  #cancel(id: string, res: ServerResponse): void {
    const task = this.tasks.get(id);
    if (!task) return notFound(res, id);
    // OpenFang cancels whatever the state, a completed task included.
    task.status = "cancelled";
    sendJson(res, 200, task);
  }
}

function notFound(res: ServerResponse, id: string): void {
  sendJson(res, 404, { error: `Task '${id}' not found` });
}
