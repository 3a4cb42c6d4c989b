import { type JSONRPCMessage, specTypeSchemas } from "@modelcontextprotocol/client";
import { preview } from "./relay-api.ts";
import { NotJsonRpcError } from "./relay-error.ts";

/** Where a frame came from, for telling what in it is not JSON-RPC. */
export type FrameSource = "frame" | "stdout";

const NOT_JSON_RPC: Readonly<Record<FrameSource, string>> = {
  frame: "server sent a frame that is not JSON-RPC",
  stdout: "the server process wrote a line to stdout that is not JSON-RPC",
};

/**
 * Hands on each JSON-RPC message of one frame a server sent (a batch holds several), each
 * checked against the specification's JSONRPCMessage, and reports as a NotJsonRpcError what is
 * not one: text that is not JSON, an empty batch, a member that is no message. `value` is the
 * frame's text parsed, undefined when it is not JSON.
 */
export function deliverFrame(
  value: unknown,
  text: string,
  source: FrameSource,
  onmessage: (message: JSONRPCMessage) => void,
  onerror: (error: NotJsonRpcError) => void,
): void {
  const messages = Array.isArray(value) ? (value as unknown[]) : [value];
  if (value === undefined || messages.length === 0) {
    onerror(new NotJsonRpcError(`${NOT_JSON_RPC[source]}: ${preview(text)}`));
    return;
  }
  for (const one of messages) {
    if (!specTypeSchemas.JSONRPCMessage["~standard"].validate(one).issues) onmessage(one as JSONRPCMessage);
    else onerror(new NotJsonRpcError(`server sent a message that is not valid JSON-RPC 2.0: ${preview(JSON.stringify(one) ?? text)}`));
  }
}
