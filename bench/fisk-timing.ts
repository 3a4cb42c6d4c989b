/** Timed exchanges the fisk-ai NATS benchmarks share, each returning microseconds. */
import { FINAL_HEADER } from "../src/core/fisk/client/index.ts";
import type { NatsPort } from "../src/core/nats/port.ts";
import { mean, median, percentile } from "./bench-stats.ts";

/** One fixed tool request published to an agent, timed until the reply marked final: no client logic. */
export function bareReplySet(raw: NatsPort, identity: string, request: Uint8Array): () => Promise<number> {
  let inboxes = 0;
  return () =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const inbox = `_INBOX.bench${inboxes++}`;
      const sub = raw.subscribe(inbox, (m) => {
        if (!m.headers?.[FINAL_HEADER]) return;
        sub.unsubscribe();
        resolve((performance.now() - t0) * 1000);
      });
      raw.publish(`choria.fisk-ai.tool.${identity}`, request, { reply: inbox });
    });
}

/** A raw NATS request/reply of the same size, the floor; `onWrong` hears of a reply of the wrong size. */
export function rawEcho(raw: NatsPort, subject: string, bytes: number, onWrong: () => void): () => Promise<number> {
  const body = new Uint8Array(bytes).fill(0x78);
  return async () => {
    const t0 = performance.now();
    const m = await raw.request(subject, body, { timeoutMs: 5000 });
    const us = (performance.now() - t0) * 1000;
    if (m.data.length !== body.length) onWrong();
    return us;
  };
}

/** Warms each measure up, then runs them in alternating rounds so drift hits all alike. */
export async function alternatingRounds<K extends string>(measures: Record<K, (i: number) => Promise<number>>, count: number, rounds: number): Promise<Record<K, number[]>> {
  const names = Object.keys(measures) as K[];
  const perRound = Math.max(1, Math.floor(count / rounds));
  for (let i = 0; i < Math.min(200, perRound); i++) for (const name of names) await measures[name](i);
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (const name of names) for (let i = 0; i < perRound; i++) out[name].push(await measures[name](i));
  }
  return out;
}

export const summaryLine = (label: string, xs: readonly number[]): string =>
  `  ${label} median ${median(xs).toFixed(0)} µs, mean ${mean(xs).toFixed(0)} µs, p90 ${percentile(xs, 0.9).toFixed(0)} µs, p99 ${percentile(xs, 0.99).toFixed(0)} µs`;
