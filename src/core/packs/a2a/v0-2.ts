import type { SchemaPack } from "../../validation/types.ts";
import { specSource } from "./pack-kit.ts";
import { v02Definitions, v02Kinds } from "./v0-2-envelopes.ts";

/**
 * A2A v0.2.x (`message/send`, `kind` discriminators, server-generated ids), written to the
 * v0.2.6 facts. Where earlier 0.2 releases differ, the notes say how.
 */

const OPTIONS = { v03: false };

export const A2A_V02: SchemaPack = {
  id: "a2a/v0.2",
  family: "a2a",
  version: "0.2.6",
  label: "A2A v0.2.x",
  order: 2,
  draft: "draft-07",
  assertFormats: false,
  document: {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://patchbay.dev/schemas/a2a/v0.2.json",
    title: "Patchbay schema for A2A v0.2.x (v0.2.6 facts)",
    definitions: v02Definitions(OPTIONS),
  },
  sources: [
    specSource("v0.2.6", "026200b38247d37ee3364cdb1fc19de4f95e9e05", "specification/json/a2a.json", "A2A v0.2.6 JSON schema (facts only)"),
    specSource("v0.2.5", "22b52705a169123aa06cdf28261e12150ee5777f", "specification/json/a2a.json", "A2A v0.2.5 JSON schema (differences)"),
    specSource("v0.2.4", "f328234d37179c62ebf1c3418b8382592bd69ffe", "specification/json/a2a.json", "A2A v0.2.4 JSON schema (card before protocolVersion)"),
    specSource("v0.2.0", "3eda07ed4eadc76dffcd1d4e69c1c41b6a21d5f2", "specification/json/a2a.json", "A2A v0.2.0 JSON schema (differences)"),
    specSource("v0.2.6", "026200b38247d37ee3364cdb1fc19de4f95e9e05", "docs/specification.md", "A2A v0.2.6 specification"),
  ],
  notes: [
    "Written to the v0.2.6 facts. The Agent Card has two kinds: AgentCard (v0.2.5+, protocolVersion required) and AgentCardBefore025 (v0.2.0–v0.2.4, which have no protocolVersion); recognition picks one from the card's markers.",
    "v0.2.0–v0.2.5 required configuration.acceptedOutputModes in message/send and message/stream; v0.2.6 dropped that requirement, and so does this pack.",
    "tasks/pushNotificationConfig/list and /delete, GetTaskPushNotificationConfigParams (pushNotificationConfigId) and the card's protocolVersion arrived in v0.2.5; AgentInterface, additionalInterfaces and preferredTransport in v0.2.4; capabilities.extensions, iconUrl, PushNotificationConfig.id and `extensions` on messages and artifacts in v0.2.2; referenceTaskIds and supportsAuthenticatedExtendedCard in v0.2.1. No definition forbids unknown members, so newer members never make older messages invalid.",
    "v0.2.0 and v0.2.1 made request and response ids optional and did not allow a null id; v0.2.2 required both (null allowed in responses). This pack follows v0.2.2+.",
    "Streaming frames have one definition per event (StatusUpdateStreamResponse, ArtifactUpdateStreamResponse) besides upstream's SendStreamingMessageSuccessResponse, which accepts any of the four; each accepts a subset of it.",
    "The specific error definitions (TaskNotFoundError, ...) are not repeated: upstream's error member accepts any JSONRPCError anyway; the family's notes name the code.",
    "Formats are annotations (assertFormats false); upstream v0.2 marks none.",
  ],
  kinds: v02Kinds(OPTIONS),
};
