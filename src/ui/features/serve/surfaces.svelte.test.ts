import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import { McpSurface } from "./mcp-surface.svelte.ts";
import { NatsSurface } from "./nats-surface.svelte.ts";
import { FakeServeApi, memoryStore, RUNNING_MCP, RUNNING_NATS } from "./serve-fakes.ts";
import { ToolkitState } from "./toolkit-state.svelte.ts";

function mcpSetup() {
  const api = new FakeServeApi();
  const running: boolean[] = [];
  return { api, running, mcp: new McpSurface(api, (r) => running.push(r)), kit: new ToolkitState(memoryStore()) };
}

describe("McpSurface", () => {
  it("starts with the editor's toolkit and the form's options, then shows the backend's served set", async () => {
    const { api, mcp, kit, running } = mcpSetup();
    expect(mcp.rows(kit.mcpSet)).toMatchObject({ fromBackend: false });
    expect(mcp.rows(kit.mcpSet).rows.map((r) => r.name)).toEqual(kit.mcpSet.map((e) => e.tool.name));
    mcp.port = "0";
    mcp.confirmMode = "operator";
    mcp.concurrency = "3";
    mcp.timeoutMs = "";
    mcp.fixtures = true;
    await mcp.start(kit);
    expect(api.named("mcpStart")[0]?.[0]).toEqual({ toolkit: JSON.parse(kit.text), confirmMode: "operator", fixtures: true, port: 0, concurrency: 3 });
    expect(mcp.status).toEqual(RUNNING_MCP);
    expect(mcp.operator).toBe(true);
    expect(mcp.issues).toEqual(["warning at /tools/1: odd"]);
    expect(mcp.port).toBe("0"); // the user's choice stays for the next start
    expect(running).toEqual([true]);
    const { rows, fromBackend } = mcp.rows(kit.mcpSet);
    expect(fromBackend).toBe(true);
    expect(rows.map((r) => r.name)).toEqual(["echo", "confirm", "test_simple_text"]);
    expect(rows[2]?.reason).toBe("conformance fixture");
    await mcp.stop();
    expect(mcp.status).toEqual({ running: false });
    expect(mcp.issues).toEqual([]);
    expect(running).toEqual([true, false]);
  });

  it("bridges fisk-ai agents when the switch is on: identities, one include and one exclude pattern; the served set shows the bridged tools", async () => {
    const { api, mcp, kit } = mcpSetup();
    mcp.bridging = true;
    mcp.bridgeIdentities = " nats-tools, kv_agent  ";
    mcp.bridgeInclude = "^stream_";
    mcp.bridgeExclude = "";
    api.mcpStart = (input: object) => {
      api.calls.push({ name: "mcpStart", args: [input] });
      api.mcp = { ...RUNNING_MCP, bridge: { identities: ["nats-tools", "kv_agent"], tools: [{ name: "stream_info", agent: "nats-tools", remoteName: "stream_info" }, { name: "kv_agent_echo", agent: "kv_agent", remoteName: "echo" }], warnings: [] } };
      return Promise.resolve({ ...api.mcp, issues: [] });
    };
    await mcp.start(kit);
    expect(api.named("mcpStart")[0]?.[0]).toMatchObject({ bridge: { identities: ["nats-tools", "kv_agent"], include: ["^stream_"] } });
    expect((api.named("mcpStart")[0]?.[0] as { bridge: object }).bridge).not.toHaveProperty("exclude");
    const rows = mcp.rows(kit.mcpSet).rows;
    expect(rows.find((r) => r.name === "kv_agent_echo")?.reason).toBe("bridged from fisk-ai agent kv_agent (its echo)");
    expect(rows.find((r) => r.name === "stream_info")?.reason).toBe("bridged from fisk-ai agent nats-tools");
  });

  it("refuses a bridge with no identity or a bad one, saying why, and asks the backend nothing", async () => {
    const { api, mcp, kit } = mcpSetup();
    mcp.bridging = true;
    mcp.bridgeIdentities = "  ";
    await mcp.start(kit);
    expect(mcp.error).toBe("Not started: name at least one fisk-ai agent identity to bridge, or turn bridging off.");
    mcp.bridgeIdentities = "good, bad.name";
    await mcp.start(kit);
    expect(mcp.error).toBe(`Not started: "bad.name" is not a fisk-ai agent identity: letters, digits, '-' and '_' only.`);
    expect(api.named("mcpStart")).toHaveLength(0);
    mcp.bridging = false;
    await mcp.start(kit);
    expect(api.named("mcpStart")[0]?.[0]).not.toHaveProperty("bridge");
  });

  it("refuses to start a toolkit with errors or a bad field, saying why, and asks the backend nothing", async () => {
    const { api, mcp, kit } = mcpSetup();
    kit.text = kit.text.replace('"name": "patchbay-demo"', '"name": "bad name"');
    await mcp.start(kit);
    expect(mcp.error).toMatch(/^Not started: the toolkit in the editor has an error; fix it first\. The first: \/name/);
    expect(mcp.errorStale).toBe(false);
    // The refusal answers the text it was given: once the editor moves on, it is marked stale.
    kit.resetToDemo();
    expect(mcp.errorStale).toBe(true);
    mcp.port = "99999";
    await mcp.start(kit);
    expect(mcp.error).toBe('Not started: The port must be a whole number from 0 to 65535, not "99999".');
    expect(mcp.errorStale).toBe(false);
    mcp.port = "0";
    expect(mcp.errorStale).toBe(true);
    expect(api.named("mcpStart")).toHaveLength(0);
  });

  it("shows the backend's refusal in its words and stays stopped", async () => {
    const { api, mcp, kit } = mcpSetup();
    api.fail.mcpStart = new BackendError(409, "port_in_use", "port 7421 is already in use on 127.0.0.1; choose another port (0 picks a free one)");
    await mcp.start(kit);
    expect(mcp.error).toBe("Could not start the MCP surface: port 7421 is already in use on 127.0.0.1; choose another port (0 picks a free one).");
    expect(mcp.status.running).toBe(false);
    expect(mcp.busy).toBe(false);
  });

  it("fills the form from a surface started before the page loaded, and an old status read cannot undo a stop", async () => {
    const { api, mcp } = mcpSetup();
    api.mcp = { ...RUNNING_MCP, confirmMode: "always", timeoutMs: 5000, fixtures: true };
    await mcp.refresh();
    expect([mcp.port, mcp.confirmMode, mcp.concurrency, mcp.timeoutMs, mcp.fixtures]).toEqual(["40001", "always", "2", "5000", true]);
    const stale = mcp.refresh(); // reads "running"
    await mcp.stop();
    await stale;
    expect(mcp.status.running).toBe(false);
    api.fail.mcpStatus = new BackendError(0, "unreachable", "backend unreachable: Failed to fetch");
    await mcp.refresh();
    expect(mcp.error).toBe("Could not read the MCP surface's status: backend unreachable: Failed to fetch.");
  });
});

