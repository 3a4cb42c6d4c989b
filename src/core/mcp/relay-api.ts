import { isJsonObject } from "../json/index.ts";

/**
 * Per-session time and size limits on the relay's upstream HTTP calls; each is optional and the
 * relay fills in its defaults. Times are ms (100 to 300000), sizes bytes (1024 to 64 MiB).
 */
export interface RelayLimitsBody {
  /** From sending a request to its response headers (connect included). */
  readonly headersTimeoutMs?: number;
  /** The longest a response body may go without progress: a complete SSE line, or a JSON body's end. */
  readonly idleTimeoutMs?: number;
  /** The largest single message the relay accepts from the server. */
  readonly maxMessageBytes?: number;
}

/** What the backend relay is asked to connect to (POST /api/mcp/sessions). */
export type CreateSessionBody =
  | { readonly transport: "stdio"; readonly command: string; readonly args?: readonly string[]; readonly env?: Readonly<Record<string, string>>; readonly cwd?: string }
  | { readonly transport: "streamable-http"; readonly url: string; readonly headers?: Readonly<Record<string, string>>; readonly limits?: RelayLimitsBody }
  | { readonly transport: "sse"; readonly url: string; readonly headers?: Readonly<Record<string, string>>; readonly limits?: RelayLimitsBody };

/** A JSON-RPC request id as it appeared on the wire. */
export type JsonRpcId = string | number;

/** The relay's own failure steps, as its `error` events name them. */
/** Where a connection failed; `cors` comes only from a direct browser connection. */
export type RelayStep = "spawn" | "dns" | "tcp" | "tls" | "cors" | "http" | "not-mcp" | "protocol";

/** One line of the relay's NDJSON stream. `at` is ms since the session started. */
export type RelayEvent =
  | { readonly type: "message"; readonly text: string; readonly at: number }
  | { readonly type: "stderr"; readonly text: string; readonly at: number }
  | { readonly type: "http"; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly at: number }
  | {
      readonly type: "error";
      readonly step: RelayStep;
      readonly message: string;
      readonly status?: number;
      readonly body?: string;
      /** Requests this failure leaves unanswered: the server will not answer them, so the client can fail them now. */
      readonly requestIds?: readonly JsonRpcId[];
      readonly at: number;
    }
  | { readonly type: "closed"; readonly reason: string; readonly code?: number; readonly at: number }
  /** Something worth knowing that is not a failure, e.g. that the server offers no standalone GET stream. */
  | { readonly type: "note"; readonly text: string; readonly at: number };

/** Events shown in the console pane: everything but the JSON-RPC messages themselves. */
export type RelayConsoleEvent = Exclude<RelayEvent, { type: "message" }>;

const STEPS: ReadonlySet<string> = new Set<RelayStep>(["spawn", "dns", "tcp", "tls", "cors", "http", "not-mcp", "protocol"]);

/** The target a session's frames are logged under: the URL, or the command line of a stdio server. */
export function sessionTarget(body: CreateSessionBody): string {
  if (body.transport !== "stdio") return body.url;
  return `stdio:${[body.command, ...(body.args ?? [])].join(" ")}`;
}

function stringRecord(value: unknown): value is Record<string, string> {
  return isJsonObject(value) && Object.values(value).every((v) => typeof v === "string");
}

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

const idList = (v: unknown): v is JsonRpcId[] => Array.isArray(v) && v.every((id) => typeof id === "string" || num(id));

/** One stream line as an event, or the reason it is not one. */
export function parseRelayEvent(line: string): RelayEvent | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { problem: `relay stream line is not JSON (${(err as Error).message}): ${preview(line)}` };
  }
  if (!isJsonObject(value)) return { problem: `relay stream line is not a JSON object: ${preview(line)}` };
  const at = num(value.at) ? value.at : 0;
  switch (value.type) {
    case "message":
    case "stderr":
    case "note":
      if (typeof value.text !== "string") break;
      return { type: value.type, text: value.text, at };
    case "http":
      if (!num(value.status)) break;
      return { type: "http", status: value.status, headers: stringRecord(value.headers) ? value.headers : {}, at };
    case "error": {
      if (typeof value.message !== "string" || typeof value.step !== "string" || !STEPS.has(value.step)) break;
      return {
        type: "error",
        step: value.step as RelayStep,
        message: value.message,
        ...(num(value.status) ? { status: value.status } : {}),
        ...(typeof value.body === "string" ? { body: value.body } : {}),
        ...(idList(value.requestIds) && value.requestIds.length > 0 ? { requestIds: value.requestIds } : {}),
        at,
      };
    }
    case "closed":
      if (typeof value.reason !== "string") break;
      return { type: "closed", reason: value.reason, ...(num(value.code) ? { code: value.code } : {}), at };
    default:
      return { problem: `relay stream event has an unknown type ${JSON.stringify(value.type)}: ${preview(line)}` };
  }
  return { problem: `relay stream "${String(value.type)}" event is missing required fields: ${preview(line)}` };
}

/** At most 200 characters of a line, for error messages. */
export function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}
