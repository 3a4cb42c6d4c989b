/** The body of POST /api/serve/a2a/start, checked field by field. */
import { isJsonObject } from "../../src/core/json/index.ts";
import type { A2aConfirm } from "../../src/core/serving/a2a/index.ts";
import { MAX_TOOL_TIMEOUT_MS, type Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { invalid, MAX_CONCURRENCY, startToolkit, wholeNumber } from "./start-options.ts";

/** Where the A2A agent listens unless told otherwise: beside the MCP endpoint's 7421; 0 picks a free port. */
export const DEFAULT_A2A_PORT = 7422;

export interface A2aStartOptions {
  readonly port: number;
  /** Absent: the built-in demo toolkit. */
  readonly toolkit?: Toolkit;
  readonly confirm?: A2aConfirm;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly defaultSkill?: string;
}

const KNOWN = new Set(["port", "toolkit", "confirm", "concurrency", "timeoutMs", "defaultSkill"]);
const CONFIRMS: readonly A2aConfirm[] = ["omit", "ask"];
const MAX_NAME = 256;

/** The options, plus every issue in the toolkit; a toolkit that cannot be used at all is refused with its errors. */
export function parseA2aStartOptions(body: unknown): { readonly options: A2aStartOptions; readonly issues: string[] } {
  if (!isJsonObject(body)) throw invalid('expected a JSON object such as {} or {"port": 0, "confirm": "ask"}');
  const unknown = Object.keys(body).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) throw invalid(`unknown option ${JSON.stringify(unknown.slice(0, MAX_NAME))}; expected ${[...KNOWN].join(", ")}`);
  const confirm = body.confirm;
  if (confirm !== undefined && !CONFIRMS.includes(confirm as A2aConfirm)) {
    throw invalid('"confirm" must be "omit" (confirm-gated tools left out) or "ask" (kept, and asked about in the task as input-required)');
  }
  const defaultSkill = body.defaultSkill;
  if (defaultSkill !== undefined && (typeof defaultSkill !== "string" || defaultSkill === "" || defaultSkill.length > MAX_NAME)) {
    throw invalid('"defaultSkill" must be the name of a served tool that takes one text argument');
  }
  const { toolkit, issues } = startToolkit(body.toolkit);
  const port = wholeNumber(body.port, "port", 0, 65_535) ?? DEFAULT_A2A_PORT;
  const concurrency = wholeNumber(body.concurrency, "concurrency", 1, MAX_CONCURRENCY);
  const timeoutMs = wholeNumber(body.timeoutMs, "timeoutMs", 1, MAX_TOOL_TIMEOUT_MS);
  return {
    options: {
      port,
      ...(toolkit ? { toolkit } : {}),
      ...(confirm !== undefined ? { confirm: confirm as A2aConfirm } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(typeof defaultSkill === "string" ? { defaultSkill } : {}),
    },
    issues,
  };
}
