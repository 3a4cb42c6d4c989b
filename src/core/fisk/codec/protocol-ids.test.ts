import { describe, expect, it } from "vitest";
import { FISK_PROTOCOLS, routeProtocol } from "./protocol-ids.ts";

describe("routeProtocol", () => {
  it("names 32 ids: 30 Gen 2 or shared, and Gen 1's request and event", () => {
    const ids = Object.values(FISK_PROTOCOLS);
    expect(new Set(ids).size).toBe(32);
    for (const id of ids) expect(typeof routeProtocol(id)).toBe("object");
  });

  it("routes any single-segment event kind, flagging the unnamed ones", () => {
    expect(routeProtocol("io.choria.fisk-ai.v1.event.text")).toEqual({ kind: "event.text", generation: "gen2", unknownEvent: false });
    expect(routeProtocol("io.choria.fisk-ai.v1.event.text_delta")).toEqual({ kind: "event.text_delta", generation: "gen2", unknownEvent: true });
  });

  it("refuses prefixes, near misses and other namespaces", () => {
    expect(routeProtocol("io.choria.fisk-ai.v1.event.")).toBe("invalid-event-id");
    expect(routeProtocol("io.choria.fisk-ai.v1.event.text.evil")).toBe("invalid-event-id");
    for (const id of ["io.choria.fisk-ai.v1", "io.choria.fisk-ai.v1.", "io.choria.fisk-ai.v1.elicit.request", "IO.CHORIA.FISK-AI.V1.ACK", " io.choria.fisk-ai.v1.ack"]) {
      expect(routeProtocol(id)).toBe("unknown-protocol");
    }
  });
});
