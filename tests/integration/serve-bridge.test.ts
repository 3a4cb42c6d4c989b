/**
 * `patchbay serve --http --bridge <identity>` as a real process in front of a real
 * `patchbay serve --nats` peer on the real nats-server, called by the MCP SDK's own client:
 *
 * - "lists the peer's tools…"            names by fisk-ai's import rule, the peer's schemas verbatim, the banner
 * - "a success / an exit code / is_error" each reply kind as note §4 maps it
 * - "a capacity refusal…"                 the peer full (concurrency 1): an isError result with its refusal text
 * - "a long call sends progress…"         keepalives, or the tool's own progress, as MCP progress
 * - "include/exclude…"                    filters applied, a pattern matching nothing warned about
 * - "an unknown identity…"                exit 1 at start with the reason; a bad pattern exit 2
 * - "the peer restarts with other tools…" tools/list follows it and the client hears list_changed
 * - "no responders after the peer stops"  tools kept, each call an isError result naming no responders
 * - "over stdio…"                         the same tools for a client that starts the bridge
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { failedBridge, startBridgeHttp, startPeer } from "../helpers/bridge-processes.ts";
import { eventually } from "../helpers/nats-cluster.ts";
import { buildCli, type BuiltCli, type ServeProcess } from "../helpers/serve-processes.ts";
import type { HttpServe } from "../helpers/served-cli.ts";
import { v1Client } from "../helpers/served-cli.ts";

const natsUrl = inject("natsUrl");
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const META = "dev.patchbay/bridge";
let built: BuiltCli;
let peer: ServeProcess;
let bridge: HttpServe;
let identity: string;
const clients: Client[] = [];
const stops: (() => Promise<void>)[] = [];

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "bridge-test", version: "0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}
/** A peer and a bridge of their own, for a test that stops its peer: the shared pair stays up for the others, whatever the order. */
async function ownPeerAndBridge(): Promise<{ identity: string; peer: ServeProcess; bridge: HttpServe }> {
  const own = tag("demo");
  const ownPeer = await startPeer(built, natsUrl, own);
  stops.push(() => ownPeer.stop());
  const ownBridge = await startBridgeHttp(built, natsUrl, ["--bridge", own]);
  stops.push(() => ownBridge.stop());
  return { identity: own, peer: ownPeer, bridge: ownBridge };
}
const text = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.content as { text: string }[])[0]!.text;
const outcome = (r: Awaited<ReturnType<Client["callTool"]>>) => (r._meta as Record<string, { outcome: string }> | undefined)?.[META]?.outcome;
/** The demo tools fisk-ai serves over NATS: confirm-gated ones stay off that surface. */
const demoOverNats = DEMO_TOOLKIT.tools.filter((t) => !t.tags?.includes("ai:confirm")).map((t) => t.name).sort();

beforeAll(async () => {
  built = await buildCli();
  identity = tag("demo");
  peer = await startPeer(built, natsUrl, identity, undefined, ["--concurrency", "1"]);
  bridge = await startBridgeHttp(built, natsUrl, ["--bridge", identity]);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await Promise.all(stops.map((s) => s()));
  await bridge?.stop();
  await peer?.stop();
  await built?.remove();
});

