import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { InitializeRequestSchema, type InitializeRequest, type InitializeResult } from "@modelcontextprotocol/sdk/types.js";
import type { SessionState } from "./session-state.ts";

/** The SDK's own initialize answer, which it keeps private along with the version it agrees. */
interface SdkInitialize {
  _oninitialize(request: InitializeRequest): Promise<InitializeResult>;
}

/**
 * Records the version each initialize agrees in the session, so the session sends only what
 * that version defines. The SDK still answers; an SDK without that method leaves it unknown.
 */
export function trackNegotiatedVersion(server: Server, session: SessionState): void {
  const sdk = server as unknown as Partial<SdkInitialize>;
  if (typeof sdk._oninitialize !== "function") return;
  const initialize = sdk._oninitialize.bind(server);
  server.setRequestHandler(InitializeRequestSchema, async (request) => {
    const result = await initialize(request);
    session.protocolVersion = result.protocolVersion;
    return result;
  });
}
