import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ClientCapabilities, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { sinkLogger } from "../../env/defaults.ts";
import { systemScheduler } from "../../env/scheduler.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { trackNegotiatedVersion } from "./negotiated-version.ts";
import { createServingContext } from "./serving-context.ts";
import { SessionState } from "./session-state.ts";
import { listTools } from "./tool-listing.ts";
import { canElicitForm } from "./toolkit-call.ts";

/** A server whose session tracks the version, initialized by a bare client asking for `version`. */
async function initialized(version: string, capabilities: ClientCapabilities = {}) {
  const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
  const session = new SessionState();
  trackNegotiatedVersion(server, session);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const answers: JSONRPCMessage[] = [];
  clientSide.onmessage = (m) => answers.push(m);
  await clientSide.start();
  await clientSide.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities, clientInfo: { name: "c", version: "1" } } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { server, session, answers };
}

describe("the session's negotiated version", () => {
  it("is the version initialize agreed, while the SDK still answers initialize", async () => {
    const { session, answers } = await initialized("2025-03-26");
    expect(session.protocolVersion).toBe("2025-03-26");
    expect(answers[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-03-26", serverInfo: { name: "s" } } });
    expect([session.speaks("2025-03-26"), session.speaks("2025-06-18")]).toEqual([true, false]);
    // Before initialize nothing is known, and the newest rules apply.
    expect(new SessionState().speaks("2025-11-25")).toBe(true);
  });

  it("offers each fixture tool only to sessions whose version can carry its answers", async () => {
    const ctx = createServingContext({ toolkit: DEMO_TOOLKIT, fixtures: true, scheduler: systemScheduler(), logger: sinkLogger(() => {}) });
    const names = (version: string) => {
      const session = new SessionState();
      session.protocolVersion = version;
      return listTools(ctx, session).map((t) => t.name);
    };
    const gated = ["test_audio_content", "test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"];
    expect(gated.filter((n) => names("2024-11-05").includes(n))).toEqual([]);
    expect(gated.filter((n) => names("2025-03-26").includes(n))).toEqual(["test_audio_content"]);
    expect(gated.filter((n) => names("2025-06-18").includes(n))).toEqual(["test_audio_content", "test_elicitation", "test_elicitation_sep1034_defaults"]);
    expect(gated.filter((n) => names("2025-11-25").includes(n))).toEqual(gated);
  });

  it("asks a client by form only where the version has elicitation; an empty capability means form mode", async () => {
    expect(canElicitForm(...(await pair("2025-06-18", { elicitation: {} })))).toBe(true);
    expect(canElicitForm(...(await pair("2025-11-25", { elicitation: { form: {} } })))).toBe(true);
    expect(canElicitForm(...(await pair("2025-11-25", { elicitation: { url: {} } })))).toBe(false);
    expect(canElicitForm(...(await pair("2025-03-26", { elicitation: { form: {} } })))).toBe(false);
    expect(canElicitForm(...(await pair("2025-11-25", {})))).toBe(false);
  });
});

async function pair(version: string, capabilities: ClientCapabilities): Promise<[Server, SessionState]> {
  const { server, session } = await initialized(version, capabilities);
  return [server, session];
}
