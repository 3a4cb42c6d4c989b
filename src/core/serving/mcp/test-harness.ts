/**
 * A served agent and the official SDK client joined in memory, for the unit tests of the MCP
 * surface; imported by tests only.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { sinkLogger } from "../../env/defaults.ts";
import { systemScheduler } from "../../env/scheduler.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { FrameEvent } from "./recording-transport.ts";
import { RecordingTransport } from "./recording-transport.ts";
import { createMcpServer } from "./server-factory.ts";
import { createServingContext, type McpServingContext, type McpServingOptions } from "./serving-context.ts";

export interface HarnessOptions extends Partial<McpServingOptions> {
  /** The client's declared capabilities; default none. */
  readonly capabilities?: ClientCapabilities;
  /** Answers elicitation/create (requires the elicitation capability). */
  readonly onElicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;
  readonly onSample?: () => CreateMessageResult | Promise<CreateMessageResult>;
  /** An existing context, to share its semaphore between clients. */
  readonly context?: McpServingContext;
}

export interface Harness {
  readonly client: Client;
  readonly ctx: McpServingContext;
  /** Every log line as `level message fields-json`. */
  readonly logs: string[];
  readonly frames: FrameEvent[];
  /** Elicitation requests the client received. */
  readonly elicitations: ElicitRequest[];
  close(): Promise<void>;
}

export async function connectHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logs: string[] = [];
  const logger = sinkLogger((level, message, fields) => logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`));
  const ctx =
    options.context ??
    createServingContext({ toolkit: DEMO_TOOLKIT, scheduler: systemScheduler(), logger, ...options });
  const server = createMcpServer(ctx);
  const frames: FrameEvent[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(new RecordingTransport(serverSide, (frame) => frames.push(frame)));
  const client = new Client({ name: "patchbay-test", version: "0.0.0" }, { capabilities: options.capabilities ?? {} });
  const elicitations: ElicitRequest[] = [];
  if (options.capabilities?.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      elicitations.push(request);
      if (!options.onElicit) return { action: "cancel" };
      return options.onElicit(request);
    });
  }
  if (options.capabilities?.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async () =>
      options.onSample ? options.onSample() : { role: "assistant", model: "test-model", content: { type: "text", text: "a sampled answer" } },
    );
  }
  await client.connect(clientSide);
  return {
    client,
    ctx,
    logs,
    frames,
    elicitations,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The text of a tool result's first content block. */
export function firstText(result: object): string {
  const first = ((result as { content?: unknown }).content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === "text" ? (first.text ?? "") : "";
}

/** Lets pending promise callbacks and in-memory messages run. */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}
