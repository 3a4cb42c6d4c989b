/**
 * The JUnit XML pytest writes for an A2A TCK pass, read as one result per test. A hand scanner
 * rather than regular expressions over the whole file, so a cut-off or hostile file costs one pass:
 * a test whose element never closes is left out and the result is marked incomplete.
 */

export type TckOutcome = "passed" | "failed" | "error" | "skipped";

export interface TckCase {
  /** `classname::name`, as pytest names a test. */
  readonly id: string;
  readonly classname: string;
  readonly name: string;
  readonly outcome: TckOutcome;
  /** The failure's, error's or skip's message (an xfail says so first). */
  readonly message?: string;
  readonly seconds?: number;
}

export interface TckResult {
  readonly tests: number;
  readonly passed: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly cases: readonly TckCase[];
  /** The ids of the tests that failed or erred. */
  readonly failing: readonly string[];
  /** False when the file ends early or its suite's count disagrees with the tests read. */
  readonly complete: boolean;
}

export const TCK_LIMITS = { xmlChars: 8_000_000, cases: 5_000, tagChars: 65_536, messageChars: 2_000, nameChars: 400 } as const;

const ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);/g, (_, ref: string) => {
    if (!ref.startsWith("#")) return ENTITIES[ref]!;
    const code = ref[1] === "x" ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\uFFFD";
  });
}

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out.set(m[1]!, decode(m[2] ?? m[3] ?? ""));
  return out;
}

/** The index just past the `>` closing the tag that opens at `start`, quotes respected; -1 when it never closes. */
function tagEnd(xml: string, start: number): number {
  let quote = "";
  const limit = Math.min(xml.length, start + TCK_LIMITS.tagChars);
  for (let i = start; i < limit; i++) {
    const ch = xml[i]!;
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ">") return i + 1;
  }
  return -1;
}

/** The next `<name` that is a whole element name at or after `from`, or -1. */
function findElement(xml: string, name: string, from: number): number {
  for (let at = xml.indexOf(`<${name}`, from); at >= 0; at = xml.indexOf(`<${name}`, at + 1)) {
    const next = xml[at + name.length + 1];
    if (next === undefined || /[\s/>]/.test(next)) return at;
  }
  return -1;
}

function outcomeOf(body: string): { outcome: TckOutcome; message?: string } {
  const m = /<(failure|error|skipped)\b([^>]*)>/.exec(body);
  if (!m) return { outcome: "passed" };
  const kind = m[1] as "failure" | "error" | "skipped";
  const attrs = attributes(m[2]!);
  const selfClosed = m[2]!.endsWith("/");
  const from = m.index + m[0].length;
  const until = body.indexOf(`</${kind}>`, from);
  const inner = selfClosed ? "" : body.slice(from, until < 0 ? body.length : until);
  const said = attrs.get("message") || decode(inner).trim();
  const xfail = attrs.get("type") === "pytest.xfail" ? "xfail: " : "";
  const outcome: TckOutcome = kind === "failure" ? "failed" : kind === "error" ? "error" : "skipped";
  return said || xfail ? { outcome, message: clip(`${xfail}${said}`, TCK_LIMITS.messageChars) } : { outcome };
}

function testCase(tag: string, body: string): TckCase {
  const attrs = attributes(tag);
  const classname = clip(attrs.get("classname") ?? "", TCK_LIMITS.nameChars);
  const name = clip(attrs.get("name") ?? "", TCK_LIMITS.nameChars);
  const time = Number(attrs.get("time"));
  return { id: `${classname}::${name}`, classname, name, ...outcomeOf(body), ...(attrs.has("time") && Number.isFinite(time) && time >= 0 ? { seconds: time } : {}) };
}

/** The declared test count of every `<testsuite>`, or null when a suite does not say. */
function declaredTests(xml: string): number | null {
  let sum = 0;
  let seen = false;
  for (let at = findElement(xml, "testsuite", 0); at >= 0; at = findElement(xml, "testsuite", at + 1)) {
    const end = tagEnd(xml, at);
    if (end < 0) return null;
    const tests = attributes(xml.slice(at, end)).get("tests");
    if (tests === undefined || !/^\d{1,9}$/.test(tests)) return null;
    sum += Number(tests);
    seen = true;
  }
  return seen ? sum : null;
}

/** pytest's JUnit XML (whole, cut short or garbled) as per-test results; counts come from the tests read. */
export function parseTckJunit(text: string): TckResult {
  const xml = text.length > TCK_LIMITS.xmlChars ? text.slice(0, TCK_LIMITS.xmlChars) : text;
  const cases: TckCase[] = [];
  let complete = xml.length === text.length;
  let pos = 0;
  for (;;) {
    const at = findElement(xml, "testcase", pos);
    if (at < 0) break;
    if (cases.length >= TCK_LIMITS.cases) {
      complete = false;
      break;
    }
    const end = tagEnd(xml, at);
    if (end < 0) {
      complete = false;
      break;
    }
    const tag = xml.slice(at + "<testcase".length, end - 1);
    if (tag.endsWith("/")) {
      cases.push(testCase(tag.slice(0, -1), ""));
      pos = end;
      continue;
    }
    const close = xml.indexOf("</testcase>", end);
    if (close < 0) {
      complete = false;
      break;
    }
    cases.push(testCase(tag, xml.slice(end, close)));
    pos = close + "</testcase>".length;
  }
  if (!/<\/testsuite>\s*(<\/testsuites>\s*)?$/.test(xml) || declaredTests(xml) !== cases.length) complete = false;
  const count = (o: TckOutcome) => cases.filter((c) => c.outcome === o).length;
  return {
    tests: cases.length,
    passed: count("passed"),
    failures: count("failed"),
    errors: count("error"),
    skipped: count("skipped"),
    cases,
    failing: cases.filter((c) => c.outcome === "failed" || c.outcome === "error").map((c) => c.id),
    complete,
  };
}
