/**
 * The Serve workbench's bridge switch through the backend's routes: POST /api/serve/mcp/start with
 * `bridge` serves a fisk-ai agent (Patchbay's own, on the real nats-server) beside the editor's
 * toolkit, prefixing the names they share; the MCP SDK client calls a bridged tool at the URL;
 * status and stop report and end it; bad bodies, an unknown agent and a console without NATS are
 * refused with their reasons.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import type { FiskServer } from "../../src/core/serving/fisk/index.ts";
import { errorOf, send, startTestBackend, type TestBackend } from "../helpers/http-client.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const natsUrl = inject("natsUrl");
const identity = `wb-${crypto.randomUUID().slice(0, 8)}`;
let port: NatsPort;
let agent: FiskServer;
let t: TestBackend;

const toolkitBody = {
  format: "patchbay.toolkit",
  version: 1,
  name: "editor-kit",
  description: "The editor's toolkit.",
  tools: [{ name: "echo", description: "Local echo.", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] }, run: { kind: "builtin", builtin: "echo" } }],
};

const post = (backend: TestBackend, path: string, body: unknown) =>
  send({ port: backend.port, method: "POST", path, headers: { ...backend.auth, "content-type": "application/json" }, body: JSON.stringify(body) });

beforeAll(async () => {
  port = await tcpConnector().connect({ servers: natsUrl, name: "bridge-workbench-agent" });
  agent = await startDemoAgent(port, identity);
  t = await startTestBackend({ nats: { mode: "external", url: natsUrl } });
});

afterAll(async () => {
  await post(t, "/api/serve/mcp/stop", {});
  await t?.close();
  await agent?.stop();
  await port?.close();
});

describe("the Serve workbench's MCP surface with the bridge switch", () => {
  it("serves the agent's tools beside the toolkit's, a shared name prefixed, and a bridged call reaches the agent", async () => {
    const res = await post(t, "/api/serve/mcp/start", { port: 0, fixtures: false, toolkit: toolkitBody, bridge: { identities: [identity], exclude: ["^slow$"] } });
    expect(res.status).toBe(200);
    const started = res.json<{ url: string; bridge: { identities: string[]; tools: { name: string; agent: string; remoteName: string }[]; warnings: string[] } }>();
    expect(started.bridge.identities).toEqual([identity]);
    expect(started.bridge.tools.map((x) => x.name)).toEqual(["add", "fail", "large-output", "sleep", `${identity}_echo`]);
    expect(started.bridge.tools.find((x) => x.name === `${identity}_echo`)).toEqual({ name: `${identity}_echo`, agent: identity, remoteName: "echo" });
    const client = new Client({ name: "workbench-bridge-test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
    try {
      const local = await client.callTool({ name: "echo", arguments: { message: "here" } });
      const remote = await client.callTool({ name: `${identity}_echo`, arguments: { message: "there" } });
      expect((local.content as { text: string }[])[0]!.text).toBe("here");
      expect((remote.content as { text: string }[])[0]!.text).toBe("there");
      expect(remote._meta).toEqual({ "dev.patchbay/bridge": { outcome: "output", agent: identity, tool: "echo" } });
    } finally {
      await client.close();
    }
    const status = await send({ port: t.port, method: "GET", path: "/api/serve/mcp/status", headers: t.auth });
    expect(status.json<{ bridge: { tools: unknown[] } }>().bridge.tools).toHaveLength(5);
    const stopped = await post(t, "/api/serve/mcp/stop", {});
    expect(stopped.json()).toEqual({ running: false });
  });

  it("refuses an agent nobody serves, with the reason, and starts nothing", async () => {
    await post(t, "/api/serve/mcp/stop", {});
    const res = await post(t, "/api/serve/mcp/start", { port: 0, bridge: { identities: [identity, "nobody-serves-this"] } });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toEqual({ code: "bridge_failed", message: expect.stringContaining("cannot bridge nobody-serves-this: no agent answers discovery on choria.fisk-ai.discovery.nobody-serves-this") });
    const status = await send({ port: t.port, method: "GET", path: "/api/serve/mcp/status", headers: t.auth });
    expect(status.json()).toEqual({ running: false });
  });

  it.each([
    [{ identities: [] }, '"bridge": name at least one fisk-ai agent identity to bridge'],
    [{ identities: ["a.b"] }, `"bridge": cannot bridge "a.b": an agent identity has letters, digits, '-' and '_' only`],
    [{ identities: ["a"], include: ["("] }, '"bridge": invalid remote tool filter pattern "(": Invalid regular expression: /(/: Unterminated group'],
    [{ identities: ["a"], alias: "x" }, 'unknown bridge option "alias"; expected identities, include, exclude'],
    [{ identities: "a" }, '"bridge.identities" must be a list of at most 16 non-empty strings of at most 128 characters'],
    [["a"], '"bridge" must be an object such as {"identities": ["nats-tools"]}'],
    [{ identities: ["a"], exclude: ["x".repeat(513)] }, '"bridge.exclude" must be a list of at most 32 non-empty strings of at most 512 characters'],
  ])("refuses the bridge %j with a 400", async (bridge, message) => {
    const res = await post(t, "/api/serve/mcp/start", { port: 0, bridge });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toEqual({ code: "invalid_body", message });
  });

  it("a console without NATS says so", async () => {
    const bare = await startTestBackend();
    try {
      const res = await post(bare, "/api/serve/mcp/start", { port: 0, bridge: { identities: [identity] } });
      expect(res.status).toBe(409);
      expect(errorOf(res).code).toBe("nats_unavailable");
      expect(errorOf(res).message).toMatch(new RegExp(`^cannot bridge ${identity}: the console has no NATS server`));
    } finally {
      await bare.close();
    }
  });
});
