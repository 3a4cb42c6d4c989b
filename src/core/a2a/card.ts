/**
 * Reading an Agent Card of any dialect: which dialect it speaks and why, the interfaces a client
 * can talk to (binding, version, URL), and how its extended card is fetched. Only reads; the
 * schema verdict comes from the validation packs.
 */
import { isJsonObject } from "../json/index.ts";

type JsonObject = Record<string, unknown>;
import { DIALECTS, type Binding, type Dialect } from "./dialect.ts";

export interface DialectReading {
  /** The dialect to talk, or undefined when nothing in the card points to one. */
  readonly dialect: Dialect | undefined;
  /** What pointed there, in words, member by member. */
  readonly evidence: readonly string[];
  /** Dialects the card fits as well: a card with only a url and no protocolVersion may be v0.1 or v0.2. */
  readonly alsoPossible?: readonly Dialect[];
}

/** One endpoint a card offers. `binding` undefined: one Patchbay cannot speak (gRPC). */
export interface CardInterface {
  readonly url: string;
  readonly binding: Binding | undefined;
  /** The binding as the card spells it (`JSONRPC`, `HTTP+JSON`, `GRPC`). */
  readonly bindingName: string;
  readonly dialect: Dialect;
  /** The version as the card spells it ("1.0", "0.3.0"). */
  readonly version: string;
  readonly tenant?: string;
  /** First in the card: the agent's preferred interface. */
  readonly preferred: boolean;
}

const str = (o: JsonObject, key: string): string | undefined => (typeof o[key] === "string" ? (o[key] as string) : undefined);

/** "0.3.0" → "0.3", "1.0" → "1.0", "0.2.5" → "0.2"; undefined for anything else. */
export function dialectOfVersion(version: string): Dialect | undefined {
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(version.trim());
  if (!m) return undefined;
  const key = m[1] === "1" ? "1.0" : `${m[1]}.${m[2]}`;
  return (DIALECTS as readonly string[]).includes(key) ? (key as Dialect) : undefined;
}

function bindingOf(name: string): Binding | undefined {
  const upper = name.toUpperCase();
  if (upper === "JSONRPC" || upper === "JSON-RPC") return "jsonrpc";
  if (upper === "HTTP+JSON" || upper === "REST") return "rest";
  return undefined;
}

/** The dialect a card speaks, with the members that say so. */
export function readCardDialect(card: unknown): DialectReading {
  if (!isJsonObject(card)) return { dialect: undefined, evidence: ["the card is not a JSON object"] };
  const evidence: string[] = [];
  const declared = str(card, "protocolVersion");
  if (Array.isArray(card.supportedInterfaces)) {
    const versions = card.supportedInterfaces.flatMap((i) => (isJsonObject(i) && typeof i.protocolVersion === "string" ? [i.protocolVersion] : []));
    const listed = versions.length > 0 ? `, protocol versions ${[...new Set(versions)].join(", ")}` : "";
    // A v0.3 card may list v1.0 interfaces beside its own url (the a2a-js compatibility layer does): it is still a v0.3 card.
    const legacy = declared !== undefined ? dialectOfVersion(declared) : undefined;
    if (legacy === "0.3" && typeof card.url === "string") {
      evidence.push(`protocolVersion "${declared}" and url: a v0.3 card`, `it also lists supportedInterfaces${listed}, for v1.0 clients`);
      return { dialect: "0.3", evidence };
    }
    evidence.push(`supportedInterfaces (v1.0 cards list their endpoints there)${listed}`);
    return { dialect: "1.0", evidence };
  }
  if (declared !== undefined) {
    const dialect = dialectOfVersion(declared);
    evidence.push(dialect ? `protocolVersion "${declared}"` : `protocolVersion "${declared}" names no known version`);
    if (dialect && dialect !== "1.0") return { dialect, evidence };
    if (dialect === "1.0") {
      evidence.push("but a v1.0 card has no card-level protocolVersion and no url: read as v0.3");
      return { dialect: "0.3", evidence };
    }
  }
  if (isJsonObject(card.authentication)) {
    evidence.push("authentication object (v0.1; later versions use securitySchemes)");
    return { dialect: "0.1", evidence };
  }
  const v02 = ["securitySchemes", "preferredTransport", "additionalInterfaces", "supportsAuthenticatedExtendedCard", "iconUrl"].filter((k) => k in card);
  if (v02.length > 0) {
    evidence.push(`${v02.join(", ")} without protocolVersion (v0.2.x; v0.2.5 made protocolVersion required)`);
    return { dialect: "0.2", evidence };
  }
  if (Array.isArray(card.defaultInputModes) && typeof card.description === "string") {
    evidence.push("url, description and defaultInputModes with no protocolVersion and no authentication: v0.2.x, or a v0.1 card that sets those optional members");
    return { dialect: "0.2", evidence, alsoPossible: ["0.1"] };
  }
  if (typeof card.url === "string") {
    evidence.push("only url, name, version, capabilities, skills: the v0.1 card");
    return { dialect: "0.1", evidence };
  }
  evidence.push("neither supportedInterfaces nor url: no endpoint to talk to");
  return { dialect: undefined, evidence };
}

