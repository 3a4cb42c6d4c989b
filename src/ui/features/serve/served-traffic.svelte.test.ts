import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import type { ServedFrame } from "../../../core/backend/serve-api.ts";
import { ManualScheduler, manualClock, sequentialIds } from "../../../core/env/index.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { drafts, SERVED_CURSORS_DRAFT } from "../../state/drafts.svelte.ts";
import { FakeServeApi, settle } from "./serve-fakes.ts";
import { ServedFrameRecorder } from "./served-frames.ts";
import { FRAME_PAGE, ServedTraffic } from "./served-traffic.svelte.ts";

const frame = (seq: number, extra: Partial<ServedFrame> = {}): ServedFrame => ({ seq, at: seq, direction: "in", text: `{"jsonrpc":"2.0","method":"m${seq}"}`, ...extra });

function setup() {
  const api = new FakeServeApi();
  const log = new WireLog(manualClock());
  const scheduler = new ManualScheduler();
  const source = { mcp: (after: number) => api.mcpFrames(after, FRAME_PAGE), nats: (after: number) => api.natsFrames(after, FRAME_PAGE), a2a: (after: number) => api.a2aFrames(after, FRAME_PAGE) };
  const traffic = new ServedTraffic(source, new ServedFrameRecorder(log, sequentialIds()), scheduler);
  return { api, log, scheduler, traffic };
}

