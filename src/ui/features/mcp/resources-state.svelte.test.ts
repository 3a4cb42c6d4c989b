import { describe, expect, it } from "vitest";
import { McpConnection } from "../../../core/mcp/index.ts";
import { DOT_PNG, inspectServer } from "../../../core/mcp/test-inspect-server.ts";
import { INITIALIZED, linked, scriptedPeer, toolServer } from "../../../core/mcp/test-servers.ts";
import type { InspectSource } from "./inspect-source.ts";
import { ResourcesState } from "./resources-state.svelte.ts";

const clientInfo = { name: "patchbay-test", version: "0.0.0" };
const settle = () => new Promise((r) => setTimeout(r, 10));

async function open(options: { subscribe?: boolean; timeoutMs?: number } = {}) {
  const server = inspectServer(options);
  const connection = new McpConnection();
  await connection.connect(await linked(server.server), { clientInfo });
  let current: McpConnection | undefined = connection;
  const source: InspectSource = { connection: () => current, info: () => current?.info, timeoutMs: () => options.timeoutMs };
  const state = new ResourcesState(source);
  const stop = state.watch(connection);
  await state.refresh();
  return { ...server, connection, state, stop, close: () => (current = undefined) };
}

describe("ResourcesState", () => {
  it("lists resources and templates when the server has the capability", async () => {
    const { state } = await open();
    expect(state.supported).toBe(true);
    expect(state.canSubscribe).toBe(true);
    expect(state.resources.map((r) => r.name)).toEqual(["readme", "dot", "data", "slow"]);
    expect(state.templates.map((t) => t.uriTemplate)).toEqual(["test://items/{id}"]);
    expect(state.listError).toBeNull();
  });

  it("says so when the server declares no resources capability", async () => {
    const connection = new McpConnection();
    await connection.connect(await linked(toolServer()), { clientInfo });
    const state = new ResourcesState({ connection: () => connection, info: () => connection.info });
    await state.refresh();
    expect(state.supported).toBe(false);
    expect(state.listError).toBe("The server declares no resources capability.");
  });

  it("reads the selected resource: text, image and bytes, with the raw result kept", async () => {
    const { state } = await open();
    state.select("resource", 0);
    await state.readSelected();
    expect(state.read).toMatchObject({ uri: "test://doc/readme", ok: true, result: { contents: [{ text: "# Hello\n" }] }, parts: [{ kind: "text", text: "# Hello\n", mimeType: "text/markdown" }] });
    state.select("resource", 1);
    await state.readSelected();
    expect(state.read).toMatchObject({ ok: true, parts: [{ kind: "image", src: `data:image/png;base64,${DOT_PNG}`, bytes: 70 }] });
    state.select("resource", 2);
    await state.readSelected();
    expect(state.read).toMatchObject({ ok: true, parts: [{ kind: "binary", bytes: 5, mimeType: "application/octet-stream" }] });
  });

  it("fills a template's variables, shows the URI it names, and reads it", async () => {
    const { state } = await open();
    state.select("template", 0);
    expect(state.variables).toEqual([{ name: "id", operator: "" }]);
    expect(state.expansion).toEqual({ ok: true, uri: "test://items/" });
    state.setValue("id", "a b/7");
    expect(state.expansion).toEqual({ ok: true, uri: "test://items/a%20b%2F7" });
    state.setValue("id", "42");
    await state.readSelected();
    expect(state.read).toMatchObject({ uri: "test://items/42", ok: true, parts: [{ kind: "text", text: "item 42" }] });
    state.select("template", 0);
    expect(state.values).toEqual({ id: "42" });
  });

  it("shows a refused read as a plain sentence with the server's error, and a slow one as a timeout", async () => {
    const { state } = await open({ timeoutMs: 40 });
    await state.readUri("test://nope");
    expect(state.read).toMatchObject({ ok: false, failure: { message: expect.stringMatching(/^resources\/read was refused by the server \(JSON-RPC error -32602\)/) } });
    if (state.read?.ok !== false) throw new Error("expected a failure");
    expect(JSON.parse(state.read.failure.raw ?? "{}")).toMatchObject({ code: -32602 });
    await state.readUri("test://slow");
    expect(state.read).toMatchObject({ ok: false, failure: { message: "resources/read got no answer within 40 ms", raw: undefined } });
    expect(state.reading).toBe(false);
  });

  it("subscribes and unsubscribes, records updates, and marks a read resource stale", async () => {
    const { state, subscribed, touch } = await open();
    state.select("resource", 0);
    await state.readSelected();
    await state.toggleSubscription("test://doc/readme");
    expect(state.subscribed).toEqual(["test://doc/readme"]);
    expect([...subscribed]).toEqual(["test://doc/readme"]);
    expect(state.stale).toBe(false);
    await touch("test://doc/readme");
    await touch("test://other");
    await settle();
    expect(state.updates.map((u) => u.uri)).toEqual(["test://doc/readme", "test://other"]);
    expect(state.stale).toBe(true);
    await state.readSelected();
    expect(state.stale).toBe(false);
    await state.toggleSubscription("test://doc/readme");
    expect(state.subscribed).toEqual([]);
    expect(subscribed.size).toBe(0);
  });

  it("says why a subscription failed", async () => {
    const { state } = await open({ subscribe: false });
    expect(state.canSubscribe).toBe(false);
    await state.toggleSubscription("test://doc/readme");
    expect(state.subscribeError).toMatch(/^resources\/subscribe was refused by the server \(JSON-RPC error -32601\)/);
    expect(state.subscribed).toEqual([]);
  });

  it("lists again on resources/list_changed, keeping the selection on the same URI", async () => {
    const { state, addResource } = await open();
    state.select("resource", 2);
    addResource("aaa");
    await settle();
    expect(state.resources.map((r) => r.uri)).toContain("test://added/aaa");
    expect(state.selectedResource?.uri).toBe("test://bin/data");
  });

  it("does not list on list_changed before the lists were first asked for", async () => {
    const server = inspectServer();
    const connection = new McpConnection();
    await connection.connect(await linked(server.server), { clientInfo });
    const state = new ResourcesState({ connection: () => connection, info: () => connection.info });
    state.watch(connection);
    server.addResource("early");
    await settle();
    expect(state.loaded).toBe(false);
    expect(state.resources).toEqual([]);
    await state.refresh();
    expect(state.loaded).toBe(true);
    expect(state.resources.map((r) => r.uri)).toContain("test://added/early");
  });

  it("stops following a connection once unwatched, and starts over on the next one", async () => {
    const first = await open();
    first.stop();
    first.addResource("unseen");
    await settle();
    expect(first.state.resources.map((r) => r.uri)).not.toContain("test://added/unseen");
    const second = await open();
    second.state.select("resource", 0);
    second.state.watch(second.connection);
    expect(second.state.loaded).toBe(false);
    expect(second.state.resources).toEqual([]);
    expect(second.state.selection).toBeNull();
  });

  it("drops a read that finishes after the connection changed", async () => {
    const made = await open({ timeoutMs: 100 });
    const pending = made.state.readUri("test://slow");
    made.state.watch(made.connection);
    await pending;
    expect(made.state.read).toBeNull();
    expect(made.state.reading).toBe(false);
  });

  it("offers the server's completions for a template variable", async () => {
    const connection = new McpConnection();
    await connection.connect(
      scriptedPeer((request) => {
        if (request.method === "initialize") return { result: { ...INITIALIZED.result, capabilities: { resources: {}, completions: {} } } };
        if (request.method === "resources/list") return { result: { resources: [] } };
        if (request.method === "resources/templates/list") return { result: { resourceTemplates: [{ name: "t", uriTemplate: "x://{id}" }] } };
        return { result: { completion: { values: ["1", "12", 5] } } };
      }),
      { clientInfo },
    );
    const state = new ResourcesState({ connection: () => connection, info: () => connection.info });
    await state.refresh();
    state.select("template", 0);
    state.setValue("id", "1");
    await state.suggest("id");
    expect(state.suggestions).toEqual({ id: ["1", "12"] });
  });
});
