/** `patchbay validate <file>…`: classify and validate captured messages, for people and for CI. */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createValidationEngine } from "../../src/core/packs/index.ts";
import {
  buildReport,
  isFailure,
  ParsedAhead,
  splitInput,
  summarise,
  verdictLine,
  type BatchItem,
  type Override,
  type ReportInput,
  type Verdict,
} from "../../src/core/validation/index.ts";

export interface ValidateDeps {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** Standard input, read when a file is "-". */
  readonly stdin?: () => Promise<string>;
  readonly now: () => number;
}

export interface ValidateArgs {
  readonly files: readonly string[];
  readonly json: boolean;
  readonly warnings: boolean;
  /** Print a line for every message, not only the failed ones. */
  readonly all?: boolean;
  readonly override?: Override;
  /** Deliberate extension methods (exact, or a prefix ending in `*`). */
  readonly allowMethods?: readonly string[];
}

/** A command-line mistake: exit 2 with the message. */
export class ValidateUsageError extends Error {}

export function parseValidateArgs(args: readonly string[]): ValidateArgs {
  const files: string[] = [];
  let json = false;
  let warnings = false;
  let all = false;
  const allowMethods: string[] = [];
  let override: Override | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--json") json = true;
    else if (arg === "--warnings") warnings = true;
    else if (arg === "--all") all = true;
    else if (arg === "--allow-method") {
      const value = args[++i];
      if (!value || value.startsWith("-")) throw new ValidateUsageError("--allow-method needs a method name, e.g. --allow-method acme/reindex or --allow-method 'acme/*'");
      allowMethods.push(value);
    }
    else if (arg === "--as") {
      const value = args[++i];
      if (!value) throw new ValidateUsageError("--as needs a pack id, e.g. --as mcp/2025-06-18 or --as mcp/2025-06-18:CallToolRequest");
      const [packId, kindId] = value.split(":", 2) as [string, string | undefined];
      override = kindId ? { packId, kindId } : { packId };
    } else if (arg === "--") {
      files.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith("-") && arg !== "-") throw new ValidateUsageError(`unknown option '${arg}'`);
    else files.push(arg);
  }
  if (files.length === 0) throw new ValidateUsageError("name at least one file to validate (JSON, JSONL, HAR or a Patchbay traffic export; - for stdin)");
  return { files, json, warnings, ...(all && { all }), ...(override && { override }), ...(allowMethods.length > 0 && { allowMethods }) };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

async function readInput(file: string, deps: ValidateDeps): Promise<string> {
  if (file === "-") {
    if (!deps.stdin) throw new ValidateUsageError("standard input is not available");
    return deps.stdin();
  }
  let bytes: Uint8Array;
  try {
    bytes = await readFile(resolve(deps.cwd, file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : (err as Error).message;
    throw new ValidateUsageError(`cannot read ${file}: ${why}`);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ValidateUsageError(`cannot read ${file}: it is not UTF-8 text`);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Validates every message in every file, one session per file (a capture's initialize or
 * tools/list informs the messages after it). Prints one line per failed message, and exits 1
 * when any failed, so CI can gate on it; `--json` prints the full report instead.
 */
export async function runValidate(args: ValidateArgs, deps: ValidateDeps): Promise<number> {
  const engine = createValidationEngine();
  const inputs: ReportInput[] = [];
  // Items are made as each message is validated; only a JSON report keeps them all.
  const results: { item: BatchItem; verdict: Verdict }[] = [];
  const verdicts: Verdict[] = [];
  for (const file of args.files) {
    const text = await readInput(file, deps);
    const split = splitInput(file === "-" ? "stdin" : file, text);
    inputs.push({ source: file, format: split.format, messages: split.count, notes: split.notes });
    for (const note of split.notes) deps.stderr(`${file}: ${note}\n`);
    if (split.count === 0) deps.stderr(`${file}: no messages found\n`);
    const session = engine.session(args.allowMethods ? { extensionMethods: args.allowMethods } : undefined);
    const several = split.count > 1;
    const ahead = new ParsedAhead(split.count, (i) => split.item(i));
    for (let i = 0; i < split.count; i++) {
      const item = ahead.item(i);
      const verdict = ahead.validate(session, i, args.override);
      verdicts.push(verdict);
      if (args.json) {
        results.push({ item, verdict });
        continue;
      }
      if (isFailure(verdict.status) || args.all) deps.stdout(`${verdictLine(item, verdict, several)}\n`);
      else if (args.warnings && verdict.issues.length > 0) deps.stdout(`${verdictLine(item, verdict, several)}\n`);
    }
  }
  const summary = summarise(verdicts);
  if (args.json) deps.stdout(`${JSON.stringify(buildReport(inputs, results, deps.now()), null, 2)}\n`);
  const s = summary.byStatus;
  const failed = s.invalid + s.unrecognised + s.unparseable;
  deps.stderr(
    `${plural(summary.total, "message")} in ${plural(args.files.length, "file")}: ${s.valid} valid, ${s["error-response"]} valid error responses, ` +
      `${s.invalid} invalid, ${s.unrecognised} unrecognised, ${s.unparseable} unparseable\n`,
  );
  return failed > 0 ? 1 : 0;
}
