import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { serveConnection } from "../connection.ts";
import { RecordingTransport, type FrameSink } from "../recording-transport.ts";
import type { McpServingContext } from "../serving-context.ts";

type Input = NonNullable<ConstructorParameters<typeof StdioServerTransport>[0]>;
type Output = NonNullable<ConstructorParameters<typeof StdioServerTransport>[1]>;

export interface StdioServing {
  /** Settles when the client closes its end (stdin ends) or `close` is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves one MCP connection over newline-delimited JSON on the given streams (stdin and stdout by
 * default), legacy or modern as the client opens it. Only MCP frames are written to the output;
 * logs belong on stderr.
 */
export async function serveStdio(ctx: McpServingContext, streams?: { readonly input: Input; readonly output: Output }, onFrame?: FrameSink): Promise<StdioServing> {
  const input = streams?.input ?? process.stdin;
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const wire = new RecordingTransport(new StdioServerTransport(input, streams?.output ?? process.stdout), onFrame ?? (() => undefined), { onClosed: () => done() });
  const serving = serveConnection(ctx, wire, "stdio");
  const end = () => void serving.close();
  input.once("end", end);
  input.once("close", end);
  void closed.then(() => ctx.tasks.cancelOwned(serving.owner));
  return {
    closed,
    async close() {
      input.off("end", end);
      input.off("close", end);
      await serving.close();
      done();
      await closed;
    },
  };
}
