import { describe, expect, it } from "vitest";
import { confirmGate, type ElicitAnswer, type GateRequest } from "./confirm-gate.ts";

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
});
