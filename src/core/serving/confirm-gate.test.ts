import { describe, expect, it } from "vitest";
import { CONFIRM_MODES, confirmGate, type ElicitAnswer, type GateRequest, type OperatorVerdict } from "./confirm-gate.ts";

function request(over: Partial<GateRequest> & { answer?: ElicitAnswer | Error } = {}): GateRequest & { asked: string[]; warned: string[] } {
  const asked: string[] = [];
  const warned: string[] = [];
  return {
    mode: "auto",
    serverName: "demo",
    toolName: "confirm",
    what: '"confirm" with {"action":"x"}',
    canElicit: true,
    elicit: async (message) => {
      asked.push(message);
      if (over.answer instanceof Error) throw over.answer;
      return over.answer ?? { action: "accept", content: { approve: true } };
    },
    warn: (m) => warned.push(m),
    ...over,
    asked,
    warned,
  };
}
const text = (d: Awaited<ReturnType<typeof confirmGate>>) => (d.run ? "RUN" : d.result.content[0]?.text);

describe("confirmGate", () => {
  it("runs only on an explicit accept with approve true", async () => {
    const r = request();
    expect(await confirmGate(r)).toEqual({ run: true });
    expect(r.asked[0]).toContain("Tool: confirm");
  });

  it("names each way a call is not approved", async () => {
    expect(text(await confirmGate(request({ answer: { action: "accept", content: { approve: false } } })))).toContain("chose not to run it");
    expect(text(await confirmGate(request({ answer: { action: "accept", content: { approve: "yes" } } })))).toContain("failed");
    expect(text(await confirmGate(request({ answer: { action: "accept" } })))).toContain("failed");
    expect(text(await confirmGate(request({ answer: { action: "decline" } })))).toContain("declined");
    expect(text(await confirmGate(request({ answer: { action: "cancel" } })))).toContain("dismissed");
    expect(text(await confirmGate(request({ answer: { action: "weird" } })))).toContain("dismissed");
    expect(text(await confirmGate(request({ answer: new Error("timed out") })))).toContain("failed: timed out");
  });

  it("follows the mode for clients that cannot elicit", async () => {
    const auto = request({ canElicit: false });
    expect(await confirmGate(auto)).toEqual({ run: true });
    expect(auto.warned).toHaveLength(1);
    expect(text(await confirmGate(request({ canElicit: false, mode: "always" })))).toContain("cannot be asked");
    const never = request({ mode: "never" });
    expect(await confirmGate(never)).toEqual({ run: true });
    expect(never.asked).toEqual([]);
  });

  it("in operator mode asks the operator, never the client, and runs only on approval", async () => {
    const r = request({ mode: "operator", askOperator: async () => "approved" });
    expect(await confirmGate(r)).toEqual({ run: true });
    expect(r.asked).toEqual([]);
    expect(CONFIRM_MODES).toContain("operator");
  });

  it.each<[OperatorVerdict, string]>([
    ["refused", "the Patchbay operator reviewed \"confirm\" with {\"action\":\"x\"} and chose not to run it"],
    ["expired", "was dismissed: the Patchbay operator did not decide in time"],
    ["dismissed", "was dismissed: serving stopped before the Patchbay operator decided"],
    ["full", "too many calls are already waiting for it"],
    ["cancelled", "was cancelled while it waited"],
  ])("in operator mode refuses a %s verdict with its own sentence", async (verdict, fragment) => {
    const r = request({ mode: "operator", askOperator: async () => verdict });
    const decision = await confirmGate(r);
    expect(decision.run).toBe(false);
    expect(text(decision)).toContain(fragment);
    expect(text(decision)).toMatch(/^Not run: /);
  });

  it("in operator mode refuses where there is no operator, or asking fails", async () => {
    expect(text(await confirmGate(request({ mode: "operator", canElicit: true })))).toContain("there is no operator to ask here");
    const failing = request({
      mode: "operator",
      askOperator: async () => {
        throw new Error("queue closed");
      },
    });
    expect(text(await confirmGate(failing))).toContain("failed: queue closed.");
  });
});
