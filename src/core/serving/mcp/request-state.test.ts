import { ProtocolError } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { REQUEST_STATE_TTL_S, requestStateSigner } from "./request-state.ts";

const key = () => globalThis.crypto.getRandomValues(new Uint8Array(32));
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error("expected a refusal"); }, (error: unknown) => error as ProtocolError);

afterEach(() => vi.useRealTimers());

describe("the requestState signer", () => {
  it("gives back the payload it signed, for the call it signed it for", async () => {
    const signer = requestStateSigner(key());
    const state = await signer.mint({ step: 2, name: "ada" }, "tool\0args");
    expect(await signer.verify(state, "tool\0args")).toEqual({ step: 2, name: "ada" });
  });

  it("refuses an altered state, another call's, another launch's, and a non-string, with -32602 saying which", async () => {
    const signer = requestStateSigner(key());
    const state = await signer.mint({ step: 1 }, "a");
    const altered = await refusal(signer.verify(`${state.slice(0, -3)}xyz`, "a"));
    expect(altered).toBeInstanceOf(ProtocolError);
    expect(altered.code).toBe(-32602);
    expect(altered.message).toBe(
      "Invalid requestState: it was altered after this server issued it, or another server (or an earlier launch of this one) issued it. Nothing was run; call again without requestState and inputResponses to start over.",
    );
    expect((await refusal(signer.verify(state, "b"))).message).toMatch(/issued for a different call/);
    expect((await refusal(requestStateSigner(key()).verify(state, "a"))).message).toMatch(/altered after this server issued it/);
    expect((await refusal(signer.verify("hello", "a"))).message).toMatch(/not a requestState this server issues/);
    expect((await refusal(signer.verify(42, "a"))).message).toMatch(/must be the string this server issued/);
  });

  it("refuses a state older than its time to live", async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    const signer = requestStateSigner(key());
    const state = await signer.mint({}, "a");
    vi.setSystemTime(1_800_000_000_000 + (REQUEST_STATE_TTL_S + 1) * 1000);
    expect((await refusal(signer.verify(state, "a"))).message).toMatch(/expired/);
  });

  it("needs a key of at least 32 bytes", () => {
    expect(() => requestStateSigner(new Uint8Array(16))).toThrow(/at least 32 bytes/);
  });
});
