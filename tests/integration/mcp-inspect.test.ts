/**
 * Inspecting a real server through the real backend relay: server-everything over stdio, with
 * its resources, resource templates, prompts, completions, subscriptions and list_changed.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequentialIds, systemClock } from "../../src/core/env/index.ts";
import { McpConnection, RelayTransport, type ConnectResult } from "../../src/core/mcp/index.ts";
import { McpRequestError } from "../../src/core/mcp/request-failure.ts";
import { countFindings, lintTools } from "../../src/core/mcp/tool-lint.ts";
import { expandTemplate } from "../../src/core/mcp/uri-template.ts";
import { WireLog } from "../../src/core/wire/index.ts";
import { resourceParts } from "../../src/ui/features/mcp/resource-contents.ts";
import { ResourcesState } from "../../src/ui/features/mcp/resources-state.svelte.ts";
import { startTestBackend, type TestBackend } from "../helpers/http-client.ts";

const EVERYTHING = join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const clock = systemClock(performance, Date);

let backend: TestBackend;
let connection: McpConnection;
let info: ConnectResult;

/** Resolves with the first event of `type` the connection emits within `ms`. */
function next<T>(subscribe: (listener: (detail: T) => void) => () => void, ms = 8_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (off(), reject(new Error(`no event within ${ms} ms`))), ms);
    const off = subscribe((detail) => {
      clearTimeout(timer);
      off();
      resolve(detail);
    });
  });
}

