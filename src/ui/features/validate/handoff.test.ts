import { describe, expect, it } from "vitest";
import { openInValidate, takeHandoff, VALIDATE_HASH } from "./handoff.ts";

describe("handoff", () => {
  it("leaves the inputs once and switches the hash", () => {
    const loc = { hash: "#/traffic" };
    expect(takeHandoff()).toBeNull();
    openInValidate({ inputs: [{ name: "frame", text: "{}" }], selectFirst: true }, loc);
    expect(loc.hash).toBe(VALIDATE_HASH);
    expect(takeHandoff()).toEqual({ inputs: [{ name: "frame", text: "{}" }], selectFirst: true });
    expect(takeHandoff()).toBeNull();
  });
});
