/**
 * An in-memory MCP server with resources, resource templates, prompts and subscriptions, for
 * the unit tests of reading and getting; imported by tests only.
 */
// The layer rule's "**/server/**" pattern targets the backend; these are the SDK's own server modules.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

/** A 1×1 PNG. */
export const DOT_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

export interface InspectServer {
  readonly server: McpServer;
  /** URIs the client is subscribed to. */
  readonly subscribed: Set<string>;
  /** Sends notifications/resources/updated for `uri`. */
  touch(uri: string): Promise<void>;
  /** Adds a text resource, which makes the server send resources/list_changed. */
  addResource(name: string): void;
  /** Adds a prompt, which makes the server send prompts/list_changed. */
  addPrompt(name: string): void;
}

export function inspectServer(options: { readonly subscribe?: boolean } = {}): InspectServer {
  const subscribe = options.subscribe ?? true;
  const server = new McpServer({ name: "test-inspect", version: "0.0.1" }, { capabilities: { resources: subscribe ? { subscribe: true } : {} } });
  const subscribed = new Set<string>();

  server.registerResource("readme", "test://doc/readme", { mimeType: "text/markdown", description: "The readme" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/markdown", text: "# Hello\n" }],
  }));
  server.registerResource("dot", "test://img/dot.png", { mimeType: "image/png" }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: DOT_PNG }] }));
  server.registerResource("data", "test://bin/data", { mimeType: "application/octet-stream" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "application/octet-stream", blob: "AAECAwQ=" }],
  }));
  server.registerResource("slow", "test://slow", {}, () => new Promise(() => {}));
  server.registerResource("item", new ResourceTemplate("test://items/{id}", { list: undefined }), { description: "One item by id" }, async (uri, vars) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: `item ${String(vars.id)}` }],
  }));

  server.registerPrompt("plain", { description: "No arguments" }, () => ({ messages: [{ role: "user", content: { type: "text", text: "Say hi" } }] }));
  server.registerPrompt("greet", { description: "Greets someone", argsSchema: { name: z.string().describe("Who to greet"), mood: z.string().optional() } }, ({ name, mood }) => ({
    description: "A greeting",
    messages: [
      { role: "user", content: { type: "text", text: `Greet ${name}${mood ? ` in a ${mood} mood` : ""}` } },
      { role: "assistant", content: { type: "image", mimeType: "image/png", data: DOT_PNG } },
    ],
  }));

  if (subscribe) {
    server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }

  return {
    server,
    subscribed,
    touch: (uri) => server.server.sendResourceUpdated({ uri }),
    addResource: (name) => {
      server.registerResource(name, `test://added/${name}`, { mimeType: "text/plain" }, async (uri) => ({ contents: [{ uri: uri.href, text: name }] }));
    },
    addPrompt: (name) => {
      server.registerPrompt(name, {}, () => ({ messages: [{ role: "user", content: { type: "text", text: name } }] }));
    },
  };
}
