import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { McpConnection } from "./connection.ts";
import { McpRequestError } from "./request-failure.ts";
import { DOT_PNG, inspectServer } from "./test-inspect-server.ts";
import { INITIALIZED, linked, scriptedPeer } from "./test-servers.ts";

const clientInfo = { name: "patchbay-test", version: "0.0.0" };

/** A peer that answers initialize and nothing else. */
function initializeOnly(): InMemoryTransport {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message) => {
    const m = message as { id?: number; method?: string };
    if (m.method === "initialize" && m.id !== undefined) void serverSide.send({ jsonrpc: "2.0", id: m.id, ...INITIALIZED } as JSONRPCMessage);
  };
  void serverSide.start();
  return clientSide;
}

async function connected(options: { subscribe?: boolean } = {}) {
  const made = inspectServer(options);
  const connection = new McpConnection();
  const info = await connection.connect(await linked(made.server), { clientInfo });
  return { ...made, connection, info };
}

async function failure(promise: Promise<unknown>): Promise<McpRequestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpRequestError);
  return error as McpRequestError;
}

describe("McpConnection resources", () => {
  it("lists resources and templates as the server sent them", async () => {
    const { connection, info } = await connected();
    expect(info.capabilities.resources).toMatchObject({ subscribe: true });
    expect((await connection.listResources()).map((r) => r.uri)).toEqual(["test://doc/readme", "test://img/dot.png", "test://bin/data", "test://slow"]);
    expect(await connection.listResourceTemplates()).toEqual([{ name: "item", uriTemplate: "test://items/{id}", description: "One item by id" }]);
  });

  it("reads text and blob contents, returning the result as received", async () => {
    const { connection } = await connected();
    expect(await connection.readResource("test://doc/readme")).toEqual({ contents: [{ uri: "test://doc/readme", mimeType: "text/markdown", text: "# Hello\n" }] });
    expect(await connection.readResource("test://img/dot.png")).toEqual({ contents: [{ uri: "test://img/dot.png", mimeType: "image/png", blob: DOT_PNG }] });
    expect(await connection.readResource("test://items/42")).toEqual({ contents: [{ uri: "test://items/42", mimeType: "text/plain", text: "item 42" }] });
  });

  it("names a refused read a JSON-RPC error with the server's code, and a slow one a timeout", async () => {
    const { connection } = await connected();
    const refused = await failure(connection.readResource("test://nope"));
    expect(refused).toMatchObject({ kind: "json-rpc-error", method: "resources/read", error: { code: -32602, message: expect.stringContaining("not found") } });
    expect(refused.code).toBe(-32602);
    expect(refused.message).toMatch(/^resources\/read was refused by the server \(JSON-RPC error -32602\): (MCP error -32602: )?Resource test:\/\/nope not found/);
    const slow = await failure(connection.readResource("test://slow", { timeoutMs: 30 }));
    expect(slow).toMatchObject({ kind: "timeout", message: "resources/read got no answer within 30 ms" });
  });

  it("names a cancelled request, and one on a closed connection", async () => {
    const { connection } = await connected();
    const controller = new AbortController();
    const pending = failure(connection.readResource("test://slow", { signal: controller.signal }));
    controller.abort("user pressed stop");
    expect(await pending).toMatchObject({ kind: "cancelled", message: "resources/read was cancelled: user pressed stop" });
    await connection.close();
    expect(await failure(connection.getPrompt("plain"))).toMatchObject({ kind: "connection-closed", message: "prompts/get was not sent: the connection is closed" });
  });

  it("subscribes, hears resources/updated as an event, and unsubscribes", async () => {
    const { connection, subscribed, touch } = await connected();
    const updated: unknown[] = [];
    connection.on("resource-updated", (u) => updated.push(u));
    expect(await connection.subscribeResource("test://doc/readme")).toEqual({});
    expect([...subscribed]).toEqual(["test://doc/readme"]);
    await touch("test://doc/readme");
    await new Promise((r) => setTimeout(r, 5));
    expect(updated).toEqual([{ uri: "test://doc/readme" }]);
    await connection.unsubscribeResource("test://doc/readme");
    expect(subscribed.size).toBe(0);
  });

  it("passes a server's refusal to subscribe through as a JSON-RPC error", async () => {
    const { connection } = await connected({ subscribe: false });
    expect(await failure(connection.subscribeResource("test://doc/readme"))).toMatchObject({ kind: "json-rpc-error", error: { code: -32601 } });
  });

  it("hears list_changed for resources and prompts added after connecting", async () => {
    const { connection, addResource, addPrompt } = await connected();
    const changes: unknown[] = [];
    connection.on("list-changed", (c) => changes.push(c));
    addResource("fresh");
    addPrompt("late");
    await new Promise((r) => setTimeout(r, 5));
    expect(changes).toEqual([{ list: "resources" }, { list: "prompts" }]);
    expect((await connection.listResources()).map((r) => r.uri)).toContain("test://added/fresh");
  });
});

