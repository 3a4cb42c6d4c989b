import { describe, expect, it } from "vitest";
import { ManualScheduler } from "../../env/scheduler.ts";
import type { OperatorVerdict } from "../confirm-gate.ts";
import { OperatorApprovals, type ApprovalAsk } from "./operator-approvals.ts";

function store(options: { capacity?: number; maxChars?: number; timeoutMs?: number } = {}) {
  const scheduler = new ManualScheduler();
  let clock = 1_000;
  let n = 0;
  const approvals = new OperatorApprovals({ scheduler, now: () => clock, newId: () => `id-${++n}`, timeoutMs: 5_000, ...options });
  return { approvals, scheduler, tick: (ms: number) => ((clock += ms), scheduler.advance(ms)) };
}
const ask = (over: Partial<ApprovalAsk> = {}): ApprovalAsk => ({ surface: "mcp", tool: "confirm", what: 'confirm {"action":"x"}', arguments: { action: "x" }, ...over });

/** Records the verdict once the promise settles. */
function watch(p: Promise<OperatorVerdict>): { verdict?: OperatorVerdict } {
  const seen: { verdict?: OperatorVerdict } = {};
  void p.then((v) => (seen.verdict = v));
  return seen;
}
const flush = () => new Promise<void>((r) => setTimeout(r, 0));

describe("OperatorApprovals", () => {
  it("lists a waiting call with its times, and resolves it once with the decision", async () => {
    const { approvals } = store();
    const first = watch(approvals.ask(ask()));
    const second = watch(approvals.ask(ask({ tool: "other", arguments: { n: 1 } })));
    expect(approvals.list()).toEqual([
      { id: "id-1", surface: "mcp", tool: "confirm", what: 'confirm {"action":"x"}', arguments: { action: "x" }, askedAt: 1_000, expiresAt: 6_000 },
      expect.objectContaining({ id: "id-2", tool: "other" }),
    ]);
    expect(approvals.decide("id-1", true)).toBe(true);
    expect(approvals.decide("id-1", false)).toBe(false);
    expect(approvals.decide("id-2", false)).toBe(true);
    await flush();
    expect(first.verdict).toBe("approved");
    expect(second.verdict).toBe("refused");
    expect(approvals.list()).toEqual([]);
  });

  it("expires an undecided call at its timeout; a late decision finds nothing", async () => {
    const { approvals, scheduler, tick } = store();
    const seen = watch(approvals.ask(ask()));
    tick(4_999);
    await flush();
    expect(seen.verdict).toBeUndefined();
    tick(1);
    await flush();
    expect(seen.verdict).toBe("expired");
    expect(approvals.decide("id-1", true)).toBe(false);
    expect(scheduler.pending).toBe(0);
  });

  it("dismisses every waiting call, and withdraws one whose caller gave up", async () => {
    const { approvals, scheduler } = store();
    const gone = new AbortController();
    const withdrawn = watch(approvals.ask(ask({ signal: gone.signal })));
    const a = watch(approvals.ask(ask()));
    const b = watch(approvals.ask(ask()));
    gone.abort();
    expect(approvals.list().map((p) => p.id)).toEqual(["id-2", "id-3"]);
    expect(approvals.dismissAll()).toBe(2);
    expect(approvals.dismissAll()).toBe(0);
    await flush();
    expect([withdrawn.verdict, a.verdict, b.verdict]).toEqual(["cancelled", "dismissed", "dismissed"]);
    expect(approvals.size).toBe(0);
    expect(scheduler.pending).toBe(0);
    expect(await approvals.ask(ask({ signal: AbortSignal.abort() }))).toBe("cancelled");
    expect(approvals.size).toBe(0);
  });

  it("refuses beyond its count and its size bound, and has room again once calls are decided", async () => {
    const { approvals } = store({ capacity: 2, maxChars: 100 });
    void approvals.ask(ask());
    void approvals.ask(ask());
    expect(await approvals.ask(ask())).toBe("full");
    approvals.decide("id-1", false);
    expect(await approvals.ask(ask({ arguments: { big: "x".repeat(200) } }))).toBe("full");
    const fits = watch(approvals.ask(ask()));
    expect(approvals.size).toBe(2);
    approvals.dismissAll();
    await flush();
    expect(fits.verdict).toBe("dismissed");
  });

  it("never hands out an id that is already waiting", () => {
    const ids = ["same", "same", "other"];
    const approvals = new OperatorApprovals({ scheduler: new ManualScheduler(), now: () => 0, newId: () => ids.shift() ?? "x" });
    void approvals.ask(ask());
    void approvals.ask(ask());
    expect(approvals.list().map((p) => p.id)).toEqual(["same", "other"]);
    expect(approvals.timeoutMs).toBe(120_000);
    expect(approvals.capacity).toBe(100);
  });
});