describe("ServedTraffic", () => {
  it("reads nothing until a surface runs, then follows it from the cursor each second", async () => {
    const { api, log, scheduler, traffic } = setup();
    scheduler.advance(5000);
    await settle();
    expect(api.calls).toHaveLength(0);
    api.mcpPages = [{ frames: [frame(1), frame(2)], next: 2, dropped: 0 }];
    traffic.watch("mcp", true);
    await settle();
    expect(log.entries().map((e) => e.target)).toEqual(["served mcp", "served mcp"]);
    api.mcpPages = [{ frames: [frame(3)], next: 3, dropped: 0 }];
    scheduler.advance(1000);
    await settle();
    expect(api.named("mcpFrames").map((a) => a[0])).toEqual([0, 2]);
    expect(traffic.recorded.mcp).toBe(3);
    expect(api.named("natsFrames")).toHaveLength(0);
  });

  it("follows the A2A agent's frames onto the A2A channel while it runs, beside the others", async () => {
    const { api, log, scheduler, traffic } = setup();
    api.a2aPages = [{ frames: [frame(1, { binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", text: '{"jsonrpc":"2.0","id":3,"method":"message/send"}' })], next: 1, dropped: 2 }];
    traffic.watch("a2a", true);
    await settle();
    api.a2aPages = [{ frames: [frame(2, { direction: "out", binding: "jsonrpc", method: "POST", path: "/a2a/jsonrpc", status: 200, text: '{"jsonrpc":"2.0","id":3,"result":{}}' })], next: 2, dropped: 0 }];
    traffic.watch("a2a", false);
    scheduler.advance(1000);
    await settle();
    expect(log.entries().map((e) => [e.channel, e.target, e.correlationId ?? ""])).toEqual([
      ["a2a-http", "served a2a", "id-1"],
      ["a2a-http", "served a2a POST /a2a/jsonrpc", "served-a2a/3"],
      ["a2a-http", "served a2a POST /a2a/jsonrpc", "served-a2a/3"],
    ]);
    expect(api.named("a2aFrames").map((a) => a[0])).toEqual([0, 1]);
    expect([traffic.recorded.a2a, traffic.dropped.a2a, traffic.recorded.mcp]).toEqual([2, 2, 0]);
    expect(traffic.active).toBe(false);
    api.a2aPages = [new BackendError(404, "not_found", "no route GET /api/serve/a2a/frames")];
    traffic.watch("a2a", true);
    await settle();
    expect(traffic.error.a2a).toBe("The backend does not report served A2A traffic (no route GET /api/serve/a2a/frames).");
    traffic.close();
  });

  it("reads once more after a surface stops, then goes quiet", async () => {
    const { api, log, scheduler, traffic } = setup();
    traffic.watch("nats", true);
    await settle();
    api.natsPages = [{ frames: [frame(1, { subject: "_INBOX.1", direction: "out" })], next: 1, dropped: 0 }];
    traffic.watch("nats", false);
    scheduler.advance(1000);
    await settle();
    expect(log.entries().map((e) => e.target)).toEqual(["served nats _INBOX.1"]);
    expect(traffic.active).toBe(false);
    const reads = api.calls.length;
    scheduler.advance(10_000);
    await settle();
    expect(api.calls).toHaveLength(reads);
  });

  it("reads on through full pages in one go, and marks what the backend dropped", async () => {
    const { api, log, traffic } = setup();
    const full = Array.from({ length: FRAME_PAGE }, (_, i) => frame(i + 11));
    api.mcpPages = [{ frames: full, next: 10 + FRAME_PAGE, dropped: 10 }, { frames: [frame(11 + FRAME_PAGE)], next: 11 + FRAME_PAGE, dropped: 0 }];
    traffic.watch("mcp", true);
    await settle();
    expect(api.named("mcpFrames").map((a) => a[0])).toEqual([0, 10 + FRAME_PAGE]);
    expect(traffic.dropped.mcp).toBe(10);
    expect(log.entries()[0]?.note).toBe("10 served MCP frames were not kept by the backend before the console read them");
    expect(log.size).toBe(FRAME_PAGE + 2);
  });

  it("says so in words when the route is missing, and stops asking for it", async () => {
    const { api, scheduler, traffic } = setup();
    api.natsPages = [new BackendError(404, "not_found", "no route GET /api/serve/nats/frames")];
    traffic.watch("nats", true);
    await settle();
    expect(traffic.error.nats).toBe("The backend does not report served NATS traffic (no route GET /api/serve/nats/frames).");
    scheduler.advance(3000);
    await settle();
    expect(api.named("natsFrames")).toHaveLength(1);
  });

  it("keeps trying after a transient failure and clears the error when it recovers", async () => {
    const { api, scheduler, traffic } = setup();
    api.mcpPages = [new BackendError(0, "unreachable", "backend unreachable: offline"), { frames: [frame(1)], next: 1, dropped: 0 }];
    traffic.watch("mcp", true);
    await settle();
    expect(traffic.error.mcp).toBe("Could not read the served MCP traffic: backend unreachable: offline");
    scheduler.advance(1000);
    await settle();
    expect(traffic.error.mcp).toBeNull();
    expect(traffic.recorded.mcp).toBe(1);
    traffic.close();
  });
});

describe("ServedTraffic after a reload", () => {
  it("goes on from where the page read to before the reload, so no frame is recorded twice", async () => {
    drafts.save(SERVED_CURSORS_DRAFT, { mcp: 20, nats: 4 });
    try {
      const { api, traffic } = setup();
      traffic.watch("mcp", true);
      traffic.watch("nats", true);
      await settle();
      expect(api.named("mcpFrames").map((a) => a[0])).toEqual([20]);
      expect(api.named("natsFrames").map((a) => a[0])).toEqual([4]);
    } finally {
      drafts.clear();
    }
  });

  it("a position saved before A2A was served still counts for MCP and NATS; A2A starts from 0", async () => {
    drafts.save(SERVED_CURSORS_DRAFT, { mcp: 9, nats: 3 });
    try {
      const { api, traffic } = setup();
      for (const s of ["mcp", "nats", "a2a"] as const) traffic.watch(s, true);
      await settle();
      expect([api.named("mcpFrames")[0]?.[0], api.named("natsFrames")[0]?.[0], api.named("a2aFrames")[0]?.[0]]).toEqual([9, 3, 0]);
      traffic.close();
    } finally {
      drafts.clear();
    }
  });

  it("a saved position of the wrong shape is ignored", async () => {
    drafts.save(SERVED_CURSORS_DRAFT, { mcp: "20" });
    try {
      const { api, traffic } = setup();
      traffic.watch("mcp", true);
      await settle();
      expect(api.named("mcpFrames").map((a) => a[0])).toEqual([0]);
    } finally {
      drafts.clear();
    }
  });
});
