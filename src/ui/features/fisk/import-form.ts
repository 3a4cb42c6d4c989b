import type { DiscoveryResult } from "../../../core/fisk/client/index.ts";
import { planImport, type ImportHost, type ImportPlan } from "../../../core/fisk/codec/index.ts";
import { TAP_HINT } from "./card-view.ts";
import type { FiskApi } from "./fisk-api.ts";

export interface HostRow {
  identity: string;
  alias: string;
  /** One pattern per line (RE2 syntax, unanchored, as fisk-ai reads them). */
  include: string;
  exclude: string;
}

const lines = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** Why discovery gave no card, in the words the plan shows next to the host. */
export function discoveryFailure(result: DiscoveryResult): string | null {
  const o = result.outcome;
  switch (o.kind) {
    case "card":
      return null;
    case "invalid":
      return `the discovery reply is not a valid card: ${o.problem}`;
    case "refused":
      return `discovery refused (${o.code}): ${o.description}`;
    case "no-such-agent":
      return "no such agent: nothing answers its discovery subject (503)";
    case "timeout":
      return `no discovery reply within ${o.timeoutMs} ms${TAP_HINT}`;
    case "error":
      return o.message;
  }
}

/** The host as planImport takes it; filters absent when no pattern was typed. */
export function toImportHost(row: HostRow, result: DiscoveryResult | null): ImportHost {
  const include = lines(row.include);
  const exclude = lines(row.exclude);
  const card = result?.outcome.kind === "card" ? result.outcome.card : null;
  const failure = result ? discoveryFailure(result) : "not discovered";
  return {
    identity: row.identity.trim(),
    ...(row.alias.trim() ? { alias: row.alias.trim() } : {}),
    ...(include.length > 0 ? { include: { tools: include } } : {}),
    ...(exclude.length > 0 ? { exclude: { tools: exclude } } : {}),
    card,
    ...(failure ? { discoveryError: failure } : {}),
  };
}

/** Discovers every distinct identity once, then plans the import over the rows as typed. */
export async function previewImport(client: Pick<FiskApi, "discover">, rows: readonly HostRow[], localNames: string): Promise<ImportPlan> {
  const identities = [...new Set(rows.map((r) => r.identity.trim()))];
  const found = await Promise.all(identities.map((id) => client.discover(id)));
  const byId = new Map(found.map((r, i) => [identities[i]!, r]));
  const locals = localNames.split(/[\s,]+/).filter(Boolean);
  return planImport(
    rows.map((r) => toImportHost(r, byId.get(r.identity.trim()) ?? null)),
    locals,
  );
}
