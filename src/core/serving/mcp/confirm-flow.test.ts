import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { APPROVE_SCHEMA, type ConfirmMode } from "../confirm-gate.ts";
import { connectHarness, firstText } from "./test-harness.ts";

const ELICITING = { elicitation: {} };
const call = { name: "confirm", arguments: { action: "wipe the demo disk" } };
const WHAT = 'confirm {"action":"wipe the demo disk"}';

async function run(mode: ConfirmMode, options: { eliciting: boolean; answer?: () => ElicitResult | Promise<ElicitResult>; approvalTimeoutMs?: number }) {
  const h = await connectHarness({
    confirmMode: mode,
    ...(options.eliciting ? { capabilities: ELICITING } : {}),
    ...(options.answer ? { onElicit: options.answer } : {}),
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
  const result = await h.client.callTool(call);
  await h.close();
  return { result, text: firstText(result), asked: h.elicitations, logs: h.logs, slots: h.ctx.semaphore.active };
}

const approve = (): ElicitResult => ({ action: "accept", content: { approve: true } });

describe("confirm-gated tools, mode auto", () => {
  it("asks an eliciting client with the approve schema, and runs on approve: true", async () => {
    const r = await run("auto", { eliciting: true, answer: approve });
    expect(r.result).toEqual({ content: [{ type: "text", text: "done: wipe the demo disk" }], isError: false });
    expect(r.asked).toHaveLength(1);
    const params = r.asked[0]!.params as { message: string; requestedSchema: unknown };
    expect(params.requestedSchema).toEqual(APPROVE_SCHEMA);
    expect(params.message).toContain("Tool: confirm");
    expect(params.message).toContain(`What: ${WHAT}`);
  });

  it("runs for a client that cannot be asked, with a logged warning", async () => {
    const r = await run("auto", { eliciting: false });
    expect(r.text).toBe("done: wipe the demo disk");
    expect(r.asked).toEqual([]);
    expect(r.logs).toContain("warn running confirm without approval: the client cannot be asked (confirm mode auto) {}");
  });

  it.each<[string, () => ElicitResult | Promise<ElicitResult>, string]>([
    ["approve: false", () => ({ action: "accept", content: { approve: false } }), `Not run: the user reviewed ${WHAT} and chose not to run it. That was their decision; do not retry.`],
    ["decline", () => ({ action: "decline" }), `Not run: the user declined ${WHAT}. That was their decision; ask them how to proceed rather than retrying.`],
    ["cancel", () => ({ action: "cancel" }), `Not run: the user dismissed the approval prompt for ${WHAT} without deciding. It may be asked again if still needed.`],
    ["accept without content", () => ({ action: "accept" }), `Not run: asking for approval of ${WHAT} failed: the answer's "approve" was not a boolean.`],
  ])("does not run on %s, and says which case happened", async (_label, answer, text) => {
    const r = await run("auto", { eliciting: true, answer });
    expect(r.result.isError).toBe(true);
    expect(r.text).toBe(text);
    expect(r.slots).toBe(0);
  });

  it("does not run when the client's answer breaks the schema or its handler fails", async () => {
    const bad = await run("auto", { eliciting: true, answer: () => ({ action: "accept", content: { approve: "yes" } }) });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toMatch(new RegExp(`^Not run: asking for approval of ${WHAT.replace(/[{}]/g, "\\$&")} failed: .*does not match requested schema`));
    const thrown = await run("auto", {
      eliciting: true,
      answer: () => {
        throw new Error("the dialog crashed");
      },
    });
    expect(thrown.result.isError).toBe(true);
    expect(thrown.text).toMatch(/^Not run: asking for approval of .* failed: .*the dialog crashed/);
  });

  it("does not run when nobody answers within the approval time", async () => {
    const r = await run("auto", { eliciting: true, answer: () => new Promise<ElicitResult>(() => {}), approvalTimeoutMs: 50 });
    expect(r.result.isError).toBe(true);
    expect(r.text).toMatch(/^Not run: asking for approval of .* failed: .*timed out/i);
  });
});

describe("confirm-gated tools, mode always", () => {
  it("runs for an eliciting client that approves", async () => {
    const r = await run("always", { eliciting: true, answer: approve });
    expect(r.text).toBe("done: wipe the demo disk");
    expect(r.asked).toHaveLength(1);
  });

  it("refuses a client that cannot be asked", async () => {
    const r = await run("always", { eliciting: false });
    expect(r.result.isError).toBe(true);
    expect(r.text).toBe(`Not run: ${WHAT} needs approval, and this client cannot be asked (it does not support elicitation).`);
  });

  it("refuses a declined call", async () => {
    const r = await run("always", { eliciting: true, answer: () => ({ action: "decline" }) });
    expect(r.text).toMatch(/^Not run: the user declined/);
  });
});

describe("confirm-gated tools, mode never", () => {
  it.each([true, false])("runs without asking (eliciting client: %s)", async (eliciting) => {
    const r = await run("never", { eliciting, answer: () => ({ action: "decline" }) });
    expect(r.text).toBe("done: wipe the demo disk");
    expect(r.asked).toEqual([]);
  });
});

describe("approval and slots", () => {
  it("a call waiting for approval holds no slot", async () => {
    let answer!: (result: ElicitResult) => void;
    const h = await connectHarness({ capabilities: ELICITING, concurrency: 1, onElicit: () => new Promise<ElicitResult>((resolve) => (answer = resolve)) });
    const pending = h.client.callTool(call);
    await expect.poll(() => h.elicitations.length).toBe(1);
    expect(h.ctx.semaphore.active).toBe(0);
    expect(firstText(await h.client.callTool({ name: "echo", arguments: { message: "meanwhile" } }))).toBe("meanwhile");
    answer({ action: "accept", content: { approve: true } });
    expect(firstText(await pending)).toBe("done: wipe the demo disk");
    await h.close();
  });
});
