import { describe, expect, it } from "vitest";
import { inProcessWorker } from "./fake-worker.ts";
import { ValidationClient, type RunListener, type WorkerLike } from "./validation-client.ts";
import type { RunDone, VerdictRow, WorkerRequest } from "./validation-protocol.ts";

function listen() {
  const rows: VerdictRow[] = [];
  let resolve: (outcome: RunDone | string) => void = () => undefined;
  const ended = new Promise<RunDone | string>((r) => (resolve = r));
  const listener: RunListener = {
    progress: (_done, _total, more) => rows.push(...more),
    done: (event) => resolve(event),
    failed: (message) => resolve(message),
  };
  return { rows, ended, listener };
}

/** A worker that records requests and lets the test fire its error event. */
function deadWorker() {
  const sent: WorkerRequest[] = [];
  const worker: WorkerLike & { terminated: boolean } = {
    onmessage: null,
    onerror: null,
    onmessageerror: null,
    terminated: false,
    postMessage: (r) => sent.push(r),
    terminate() {
      this.terminated = true;
    },
  };
  return { worker, sent };
}

describe("ValidationClient", () => {
  it("runs a batch and answers queries through the worker", async () => {
    const client = new ValidationClient(() => inProcessWorker());
    const run = listen();
    client.run([{ name: "c.jsonl", text: '{"ping":true,"n":1}\n{"ping":1}' }], run.listener);
    const outcome = await run.ended;
    expect(outcome).toMatchObject({ type: "done", done: 2, total: 2 });
    expect(run.rows.map((r) => r.status)).toEqual(["valid", "invalid"]);
    const detail = await client.detail(1);
    expect(detail.text).toBe('{"ping":1}');
    expect((await client.validateOne('{"fault":"x"}')).status).toBe("error-response");
    expect((await client.detail(0, { packId: "mcp/test", kindId: "fault" })).verdict.overridden).toBe(true);
    expect((await client.catalog()).map((p) => p.id)).toEqual(["mcp/test"]);
    expect((await client.exportReport()).messages).toBe(2);
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    expect(await client.checkSchema(schema, { n: 1 }, "/s", "2020-12")).toEqual([]);
    expect((await client.checkSchema(schema, { n: "x" }, "/s", "2020-12")).map((i) => i.pointer)).toEqual(["/s/n"]);
    await expect(client.detail(5)).rejects.toThrow("No validated message #5");
  });

  it("fails the run and every pending query when the worker dies, then starts a new worker", async () => {
    const dead = deadWorker();
    let made = 0;
    const client = new ValidationClient(() => (made++ === 0 ? dead.worker : inProcessWorker()));
    const run = listen();
    client.run([{ name: "p", text: "{}" }], run.listener);
    const pending = client.detail(0);
    dead.worker.onerror?.(new Event("error"));
    expect(await run.ended).toBe("The validation worker stopped: its script failed to load or was blocked.");
    await expect(pending).rejects.toThrow("script failed to load");
    expect(dead.worker.terminated).toBe(true);

    const again = listen();
    client.run([{ name: "p", text: '{"ping":true,"n":1}' }], again.listener);
    expect(await again.ended).toMatchObject({ type: "done", done: 1 });
    expect(made).toBe(2);
  });

  it("reports a crash inside the worker and ignores events of older runs", async () => {
    const dead = deadWorker();
    const client = new ValidationClient(() => dead.worker);
    const first = listen();
    client.run([{ name: "a", text: "{}" }], first.listener);
    const second = listen();
    client.run([{ name: "b", text: "{}" }], second.listener);
    expect(dead.sent.map((r) => r.type === "run" && r.run)).toEqual([1, 2]);
    const deliver = (data: unknown) => dead.worker.onmessage?.({ data } as MessageEvent);
    deliver({ type: "progress", run: 1, done: 1, total: 1, rows: [{ index: 0, place: "a", status: "valid" }] });
    expect(first.rows).toEqual([]);
    client.cancel();
    expect(dead.sent.at(-1)).toEqual({ type: "cancel", run: 2 });
    deliver({ type: "crash", message: "out of memory" });
    expect(await second.ended).toBe("The validation worker failed: out of memory");
  });

  it("treats a message that cannot be read like a crash: the run and pending queries fail", async () => {
    const dead = deadWorker();
    const client = new ValidationClient(() => dead.worker);
    const run = listen();
    client.run([{ name: "a", text: "{}" }], run.listener);
    const pending = client.catalog();
    dead.worker.onmessageerror?.(new MessageEvent("messageerror"));
    const reason = "The validation worker failed: one of its messages could not be read.";
    expect(await run.ended).toBe(reason);
    await expect(pending).rejects.toThrow(reason);
  });
});
