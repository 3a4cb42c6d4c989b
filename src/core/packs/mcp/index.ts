import type { FamilyModule } from "../../validation/types.ts";
import { CandidateFactory } from "./candidates.ts";
import { MCP_PACKS } from "./packs.ts";
import { McpSession } from "./session.ts";

/** Scored candidate lists are shared by every session: they depend on the packs alone. */
const factory = new CandidateFactory(MCP_PACKS);

/** The MCP family: one schema pack per protocol version, and sessions that follow a conversation. */
export const mcpFamily: FamilyModule = {
  family: "mcp",
  label: "MCP",
  packs: MCP_PACKS,
  createSession: (options) => new McpSession(factory, options),
};

export { MCP_PACKS, packFor } from "./packs.ts";
export { MCP_VERSIONS, type McpVersion } from "./versions.ts";
export { McpSession } from "./session.ts";
