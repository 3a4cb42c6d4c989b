/**
 * A tool call through the bridge (the MCP SDK client → `serve --http --bridge`'s MCP surface →
 * fisk-ai tool.request over NATS → the agent) versus calling the same agent directly with
 * Patchbay's fisk-ai client, in the same run against one nats-server and one served agent,
 * alternating rounds. Also the MCP surface answering a local tool of the same kind (no NATS), to
 * show how much of the bridge's cost is MCP's own. Three tools: `echo` (no work at all, so every
 * microsecond of transport shows), `say`, which runs /bin/echo as fisk-ai tools run programs, and
 * `sleep` for 0.1 s, a tool with work to do.
 * By default the agent (`serve --nats`) and the bridge (`serve --http --bridge`) are real
 * processes, as deployed; --in-process runs both inside this process (where the MCP client, the
 * bridge and the agent share one event loop, which slows the bridge's own NATS call).
 * Sequential calls; latency per call in microseconds. Goal: bridge ≤ 1.2× the direct call.
 * Usage: node bench/run.mjs bridge [--count N] [--rounds R] [--in-process]
 */
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// Loaded statically, as serve-nats.bench.ts explains: this is what tcpConnector() does.
import * as nats from "@nats-io/transport-node";
import { systemClock, systemScheduler, silentLogger } from "../src/core/env/index.ts";
import { DEFAULT_SENDER, FiskClient } from "../src/core/fisk/client/index.ts";
import { adaptConnection, connectOptions } from "../src/core/nats/connection-adapter.ts";
import type { NatsPort } from "../src/core/nats/port.ts";
import { BUILTIN_DEFS } from "../src/core/serving/builtin-tools.ts";
import { FiskBridge } from "../src/core/serving/bridge/fisk-bridge.ts";
import { startFiskServer } from "../src/core/serving/fisk/index.ts";
import { nodeCommandRunner } from "../src/core/serving/node/command-runner.ts";
import { TOOLKIT_FORMAT, TOOLKIT_VERSION, type ToolDef, type Toolkit } from "../src/core/serving/toolkit/toolkit-types.ts";
import { startNatsServer } from "../server/nats/managed-nats.ts";
import { startMcpServing } from "../server/serving/mcp-engine.ts";
import { startBridgeHttp, startPeer } from "../tests/helpers/bridge-processes.ts";
import { buildCli } from "../tests/helpers/serve-processes.ts";
import { median, option } from "./bench-stats.ts";
import { alternatingRounds, summaryLine } from "./fisk-timing.ts";

const IDENTITY = "bench-bridged";
const GOAL = 1.2;
const echoDef = BUILTIN_DEFS.find((t) => t.name === "echo")!;
const sleepDef = BUILTIN_DEFS.find((t) => t.name === "sleep")!;
const sayDef: ToolDef = {
  name: "say",
  description: "Prints its word with /bin/echo.",
  inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  tags: ["ai:read_only"],
  impl: { kind: "command", argv: ["/bin/echo"], positionals: ["word"], timeoutMs: 10_000, env: {} },
};
const kit = (name: string, tools: ToolDef[]): Toolkit => ({ format: TOOLKIT_FORMAT, version: TOOLKIT_VERSION, name, description: "bench", filter: { include: [], exclude: [] }, tools });
/** A tool in the toolkit file's form. */
const fileTool = (t: ToolDef, name = t.name) => ({ name, description: t.description, tags: t.tags, inputSchema: t.inputSchema, run: t.impl.kind === "builtin" ? t.impl : { command: t.impl.argv, positionals: t.impl.positionals } });

interface Served {
  /** The bridge's MCP URL. */
  readonly url: string;
  close(): Promise<void>;
}

/** The agent and the bridge inside this process. */
async function inProcess(connect: (name: string) => Promise<NatsPort>): Promise<Served> {
  const clock = systemClock(performance, Date);
  const random = (b: Uint8Array) => crypto.getRandomValues(b);
  const agent = await startFiskServer({ port: await connect(`fisk-ai ${IDENTITY}`), toolkit: kit(IDENTITY, [echoDef, sayDef, sleepDef]), clock, scheduler: systemScheduler(), random, runner: nodeCommandRunner(), concurrency: 8 });
  const bridgeClient = new FiskClient({ port: await connect("bench-bridge"), clock, scheduler: systemScheduler(), random, sender: { name: "patchbay-bridge" } });
  // The local tools carry other names, so the bridged ones keep theirs.
  const local = kit("bench-local", [{ ...echoDef, name: "local_echo" }, { ...sayDef, name: "local_say" }, { ...sleepDef, name: "local_sleep" }]);
  const bridge = new FiskBridge({ peer: bridgeClient, config: { identities: [IDENTITY] }, localNames: ["local_echo", "local_say", "local_sleep"], logger: silentLogger });
  const plan = await bridge.refresh();
  if (plan.tools.map((t) => t.name).join() !== "echo,say,sleep") throw new Error(`the bridge planned ${plan.tools.map((t) => t.name).join()}`);
  const serving = await startMcpServing({ toolkit: local, port: 0, logger: silentLogger, bridge, concurrency: 8, fixtures: false });
  return { url: serving.url, close: async () => (await serving.close(), await agent.stop()) };
}

/** `serve --nats` and `serve --http --bridge` as their own processes, from a fresh build of the CLI. */
async function processes(natsUrl: string): Promise<Served> {
  const built = await buildCli();
  const peer = await startPeer(built, natsUrl, IDENTITY, [fileTool(echoDef), fileTool(sayDef), fileTool(sleepDef)], ["--concurrency", "8"]);
  const localFile = join(built.dir, "bench-local.json");
  await writeFile(localFile, JSON.stringify({ format: TOOLKIT_FORMAT, version: TOOLKIT_VERSION, name: "bench-local", description: "bench", tools: [fileTool(echoDef, "local_echo"), fileTool(sayDef, "local_say"), fileTool(sleepDef, "local_sleep")] }));
  const bridge = await startBridgeHttp(built, natsUrl, ["--bridge", IDENTITY, "--concurrency", "8", localFile]);
  return { url: bridge.url, close: async () => (await bridge.stop(), await peer.stop(), await built.remove()) };
}