describe("McpConnection prompts", () => {
  it("lists prompts with their declared arguments", async () => {
    const { connection } = await connected();
    const prompts = await connection.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["plain", "greet"]);
    expect(prompts[1]?.arguments).toEqual([
      { name: "name", description: "Who to greet", required: true },
      { name: "mood", required: false },
    ]);
  });

  it("gets a prompt with and without arguments, returning the messages as received", async () => {
    const { connection } = await connected();
    expect(await connection.getPrompt("plain")).toEqual({ messages: [{ role: "user", content: { type: "text", text: "Say hi" } }] });
    const greet = await connection.getPrompt("greet", { name: "Ada", mood: "sunny" });
    expect(greet).toMatchObject({ description: "A greeting", messages: [{ role: "user", content: { text: "Greet Ada in a sunny mood" } }, { role: "assistant", content: { type: "image" } }] });
  });

  it("names a prompt the server refuses (a missing required argument) a JSON-RPC error", async () => {
    const { connection } = await connected();
    const error = await failure(connection.getPrompt("greet", {}));
    expect(error).toMatchObject({ kind: "json-rpc-error", method: "prompts/get", error: { code: -32602 } });
  });
});

describe("McpConnection completion and list time limits", () => {
  it("sends completion/complete with its reference, argument and context, returning the result as received", async () => {
    const asked: unknown[] = [];
    const connection = new McpConnection();
    await connection.connect(
      scriptedPeer((request) => {
        if (request.method === "initialize") return INITIALIZED;
        asked.push(request);
        return { result: { completion: { values: ["Alice"], hasMore: false } } };
      }),
      { clientInfo },
    );
    const result = await connection.complete({ type: "ref/prompt", name: "team" }, { name: "lead", value: "A" }, { department: "Engineering" });
    expect(result).toEqual({ completion: { values: ["Alice"], hasMore: false } });
    expect(asked).toEqual([{ method: "completion/complete", params: { ref: { type: "ref/prompt", name: "team" }, argument: { name: "lead", value: "A" }, context: { arguments: { department: "Engineering" } } } }]);
  });

  it("gives each page of a list the time limit", async () => {
    const connection = new McpConnection();
    await connection.connect(
      scriptedPeer((request) => (request.method === "initialize" ? INITIALIZED : { result: { prompts: [], nextCursor: "more" } })),
      { clientInfo },
    );
    // The second answer repeats the cursor, so the list fails by the guard rather than hanging.
    await expect(connection.listPrompts({ timeoutMs: 50 })).rejects.toThrow('prompts/list page 2: the server repeated cursor "more"');
    const silent = new McpConnection();
    await silent.connect(initializeOnly(), { clientInfo });
    expect(await failure(silent.listResources({ timeoutMs: 30 }))).toMatchObject({ kind: "timeout", method: "resources/list" });
  });
});