describe("NatsSurface", () => {
  it("starts with the toolkit, the Gen 1 switch and concurrency, and reports subjects and the served set", async () => {
    const api = new FakeServeApi();
    const running: boolean[] = [];
    const nats = new NatsSurface(api, (r) => running.push(r));
    const kit = new ToolkitState(memoryStore());
    await nats.refresh();
    expect(nats.running).toBe(false);
    expect(nats.rows(kit.natsSet).fromBackend).toBe(false);
    nats.gen1 = true;
    nats.concurrency = "4";
    await nats.start(kit);
    expect(api.named("natsStart")[0]?.[0]).toEqual({ toolkit: JSON.parse(kit.text), generation: "gen1", concurrency: 4 });
    expect(nats.running).toBe(true);
    expect(nats.rows(kit.natsSet)).toEqual({ rows: RUNNING_NATS.served, fromBackend: true });
    expect(running).toEqual([false, true]);
    await nats.stop();
    expect(nats.running).toBe(false);
  });

  it("says why it cannot start: a bad field, or the backend's own reason", async () => {
    const api = new FakeServeApi();
    const nats = new NatsSurface(api, () => undefined);
    const kit = new ToolkitState(memoryStore());
    nats.concurrency = "0";
    await nats.start(kit);
    expect(nats.error).toBe('Not started: Concurrency must be a whole number from 1 to 64, not "0".');
    nats.concurrency = "";
    api.fail.natsStart = new BackendError(503, "nats_unavailable", "cannot serve over NATS: no NATS server is configured");
    await nats.start(kit);
    expect(nats.error).toBe("Could not start the NATS surface: cannot serve over NATS: no NATS server is configured.");
    expect(api.named("natsStart")[0]?.[0]).toEqual({ toolkit: JSON.parse(kit.text), generation: "gen2" });
  });
});
