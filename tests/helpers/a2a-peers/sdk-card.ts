/**
 * The SDK agent's cards, in the SDK's ts-proto form (it serializes them to ProtoJSON). One
 * interface per binding and version; the SDK derives the versions it accepts from them.
 */
import type { AgentCard, AgentInterface, AgentSkill, SecurityRequirement } from "@a2a-js/sdk";

export type SdkVersion = "1.0" | "0.3";

/** Where the SDK agent mounts each binding, relative to its base URL. */
export const SDK_PATHS = {
  card: "/.well-known/agent-card.json",
  jsonRpc: "/jsonrpc",
  rest: "/rest",
} as const;

export const BEARER_SCHEME = "bearer";
export const PUBLIC_SKILL_ID = "echo";
/** Only the extended card lists this skill. */
export const EXTENDED_SKILL_ID = "vip-echo";

function interfaces(base: string, versions: readonly SdkVersion[]): AgentInterface[] {
  // Newest first: the first interface is the preferred one.
  const ordered = (["1.0", "0.3"] as const).filter((v) => versions.includes(v));
  return ordered.flatMap((protocolVersion) => [
    { url: `${base}${SDK_PATHS.jsonRpc}`, protocolBinding: "JSONRPC", tenant: "", protocolVersion },
    { url: `${base}${SDK_PATHS.rest}`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion },
  ]);
}

function skill(id: string, name: string, description: string, securityRequirements: SecurityRequirement[] = []): AgentSkill {
  return {
    id,
    name,
    description,
    tags: ["test"],
    examples: ["echo hello", "chunks 3", "slow 1000", "ask", "message hi", "fail", "reject", "auth"],
    inputModes: ["text/plain"],
    outputModes: ["text/plain"],
    securityRequirements,
  };
}

const bearerRequired: SecurityRequirement = { schemes: { [BEARER_SCHEME]: { list: [] } } };

export function publicCard(base: string, versions: readonly SdkVersion[], name: string): AgentCard {
  return {
    name,
    description: "Patchbay test peer on @a2a-js/sdk: the first word of the message picks the behaviour.",
    supportedInterfaces: interfaces(base, versions),
    provider: { organization: "Patchbay tests", url: base },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: true },
    securitySchemes: {
      [BEARER_SCHEME]: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: { description: "A bearer token; the extended agent card needs it.", scheme: "Bearer", bearerFormat: "opaque" },
        },
      },
    },
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [skill(PUBLIC_SKILL_ID, "Echo", "Answers by the first word of the message; anything else is echoed.")],
    signatures: [],
  };
}

/** The public card plus a skill that needs the bearer token. */
export function extendedCard(card: AgentCard): AgentCard {
  return {
    ...card,
    description: `${card.description} (extended card)`,
    skills: [...card.skills, skill(EXTENDED_SKILL_ID, "VIP echo", "Listed only on the extended card.", [bearerRequired])],
  };
}
