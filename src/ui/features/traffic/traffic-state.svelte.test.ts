import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { manualClock } from "../../../core/env/index.ts";
import { WireLog, wireJsonlLines, type WireFrameInput } from "../../../core/wire/index.ts";
import { splitInput, splitItems } from "../../../core/validation/batch-input.ts";
import { takeHandoff } from "../validate/handoff.ts";
import { TrafficState } from "./traffic-state.svelte.ts";

const enc = new TextEncoder();

function frame(target: string, extra: Partial<WireFrameInput> = {}): WireFrameInput {
  return { channel: "nats", direction: "out", target, bytes: enc.encode(`{"method":"m/${target}"}`), ...extra };
}

async function setup() {
  // The state reads only the injected clock; timers are faked separately and kept in step.
  const clock = manualClock();
  const advance = (ms: number): void => {
    clock.advance(ms);
    vi.advanceTimersByTime(ms);
  };
  const log = new WireLog(clock, 100);
  log.record(frame("alpha"));
  log.record(frame("beta", { channel: "mcp" }));
  log.record(frame("gamma", { channel: "a2a-http", status: 500 }));
  const traffic = new TrafficState(log, clock);
  const stop = traffic.connect();
  await Promise.resolve(); // the log publishes its snapshot in a microtask
  return { log, traffic, stop, advance };
}

const targets = (t: TrafficState) => t.filtered.map((e) => e.target);

describe("TrafficState", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("filters by channel and status at once", async () => {
    const { traffic, stop } = await setup();
    expect(targets(traffic)).toEqual(["alpha", "beta", "gamma"]);
    traffic.toggleChannel("nats");
    expect(targets(traffic)).toEqual(["beta", "gamma"]);
    traffic.status = "error";
    expect(targets(traffic)).toEqual(["gamma"]);
    expect(traffic.statuses).toEqual([500]);
    stop();
  });

  it("applies typed text only after 150 ms without typing", async () => {
    const { traffic, stop } = await setup();
    traffic.setSearch("bet");
    vi.advanceTimersByTime(100);
    traffic.setSearch("beta");
    vi.advanceTimersByTime(149);
    expect(targets(traffic)).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(targets(traffic)).toEqual(["beta"]);
    traffic.setMethod("M/AL");
    traffic.setSearch("");
    vi.advanceTimersByTime(150);
    expect(targets(traffic)).toEqual(["alpha"]);
    stop();
  });

  it("follows live frames, throttled, and stops following when disconnected", async () => {
    const { log, traffic, stop, advance } = await setup();
    advance(1000);
    log.record(frame("delta"));
    await Promise.resolve();
    expect(targets(traffic)).toContain("delta"); // first change after a quiet spell shows at once
    log.record(frame("epsilon"));
    await Promise.resolve();
    expect(targets(traffic)).not.toContain("epsilon");
    advance(100);
    expect(targets(traffic)).toContain("epsilon");
    stop();
    advance(1000);
    log.record(frame("zeta"));
    await Promise.resolve();
    advance(1000);
    expect(targets(traffic)).not.toContain("zeta");
  });

  it("keeps the selection by identity across filters", async () => {
    const { traffic, stop } = await setup();
    traffic.select(1);
    expect(traffic.selected?.target).toBe("beta");
    traffic.toggleChannel("nats");
    expect(traffic.selectedIndex).toBe(0);
    traffic.toggleChannel("mcp");
    expect(traffic.selectedIndex).toBe(-1);
    expect(traffic.selected?.target).toBe("beta");
    traffic.clear();
    expect(traffic.selected).toBeNull();
    expect(traffic.snapshot.entries).toEqual([]);
    stop();
  });

  it("imports a file in place of the log and reports what happened", async () => {
    const { log, traffic, stop } = await setup();
    const source = new WireLog(manualClock(), 10);
    for (let i = 0; i < 5; i++) source.record(frame(`imported-${i}`));
    const text = Array.from(wireJsonlLines(source.entries(), { capacity: 10, dropped: 0, exportedAt: 0 })).join("");
    const lines = text.split("\n");
    lines.splice(2, 0, "{oops");
    const file = new File([lines.join("\n")], "capture.jsonl");
    await traffic.importFile(file);
    const report = traffic.report;
    expect(report?.kind).toBe("done");
    if (report?.kind !== "done") return;
    expect(report).toMatchObject({ fileName: "capture.jsonl", imported: 5, replaced: 3, overflow: 0 });
    expect(report.problems.map((p) => p.line)).toEqual([1, 3]);
    await Promise.resolve();
    vi.advanceTimersByTime(100);
    expect(targets(traffic)).toEqual(["imported-0", "imported-1", "imported-2", "imported-3", "imported-4"]);
    expect(log.snapshot.entries).toHaveLength(5);
    stop();
  });

  it("reports a file that is not a wire log and leaves the log alone", async () => {
    const { log, traffic, stop } = await setup();
    await traffic.importFile(new File(['{"format":"other"}\n'], "nope.jsonl"));
    expect(traffic.report).toMatchObject({ kind: "failed", fileName: "nope.jsonl", message: expect.stringMatching(/not a Patchbay wire log/) as unknown as string });
    expect(log.entries().map((e) => e.target)).toEqual(["alpha", "beta", "gamma"]);
    expect(traffic.importing).toBe(false);
    stop();
  });

  it("hands the selected frame, or the whole log, to the Validate workbench as a traffic export", async () => {
    vi.stubGlobal("location", { hash: "#/traffic" });
    const { traffic, stop } = await setup();
    const messages = async () => {
      const handoff = takeHandoff();
      const input = handoff?.inputs[0];
      if (!input || !("blob" in input)) throw new Error("expected one blob input");
      const split = splitInput(input.name, await input.blob.text());
      return { selectFirst: handoff.selectFirst, format: split.format, items: splitItems(split).map((i) => [i.source, i.label, i.text]) };
    };
    traffic.select(1);
    traffic.validateSelected();
    expect(location.hash).toBe("#/validate");
    expect(await messages()).toEqual({ selectFirst: true, format: "wirelog", items: [["Traffic", "frame #2 mcp out beta", '{"method":"m/beta"}']] });
    traffic.validateAll();
    const all = await messages();
    expect(all.selectFirst).toBe(false);
    expect(all.items.map((i) => i[1])).toEqual(["frame #1 nats out alpha", "frame #2 mcp out beta", "frame #3 a2a-http out gamma"]);
    vi.unstubAllGlobals();
    stop();
  });
});
