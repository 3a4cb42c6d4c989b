/**
 * A fisk-ai tool call through Patchbay's client (fresh inbox, tool.request, reply set of ack and
 * final tool.reply, outcome mapping) against the wire-level test peer, versus the floor: a plain
 * NATS request/reply echo of a body of the same size on the same server, through the same port,
 * in the same run, alternating rounds. Sequential calls; latency per call in microseconds.
 * Usage: node bench/run.mjs fisk-tool-call [--count N] [--rounds R] [--logged] [--validate]
 */
import { DEFAULT_SENDER, FINAL_HEADER, FiskClient, type FiskClientDeps } from "../src/core/a2a-nats/client/index.ts";
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
import { mean, median, option, percentile } from "./bench-stats.ts";

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
    const body = new Uint8Array(requestBytes).fill(0x78);
    const echo = async (): Promise<number> => {
      const t0 = performance.now();
      const m = await raw.request(ECHO_SUBJECT, body, { timeoutMs: 5000 });
      const us = (performance.now() - t0) * 1000;
      if (m.data.length !== body.length) wrong++;
      return us;
    };

    // The same exchange with no client logic: one fixed request, read to the final header.
    const fixed = new TextEncoder().encode((await client.callTool(IDENTITY, "echo", { i: 0 })).requestText);
    let inboxes = 0;
    const bareSet = (): Promise<number> =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const inbox = `_INBOX.bench${inboxes++}`;
        const sub = raw.subscribe(inbox, (m) => {
          if (!m.headers?.[FINAL_HEADER]) return;
          sub.unsubscribe();
          resolve((performance.now() - t0) * 1000);
        });
        raw.publish(`choria.fisk-ai.tool.${IDENTITY}`, fixed, { reply: inbox });
      });

    const perRound = Math.max(1, Math.floor(count / rounds));
    for (let i = 0; i < Math.min(200, perRound); i++) {
      await call(i);
      await echo();
      await bareSet();
    }
    const clientUs: number[] = [];
    const echoUs: number[] = [];
    const bareUs: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < perRound; i++) echoUs.push(await echo());
      for (let i = 0; i < perRound; i++) bareUs.push(await bareSet());
      for (let i = 0; i < perRound; i++) clientUs.push(await call(i));
    }
    const line = (label: string, xs: number[]) =>
      `  ${label} median ${median(xs).toFixed(0)} µs, mean ${mean(xs).toFixed(0)} µs, p90 ${percentile(xs, 0.9).toFixed(0)} µs, p99 ${percentile(xs, 0.99).toFixed(0)} µs`;
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
