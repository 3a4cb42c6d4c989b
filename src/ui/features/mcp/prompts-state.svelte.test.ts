import { describe, expect, it } from "vitest";
import { McpConnection } from "../../../core/mcp/index.ts";
import { DOT_PNG, inspectServer } from "../../../core/mcp/test-inspect-server.ts";
import { INITIALIZED, linked, scriptedPeer, toolServer } from "../../../core/mcp/test-servers.ts";
import { promptArguments, promptMessages, PromptsState } from "./prompts-state.svelte.ts";

const clientInfo = { name: "patchbay-test", version: "0.0.0" };

async function open() {
  const server = inspectServer();
  const connection = new McpConnection();
  await connection.connect(await linked(server.server), { clientInfo });
  const state = new PromptsState({ connection: () => connection, info: () => connection.info });
  const stop = state.watch(connection);
  await state.refresh();
  return { ...server, connection, state, stop };
}

const byName = (state: PromptsState, name: string) => state.select(state.prompts.findIndex((p) => p.name === name));

describe("PromptsState", () => {
  it("lists prompts with their declared arguments", async () => {
    const { state } = await open();
    expect(state.prompts.map((p) => p.name)).toEqual(["plain", "greet"]);
    byName(state, "greet");
    expect(state.arguments).toEqual([
      { name: "name", description: "Who to greet", required: true },
      { name: "mood", description: undefined, required: false },
    ]);
  });

  it("gets a prompt without arguments", async () => {
    const { state } = await open();
    byName(state, "plain");
    await state.get();
    expect(state.outcome).toMatchObject({ name: "plain", ok: true, messages: [{ role: "user", parts: [{ kind: "text", label: "text", text: "Say hi" }] }] });
  });

  it("marks a got prompt stale when its arguments change, and drops it when another prompt is selected", async () => {
    const { state } = await open();
    byName(state, "greet");
    state.setValue("name", "Ada");
    await state.get();
    expect(state.outcome).toMatchObject({ name: "greet", ok: true });
    expect(state.outcomeStale).toBe(false);
    state.setValue("mood", "");
    expect(state.outcomeStale).toBe(false);
    state.setValue("name", "Grace");
    expect(state.outcomeStale).toBe(true);
    state.setValue("name", "Ada");
    expect(state.outcomeStale).toBe(false);
    byName(state, "plain");
    expect(state.outcome).toBeNull();
  });

  it("refuses to send without a required argument, naming it, and sends only filled-in values", async () => {
    const { state } = await open();
    byName(state, "greet");
    await state.get();
    expect(state.formError).toBe('Fill in the required argument "name".');
    expect(state.outcome).toBeNull();
    state.setValue("name", "Ada");
    state.setValue("mood", "");
    await state.get();
    expect(state.formError).toBeNull();
    expect(state.outcome).toMatchObject({ ok: true, result: { description: "A greeting" } });
    if (!state.outcome?.ok) throw new Error("expected messages");
    expect(state.outcome.messages).toEqual([
      { role: "user", parts: [{ kind: "text", label: "text", text: "Greet Ada" }] },
      { role: "assistant", parts: [{ kind: "image", label: "image (image/png)", src: `data:image/png;base64,${DOT_PNG}` }] },
    ]);
  });

  it("keeps each prompt's typed values when switching between prompts", async () => {
    const { state } = await open();
    byName(state, "greet");
    state.setValue("name", "Ada");
    byName(state, "plain");
    expect(state.values).toEqual({});
    byName(state, "greet");
    expect(state.values).toEqual({ name: "Ada" });
  });

  it("shows a server's refusal as a plain sentence with its error", async () => {
    const { state } = await open();
    state.prompts = [...state.prompts, { name: "ghost" }];
    byName(state, "ghost");
    await state.get();
    expect(state.outcome).toMatchObject({ ok: false, failure: { message: expect.stringMatching(/^prompts\/get was refused by the server \(JSON-RPC error -32602\)/) } });
  });

  it("lists again on prompts/list_changed, keeping the selection by name", async () => {
    const { state, addPrompt } = await open();
    byName(state, "greet");
    addPrompt("aaa");
    await new Promise((r) => setTimeout(r, 10));
    expect(state.prompts.map((p) => p.name)).toEqual(["plain", "greet", "aaa"]);
    expect(state.selected?.name).toBe("greet");
  });

  it("does not list on list_changed before the list was first asked for", async () => {
    const server = inspectServer();
    const connection = new McpConnection();
    await connection.connect(await linked(server.server), { clientInfo });
    const state = new PromptsState({ connection: () => connection, info: () => connection.info });
    state.watch(connection);
    server.addPrompt("early");
    await new Promise((r) => setTimeout(r, 10));
    expect(state.loaded).toBe(false);
    expect(state.prompts).toEqual([]);
  });

  it("says so when the server declares no prompts capability", async () => {
    const connection = new McpConnection();
    await connection.connect(await linked(toolServer()), { clientInfo });
    const state = new PromptsState({ connection: () => connection, info: () => connection.info });
    await state.refresh();
    expect(state.listError).toBe("The server declares no prompts capability.");
  });

  it("offers completions with the other arguments as context", async () => {
    const asked: unknown[] = [];
    const connection = new McpConnection();
    await connection.connect(
      scriptedPeer((request) => {
        if (request.method === "initialize") return { result: { ...INITIALIZED.result, capabilities: { prompts: {}, completions: {} } } };
        if (request.method === "prompts/list") return { result: { prompts: [{ name: "team", arguments: [{ name: "department" }, { name: "lead" }] }] } };
        asked.push(request.params);
        return { result: { completion: { values: ["Alice", "Bob"] } } };
      }),
      { clientInfo },
    );
    const state = new PromptsState({ connection: () => connection, info: () => connection.info });
    await state.refresh();
    state.select(0);
    state.setValue("department", "Engineering");
    state.setValue("lead", "A");
    await state.suggest("lead");
    expect(state.suggestions).toEqual({ lead: ["Alice", "Bob"] });
    expect(asked).toEqual([{ ref: { type: "ref/prompt", name: "team" }, argument: { name: "lead", value: "A" }, context: { arguments: { department: "Engineering" } } }]);
  });
});

describe("prompt views", () => {
  it("reads declared arguments leniently", () => {
    expect(promptArguments({ arguments: [{ name: "a", required: true }, { description: "no name" }, "x", { name: "" }] })).toEqual([{ name: "a", description: undefined, required: true }]);
    expect(promptArguments({ arguments: "nope" })).toEqual([]);
    expect(promptArguments(undefined)).toEqual([]);
  });

  it("renders malformed messages as JSON rather than dropping them", () => {
    expect(promptMessages({ messages: [{ content: { type: "mystery", x: 1 } }, 7] })).toEqual([
      { role: "(no role)", parts: [{ kind: "json", label: "mystery", text: '{\n  "type": "mystery",\n  "x": 1\n}' }] },
      { role: "(no role)", parts: [{ kind: "json", label: "(not an object)", text: "undefined" }] },
    ]);
    expect(promptMessages({})).toEqual([]);
  });
});
