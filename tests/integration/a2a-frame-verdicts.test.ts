/**
 * What the workbench shows next to each frame, against real peers: every request body and every
 * answer frame of every dialect and binding, planned as the workbench plans it and judged by the
 * project's engine. A conformant peer's frames must all pass; frames no pack describes must be
 * reported as not checked, never as valid.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRequest, exchange, type Binding, type Dialect, type ExchangePorts, type Operation, type PartDraft } from "../../src/core/a2a/index.ts";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import { answerPlan, readingOf, requestPlan, type Plan } from "../../src/ui/features/a2a/frame-plan.ts";
import { startLegacyAgent, startSdkAgent, type LegacyAgent, type SdkAgent } from "../helpers/a2a-peers/index.ts";

const engine = createValidationEngine();
const ports: ExchangePorts = { fetch: (url, init) => fetch(url, init), now: () => performance.now() };

interface Tally {
  readonly checked: string[];
  readonly failed: string[];
  readonly notChecked: string[];
}

function judge(tally: Tally, where: string, text: string, plan: Plan | undefined): void {
  if (plan === undefined) return;
  if (!plan.check) {
    tally.notChecked.push(`${where}: ${plan.reason}`);
    return;
  }
  const verdict = engine.session().validateText(text, plan.override);
  const line = `${where}: ${verdict.status} ${verdict.packLabel ?? ""} ${verdict.kindLabel ?? ""}`;
  tally.checked.push(line);
  if (verdict.status !== "valid" && verdict.status !== "error-response") tally.failed.push(`${line} ${JSON.stringify(verdict.issues[0])} in ${text.slice(0, 300)}`);
}

/** The operations driven on each interface, with the text that picks the peer's behaviour. */
const SCRIPT: readonly (readonly [Operation, string])[] = [
  ["send", "echo hi"],
  ["stream", "chunks 3"],
  ["get", ""],
  ["push-set", ""],
  ["push-list", ""],
  ["cancel", ""],
  ["subscribe", ""],
  ["stream", "ask"],
  ["send", "message hi"],
  ["send", "fail"],
  ["extended-card", ""],
  ["list", ""],
];

async function drive(url: string, dialect: Dialect, binding: Binding, headers: Record<string, string>): Promise<Tally> {
  const tally: Tally = { checked: [], failed: [], notChecked: [] };
  let taskId = "";
  for (const [op, text] of SCRIPT) {
    const target = { url, dialect, binding };
    const parts: PartDraft[] = [{ kind: "text", text }];
    // v0.1 clients name their tasks; a new one for each message.
    const id = dialect === "0.1" && (op === "send" || op === "stream") ? randomUUID() : taskId;
    let spec;
    try {
      spec = buildRequest(target, op, { message: { messageId: randomUUID(), parts }, taskId: id, pushUrl: "http://127.0.0.1:9/hook" }, { headers });
    } catch {
      continue; // the dialect has no such operation on this binding
    }
    const result = await exchange(ports, spec, { dialect, binding });
    const reading = readingOf(spec, dialect, binding);
    judge(tally, `${op} request`, spec.body ?? "", requestPlan(reading, spec.body));
    result.frames.forEach((f, i) => judge(tally, `${op} "${text}" frame ${i}`, f.text, answerPlan(reading, f.text, f.status)));
    const first = result.frames[0]?.event;
    if (op === "send" && text === "echo hi" && first?.kind === "task") taskId = first.taskId;
  }
  return tally;
}

describe("frame verdicts against real peers", () => {
  let sdk: SdkAgent;
  let v01: LegacyAgent;
  let v02: LegacyAgent;
  beforeAll(async () => {
    [sdk, v01, v02] = await Promise.all([startSdkAgent(), startLegacyAgent({ dialect: "0.1" }), startLegacyAgent({ dialect: "0.2" })]);
  });
  afterAll(() => Promise.all([sdk?.close(), v01?.close(), v02?.close()]));

  const auth = () => ({ Authorization: `Bearer ${sdk.token}` });

  it("@a2a-js/sdk v1.0 over JSON-RPC: every request and frame valid", async () => {
    const tally = await drive(sdk.jsonRpcUrl, "1.0", "jsonrpc", auth());
    expect(tally.failed).toEqual([]);
    expect(tally.notChecked).toEqual([]);
    expect(tally.checked.length).toBeGreaterThan(20);
  });

  it("@a2a-js/sdk v0.3 over JSON-RPC: every request and frame valid", async () => {
    const tally = await drive(sdk.jsonRpcUrl, "0.3", "jsonrpc", auth());
    expect(tally.failed).toEqual([]);
    expect(tally.notChecked).toEqual([]);
    expect(tally.checked.length).toBeGreaterThan(15);
  });

  it("@a2a-js/sdk v1.0 over HTTP+JSON: stream events, tasks and the card valid; bodies without a kind said so", async () => {
    const tally = await drive(sdk.restUrl, "1.0", "rest", auth());
    expect(tally.failed).toEqual([]);
    expect(tally.checked.filter((c) => c.includes("StreamResponse")).length).toBeGreaterThan(5);
    expect(tally.checked.some((c) => c.startsWith("get ") && c.includes("valid A2A v1.0 Task"))).toBe(true);
    expect(tally.checked.some((c) => c.startsWith("extended-card ") && c.includes("Agent Card"))).toBe(true);
    expect(tally.notChecked.some((n) => n.includes("SendMessageResponse"))).toBe(true);
  });

  it("@a2a-js/sdk v0.3 over HTTP+JSON: proto JSON, which no pack describes, is never judged", async () => {
    const tally = await drive(sdk.restUrl, "0.3", "rest", auth());
    expect(tally.checked).toEqual([]);
    expect(tally.notChecked.length).toBeGreaterThan(10);
    expect(new Set(tally.notChecked.map((n) => n.replace(/^.*?: /, "")))).toEqual(new Set(["no schema for A2A v0.3 HTTP+JSON bodies (proto JSON); the v0.3 pack has the JSON-RPC shapes only"]));
  });

  it("the legacy v0.1 and v0.2 peers: every request and frame valid", async () => {
    for (const [peer, dialect] of [[v01, "0.1"], [v02, "0.2"]] as const) {
      const tally = await drive(`${peer.baseUrl}/`, dialect, "jsonrpc", {});
      expect(tally.failed, dialect).toEqual([]);
      expect(tally.notChecked, dialect).toEqual([]);
      expect(tally.checked.filter((c) => c.includes("stream")).length, dialect).toBeGreaterThan(5);
    }
  });
});
