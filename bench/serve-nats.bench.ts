/**
 * Patchbay's served fisk-ai agent (src/core/serving/fisk, as the backend runs it: schema
 * validation on, Go-exact encoding) answering `echo` over NATS, versus the floor: a plain NATS
 * request/reply echo of a body of the same size on the same server, in the same run, alternating
 * rounds. Two views of the agent: the bare reply set (publish the request, read to the final
 * header; the server's share) and a whole FiskClient.callTool (client and server).
 * Sequential calls; latency per call in microseconds.
 * Usage: node bench/run.mjs serve-nats [--count N] [--rounds R] [--no-validate]
 */
import { DEFAULT_SENDER, FINAL_HEADER, FiskClient } from "../src/core/a2a-nats/client/index.ts";
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
import { mean, median, option, percentile } from "./bench-stats.ts";

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
    const body = new Uint8Array(fixed.length).fill(0x78);
    const echo = async (): Promise<number> => {
      const t0 = performance.now();
      const m = await raw.request(ECHO_SUBJECT, body, { timeoutMs: 5000 });
      const us = (performance.now() - t0) * 1000;
      if (m.data.length !== body.length) wrong++;
      return us;
    };
    // The agent's share: one fixed request, read to the final header, no client logic.
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
