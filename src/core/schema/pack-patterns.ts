/**
 * ajv's regular-expression engine for our own packs' `pattern`s. ajv compiles every pattern with
 * the `u` flag; V8 matches a pattern faster without it, and for most of ours the meaning is the
 * same either way: ASCII literals, classes that are not negated, anchors, groups, quantifiers, and
 * escapes of metacharacters or of \d, \w, \s. A pattern with anything else (a dot, a negated class,
 * \p{…}, \u{…}, a character outside ASCII) keeps the flag. Peer schemas keep ajv's own engine.
 */
const UNICODE_NEUTRAL = /^(?:[A-Za-z0-9_\-^$+*?{}(),|=:!<>[\] #@%&'"~`;/]|\\[.\-+*?^$()[\]{}|/\\dws])*$/;

/** Whether the pattern means the same with and without the `u` flag (by the conservative test above). */
export function unicodeNeutral(pattern: string): boolean {
  return UNICODE_NEUTRAL.test(pattern) && !pattern.includes("[^");
}

function packPattern(pattern: string, flags: string): RegExp {
  return new RegExp(pattern, unicodeNeutral(pattern) ? flags.replace("u", "") : flags);
}

export const PACK_PATTERNS = Object.assign(packPattern, { code: "packPattern" });
