import {
  encodeFiskBytes,
  FISK_PROTOCOLS,
  MAX_BODY_BYTES,
  stampReply,
  type FiskMessage,
  type Identity,
  type IdContext,
} from "../../fisk/codec/index.ts";
import type { NatsHeaders, NatsPort } from "../../nats/port.ts";
import type { ToolProgress } from "../tool-run.ts";
import { refusalFields, type ToolReplyFields } from "./fisk-reply.ts";

/** Marks the last message of a reply set; readers only check that it is non-empty. */
export const FINAL_HEADER = "Fisk-AI-Stream-Final";
export const SERVICE_ERROR_CODE = "Nats-Service-Error-Code";
export const SERVICE_ERROR = "Nats-Service-Error";

/** The request being answered: its tags are echoed, its sender becomes the recipient. */
export interface Answering {
  readonly request: string;
  readonly conversation: string;
  readonly sender?: Identity;
}

/** Where replies go and how they are stamped. */
export interface ReplyTarget {
  readonly port: NatsPort;
  readonly inbox: string;
  readonly answering: Answering;
  readonly me: Identity;
  readonly ids: IdContext;
  /** A send that failed (closed connection, …): the caller logs it; nothing is thrown. */
  readonly onSendError?: (message: string) => void;
}

/** Publishes, reporting a failure instead of throwing. */
export function send(target: ReplyTarget, data: Uint8Array, headers?: NatsHeaders): boolean {
  try {
    target.port.publish(target.inbox, data, headers ? { headers } : undefined);
    return true;
  } catch (err) {
    target.onSendError?.(`could not answer on ${target.inbox}: ${(err as Error).message}`);
    return false;
  }
}

/**
 * One message as fisk-ai's Go code writes it, with its header stamped for this reply. `go: false`
 * keeps members fisk-ai's structs do not declare (Patchbay's own additions), in the same order.
 */
export function replyBytes(target: ReplyTarget, protocol: FiskMessage["protocol"], sequence: number, body: object, go = true): Uint8Array {
  const header = stampReply(target.answering, target.me, target.ids);
  return encodeFiskBytes({ protocol, ...header, sequence, ...body } as unknown as FiskMessage, { go });
}

/** micro's `req.Error`: the code and text in headers over an empty body, before any reply. */
export function microError(target: Pick<ReplyTarget, "port" | "inbox" | "onSendError">, code: number, description: string): boolean {
  // A header value cannot hold a line break.
  const text = description.replace(/[\r\n]+/g, " ");
  return send(target as ReplyTarget, new Uint8Array(0), { [SERVICE_ERROR_CODE]: [String(code)], [SERVICE_ERROR]: [text] });
}

const oversize = (bytes: number): ToolReplyFields =>
  refusalFields(`the tool's reply is ${bytes} bytes, over the ${MAX_BODY_BYTES} byte message limit, and was not sent`);

/**
 * A `tool.reply` to send, or a smaller harness error in its place when it would break the body
 * cap (a peer refuses an oversized message unread).
 */
export function toolReplyBytes(target: ReplyTarget, sequence: number, fields: ToolReplyFields): Uint8Array {
  const bytes = replyBytes(target, FISK_PROTOCOLS.toolReply, sequence, fields);
  return bytes.byteLength > MAX_BODY_BYTES ? replyBytes(target, FISK_PROTOCOLS.toolReply, sequence, oversize(bytes.byteLength)) : bytes;
}

/**
 * One Gen 2 reply set: the ack is sequence 1, later messages follow without gaps, and only the
 * terminal `tool.reply` carries the final header. Nothing is sent after the end.
 */
export class ReplyStream {
  readonly #target: ReplyTarget;
  #next = 1;
  #ended = false;

  constructor(target: ReplyTarget) {
    this.#target = target;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** The next sequence number (how many messages went out, plus one). */
  get next(): number {
    return this.#next;
  }

  /** The first message; a task's ack also carries the conversation token and the token bound. */
  ack(accepted: boolean, reason?: string, task?: { readonly conversation_token?: string; readonly max_tokens?: number }): boolean {
    if (this.#next !== 1) throw new Error("the ack must be the first message of a reply set");
    this.#next++;
    const body = { accepted, ...(reason ? { reason } : {}), ...(task?.conversation_token ? { conversation_token: task.conversation_token } : {}), ...(task?.max_tokens ? { max_tokens: task.max_tokens } : {}) };
    return send(this.#target, replyBytes(this.#target, FISK_PROTOCOLS.ack, 1, body));
  }

  /** A running-tool keepalive; false when it could not go out (the caller stops sending them). */
  keepalive(): boolean {
    return this.status({ phase: "running-tool" });
  }

  /**
   * The tool's own progress: a running-tool status (still a keepalive to any fisk-ai reader) that
   * also carries `progress`, `total` and `message`, as MCP names them. fisk-ai's status struct has
   * no such fields; a Gen 2 reader skips every status and its schema accepts extra members.
   */
  progress(p: ToolProgress): boolean {
    const extra = { progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) };
    return this.status({ phase: "running-tool", ...extra }, false);
  }

  /** One `event.status` with the next sequence; false when the set has ended or the send failed. */
  status(block: Readonly<Record<string, unknown>>, go = true): boolean {
    if (this.#ended) return false;
    const bytes = replyBytes(this.#target, FISK_PROTOCOLS.eventStatus, this.#next, { block }, go);
    if (!send(this.#target, bytes)) return false;
    this.#next++;
    return true;
  }

  /** The terminal reply, marked final. */
  end(fields: ToolReplyFields): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    return send(this.#target, toolReplyBytes(this.#target, this.#next++, fields), { [FINAL_HEADER]: ["true"] });
  }

  /**
   * Any event or question of a task's set, with the next sequence. One that would break the body
   * cap is refused without using a sequence number (fisk-ai's `ErrMessageTooLarge`); false then,
   * or when the set has ended or the send failed.
   */
  message(protocol: FiskMessage["protocol"], body: object, go = true): boolean {
    if (this.#ended) return false;
    const bytes = replyBytes(this.#target, protocol, this.#next, body, go);
    if (bytes.byteLength > MAX_BODY_BYTES) return false;
    if (!send(this.#target, bytes)) return false;
    this.#next++;
    return true;
  }

  /** A task's terminal `result` or `error`, marked final. */
  finish(protocol: FiskMessage["protocol"], body: object): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    return send(this.#target, replyBytes(this.#target, protocol, this.#next++, body), { [FINAL_HEADER]: ["true"] });
  }
}
