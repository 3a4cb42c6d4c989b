import { describe, expect, it } from "vitest";
import { envelopeMeta, envelopeVersion, withEnvelope } from "./envelope.ts";
import { describeProbeAnswer, eraOfVersion, eraReason, isEraSetting } from "./era.ts";

describe("eras", () => {
  it("puts 2026-07-28 and later in the modern era, everything before in the legacy one", () => {
    expect(eraOfVersion("2026-07-28")).toBe("modern");
    expect(eraOfVersion("2027-01-01")).toBe("modern");
    expect(eraOfVersion("2025-11-25")).toBe("legacy");
    expect(eraOfVersion("2024-11-05")).toBe("legacy");
    expect([isEraSetting("auto"), isEraSetting("legacy"), isEraSetting("modern"), isEraSetting("Auto"), isEraSetting(undefined)]).toEqual([true, true, true, false, false]);
  });

  it("says why a connection landed on its era, from what server/discover answered", () => {
    const modern = { kind: "result", result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: {} } } as const;
    expect(eraReason("auto", "modern", modern)).toBe("modern: server/discover answered with 2026-07-28");
    expect(eraReason("auto", "legacy", { kind: "error", code: -32601, message: "Method not found" })).toBe("legacy: server/discover answered -32601 (Method not found)");
    expect(eraReason("auto", "legacy", { kind: "error", code: -32099, message: "bad session", status: 400 })).toBe("legacy: server/discover answered HTTP 400, -32099 (bad session)");
    expect(eraReason("auto", "legacy", { kind: "no-answer" })).toBe("legacy: server/discover got no answer");
    expect(eraReason("auto", "legacy", { kind: "result", result: { supportedVersions: ["2025-11-25"] } })).toBe("legacy: server/discover answered with 2025-11-25");
    expect(eraReason("modern", "modern", modern)).toBe("modern: chosen for this server; server/discover answered with 2026-07-28");
    expect(eraReason("legacy", "legacy", undefined)).toBe("legacy: chosen for this server (initialize, no server/discover probe)");
  });

  it("describes answers that are no DiscoverResult, and keeps a long error message short", () => {
    expect(describeProbeAnswer({ kind: "result", result: { tools: [] } })).toBe("answered with a result that is not a DiscoverResult (no supportedVersions)");
    expect(describeProbeAnswer({ kind: "result", result: { supportedVersions: [] } })).toBe("answered with an empty supportedVersions list");
    expect(describeProbeAnswer({ kind: "error", code: -32000, message: "x".repeat(500) })).toHaveLength("answered -32000 ()".length + 121);
  });
});

describe("the _meta envelope", () => {
  const envelope = { protocolVersion: "2026-07-28", clientInfo: { name: "patchbay", version: "1" }, clientCapabilities: { elicitation: {} } };

  it("adds the reserved keys, and the log level only when one is asked for", () => {
    expect(envelopeMeta(envelope)).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "patchbay", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    });
    expect(envelopeMeta({ ...envelope, logLevel: "debug" })["io.modelcontextprotocol/logLevel"]).toBe("debug");
  });

  it("keeps the params and lets the caller's own _meta keys win", () => {
    const params = withEnvelope({ name: "x", _meta: { progressToken: 7, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } }, envelope);
    expect(params.name).toBe("x");
    expect(params._meta).toMatchObject({ progressToken: 7, "io.modelcontextprotocol/protocolVersion": "1999-01-01", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } });
    expect(withEnvelope(undefined, envelope)).toEqual({ _meta: envelopeMeta(envelope) });
    expect(withEnvelope({ _meta: "not an object" }, envelope)._meta).toEqual(envelopeMeta(envelope));
  });

  it("reads the version a message claims", () => {
    expect(envelopeVersion({ method: "tools/list", params: withEnvelope({}, envelope) })).toBe("2026-07-28");
    expect(envelopeVersion({ method: "tools/list", params: {} })).toBeUndefined();
    expect(envelopeVersion({ method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": 5 } } })).toBeUndefined();
    expect(envelopeVersion([])).toBeUndefined();
  });
});
