import { describe, expect, it } from "vitest";
import { systemScheduler } from "../../env/scheduler.ts";
import { OperatorApprovals } from "./operator-approvals.ts";
import { connectHarness, firstText } from "./test-harness.ts";

const call = { name: "confirm", arguments: { action: "wipe the demo disk" } };
const WHAT = 'confirm {"action":"wipe the demo disk"}';

async function operatorHarness(options: { timeoutMs?: number; withApprovals?: boolean; concurrency?: number } = {}) {
  let n = 0;
  const approvals = new OperatorApprovals({ scheduler: systemScheduler(), now: Date.now, newId: () => `a${++n}`, timeoutMs: options.timeoutMs ?? 60_000 });
  const h = await connectHarness({
    confirmMode: "operator",
    capabilities: { elicitation: {} },
    onElicit: () => ({ action: "accept", content: { approve: true } }),
    ...(options.withApprovals === false ? {} : { approvals }),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
  });
  return { h, approvals };
}

describe("confirm-gated tools, mode operator", () => {
  it("waits for the operator without asking the client or holding a slot, then runs on approval", async () => {
    const { h, approvals } = await operatorHarness({ concurrency: 1 });
    const pending = h.client.callTool(call);
    await expect.poll(() => approvals.size).toBe(1);
    expect(approvals.list()[0]).toMatchObject({ surface: "mcp", tool: "confirm", what: WHAT, arguments: { action: "wipe the demo disk" } });
    expect(h.elicitations).toEqual([]);
    expect(h.ctx.semaphore.active).toBe(0);
    expect(firstText(await h.client.callTool({ name: "echo", arguments: { message: "meanwhile" } }))).toBe("meanwhile");
    expect(approvals.decide(approvals.list()[0]!.id, true)).toBe(true);
    expect(firstText(await pending)).toBe("done: wipe the demo disk");
    await h.close();
  });

  it("does not run when the operator refuses, or nobody decides in time", async () => {
    const { h, approvals } = await operatorHarness();
    const refused = h.client.callTool(call);
    await expect.poll(() => approvals.size).toBe(1);
    approvals.decide(approvals.list()[0]!.id, false);
    const no = await refused;
    expect(no.isError).toBe(true);
    expect(firstText(no)).toBe(`Not run: the Patchbay operator reviewed ${WHAT} and chose not to run it. That was their decision; do not retry.`);
    await h.close();
    const quick = await operatorHarness({ timeoutMs: 50 });
    const late = await quick.h.client.callTool(call);
    expect(firstText(late)).toMatch(/^Not run: the approval prompt for .* was dismissed: the Patchbay operator did not decide in time/);
    expect(quick.approvals.size).toBe(0);
    expect(quick.h.ctx.semaphore.active).toBe(0);
    await quick.h.close();
  });

  it("refuses when there is no operator to ask", async () => {
    const { h } = await operatorHarness({ withApprovals: false });
    const result = await h.client.callTool(call);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe(`Not run: ${WHAT} needs the approval of the Patchbay operator, and there is no operator to ask here.`);
    expect(h.elicitations).toEqual([]);
    await h.close();
  });
});
