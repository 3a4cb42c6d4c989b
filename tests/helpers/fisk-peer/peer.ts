/**
 * A wire-level fisk-ai agent for tests and the benchmark: it connects to a real nats-server,
 * registers as a micro service named after its identity, and answers discovery, tool calls and
 * tasks exactly as fisk-ai does (Gen 2 reply sets, or Gen 1 single replies), with scripted
 * outcomes and injectable faults.
 */
import { connect, type Subscription } from "@nats-io/transport-node";
import { NAME_RE } from "../../../src/core/packs/fisk-ai/protocol.ts";
import { ConversationStore } from "./conversations.ts";
import { serveMicro, type MicroEndpoint } from "./micro.ts";
import { PeerRuntime } from "./runtime.ts";
import { taskHandler } from "./tasks.ts";
import { discoveryHandler, toolHandler } from "./tools.ts";
import type { FiskPeer, FiskPeerOptions, PeerRecord } from "./types.ts";
import { serviceInstanceId, subjects } from "./wire.ts";

const DEFAULT_KEEPALIVE_MS = 10_000;

export async function startFiskPeer(natsUrl: string, options: FiskPeerOptions): Promise<FiskPeer> {
  const identity = options.identity;
  if (!NAME_RE.test(identity)) throw new Error(`identity ${JSON.stringify(identity)} must match ^[a-zA-Z0-9_-]+$`);
  const generation = options.generation ?? "gen2";
  const concurrency = options.concurrency ?? 2;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);

  const nc = await connect({ servers: natsUrl, name: `fisk-ai ${identity}` });
  const rt = new PeerRuntime(nc, { name: identity, instance: options.instance });
  const served = (options.tools ?? []).filter((t) => options.serveUndescribed || (t.description ?? "") !== "");
  const toolCfg = {
    identity,
    generation,
    version: options.version ?? "0.0.5",
    model: options.model,
    telemetry: options.telemetry,
    tools: served,
    concurrency,
    keepaliveMs: options.keepaliveMs ?? DEFAULT_KEEPALIVE_MS,
  };
  const tools = toolHandler(rt, toolCfg);
  const serveTasks = generation === "gen2" && options.serveTasks !== false;
  const tasks = taskHandler(rt, { identity, task: options.task, workers: options.taskWorkers ?? 1, elicit: options.elicit !== false, store: options.sessionStore === false ? undefined : new ConversationStore() });

  const endpoints: (MicroEndpoint & { handle: Parameters<PeerRuntime["callback"]>[1] })[] = [
    { name: "discovery", subject: subjects.discovery(identity), queueGroup: identity, handle: discoveryHandler(rt, toolCfg) },
    { name: "tool", subject: subjects.tool(identity), queueGroup: identity, handle: tools.handle },
  ];
  if (serveTasks) endpoints.push({ name: "task", subject: subjects.task(identity), queueGroup: identity, handle: tasks.handle });

  const subs: Subscription[] = endpoints.map((e) => nc.subscribe(e.subject, { queue: e.queueGroup, callback: rt.callback(e.name, e.handle) }));
  const serviceId = serviceInstanceId();
  subs.push(...serveMicro(rt, { name: identity, id: serviceId, endpoints }));
  // Every subscription is known to the server before anyone is told the peer is up.
  await nc.flush();

  let stopping: Promise<void> | undefined;
  return {
    identity,
    generation,
    serviceId,
    received: rt.received,
    sent: rt.sent,
    failures: rt.failures,
    runningTasks: tasks.running,
    toolsInFlight: tools.inFlight,
    waitForReceived(match: (record: PeerRecord) => boolean, timeoutMs = 5000): Promise<PeerRecord> {
      const seen = rt.received.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          off();
          reject(new Error(`the fisk-ai peer ${identity} received no matching message within ${timeoutMs} ms`));
        }, timeoutMs);
        const off = rt.onReceived((record) => {
          if (!match(record)) return;
          clearTimeout(timer);
          off();
          resolve(record);
        });
      });
    },
    stop() {
      stopping ??= (async () => {
        rt.stop();
        await rt.settled();
        if (nc.isClosed()) return;
        // Draining the connection drains every subscription, then closes.
        await nc.drain();
      })();
      return stopping;
    },
  };
}
