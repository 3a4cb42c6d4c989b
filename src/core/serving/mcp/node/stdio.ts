import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { RecordingTransport, type FrameSink } from "../recording-transport.ts";
import { createMcpServer } from "../server-factory.ts";
import type { McpServingContext } from "../serving-context.ts";

type Input = NonNullable<ConstructorParameters<typeof StdioServerTransport>[0]>;
type Output = NonNullable<ConstructorParameters<typeof StdioServerTransport>[1]>;

export interface StdioServing {
  /** Settles when the client closes its end (stdin ends) or `close` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one MCP session over newline-delimited JSON on the given streams (stdin and stdout by
 * default). Only MCP frames are written to the output; logs belong on stderr.
 */
export async function serveStdio(ctx: McpServingContext, streams?: { readonly input: Input; readonly output: Output }, onFrame?: FrameSink): Promise<StdioServing> {
  const input = streams?.input ?? process.stdin;
  const transport = new StdioServerTransport(input, streams?.output ?? process.stdout);
  const server = createMcpServer(ctx);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  server.onclose = () => done();
  server.oninitialized = () => ctx.logger.info("MCP client connected over stdio", { client: server.getClientVersion()?.name });
  const end = () => void server.close();
  input.once("end", end);
  input.once("close", end);
  await server.connect(onFrame ? new RecordingTransport(transport, onFrame) : transport);
  return {
    closed,
    async close() {
      input.off("end", end);
      input.off("close", end);
      await server.close();
      await closed;
    },
  };
}
