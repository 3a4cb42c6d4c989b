import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../../env/scheduler.ts";
import { connectHarness, firstText, settle } from "./test-harness.ts";

const sleep = (seconds: number) => ({ name: "sleep", arguments: { seconds } });

describe("the shared semaphore", () => {
  it("with a limit of 1, two sleeps run one after the other", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler, concurrency: 1 });
    const done: string[] = [];
    const first = h.client.callTool(sleep(1)).then((r) => done.push(`first ${firstText(r)}`));
    const second = h.client.callTool(sleep(1)).then((r) => done.push(`second ${firstText(r)}`));
    await settle();
    expect(h.ctx.semaphore.active).toBe(1);
    expect(h.ctx.semaphore.waiting).toBe(1);
    scheduler.advance(1_000);
    await settle();
    expect(done).toEqual(["first slept 1 s"]);
    expect(h.ctx.semaphore.active).toBe(1);
    expect(h.ctx.semaphore.waiting).toBe(0);
    scheduler.advance(1_000);
    await Promise.all([first, second]);
    expect(done).toEqual(["first slept 1 s", "second slept 1 s"]);
    expect(h.ctx.semaphore.active).toBe(0);
    await h.close();
  });

  it("with the default limit of 2, two sleeps run together and a third waits", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler });
    const calls = [h.client.callTool(sleep(1)), h.client.callTool(sleep(1)), h.client.callTool(sleep(1))];
    await settle();
    expect([h.ctx.semaphore.limit, h.ctx.semaphore.active, h.ctx.semaphore.waiting]).toEqual([2, 2, 1]);
    scheduler.advance(1_000);
    await settle();
    scheduler.advance(1_000);
    expect((await Promise.all(calls)).map(firstText)).toEqual(["slept 1 s", "slept 1 s", "slept 1 s"]);
    await h.close();
  });

  it("is shared by every session of one served agent", async () => {
    const scheduler = new ManualScheduler();
    const a = await connectHarness({ scheduler, concurrency: 1 });
    const b = await connectHarness({ context: a.ctx });
    const first = a.client.callTool(sleep(1));
    await settle();
    const second = b.client.callTool(sleep(1));
    await settle();
    expect([a.ctx.semaphore.active, a.ctx.semaphore.waiting]).toEqual([1, 1]);
    scheduler.advance(1_000);
    await first;
    await settle();
    scheduler.advance(1_000);
    expect(firstText(await second)).toBe("slept 1 s");
    await a.close();
    await b.close();
  });
});

describe("cancellation", () => {
  it("a cancelled call frees its slot for the next one", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler, concurrency: 1 });
    const controller = new AbortController();
    const cancelled = h.client.callTool(sleep(100), undefined, { signal: controller.signal });
    await settle();
    expect(h.ctx.semaphore.active).toBe(1);
    controller.abort("changed my mind");
    await expect(cancelled).rejects.toThrow();
    await settle();
    expect(h.ctx.semaphore.active).toBe(0);
    expect(scheduler.pending).toBe(0);
    const next = h.client.callTool(sleep(1));
    await settle();
    scheduler.advance(1_000);
    expect(firstText(await next)).toBe("slept 1 s");
    await h.close();
  });

  it("a call cancelled while it waits for a slot leaves the queue", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler, concurrency: 1 });
    const running = h.client.callTool(sleep(1));
    const controller = new AbortController();
    const waiting = h.client.callTool(sleep(1), undefined, { signal: controller.signal });
    await settle();
    expect(h.ctx.semaphore.waiting).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    await settle();
    expect(h.ctx.semaphore.waiting).toBe(0);
    scheduler.advance(1_000);
    expect(firstText(await running)).toBe("slept 1 s");
    expect(h.ctx.semaphore.active).toBe(0);
    await h.close();
  });
});

describe("progress and time limits", () => {
  it("sleep reports progress when the request carries a progress token", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler });
    const seen: Progress[] = [];
    const call = h.client.callTool(sleep(3), undefined, { onprogress: (p) => seen.push(p) });
    for (let i = 0; i < 3; i++) {
      await settle();
      scheduler.advance(1_000);
    }
    expect(firstText(await call)).toBe("slept 3 s");
    expect(seen).toEqual([
      { progress: 1, total: 3, message: "1 of 3 s" },
      { progress: 2, total: 3, message: "2 of 3 s" },
      { progress: 3, total: 3, message: "3 of 3 s" },
    ]);
    await h.close();
  });

  it("without a progress token no progress notification is sent", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler });
    const call = h.client.callTool(sleep(2));
    for (let i = 0; i < 2; i++) {
      await settle();
      scheduler.advance(1_000);
    }
    await call;
    expect(h.frames.filter((f) => f.text.includes("notifications/progress"))).toEqual([]);
    await h.close();
  });

  it("the per-call time limit stops a built-in tool, frees the slot and says so", async () => {
    const scheduler = new ManualScheduler();
    const h = await connectHarness({ scheduler, timeoutMs: 500, concurrency: 1 });
    const call = h.client.callTool(sleep(10));
    await settle();
    scheduler.advance(500);
    const result = await call;
    expect(result).toEqual({ content: [{ type: "text", text: "sleep did not finish within 500 ms and was stopped." }], isError: true });
    expect(h.ctx.semaphore.active).toBe(0);
    await h.close();
  });
});

describe("frames", () => {
  it("records every message in and out, in order, as text", async () => {
    const h = await connectHarness();
    await h.client.callTool({ name: "echo", arguments: { message: "framed" } });
    const methods = h.frames.map((f) => `${f.direction} ${(JSON.parse(f.text) as { method?: string }).method ?? "result"}`);
    expect(methods).toEqual(["in initialize", "out result", "in notifications/initialized", "in tools/call", "out result"]);
    expect(h.frames.at(-1)!.text).toContain('"text":"framed"');
    await h.close();
  });
});
