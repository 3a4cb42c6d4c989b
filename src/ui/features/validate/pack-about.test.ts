import { describe, expect, it } from "vitest";
import { shortRevision } from "./pack-about.ts";

describe("shortRevision", () => {
  it("shortens a full commit hash and keeps a tag", () => {
    expect(shortRevision("2ebb8060268e177b22598b403d6ba6764bb899ac")).toBe("2ebb8060268e");
    expect(shortRevision("v0.0.2")).toBe("v0.0.2");
    expect(shortRevision("2ebb806")).toBe("2ebb806");
  });
});
