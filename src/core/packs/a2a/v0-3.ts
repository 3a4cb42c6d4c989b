import type { SchemaPack } from "../../validation/types.ts";
import { specSource } from "./pack-kit.ts";
import { v02Definitions, v02Kinds } from "./v0-2-envelopes.ts";

/**
 * A2A v0.3.0: the v0.2 data model plus three transports, card signatures, mutual TLS and
 * `agent/getAuthenticatedExtendedCard`; the card moves to /.well-known/agent-card.json.
 */

const OPTIONS = { v03: true };
const TAG = "v0.3.0";
const COMMIT = "8d57eba286de756176892518a8fc39b0ac2ccefb";

export const A2A_V03: SchemaPack = {
  id: "a2a/v0.3.0",
  family: "a2a",
  version: "0.3.0",
  label: "A2A v0.3.0",
  order: 3,
  draft: "draft-07",
  assertFormats: false,
  document: {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://patchbay.dev/schemas/a2a/v0.3.0.json",
    title: "Patchbay schema for A2A v0.3.0",
    definitions: v02Definitions(OPTIONS),
  },
  sources: [
    specSource(TAG, COMMIT, "specification/json/a2a.json", "A2A v0.3.0 JSON schema (facts only)"),
    specSource(TAG, COMMIT, "docs/specification.md", "A2A v0.3.0 specification"),
  ],
  notes: [
    "Streaming frames have one definition per event (StatusUpdateStreamResponse, ArtifactUpdateStreamResponse) besides upstream's SendStreamingMessageSuccessResponse, which accepts any of the four; each accepts a subset of it.",
    "The specific error definitions (TaskNotFoundError, AuthenticatedExtendedCardNotConfiguredError, ...) are not repeated: upstream's error member accepts any JSONRPCError anyway; the family's notes name the code.",
    "The card's protocolVersion is a plain string as upstream has it; v0.3 cards write \"0.3.0\" (with the patch number), which v1.0 no longer uses.",
    "Formats are annotations (assertFormats false); upstream v0.3 marks none.",
  ],
  kinds: v02Kinds(OPTIONS),
};
