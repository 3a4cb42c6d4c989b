import { describe, expect, it } from "vitest";
import { mixedCapture } from "../../../bench/capture.ts";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import { ParsedAhead, splitInput, validateItem } from "../../../src/core/validation/index.ts";

/**
 * A bulk run parses messages a block ahead of validating them. With the real packs, what a
 * session learns (open request ids, the negotiated version) carries across blocks as it does
 * message by message, so every verdict is the one validateItem gives.
 */
describe("parsing ahead on a real capture", () => {
  it("gives the verdicts of validating message by message, across block boundaries", () => {
    const lines = mixedCapture(5000);
    // Lines that are not JSON, and an initialize pair that pins MCP 2025-06-18 for the rest.
    lines.splice(130, 0, '{"jsonrpc":"2.0","id":');
    lines.splice(1000, 0, JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } }));
    lines.splice(1001, 0, JSON.stringify({ jsonrpc: "2.0", id: "init", result: { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "s", version: "1" } } }));
    const split = splitInput("capture.jsonl", lines.join("\n"));
    const engine = createValidationEngine();
    const ahead = new ParsedAhead(split.count, (i) => split.item(i));
    const aheadSession = engine.session();
    const oneByOne = engine.session();
    const statuses = new Map<string, number>();
    const bases = new Set<string>();
    for (let i = 0; i < split.count; i++) {
      const verdict = ahead.validate(aheadSession, i);
      expect(verdict, `message ${i}`).toEqual(validateItem(oneByOne, split.item(i)));
      statuses.set(verdict.status, (statuses.get(verdict.status) ?? 0) + 1);
      if (verdict.versionBasis) bases.add(verdict.versionBasis);
    }
    expect(statuses.get("unparseable")).toBe(1);
    expect(statuses.get("invalid")).toBeGreaterThan(200);
    expect(bases.has("negotiated")).toBe(true);
  });
});
