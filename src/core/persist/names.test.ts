import { describe, expect, it } from "vitest";
import { DocumentError } from "./document-store.ts";
import { assertDocumentKind, assertDocumentName, documentNameProblem, isDocumentKind } from "./names.ts";

describe("document names", () => {
  it.each(["a", "Z9", "local-nats", "my_server.v2", "0", `a${"b".repeat(127)}`])("accepts %j", (name) => {
    expect(documentNameProblem(name)).toBeNull();
  });

  it.each([
    ["", /empty/],
    ["..", /'\.\.'/],
    ["a..b", /'\.\.'/],
    ["../etc/passwd", /separator/],
    ["a/b", /separator/],
    ["a\\b", /separator/],
    ["a\0", /NUL/],
    [".hidden", /start with a letter or digit/],
    ["_x", /start with a letter or digit/],
    ["sp ace", /only letters/],
    ["ünï", /only letters/],
    [`a${"b".repeat(128)}`, /longer than 128/],
    ["name.", /ends with '\.'/],
    ["CON", /reserved/],
    ["con.json", /reserved/],
    ["LPT1", /reserved/],
    ["nul", /reserved/],
  ])("refuses %j", (name, why) => {
    expect(documentNameProblem(name)).toMatch(why);
    expect(() => assertDocumentName(name)).toThrow(DocumentError);
  });

  it("accepts reserved words inside longer names", () => {
    expect(documentNameProblem("console")).toBeNull();
    expect(documentNameProblem("auxiliary")).toBeNull();
  });

  it("the thrown error is invalid_name and quotes the name", () => {
    try {
      assertDocumentName("a/b");
      expect.unreachable();
    } catch (err) {
      expect((err as DocumentError).code).toBe("invalid_name");
      expect((err as DocumentError).message).toContain('"a/b"');
    }
  });
});

describe("document kinds", () => {
  it("knows the shipped kinds and nothing else", () => {
    expect(isDocumentKind("connections")).toBe(true);
    expect(isDocumentKind("settings")).toBe(true);
    expect(isDocumentKind("secrets")).toBe(false);
    expect(isDocumentKind("../connections")).toBe(false);
    expect(() => assertDocumentKind("secrets")).toThrow(/unknown document kind/);
  });
});
