import { describe, expect, it } from "vitest";
import { PACK_PATTERNS, unicodeNeutral } from "./pack-patterns.ts";

describe("unicodeNeutral", () => {
  it("takes ASCII classes, anchors, quantifiers and escaped metacharacters", () => {
    for (const p of ["^[a-zA-Z0-9_-]+$", "^-?[0-9]+$", "^[A-Za-z0-9+/]*={0,2}$", "^io\\.choria\\.fisk-ai\\.v1\\.tool\\.(request|reply)$", "^\\d{4}-\\d{2}$", "^\\w+\\s?$"]) {
      expect(unicodeNeutral(p), p).toBe(true);
    }
  });

  it("keeps the u flag where the meaning could change: a dot, a negated class, \\p, \\u{}, \\S, non-ASCII", () => {
    for (const p of ["^.+$", "^io\\.choria\\.fisk-ai\\.v1\\.event\\.[^.]+$", "^\\p{L}+$", "^\\u{1F600}$", "^\\S+$", "^\\W$", "^é+$", "^[\\uD800-\\uDFFF]$"]) {
      expect(unicodeNeutral(p), p).toBe(false);
    }
  });

  it("matches as the u-flag expression does on astral and plain strings", () => {
    const samples = ["abc", "a-b_c9", "😀", "a😀", "", "é", "12", "-12"];
    for (const p of ["^[a-zA-Z0-9_-]+$", "^-?[0-9]+$", "^.$", "^[^.]{1,2}$"]) {
      const ours = PACK_PATTERNS(p, "u");
      const theirs = new RegExp(p, "u");
      for (const s of samples) expect(ours.test(s), `${p} on ${s}`).toBe(theirs.test(s));
    }
  });
});