describe("serve --http --bridge, called by the MCP SDK client", () => {
  it("lists the peer's tools under their own names with the peer's schemas, and says what it bridges", async () => {
    const client = await connect(bridge.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(demoOverNats);
    for (const def of DEMO_TOOLKIT.tools.filter((t) => demoOverNats.includes(t.name))) {
      expect(tools.find((t) => t.name === def.name)?.inputSchema).toEqual(def.inputSchema);
    }
    expect(client.getServerVersion()?.name).toBe("patchbay-bridge");
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  });

  it("a success: an in-process tool's output verbatim", async () => {
    const client = await connect(bridge.url);
    const r = await client.callTool({ name: "echo", arguments: { message: "through the bridge" } });
    expect(r.isError).toBe(false);
    expect(text(r)).toBe("through the bridge");
    expect(outcome(r)).toBe("output");
  });

  it("an exit code: a non-zero exit is a success carrying the code", async () => {
    const client = await connect(bridge.url);
    const r = await client.callTool({ name: "fail", arguments: { exit_code: 3, output: "boom" } });
    expect(r.isError).toBe(false);
    expect(JSON.parse(text(r))).toEqual({ command: "fail 3", exit_code: 3, output: "boom" });
  });

  it("is_error: the peer's refusal of bad arguments is an error result with its text (the bridge does not check them itself)", async () => {
    const client = await connect(bridge.url);
    const r = await client.callTool({ name: "echo", arguments: {} });
    expect(r.isError).toBe(true);
    expect(outcome(r)).toBe("harness-failure");
    expect(text(r)).toMatch(/message/);
  });

  it("a capacity refusal: the peer runs one call at a time, a second is refused with its words", async () => {
    const client = await connect(bridge.url);
    const busy = client.callTool({ name: "sleep", arguments: { seconds: 3 } }, undefined, { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 700));
    const refused = await client.callTool({ name: "echo", arguments: { message: "x" } });
    expect(refused.isError).toBe(true);
    expect(outcome(refused)).toBe("capacity");
    expect(text(refused)).toMatch(new RegExp(`^tool "echo" on agent "${identity}" did not run: the agent is already running its maximum of 1 concurrent tool calls`));
    expect((await busy).isError).toBe(false);
  }, 60_000);

  it("a long call sends progress: the peer's keepalives, or the tool's own, keep a client that resets its timeout on progress waiting", async () => {
    const pulsing = tag("pulse");
    const pulsePeer = await startPeer(built, natsUrl, pulsing, undefined, ["--keepalive", "250"]);
    stops.push(() => pulsePeer.stop());
    const pulseBridge = await startBridgeHttp(built, natsUrl, ["--bridge", pulsing]);
    stops.push(() => pulseBridge.stop());
    const client = await connect(pulseBridge.url);
    const heard: { progress: number; total?: number; message?: string }[] = [];
    // 2.5 s of work under a 1.5 s timeout: only the progress in between keeps the call alive.
    const quiet = await client.callTool({ name: "slow", arguments: { seconds: 2.5 } }, undefined, { timeout: 1500, resetTimeoutOnProgress: true, onprogress: (p) => void heard.push(p) });
    expect(text(quiet)).toMatch(/2\.5 s/);
    expect(heard.length).toBeGreaterThanOrEqual(3);
    expect(heard.map((p) => p.progress)).toEqual(heard.map((_, i) => i + 1));
    expect(heard[0]!.message).toMatch(new RegExp(`^slow is still running on ${pulsing} \\(\\d+ s\\)$`));
    heard.length = 0;
    // The tool's own "1 of 2 s" and "2 of 2 s" follow whatever keepalives came first, counted on from them.
    await client.callTool({ name: "sleep", arguments: { seconds: 2 } }, undefined, { timeout: 1500, resetTimeoutOnProgress: true, onprogress: (p) => void heard.push(p) });
    const own = heard.filter((p) => p.total !== undefined);
    expect(own.map((p) => p.message)).toEqual(["1 of 2 s", "2 of 2 s"]);
    expect(own.at(-1)!.progress).toBe(own.at(-1)!.total);
    expect(heard.every((p, i) => i === 0 || p.progress > heard[i - 1]!.progress)).toBe(true);
  }, 60_000);

  it("include/exclude narrow the tools, and a pattern that matches nothing is warned about", async () => {
    const narrowed = await startBridgeHttp(built, natsUrl, ["--bridge", identity, "--bridge-include", "^(echo|fail|sl)", "--bridge-exclude", "^slow$", "--bridge-exclude", "^nothing_here$"]);
    stops.push(() => narrowed.stop());
    const client = await connect(narrowed.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "fail", "sleep"]);
    expect(narrowed.stderr()).toContain('--bridge-exclude "^nothing_here$" matches no tool of the bridged agents');
  }, 60_000);

  it("an unknown identity stops the command at start with the reason; a bad pattern is a usage error", async () => {
    const ghost = await failedBridge(built, natsUrl, ["--bridge", identity, "--bridge", "no-such-agent-here"]);
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain("cannot bridge no-such-agent-here: no agent answers discovery on choria.fisk-ai.discovery.no-such-agent-here (no responders");
    expect(ghost.stdout).not.toContain("Serving");
    const bad = await failedBridge(built, natsUrl, ["--bridge", identity, "--bridge-include", "a(?=b)"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("look-around and back-references are not RE2 syntax");
  }, 60_000);

  it("over stdio: the same tools for a client that starts the bridge itself", async () => {
    const client = await v1Client({ kind: "stdio", built, args: ["--nats-url", natsUrl, "--bridge", identity] });
    clients.push(client as unknown as Client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(demoOverNats);
    const r = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect((r.content as { text: string }[])[0]!.text).toBe("5");
  }, 60_000);

  it("the peer restarts with other tools: tools/list follows it and the client hears list_changed", async () => {
    const own = await ownPeerAndBridge();
    const client = await connect(own.bridge.url);
    let heard = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard++);
    await client.listTools();
    await own.peer.stop();
    const restarted = await startPeer(built, natsUrl, own.identity, [{ name: "only_one", description: "The one tool now.", inputSchema: { type: "object" }, run: { kind: "builtin", builtin: "echo" } }]);
    stops.push(() => restarted.stop());
    await eventually(async () => (await client.listTools()).tools.map((t) => t.name).join() === "only_one", "the new tool set listed");
    await eventually(async () => heard > 0, "notifications/tools/list_changed");
  }, 60_000);

  it("no responders after the peer stops: the tools stay listed and each call says nothing answers", async () => {
    const own = await ownPeerAndBridge();
    const client = await connect(own.bridge.url);
    const before = (await client.listTools()).tools.map((t) => t.name);
    await own.peer.stop();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(before);
    const r = await client.callTool({ name: before[0]!, arguments: { message: "anyone?" } });
    expect(r.isError).toBe(true);
    expect(outcome(r)).toBe("no-such-agent");
    expect(text(r)).toBe(`calling tool "${before[0]}" on agent "${own.identity}": the agent is unavailable: nothing answers on choria.fisk-ai.tool.${own.identity} (no responders)`);
  }, 60_000);
});
