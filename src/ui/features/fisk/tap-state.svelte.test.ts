import { describe, expect, it } from "vitest";
import type { TapFrame } from "../../../core/fisk/client/index.ts";
import { decodeFiskMessage } from "../../../core/fisk/codec/index.ts";
import { ManualScheduler } from "../../../core/env/index.ts";
import { NOT_CONNECTED } from "./fisk-api.ts";
import { parseSubjects, TAP_CAPACITY, TapState } from "./tap-state.svelte.ts";
import { FakeClient, fakeSource } from "./test-fakes.ts";
import { frameProtocol, verdictWord } from "./tap-view.ts";

const enc = new TextEncoder();

function frame(at: number, subject: string, body: string, correlation?: string): TapFrame {
  const data = enc.encode(body);
  return { at, message: { subject, data }, ...(correlation ? { correlation } : {}), ...(data.length > 0 ? { decoded: decodeFiskMessage(data) } : {}) };
}

const DISCOVERY = JSON.stringify({ protocol: "io.choria.fisk-ai.v1.discovery.request", id: "a", request: "r", conversation: "c", sequence: 0, time: "2026-08-21T09:00:00Z", sender: { name: "x" } });

function setup() {
  const source = fakeSource(new FakeClient());
  const scheduler = new ManualScheduler();
  return { source, scheduler, tap: new TapState(source, scheduler) };
}

describe("TapState", () => {
  it("checks the subject list before subscribing", () => {
    expect(parseSubjects("choria.fisk-ai.>\n_INBOX.>, a.*.b")).toEqual({ subjects: ["choria.fisk-ai.>", "_INBOX.>", "a.*.b"], error: null });
    expect(parseSubjects(" \n").error).toBe("give at least one subject to tap");
    expect(parseSubjects("a..b").error).toBe('"a..b" is not a valid subject or wildcard');
    expect(parseSubjects("a.>.b").error).toBe('"a.>.b" is not a valid subject or wildcard');
  });

  it("needs a connection", () => {
    const { source, tap } = setup();
    source.connected = false;
    tap.start();
    expect(tap.error).toBe(NOT_CONNECTED);
    expect(tap.running).toBe(false);
  });

  it("batches frames into the list, numbers exchanges by inbox, and checks decoded frames", async () => {
    const { source, scheduler, tap } = setup();
    tap.start();
    expect(tap.running).toBe(true);
    source.frames!(frame(100, "choria.fisk-ai.discovery.alpha", DISCOVERY, "_INBOX.1"));
    source.frames!(frame(105, "_INBOX.1", "not json", "_INBOX.1"));
    source.frames!(frame(107, "$SRV.PING", ""));
    expect(tap.rows).toHaveLength(0);
    scheduler.advance(50);
    expect(tap.rows.map((r) => r.exchange)).toEqual([1, 1, 0]);
    expect(tap.rows.map((r) => frameProtocol(r.frame))).toEqual(["discovery.request", "✗ not-json", "(empty)"]);
    await Promise.resolve();
    expect(source.checked).toEqual([DISCOVERY]);
    expect(verdictWord(tap.verdicts.get(0), tap.rows[0]!.frame).text).toBe("valid");
    expect(verdictWord(tap.verdicts.get(1), tap.rows[1]!.frame).text).toBe("—");
    tap.select(0);
    expect(tap.partners.map((r) => r.index)).toEqual([1]);
    tap.stop();
    expect(source.stopped).toBe(1);
    expect(tap.running).toBe(false);
  });

  it("keeps the newest frames past its capacity and says how many left", () => {
    const { source, scheduler, tap } = setup();
    tap.start();
    for (let i = 0; i < TAP_CAPACITY + 5; i++) source.frames!(frame(i, "x.y", ""));
    scheduler.advance(50);
    expect(tap.rows).toHaveLength(TAP_CAPACITY);
    expect(tap.dropped).toBe(5);
    expect(tap.rows[0]!.index).toBe(5);
    tap.clear();
    expect(tap.rows).toEqual([]);
    expect(tap.dropped).toBe(0);
  });

  it("a stop with a reason shows it", () => {
    const { tap } = setup();
    tap.start();
    tap.stop("The tap stopped: the NATS connection is closed.");
    expect(tap.error).toBe("The tap stopped: the NATS connection is closed.");
  });
});
