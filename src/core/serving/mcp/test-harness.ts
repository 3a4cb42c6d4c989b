/**
 * A served agent and an official SDK client joined in memory, for the unit tests of the MCP
 * surface, in either era: the v1 SDK's client (legacy, initialize) or the v2 client pinned to
 * 2026-07-28 (modern). The agent is served exactly as over stdio. Imported by tests only.
 */
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport as LegacyTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { sinkLogger } from "../../env/defaults.ts";
import { systemScheduler } from "../../env/scheduler.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { serveConnection } from "./connection.ts";
import type { FrameEvent } from "./recording-transport.ts";
import { RecordingTransport } from "./recording-transport.ts";
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

/** The world a test context gets: real randomness and wall time. */
export const TEST_WORLD = { randomBytes: (bytes: Uint8Array) => globalThis.crypto.getRandomValues(bytes), wallNow: () => Date.now() } as const;

function contextFor(options: HarnessOptions, logs: string[]): McpServingContext {
  const logger = sinkLogger((level, message, fields) => logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`));
  return options.context ?? createServingContext({ toolkit: DEMO_TOOLKIT, scheduler: systemScheduler(), logger, ...TEST_WORLD, ...options });
}

/** The legacy era: the v1 SDK client, initialize and a session. */
export async function connectHarness(options: HarnessOptions = {}): Promise<Harness> {
  const logs: string[] = [];
  const ctx = contextFor(options, logs);
  const frames: FrameEvent[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const serving = serveConnection(ctx, new RecordingTransport(serverSide, (frame) => frames.push(frame)), "memory");
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
  await client.connect(clientSide as unknown as LegacyTransport);
  return {
    client,
    ctx,
    logs,
    frames,
    elicitations,
    async close() {
      await client.close();
      await serving.close();
    },
  };
}

export interface ModernHarness {
  readonly client: ModernClient;
  readonly ctx: McpServingContext;
  readonly logs: string[];
  readonly frames: FrameEvent[];
  close(): Promise<void>;
}

/** The modern era: the v2 SDK client pinned to 2026-07-28 (no initialize; `_meta` on every request). */
export async function connectModernHarness(options: HarnessOptions = {}): Promise<ModernHarness> {
  const logs: string[] = [];
  const ctx = contextFor(options, logs);
  const frames: FrameEvent[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const serving = serveConnection(ctx, new RecordingTransport(serverSide, (frame) => frames.push(frame)), "memory");
  const client = new ModernClient(
    { name: "patchbay-modern-test", version: "0.0.0" },
    { capabilities: (options.capabilities ?? {}) as never, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(clientSide as never);
  return {
    client,
    ctx,
    logs,
    frames,
    async close() {
      await client.close();
      await serving.close();
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
