import type { ToolkitIssue } from "./toolkit-types.ts";

export const TAG_DENY = "ai:deny";
export const TAG_CONFIRM = "ai:confirm";
const KNOWN_TAGS = new Set([TAG_DENY, TAG_CONFIRM, "ai:read_only", "ai:destructive", "ai:additive", "ai:idempotent"]);

/** What a tool's tags say about it; hints are present only when a tag declared them. */
export interface Behaviour {
  readonly deny: boolean;
  readonly confirm: boolean;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly warnings: readonly string[];
}

/**
 * Reads the behaviour tags. Contradictions resolve to the more dangerous reading, with a warning:
 * read-only with destructive or additive is not read-only; destructive with additive is destructive.
 */
export function readBehaviour(tags: readonly string[]): Behaviour {
  const has = new Set(tags);
  const warnings: string[] = [];
  for (const tag of has) {
    if (tag.startsWith("ai:") && !KNOWN_TAGS.has(tag)) warnings.push(`unknown behaviour tag "${tag}" is ignored`);
  }
  const readOnlyTag = has.has("ai:read_only");
  const destructive = has.has("ai:destructive");
  const additive = has.has("ai:additive");
  if (readOnlyTag && (destructive || additive)) {
    warnings.push(`"ai:read_only" contradicts "${destructive ? "ai:destructive" : "ai:additive"}": the tool is treated as writing`);
  }
  if (destructive && additive) warnings.push(`"ai:destructive" and "ai:additive" contradict: the tool is treated as destructive`);
  return {
    deny: has.has(TAG_DENY),
    confirm: has.has(TAG_CONFIRM),
    ...(readOnlyTag ? { readOnlyHint: !destructive && !additive } : {}),
    ...(destructive || additive ? { destructiveHint: destructive } : {}),
    ...(has.has("ai:idempotent") ? { idempotentHint: true } : {}),
    warnings,
  };
}

/** Warnings for a tool's tags, as toolkit issues at the tool's tags pointer. */
export function tagIssues(tags: readonly string[], pointer: string): ToolkitIssue[] {
  return readBehaviour(tags).warnings.map((message) => ({ pointer, message, severity: "warning" as const }));
}