/** The interfaces a card offers, preferred first. */
export function cardInterfaces(card: unknown): CardInterface[] {
  if (!isJsonObject(card)) return [];
  const out: CardInterface[] = [];
  if (Array.isArray(card.supportedInterfaces)) {
    for (const entry of card.supportedInterfaces) {
      if (!isJsonObject(entry)) continue;
      const url = str(entry, "url");
      const bindingName = str(entry, "protocolBinding") ?? str(entry, "transport") ?? "JSONRPC";
      const version = str(entry, "protocolVersion") ?? "1.0";
      const dialect = dialectOfVersion(version);
      if (url === undefined || dialect === undefined) continue;
      const tenant = str(entry, "tenant");
      out.push({ url, binding: bindingOf(bindingName), bindingName, dialect, version, ...(tenant ? { tenant } : {}), preferred: out.length === 0 });
    }
    return out;
  }
  const { dialect } = readCardDialect(card);
  const url = str(card, "url");
  if (url === undefined || dialect === undefined) return out;
  const version = str(card, "protocolVersion") ?? dialect;
  const preferredName = str(card, "preferredTransport") ?? "JSONRPC";
  out.push({ url, binding: bindingOf(preferredName), bindingName: preferredName, dialect, version, preferred: true });
  if (Array.isArray(card.additionalInterfaces)) {
    for (const entry of card.additionalInterfaces) {
      if (!isJsonObject(entry)) continue;
      const extra = str(entry, "url");
      const name = str(entry, "transport") ?? "JSONRPC";
      if (extra === undefined || out.some((i) => i.url === extra && i.bindingName === name)) continue;
      out.push({ url: extra, binding: bindingOf(name), bindingName: name, dialect, version, preferred: false });
    }
  }
  return out;
}

/** How the card says its extended card is fetched, or undefined when it offers none. */
export type ExtendedCardWay = { readonly kind: "rpc"; readonly dialect: "0.3" | "1.0" } | { readonly kind: "get"; readonly path: string };

export function extendedCardWay(card: unknown, dialect: Dialect | undefined): ExtendedCardWay | undefined {
  if (!isJsonObject(card) || dialect === undefined) return undefined;
  if (dialect === "1.0") return isJsonObject(card.capabilities) && card.capabilities.extendedAgentCard === true ? { kind: "rpc", dialect } : undefined;
  if (card.supportsAuthenticatedExtendedCard !== true) return undefined;
  // v0.2.1 to v0.2.6 served it at a fixed HTTP path beside the card; v0.3 made it a method.
  return dialect === "0.3" ? { kind: "rpc", dialect } : { kind: "get", path: "/agent/authenticatedExtendedCard" };
}
