/**
 * `patchbay diff <before> <after>`: two run reports, captures, tool lists or cards from files
 * (or `-` for standard input on one side), compared as the page's Diff view compares them.
 * Exit 0 when they are the same, 1 when they differ, 2 on a usage error or unreadable input.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { diffByKind, diffIsEmpty, readDiffInput, type DiffKind } from "../../src/core/harness/diff-kind.ts";
import { DiffInputError } from "../../src/core/harness/diff-json.ts";
import { diffLines } from "../../src/core/harness/diff-text.ts";
import { CallUsageError } from "./call-options.ts";

const PLURAL: Readonly<Record<DiffKind, string>> = { run: "two run reports", capture: "two captures", tools: "two tool lists", card: "two agent cards" };

export interface DiffArgs {
  readonly before: string;
  readonly after: string;
  readonly json: boolean;
}

export interface DiffDeps {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly stdin?: () => Promise<string>;
}

export function parseDiffArgs(args: readonly string[]): DiffArgs {
  const files: string[] = [];
  let json = false;
  for (const arg of args) {
    if (arg === "--json") json = true;
    else if (arg.startsWith("-") && arg !== "-") throw new CallUsageError(`unknown option '${arg}'`);
    else files.push(arg);
  }
  if (files.length !== 2) throw new CallUsageError(`give two files to compare, before and after (got ${files.length})`);
  if (files[0] === "-" && files[1] === "-") throw new CallUsageError("only one side can be standard input (-)");
  return { before: files[0]!, after: files[1]!, json };
}

async function read(path: string, deps: DiffDeps): Promise<string> {
  if (path === "-") {
    if (!deps.stdin) throw new DiffInputError("standard input is not available here");
    return deps.stdin();
  }
  try {
    return await readFile(resolve(deps.cwd, path), "utf8");
  } catch (err) {
    throw new DiffInputError(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

export async function runDiff(args: DiffArgs, deps: DiffDeps): Promise<number> {
  try {
    const side = async (path: string, name: string) => {
      try {
        return readDiffInput(await read(path, deps));
      } catch (err) {
        if (err instanceof DiffInputError) throw new DiffInputError(`${name} (${path}): ${err.message}`);
        throw err;
      }
    };
    const before = await side(args.before, "before");
    const after = await side(args.after, "after");
    for (const p of [...before.problems.map((p) => `before: ${p}`), ...after.problems.map((p) => `after: ${p}`)]) deps.stderr(`patchbay diff: skipped ${p}\n`);
    const outcome = diffByKind(before.value, after.value);
    const same = diffIsEmpty(outcome);
    if (args.json) deps.stdout(`${JSON.stringify({ kind: outcome.kind, same, diff: outcome.diff }, null, 2)}\n`);
    else {
      deps.stderr(`comparing ${PLURAL[outcome.kind]}: ${args.before} → ${args.after}\n`);
      const lines = diffLines(outcome);
      deps.stdout(same || lines.length === 0 ? "no differences\n" : `${lines.join("\n")}\n`);
    }
    return same ? 0 : 1;
  } catch (err) {
    if (err instanceof DiffInputError) {
      deps.stderr(`patchbay diff: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
