import { describe, expect, it } from "vitest";
import type { Verdict } from "../../../core/validation/types.ts";
import { checkDetail, checkWord, MessageChecks, skipReason } from "./message-checks.svelte.ts";
import { entry, VALID } from "./test-fakes.ts";

const INVALID: Verdict = {
  ...VALID,
  status: "invalid",
  kindLabel: "tool.reply",
  issues: [
    { pointer: "/exit_code", message: "exit_code must be an integer", severity: "error", source: "schema" },
    { pointer: "", message: "second", severity: "warning", source: "rule" },
  ],
};

/** A validator whose answers the test releases one by one. */
function gated() {
  const asked: { text: string; answer: (v: Verdict | Error) => void }[] = [];
  const validate = (text: string) =>
    new Promise<Verdict>((resolve, reject) => asked.push({ text, answer: (v) => (v instanceof Error ? reject(v) : resolve(v)) }));
  return { asked, validate };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("checkWord and checkDetail", () => {
  it("name the status, and the first issue with how many more", () => {
    expect(checkWord(VALID)).toEqual({ text: "valid", tone: "ok" });
    expect(checkWord({ ...VALID, status: "error-response" })).toEqual({ text: "error-response", tone: "warn" });
    expect(checkWord(INVALID)).toEqual({ text: "invalid", tone: "bad" });
    expect(checkWord("checking").text).toBe("checking…");
    expect(checkWord({ failed: "worker gone" }).text).toBe("not checked");
    expect(checkDetail(INVALID)).toBe("fisk-ai Gen 2 · tool.reply: /exit_code — exit_code must be an integer (and 1 more)");
    expect(checkDetail(VALID)).toBe("fisk-ai Gen 2: no problems.");
    const judged: Verdict = { ...INVALID, family: "fisk-ai", packId: "fisk-ai/gen2", version: "gen2", kindId: "tool.reply", versionBasis: "declared", validIn: [] };
    expect(checkDetail(judged)).toBe("tool.reply, fisk-ai Gen 2 (the version the message declares): /exit_code — exit_code must be an integer (and 1 more)");
    expect(checkDetail({ failed: "worker gone" })).toBe("Could not be checked: worker gone");
  });

  it("skips NATS statuses and empty bodies", () => {
    const empty = { message: { subject: "_INBOX.a", data: new Uint8Array() } };
    expect(skipReason(empty)).toBe("an empty body: nothing to check");
    expect(skipReason({ message: { ...empty.message, status: { code: 503, description: "" } } })).toMatch(/NATS status \(503\)/);
    expect(skipReason(entry("ack", {}, "ack"))).toBeNull();
  });
});

describe("MessageChecks", () => {
  it("checks every entry once, foreign ones too, and keeps each verdict under its entry", async () => {
    const { asked, validate } = gated();
    const checks = new MessageChecks(validate);
    const ack = entry("ack", { sequence: 1 }, "ack");
    const foreign = entry("tool.reply", { request: "other" }, "foreign");
    checks.entries([ack]);
    checks.entries([ack, foreign]);
    expect(asked.map((a) => JSON.parse(a.text).protocol)).toEqual(["io.choria.fisk-ai.v1.ack", "io.choria.fisk-ai.v1.tool.reply"]);
    expect(checks.get(ack)).toBe("checking");
    asked[0]?.answer(VALID);
    asked[1]?.answer(INVALID);
    await settle();
    expect(checks.get(ack)).toBe(VALID);
    expect(checks.get(foreign)).toBe(INVALID);
  });

  it("records a worker failure, and drops answers that land after a reset", async () => {
    const { asked, validate } = gated();
    const checks = new MessageChecks(validate);
    const a = entry("ack", {}, "ack");
    const b = entry("tool.reply", {}, "terminal");
    checks.entries([a, b]);
    asked[0]?.answer(new Error("The validation worker stopped"));
    await settle();
    expect(checks.get(a)).toEqual({ failed: "The validation worker stopped" });
    checks.reset();
    asked[1]?.answer(VALID);
    await settle();
    expect(checks.get(b)).toBeUndefined();
  });

  it("a validator that throws at once is a failure, not an exception", async () => {
    const checks = new MessageChecks(() => {
      throw new Error("no worker");
    });
    const key = {};
    checks.text(key, "{}");
    await settle();
    expect(checks.get(key)).toEqual({ failed: "no worker" });
  });
});
