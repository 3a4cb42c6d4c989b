/**
 * Patchbay's served fisk-ai agent (src/core/serving/fisk, as the backend runs it: schema
 * validation on, Go-exact encoding) answering `echo` over NATS, versus the floor: a plain NATS
 * request/reply echo of a body of the same size on the same server, in the same run, alternating
 * rounds. Two views of the agent: the bare reply set (publish the request, read to the final
 * header; the server's share) and a whole FiskClient.callTool (client and server).
 * Sequential calls; latency per call in microseconds.
 * Usage: node bench/run.mjs serve-nats [--count N] [--rounds R] [--no-validate]
 */
import { DEFAULT_SENDER, FiskClient } from "../src/core/fisk/client/index.ts";
import { systemClock, systemScheduler } from "../src/core/env/index.ts";
// Loaded statically: bench/run.mjs closes Vite's module runner once this module is imported, so
// the dynamic import inside tcpConnector() cannot run here. This is what tcpConnector() does.
import * as nats from "@nats-io/transport-node";
import { adaptConnection, connectOptions } from "../src/core/nats/connection-adapter.ts";
import type { NatsPort } from "../src/core/nats/port.ts";
import { createValidationEngine } from "../src/core/packs/index.ts";
import { DEMO_TOOLKIT } from "../src/core/serving/demo-toolkit.ts";
import { engineValidator, startFiskServer } from "../src/core/serving/fisk/index.ts";
import { startNatsServer } from "../server/nats/managed-nats.ts";
import { mean, median, option } from "./bench-stats.ts";
import { alternatingRounds, bareReplySet, rawEcho, summaryLine } from "./fisk-timing.ts";

const IDENTITY = "bench-served";
const ECHO_SUBJECT = "bench.raw.echo";

export async function run(args: readonly string[]): Promise<number> {
  const count = option(args, "--count", 2000);
  const rounds = option(args, "--rounds", 5);
  const validating = !args.includes("--no-validate");
  const started = await startNatsServer();
  if (!started.ok) {
    process.stderr.write(`serve-nats bench needs nats-server: ${started.message}\n`);
    return 1;
  }
  const natsServer = started.server;
  const clock = systemClock(performance, Date);
  const random = (b: Uint8Array) => crypto.getRandomValues(b);
  const ports: NatsPort[] = [];
  const connect = async (name: string) => {
    const port = adaptConnection(await nats.connect(connectOptions({ servers: natsServer.url, name }, nats)), nats);
    ports.push(port);
    return port;
  };
  try {
    const agent = await startFiskServer({
      port: await connect(`fisk-ai ${IDENTITY}`),
      toolkit: { ...DEMO_TOOLKIT, name: IDENTITY },
      clock,
      scheduler: systemScheduler(),
      random,
      ...(validating ? { validate: engineValidator(createValidationEngine()) } : {}),
    });
    const raw = await connect("bench-client");
    const responder = await connect("bench-echo-responder");
    responder.subscribe(ECHO_SUBJECT, (m) => m.reply && responder.publish(m.reply, m.data));
    await responder.flush();
    const client = new FiskClient({ port: raw, clock, scheduler: systemScheduler(), random, sender: DEFAULT_SENDER });

    let wrong = 0;
    const call = async (i: number): Promise<number> => {
      const t0 = performance.now();
      const r = await client.callTool(IDENTITY, "echo", { message: `m${i}` });
      const us = (performance.now() - t0) * 1000;
      if (!(r.outcome.kind === "output" && r.outcome.output === `m${i}`)) wrong++;
      return us;
    };
    const fixedText = (await client.callTool(IDENTITY, "echo", { message: "m0" })).requestText;
    const fixed = new TextEncoder().encode(fixedText);
    const echo = rawEcho(raw, ECHO_SUBJECT, fixed.length, () => wrong++);
    // The agent's share: one fixed request, read to the final header, no client logic.
    const bareSet = bareReplySet(raw, IDENTITY, fixed);
    const { echo: echoUs, bare: bareUs, client: clientUs } = await alternatingRounds({ echo, bare: bareSet, client: call }, count, rounds);
    const line = summaryLine;
    const out = [
      `serve-nats bench: ${clientUs.length} sequential calls each, ${rounds} alternating rounds, one nats-server, agent ${validating ? "validating" : "not validating"} requests; request ${fixed.length} bytes`,
      line("raw NATS request/reply echo (floor):        ", echoUs),
      line("served agent, bare reply set (ack + reply): ", bareUs),
      line("FiskClient.callTool against the agent:      ", clientUs),
      `  ratio served reply set/raw echo: median ${(median(bareUs) / median(echoUs)).toFixed(2)}x, mean ${(mean(bareUs) / mean(echoUs)).toFixed(2)}x`,
      `  ratio client call/raw echo: median ${(median(clientUs) / median(echoUs)).toFixed(2)}x, mean ${(mean(clientUs) / mean(echoUs)).toFixed(2)}x`,
    ];
    process.stdout.write(`${out.join("\n")}\n`);
    await agent.stop();
    if (wrong > 0) {
      process.stderr.write(`${wrong} calls came back wrong\n`);
      return 1;
    }
    return 0;
  } finally {
    await Promise.all(ports.map((p) => p.close()));
    await natsServer.stop();
  }
}
