import { describe, expect, it } from "vitest";
import { capabilitiesOf, providerOf, requirementsIn, securitySchemesOf, signaturesOf, skillsOf, sortedJson } from "./card-facts.ts";

describe("card facts", () => {
  it("reads security schemes and requirements of every dialect", () => {
    expect(securitySchemesOf({ authentication: { schemes: ["bearer"] } })).toEqual([["authentication (v0.1)", "bearer"]]);
    expect(securitySchemesOf({ securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } })).toEqual([["key", "apiKey · X-Key in header"]]);
    expect(securitySchemesOf({ securitySchemes: { b: { httpAuthSecurityScheme: { scheme: "Bearer", description: "tok" } } } })).toEqual([["b", "httpAuth · Bearer — tok"]]);
    expect(requirementsIn({ security: [{ oauth: ["read", "write"] }] })).toEqual(["oauth (read, write)"]);
    expect(requirementsIn({ securityRequirements: [{ schemes: { b: { list: [] }, k: { list: ["x"] } } }] })).toEqual(["b and k (x)"]);
  });

  it("tolerates missing and mistyped members", () => {
    expect(skillsOf({ skills: [{ id: "s" }, "junk", { name: "n", tags: [1, "t"] }] })).toEqual([
      { id: "s", name: "s", description: "", tags: [], examples: [], security: [] },
      { id: "#2", name: "n", description: "", tags: ["t"], examples: [], security: [] },
    ]);
    expect(capabilitiesOf({ capabilities: { streaming: true, extensions: [] } })).toEqual([["streaming", "true"], ["extensions", "none"]]);
    expect(providerOf({ provider: { organization: "Org", url: "http://o" } })).toBe("Org (http://o)");
    expect(providerOf("x")).toBeNull();
  });

  it("decodes a signature's protected header", () => {
    const header = btoa(JSON.stringify({ alg: "ES256", kid: "k1" })).replace(/=+$/, "");
    expect(signaturesOf({ signatures: [{ protected: header, signature: "abcd" }, { protected: "%%%" }] })).toEqual(["#1: alg ES256, kid k1, signature of 4 characters", "#2: protected header not readable, no signature"]);
  });

  it("sorts members at every level", () => {
    expect(sortedJson({ b: 1, a: { d: 1, c: [{ f: 1, e: 2 }] } })).toBe(JSON.stringify({ a: { c: [{ e: 2, f: 1 }], d: 1 }, b: 1 }, null, 2));
  });
});