export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 300);
  const rounds = option(args, "--rounds", 5);
  const separate = !args.includes("--in-process");
  const started = await startNatsServer();
  if (!started.ok) {
    process.stderr.write(`bridge bench needs nats-server: ${started.message}\n`);
    return 1;
  }
  const natsServer = started.server;
  const clock = systemClock(performance, Date);
  const random = (b: Uint8Array) => crypto.getRandomValues(b);
  const ports: NatsPort[] = [];
  const closers: (() => Promise<void>)[] = [];
  const connect = async (name: string) => {
    const port = adaptConnection(await nats.connect(connectOptions({ servers: natsServer.url, name }, nats)), nats);
    ports.push(port);
    return port;
  };
  try {
    const served = separate ? await processes(natsServer.url) : await inProcess(connect);
    closers.push(() => served.close());
    const direct = new FiskClient({ port: await connect("bench-direct"), clock, scheduler: systemScheduler(), random, sender: DEFAULT_SENDER });
    const mcp = new Client({ name: "bench", version: "0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    closers.push(() => mcp.close());
    const listed = (await mcp.listTools()).tools.map((t) => t.name).join();
    if (listed !== "local_echo,local_say,local_sleep,echo,say,sleep") throw new Error(`the bridge lists ${listed}`);
    let wrong = 0;
    const textOf = (r: object) => (((r as { content?: unknown }).content as { text?: string }[] | undefined)?.[0]?.text ?? "");
    const viaMcp = (tool: string, argsOf: (i: number) => Record<string, unknown>, expect: (i: number, text: string) => boolean) => async (i: number) => {
      const t0 = performance.now();
      const r = await mcp.callTool({ name: tool, arguments: argsOf(i) });
      const us = (performance.now() - t0) * 1000;
      if (r.isError || !expect(i, textOf(r))) wrong++;
      return us;
    };
    const viaFisk = (tool: string, argsOf: (i: number) => Record<string, unknown>, expect: (i: number, text: string) => boolean) => async (i: number) => {
      const t0 = performance.now();
      const r = await direct.callTool(IDENTITY, tool, argsOf(i));
      const us = (performance.now() - t0) * 1000;
      const o = r.outcome;
      if (!((o.kind === "output" || o.kind === "ran") && expect(i, o.output))) wrong++;
      return us;
    };
    const msg = (i: number) => ({ message: `m${i}-${randomUUID().slice(0, 4)}` });
    const word = (i: number) => ({ word: `w${i}` });
    const echoed = (_i: number, text: string) => text.startsWith("m");
    const said = (i: number, text: string) => text.includes(`w${i}`);

    const echo = await alternatingRounds(
      { direct: viaFisk("echo", msg, echoed), bridge: viaMcp("echo", msg, echoed), mcpLocal: viaMcp("local_echo", msg, echoed) },
      count,
      rounds,
    );
    const sayCount = Math.max(rounds, Math.floor(count / 5));
    const say = await alternatingRounds({ direct: viaFisk("say", word, said), bridge: viaMcp("say", word, said), mcpLocal: viaMcp("local_say", word, said) }, sayCount, rounds);

    const nap = (_i: number) => ({ seconds: 0.1 });
    const napped = (_i: number, text: string) => text !== "";
    const sleepCount = Math.max(rounds, Math.floor(count / 25));
    const sleep = await alternatingRounds({ direct: viaFisk("sleep", nap, napped), bridge: viaMcp("sleep", nap, napped), mcpLocal: viaMcp("local_sleep", nap, napped) }, sleepCount, rounds);
    const ratio = (a: readonly number[], b: readonly number[]) => median(a) / median(b);
    const block = (title: string, r: typeof echo) => [
      title,
      summaryLine("fisk-ai client → agent (direct, baseline):   ", r.direct),
      summaryLine("MCP client → bridge → NATS → agent:          ", r.bridge),
      summaryLine("MCP client → same surface, local tool:       ", r.mcpLocal),
      `  ratio bridge/direct: median ${ratio(r.bridge, r.direct).toFixed(2)}x (goal ≤ ${GOAL}x: ${ratio(r.bridge, r.direct) <= GOAL ? "met" : "NOT met"}); the bridge adds ${(median(r.bridge) - median(r.direct)).toFixed(0)} µs at p50, of which MCP's own round trip (local tool minus direct) is ${(median(r.mcpLocal) - median(r.direct)).toFixed(0)} µs`,
    ];
    const out = [
      `bridge bench: sequential calls, ${rounds} alternating rounds, one nats-server, agent and bridge ${separate ? "as their own processes (serve --nats, serve --http --bridge)" : "inside this process"}`,
      ...block(`echo (no work; ${echo.direct.length} calls each):`, echo),
      ...block(`say (runs /bin/echo, as fisk-ai tools run programs; ${say.direct.length} calls each):`, say),
      ...block(`sleep 0.1 s (a tool that takes a tenth of a second; ${sleep.direct.length} calls each):`, sleep),
    ];
    process.stdout.write(`${out.join("\n")}\n`);
    if (wrong > 0) {
      process.stderr.write(`${wrong} calls came back wrong\n`);
      return 1;
    }
    return 0;
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await Promise.all(ports.map((p) => p.close()));
    await natsServer.stop();
  }
}
