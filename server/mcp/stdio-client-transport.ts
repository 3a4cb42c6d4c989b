/**
 * A stdio MCP server started by this process, as a transport for core's McpConnection: the relay's
 * own stdio peer (argv without a shell, its own process group, SIGTERM then SIGKILL on close)
 * with each stdout line handed on as a message, as the backend relay hands them to the page.
 */
import type { McpConnection } from "../../src/core/mcp/connection.ts";
import { jsonOrUndefined } from "../../src/core/json/index.ts";
import { deliverFrame } from "../../src/core/mcp/incoming-frame.ts";
import { RelayError } from "../../src/core/mcp/relay-error.ts";
import { HttpError } from "../http/errors.ts";
import type { Peer } from "./relay-peer.ts";
import type { StdioSpec } from "./session-spec.ts";
import { startStdio } from "./stdio-relay.ts";

type Transport = Parameters<McpConnection["connect"]>[0];
type Message = Parameters<Transport["send"]>[0];

const MAX_STDERR_LINES = 50;

export class StdioClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: Message) => void;

  readonly #spec: StdioSpec;
  /** Each line as it crossed, before it is parsed: sent to stdin ("out"), read from stdout ("in"). */
  readonly #onFrame: ((direction: "out" | "in", text: string) => void) | undefined;
  #peer: Peer | undefined;
  #closed = false;
  /** Why the process ended, when it ended on its own; McpConnection names a failed connect by it. */
  closedReason: string | undefined;
  /** The last lines the server wrote to stderr, to show when it fails. */
  readonly stderrLines: string[] = [];

  constructor(spec: StdioSpec, options: { readonly onFrame?: (direction: "out" | "in", text: string) => void } = {}) {
    this.#spec = spec;
    this.#onFrame = options.onFrame;
  }

  async start(): Promise<void> {
    try {
      this.#peer = await startStdio(this.#spec, {
        emit: (event) => {
          if (event.type === "message") this.#message(event.text);
          else if (event.type === "stderr") {
            this.stderrLines.push(event.text);
            if (this.stderrLines.length > MAX_STDERR_LINES) this.stderrLines.shift();
          } else if (event.type === "error") this.onerror?.(new RelayError(event.step, event.message));
        },
        closed: (reason) => {
          this.closedReason ??= reason;
          this.#finish();
        },
      });
    } catch (error) {
      // The relay reports a failed spawn as a 502 for the page; here it is the spawn step.
      if (error instanceof HttpError) throw new RelayError("spawn", error.message);
      throw error;
    }
  }

  #message(text: string): void {
    this.#onFrame?.("in", text);
    deliverFrame(jsonOrUndefined(text), text, "stdout", (message) => this.onmessage?.(message as Message), (error) => this.onerror?.(error));
  }

  async send(message: Message): Promise<void> {
    if (!this.#peer || this.#closed) throw new RelayError("send", "the server process is not running");
    const text = JSON.stringify(message);
    this.#onFrame?.("out", text);
    await this.#peer.send(Buffer.from(text, "utf8"));
  }

  async close(): Promise<void> {
    await this.#peer?.close();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}
