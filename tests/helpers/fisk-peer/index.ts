export { startFiskPeer } from "./peer.ts";
export type {
  FiskPeer,
  FiskPeerOptions,
  PeerGeneration,
  PeerRecord,
  PeerTool,
  Question,
  TaskEnd,
  TaskScript,
  TaskStep,
  ToolBehavior,
  ToolOutcome,
  ToolScript,
  Usage,
} from "./types.ts";
export { FINAL_HEADER, SERVICE_DESCRIPTION, SERVICE_VERSION, SUBJECT_PREFIX, goJson, goTime, ksuid, subjects } from "./wire.ts";
export { call, clientRequest, endsRead, openInbox, received } from "./raw-client.ts";
export type { ClientRequestOptions, InboxReader, Received } from "./raw-client.ts";
