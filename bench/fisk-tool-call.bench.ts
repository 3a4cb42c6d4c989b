/**
 * A fisk-ai tool call through Patchbay's client (fresh inbox, tool.request, reply set of ack and
 * final tool.reply, outcome mapping) against the wire-level test peer, versus the floor: a plain
 * NATS request/reply echo of a body of the same size on the same server, through the same port,
 * in the same run, alternating rounds. Sequential calls; latency per call in microseconds.
 * Usage: node bench/run.mjs fisk-tool-call [--count N] [--rounds R] [--logged] [--validate]
 */
import { DEFAULT_SENDER, FiskClient, type FiskClientDeps } from "../src/core/fisk/client/index.ts";
import { randomIds, systemClock, systemScheduler } from "../src/core/env/index.ts";
// Loaded statically: bench/run.mjs closes Vite's module runner once this module is imported, so
// the dynamic import inside tcpConnector() cannot run here. This is what tcpConnector() does.
import * as nats from "@nats-io/transport-node";
import { adaptConnection, connectOptions } from "../src/core/nats/connection-adapter.ts";
import { loggedPort } from "../src/core/nats/logged-port.ts";
import type { NatsPort } from "../src/core/nats/port.ts";
import { createValidationEngine } from "../src/core/packs/index.ts";
import { WireLog } from "../src/core/wire/index.ts";
import { startNatsServer } from "../server/nats/managed-nats.ts";
import { startFiskPeer } from "../tests/helpers/fisk-peer/index.ts";
import { mean, median, option } from "./bench-stats.ts";
import { alternatingRounds, bareReplySet, rawEcho, summaryLine } from "./fisk-timing.ts";

const IDENTITY = "bench-echo";
const ECHO_SUBJECT = "bench.raw.echo";

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 2000);
  const rounds = option(args, "--rounds", 5);
  const started = await startNatsServer();
  if (!started.ok) {
    process.stderr.write(`fisk-tool-call bench needs nats-server: ${started.message}\n`);
    return 1;
  }
  const server = started.server;
  const clock = systemClock(performance, Date);
  const ports: NatsPort[] = [];
  const peer = await startFiskPeer(server.url, { identity: IDENTITY, tools: [{ name: "echo", description: "Echoes its input", script: { run: (input) => ({ output: JSON.stringify(input) }) } }] });
  try {
    const connect = async (name: string) => {
      const port = adaptConnection(await nats.connect(connectOptions({ servers: server.url, name }, nats)), nats);
      ports.push(port);
      return port;
    };
    const raw = await connect("bench-client");
    const responder = await connect("bench-echo-responder");
    responder.subscribe(ECHO_SUBJECT, (m) => m.reply && responder.publish(m.reply, m.data));
    await responder.flush();
    const engine = args.includes("--validate") ? createValidationEngine() : undefined;
    const port = args.includes("--logged") ? loggedPort(raw, new WireLog(clock, 10_000), clock, randomIds((b) => crypto.getRandomValues(b))) : raw;
    const deps: FiskClientDeps = {
      port,
      clock,
      scheduler: systemScheduler(),
      random: (b) => crypto.getRandomValues(b),
      sender: DEFAULT_SENDER,
      ...(engine ? { validate: (t: string) => engine.session().validateText(t) } : {}),
    };
    const client = new FiskClient(deps);

    let wrong = 0;
    let requestBytes = 0;
    const call = async (i: number): Promise<number> => {
      const t0 = performance.now();
      const r = await client.callTool(IDENTITY, "echo", { i });
      const us = (performance.now() - t0) * 1000;
      requestBytes = r.requestText.length;
      if (!(r.outcome.kind === "ran" && r.outcome.output === JSON.stringify({ i }))) wrong++;
      return us;
    };
    await call(-1);
    const echo = rawEcho(raw, ECHO_SUBJECT, requestBytes, () => wrong++);
    // The same exchange with no client logic: one fixed request, read to the final header.
    const fixed = new TextEncoder().encode((await client.callTool(IDENTITY, "echo", { i: 0 })).requestText);
    const bareSet = bareReplySet(raw, IDENTITY, fixed);
    const { echo: echoUs, bare: bareUs, client: clientUs } = await alternatingRounds({ echo, bare: bareSet, client: call }, count, rounds);
    const line = summaryLine;
    const mode = [args.includes("--logged") ? "logged port" : "plain port", engine ? "validating" : "no validation"].join(", ");
    const out = [
      `fisk-tool-call bench: ${clientUs.length} sequential calls each, ${rounds} alternating rounds, one nats-server, ${mode}; request ${requestBytes} bytes`,
      line("raw NATS request/reply echo (floor):      ", echoUs),
      line("bare reply set, no client logic:          ", bareUs),
      line("FiskClient.callTool (ack + final reply):  ", clientUs),
      `  ratio bare set/floor: median ${(median(bareUs) / median(echoUs)).toFixed(2)}x (the peer's share: two messages, its own checks)`,
      `  ratio client/floor: median ${(median(clientUs) / median(echoUs)).toFixed(2)}x, mean ${(mean(clientUs) / mean(echoUs)).toFixed(2)}x`,
    ];
    process.stdout.write(`${out.join("\n")}\n`);
    if (wrong > 0 || peer.failures.length > 0) {
      process.stderr.write(`${wrong} calls came back wrong; peer failures: ${peer.failures.length}\n`);
      return 1;
    }
    return 0;
  } finally {
    await peer.stop();
    await Promise.all(ports.map((p) => p.close()));
    await server.stop();
  }
}