beforeAll(async () => {
  backend = await startTestBackend();
  const transport = new RelayTransport({
    fetch: globalThis.fetch,
    baseUrl: `http://127.0.0.1:${backend.port}`,
    token: backend.token,
    session: { transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
    wireLog: new WireLog(clock, 10_000),
    clock,
    ids: sequentialIds("frame"),
  });
  connection = new McpConnection();
  info = await connection.connect(transport, { clientInfo: { name: "patchbay-it", version: "0.0.0" }, timeoutMs: 20_000 });
});

afterAll(async () => {
  await connection?.close();
  await backend?.close();
});

describe("inspecting server-everything over stdio", () => {
  it("declares resources with subscribe and listChanged, prompts and completions", () => {
    expect(info.capabilities.resources).toMatchObject({ subscribe: true, listChanged: true });
    expect(info.capabilities.prompts).toMatchObject({ listChanged: true });
    expect(info.capabilities.completions).toBeDefined();
  });

  it("lists static documents and the dynamic templates", async () => {
    const resources = await connection.listResources({ timeoutMs: 10_000 });
    const statics = resources.filter((r) => typeof r.uri === "string" && r.uri.startsWith("demo://resource/static/document/"));
    expect(statics.length).toBeGreaterThan(0);
    // Beside them, only the session resources a tool call of another test may have added.
    expect(resources.filter((r) => !statics.includes(r)).map((r) => r.uri).filter((uri) => !String(uri).startsWith("demo://resource/session/"))).toEqual([]);
    const templates = await connection.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toEqual(expect.arrayContaining(["demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"]));
  });

  it("reads a static document as text", async () => {
    const [first] = await connection.listResources();
    const result = await connection.readResource(String(first?.uri));
    const [part] = resourceParts(result);
    expect(part).toMatchObject({ kind: "text", uri: first?.uri, truncated: false });
    if (part?.kind === "text") expect(part.text.length).toBeGreaterThan(0);
  });

  it("fills the text and blob templates and reads what they name", async () => {
    const text = expandTemplate("demo://resource/dynamic/text/{resourceId}", { resourceId: "3" });
    expect(text).toEqual({ ok: true, uri: "demo://resource/dynamic/text/3" });
    if (!text.ok) return;
    expect(resourceParts(await connection.readResource(text.uri))).toEqual([expect.objectContaining({ kind: "text", text: expect.stringMatching(/^Resource 3: This is a plaintext resource/) })]);
    const blob = expandTemplate("demo://resource/dynamic/blob/{resourceId}", { resourceId: "4" });
    if (!blob.ok) throw new Error(blob.error);
    const [part] = resourceParts(await connection.readResource(blob.uri));
    expect(part).toMatchObject({ kind: "binary", mimeType: "text/plain", preview: { kind: "text", body: expect.stringMatching(/^Resource 4: This is a base64 blob/) } });
  });

  it("names a read the server refuses", async () => {
    const error = await connection.readResource("demo://resource/dynamic/text/0").then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpRequestError);
    expect(error).toMatchObject({ kind: "json-rpc-error", method: "resources/read", message: expect.stringContaining("Unknown resource") });
  });

  it("lists prompts and gets one with arguments", async () => {
    const prompts = await connection.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"]));
    expect(prompts.find((p) => p.name === "args-prompt")?.arguments).toEqual([
      { name: "city", description: "Name of the city", required: true },
      // The SDK loses the description of an optional zod argument; this is what the wire carries.
      { name: "state", required: false },
    ]);
    const result = await connection.getPrompt("args-prompt", { city: "Tokyo", state: "Kanto" });
    expect(result).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "What's weather in Tokyo, Kanto?" } }] });
  });

  it("gets a prompt that embeds a resource", async () => {
    const result = await connection.getPrompt("resource-prompt", { resourceType: "Text", resourceId: "2" });
    expect(JSON.stringify(result)).toContain("demo://resource/dynamic/text/2");
  });

  it("completes a prompt argument, narrowed by the other argument", async () => {
    const department = await connection.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "department", value: "E" });
    expect(department).toMatchObject({ completion: { values: ["Engineering"] } });
    const lead = await connection.complete({ type: "ref/prompt", name: "completable-prompt" }, { name: "name", value: "" }, { department: "Sales" });
    expect(lead).toMatchObject({ completion: { values: ["David", "Eve", "Frank"] } });
  });

  it("subscribes to a resource and hears resources/updated", async () => {
    const uri = "demo://resource/dynamic/text/1";
    await connection.subscribeResource(uri);
    const updated = next<{ uri: string }>((l) => connection.on("resource-updated", l));
    // The server sends updates for subscribed resources once its simulated updates are on.
    await connection.callTool("toggle-subscriber-updates", {});
    expect(await updated).toEqual({ uri });
    await connection.callTool("toggle-subscriber-updates", {});
    await connection.unsubscribeResource(uri);
  });

  it("refreshes the resource list on resources/list_changed (a session resource the server adds)", async () => {
    const state = new ResourcesState({ connection: () => connection, info: () => info });
    const stop = state.watch(connection);
    await state.refresh();
    const before = state.resources.length;
    const changed = next<{ list: string }>((l) => connection.on("list-changed", l));
    const outcome = await connection.callTool("gzip-file-as-resource", { name: "hello.txt.gz", data: "data:text/plain;base64,aGVsbG8=", outputType: "resourceLink" });
    expect(outcome.kind).toBe("success");
    expect(await changed).toEqual({ list: "resources" });
    await expect.poll(() => state.resources.length, { timeout: 5_000 }).toBe(before + 1);
    const index = state.resources.findIndex((r) => r.uri === "demo://resource/session/hello.txt.gz");
    state.select("resource", index);
    await state.readSelected();
    expect(state.read).toMatchObject({ ok: true, parts: [{ kind: "binary", mimeType: "application/gzip" }] });
    stop();
  });

  it("lints the server's tools: no errors, and every finding placed and worded", async () => {
    const tools = await connection.listTools();
    const findings = lintTools(tools);
    const counts = countFindings(findings.flat());
    expect(counts.error).toBe(0);
    for (const f of findings.flat()) {
      expect(f.pointer).toMatch(/^\/(name|description|inputSchema|outputSchema)/);
      expect(f.message).toMatch(/\.$/);
    }
  });
});
