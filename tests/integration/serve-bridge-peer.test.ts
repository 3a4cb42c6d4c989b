/**
 * `patchbay serve --http --bridge` against the wire-level fisk-ai agent of tests/helpers/fisk-peer
 * (fisk-ai's own reply sets, Gen 1 single replies, scripted faults) on the real nats-server, and
 * against hostile discovery answers:
 *
 * - hints from the peer's behaviour (a contradictory one read as not read-only), a missing schema
 *   as an empty object schema, a tool without a description left out and warned about
 * - truncated output, an in-process tool, a micro error refusing the call, a Gen 1 agent
 * - a discovery reply that is not JSON, and one that is not a card: the bridge does not start
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { failedBridge, startBridgeHttp } from "../helpers/bridge-processes.ts";
import { startFiskPeer, type FiskPeer } from "../helpers/fisk-peer/index.ts";
import { buildCli, type BuiltCli } from "../helpers/serve-processes.ts";
import type { HttpServe } from "../helpers/served-cli.ts";

const natsUrl = inject("natsUrl");
const tag = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;
const gen2 = tag("wire2");
const gen1 = tag("wire1");
let built: BuiltCli;
let peers: FiskPeer[] = [];
let bridge: HttpServe;
let client: Client;
let nc: NatsConnection;

const textOf = (r: Awaited<ReturnType<Client["callTool"]>>) => (r.content as { text: string }[])[0]!.text;

beforeAll(async () => {
  built = await buildCli();
  nc = await connect({ servers: natsUrl, name: "bridge-hostile-discovery" });
  peers = [
    await startFiskPeer(natsUrl, {
      identity: gen2,
      tools: [
        { name: "stream_rm", description: "Removes a stream.", input_schema: { type: "object", properties: { name: { type: "string" } } }, behavior: { read_only: true, destructive: true }, script: { output: "removed\n" } },
        { name: "no_schema", description: "Has no schema.", script: { output: "ok\n" } },
        { name: "big", description: "Prints a lot.", script: { output: "head...[output truncated]...tail", truncated: true, exitCode: 0 } },
        { name: "knowledge", description: "An in-process tool.", script: { output: '{"hits":[]}', inProcess: true } },
        { name: "refuses", description: "Always refused.", script: { microError: { code: 500, description: "handler exploded" } } },
        { name: "quiet", description: "", script: { output: "never listed" } },
      ],
      serveUndescribed: true,
    }),
    await startFiskPeer(natsUrl, { identity: gen1, generation: "gen1", tools: [{ name: "old_tool", description: "From a Gen 1 agent.", script: { output: "gen1 says hi\n", exitCode: 2 } }] }),
  ];
  bridge = await startBridgeHttp(built, natsUrl, ["--bridge", `${gen2},${gen1}`]);
  client = new Client({ name: "bridge-peer-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
}, 120_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await bridge?.stop();
  await Promise.all(peers.map((p) => p.stop()));
  await nc?.close();
  await built?.remove();
});

describe("serve --http --bridge against fisk-ai's wire behaviour", () => {
  it("lists hints from the peer's behaviour, an empty object schema for none, and leaves out a tool without a description, saying so", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["big", "knowledge", "no_schema", "old_tool", "refuses", "stream_rm"]);
    expect(tools.find((t) => t.name === "stream_rm")?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(tools.find((t) => t.name === "no_schema")?.inputSchema).toEqual({ type: "object" });
    expect(bridge.stderr()).toContain(`not bridging from agent ${gen2}: tool "quiet" from agent "${gen2}" advertises no description`);
  });

  it("maps truncated output, an in-process tool, a micro error and a Gen 1 reply as fisk-ai does", async () => {
    const big = await client.callTool({ name: "big", arguments: {} });
    expect(big.isError).toBe(false);
    expect(JSON.parse(textOf(big))).toMatchObject({ exit_code: 0, output: "head...[output truncated]...tail", truncated: true });
    const knowledge = await client.callTool({ name: "knowledge", arguments: {} });
    expect(knowledge).toMatchObject({ isError: false, content: [{ type: "text", text: '{"hits":[]}' }] });
    const refused = await client.callTool({ name: "refuses", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(`calling tool "refuses" on agent "${gen2}": "choria.fisk-ai.tool.${gen2}" refused the request: 500: handler exploded`);
    const old = await client.callTool({ name: "old_tool", arguments: {} });
    expect(old.isError).toBe(false);
    expect(JSON.parse(textOf(old))).toMatchObject({ exit_code: 2, output: "gen1 says hi\n" });
  });

  it.each([
    ["not JSON", "this is not json", "the agent's discovery reply is not a valid card"],
    ["not a card", JSON.stringify({ protocol: "io.choria.fisk-ai.v1.ack", id: "x", sequence: 0, time: "2026-01-01T00:00:00Z", sender: { name: "x" }, accepted: true }), "the agent's discovery reply is not a valid card"],
  ])("a discovery reply that is %s stops the bridge at start with the reason", async (_what, body, message) => {
    const identity = tag("hostile");
    const sub = nc.subscribe(`choria.fisk-ai.discovery.${identity}`, { callback: (_err, m) => void m.respond(new TextEncoder().encode(body)) });
    await nc.flush();
    try {
      const run = await failedBridge(built, natsUrl, ["--bridge", identity]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`cannot bridge ${identity}: ${message}`);
    } finally {
      sub.unsubscribe();
    }
  }, 60_000);
});
