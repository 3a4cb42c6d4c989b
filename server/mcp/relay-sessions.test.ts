/** Relay sessions nobody reads: closed after a grace period, their server process ended. */
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/core/env/defaults.ts";
import { createRelaySessions, type RelaySessions } from "./relay-sessions.ts";
import type { StdioSpec } from "./session-spec.ts";

const GRACE_MS = 300;
/** A stdio server that says nothing and lives until its stdin closes or it is killed. */
const SILENT: StdioSpec = { transport: "stdio", command: process.execPath, args: ["-e", "process.stdin.resume()"], env: {} };
const sink = { write: () => true, end: () => {}, once: () => undefined };

let registry: RelaySessions | undefined;
afterEach(async () => {
  await registry?.closeAll();
  registry = undefined;
});

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function closedWithin(registry: RelaySessions, id: string, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(20)) {
    if (registry.list().find((s) => s.id === id)?.open !== true) return true;
  }
  return false;
}

describe("relay sessions without a reader", () => {
  it("closes one never read after the grace period, saying why, and its process ends", async () => {
    registry = createRelaySessions({ logger: silentLogger, readerlessGraceMs: GRACE_MS });
    const session = await registry.create(SILENT);
    const pid = session.info().pid;
    expect(alive(pid)).toBe(true);
    expect(await closedWithin(registry, session.id, GRACE_MS * 10)).toBe(true);
    for (const deadline = Date.now() + 5000; !session.events.finished && Date.now() < deadline; ) await sleep(20);
    // The closing line waits in the queue for a late reader, with the reason.
    const lines: string[] = [];
    session.events.claim()!.start({ write: (chunk) => lines.push(chunk) > 0, end: () => {}, once: () => undefined });
    const closed = lines.join("").trim().split("\n").map((l) => JSON.parse(l) as { type: string; reason?: string }).find((e) => e.type === "closed");
    expect(closed?.reason).toMatch(new RegExp(`^no page read this session for ${GRACE_MS / 1000} s: the page that opened it went away \\(process was ended by SIGTERM\\)$`));
    for (const deadline = Date.now() + 5000; alive(pid) && Date.now() < deadline; ) await sleep(20);
    expect(alive(pid)).toBe(false);
  });

  it("keeps one open while it has a reader, and closes it a grace period after the reader leaves", async () => {
    registry = createRelaySessions({ logger: silentLogger, readerlessGraceMs: GRACE_MS });
    const session = await registry.create(SILENT);
    const claim = session.events.claim()!;
    claim.start(sink);
    await sleep(GRACE_MS * 3);
    expect(session.info().open).toBe(true);
    claim.release();
    expect(session.info().open).toBe(true);
    expect(await closedWithin(registry, session.id, GRACE_MS * 10)).toBe(true);
  });

  it("keeps one open when a reader comes back within the grace period (a stream reconnecting)", async () => {
    registry = createRelaySessions({ logger: silentLogger, readerlessGraceMs: GRACE_MS });
    const session = await registry.create(SILENT);
    const first = session.events.claim()!;
    first.start(sink);
    first.release();
    await sleep(GRACE_MS / 3);
    session.events.claim()!.start(sink);
    await sleep(GRACE_MS * 3);
    expect(session.info().open).toBe(true);
  });
});
