/**
 * A host's include/exclude filters, on tool names only, with fisk-ai's patterns: Go RE2 syntax,
 * unanchored search. The RE2 features JavaScript spells differently are translated, and the ones
 * RE2 lacks (look-around, back-references) are refused as Go refuses them.
 */

export interface ToolFilter {
  tools?: string[];
  /** Discovery carries no tags: an include by tag is ignored, an exclude by tag is refused. */
  tags?: string[];
}

export class FilterPatternError extends Error {
  override readonly name = "FilterPatternError";
}

const NOT_RE2 = /\(\?<?[=!]|\\[1-9]/;
const FLAGS = /^\(\?([imsU]+)\)/;

/** Compiles one pattern the way Go's regexp.Compile would accept it. */
export function compileFilterPattern(pattern: string): RegExp {
  const fail = (why: string): never => {
    throw new FilterPatternError(`invalid remote tool filter pattern ${JSON.stringify(pattern)}: ${why}`);
  };
  if (NOT_RE2.test(pattern)) fail("look-around and back-references are not RE2 syntax");
  let source = pattern.replaceAll("(?P<", "(?<");
  let flags = "";
  const lead = FLAGS.exec(source);
  if (lead) {
    const wanted = lead[1]!;
    if (wanted.includes("U")) fail("the U (ungreedy) flag has no JavaScript equivalent here");
    flags = [...new Set(wanted)].join("");
    source = source.slice(lead[0].length);
  }
  try {
    return new RegExp(source, flags);
  } catch (err) {
    return fail((err as Error).message);
  }
}

export interface FilterOutcome<T> {
  readonly kept: T[];
  readonly ignoredIncludeTags: boolean;
}

/** Include first (keep names matching any pattern), then exclude (drop names matching any). */
export function filterByName<T>(items: readonly T[], nameOf: (item: T) => string, include?: ToolFilter, exclude?: ToolFilter): FilterOutcome<T> {
  let kept = [...items];
  if (include?.tools && include.tools.length > 0) {
    const patterns = include.tools.map(compileFilterPattern);
    kept = kept.filter((item) => patterns.some((re) => re.test(nameOf(item))));
  }
  if (exclude?.tools && exclude.tools.length > 0) {
    const patterns = exclude.tools.map(compileFilterPattern);
    kept = kept.filter((item) => !patterns.some((re) => re.test(nameOf(item))));
  }
  return { kept, ignoredIncludeTags: (include?.tags?.length ?? 0) > 0 };
}
