/**
 * What a finished conformance run leaves behind, read into results: the suite's summary and
 * each scenario's checks.json from its output folder, or the TCK's JUnit XML. A run that ends
 * without results gets a problem that says why, with the output's last lines.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  conformancePassed,
  parseConformanceChecks,
  parseMcpConformanceOutput,
  parseTckJunit,
  scenarioOfResultDir,
  withChecks,
  type ChecksRead,
  type McpConformanceResult,
} from "../../src/core/harness/conformance-output.ts";
import type { ConformanceProblem, TckRunResult, TckScope } from "../../src/core/harness/conformance-run-types.ts";

export interface Finished {
  readonly problem: ConformanceProblem | null;
  readonly mcp: McpConformanceResult | null;
  readonly a2a: TckRunResult | null;
  readonly passed: boolean | null;
}

const KEEP_CHARS = 512 * 1024;
const CHECKS_BYTES = 2 * 1024 * 1024;
const JUNIT_BYTES = 8 * 1024 * 1024;
const RESULT_DIRS = 1_000;

/** The last `KEEP_CHARS` of a process's output, and how much came before them. */
export class OutputTail {
  #text = "";
  #dropped = 0;
  append(chunk: string): void {
    this.#text += chunk;
    if (this.#text.length > KEEP_CHARS * 2) {
      const cut = this.#text.length - KEEP_CHARS;
      this.#dropped += cut;
      this.#text = this.#text.slice(cut);
    }
  }
  get text(): string {
    return this.#text;
  }
  get dropped(): number {
    return this.#dropped;
  }
  last(chars: number): string {
    return this.#text.length > chars ? this.#text.slice(-chars) : this.#text;
  }
}

export const lastLines = (text: string, n = 12): string =>
  text
    .trimEnd()
    .split(/\r?\n/)
    .slice(-n)
    .join("\n")
    .slice(-2_000);

const exitWords = (code: number | null): string => (code === null ? "on a signal" : `with exit code ${code}`);

async function readBounded(path: string, max: number): Promise<string | null> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > max) return null;
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

/** Each scenario's checks, from the `server-<scenario>-<time>` folders the suite wrote. */
async function readChecks(outDir: string): Promise<Map<string, ChecksRead>> {
  const found = new Map<string, ChecksRead>();
  let names: string[];
  try {
    names = await readdir(outDir);
  } catch {
    return found;
  }
  for (const name of names.slice(0, RESULT_DIRS)) {
    const scenario = scenarioOfResultDir(name);
    if (scenario === null) continue;
    const text = await readBounded(join(outDir, name, "checks.json"), CHECKS_BYTES);
    found.set(scenario, text === null ? { ok: false, problem: `checks.json is missing or larger than ${CHECKS_BYTES} bytes` } : parseConformanceChecks(text));
  }
  return found;
}

/** The suite's results; when it printed none, why, with its last lines. */
export async function mcpFinish(output: string, code: number | null, outDir: string): Promise<Finished> {
  const parsed = parseMcpConformanceOutput(output);
  if (parsed.total === null) {
    const problem = { code: "suite_incomplete", message: `the MCP conformance suite ended ${exitWords(code)} before its summary. Its last lines:\n${lastLines(output)}` };
    return { problem, mcp: parsed.scenarios.length > 0 || parsed.started.length > 0 ? parsed : null, a2a: null, passed: null };
  }
  const mcp = withChecks(parsed, await readChecks(outDir));
  return { problem: null, mcp, a2a: null, passed: conformancePassed(mcp) };
}

/** Why `npx -y node@22` gave no Node 22: not on PATH, or npm could not fetch it (offline, no cache). */
export function node22Problem(output: string, code: number | null, spawnError: Error | undefined): ConformanceProblem {
  const how = "The MCP conformance suite needs Node 22, which is found with `npx -y node@22` (npx fetches it from the npm registry the first time).";
  if ((spawnError as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return { code: "node22_unavailable", message: `npx is not on PATH. ${how} Install npm, or run the backend itself with Node 22.` };
  const said = spawnError ? spawnError.message : `it ended ${exitWords(code)} without naming a Node 22 binary; it said:\n${lastLines(output)}`;
  return { code: "node22_unavailable", message: `\`npx -y node@22\` could not provide Node 22: ${said}\n${how} Without network, run \`npx -y node@22 --version\` once while online, or run the backend with Node 22.` };
}

/** The TCK pass's results from its JUnit XML; when it wrote none, why. */
export async function tckFinish(output: string, code: number | null, outDir: string, scope: TckScope): Promise<Finished> {
  const xml = await readBounded(join(outDir, `${scope}.xml`), JUNIT_BYTES);
  if (xml === null) {
    // run.sh keeps pytest's own output in <scope>.log; its end says why nothing was written.
    const log = await readBounded(join(outDir, `${scope}.log`), JUNIT_BYTES);
    const said = log ? `${output}\n${log}` : output;
    const problem =
      code === 2
        ? { code: "python_packages_missing", message: `the A2A TCK's runner could not run pytest. Its last lines:\n${lastLines(said)}` }
        : { code: "tck_did_not_run", message: `the A2A TCK ended ${exitWords(code)} without writing its results. Its last lines:\n${lastLines(said)}` };
    return { problem, mcp: null, a2a: null, passed: null };
  }
  const result = parseTckJunit(xml);
  const endpoint = /SUT JSON-RPC endpoint: (\S+?);/.exec(output)?.[1] ?? null;
  const problem = result.tests === 0 ? { code: "tck_no_tests", message: `the A2A TCK ran no tests. Its last lines:\n${lastLines(output)}` } : null;
  return { problem, mcp: null, a2a: { scope, endpoint, result }, passed: result.tests > 0 && result.passed > 0 && result.failures + result.errors === 0 };
}
