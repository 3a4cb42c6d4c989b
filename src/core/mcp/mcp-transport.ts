import type { JSONRPCMessage, TransportSendOptions } from "@modelcontextprotocol/client";

export type { JSONRPCMessage };

/**
 * What McpConnection connects over: the SDK's transport contract, plus what the console's own
 * transports tell about themselves.
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage, extra?: never) => void) | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
  /** True when each request travels as its own HTTP request, which closing cancels (2026-07-28). */
  readonly hasPerRequestStream?: boolean;
  /** "stdio" for a pipe to a server process: a silent server/discover probe then means a legacy server. */
  readonly channelKind?: "stdio" | "http";
}
