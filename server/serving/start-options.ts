/** The body of POST /api/serve/mcp/start, checked field by field. */
import { isJsonObject } from "../../src/core/json/index.ts";
import { bridgeConfigProblem, type BridgeConfig } from "../../src/core/serving/bridge/bridge-plan.ts";
import { CONFIRM_MODES, type ConfirmMode } from "../../src/core/serving/confirm-gate.ts";
import { readToolkit } from "../../src/core/serving/toolkit/toolkit-read.ts";
import { MAX_TOOL_TIMEOUT_MS, type Toolkit, type ToolkitIssue } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { HttpError } from "../http/errors.ts";

/** Where the MCP endpoint listens unless told otherwise; 0 picks a free port. */
export const DEFAULT_SERVE_PORT = 7421;
export const MAX_CONCURRENCY = 64;

export interface McpStartOptions {
  readonly port: number;
  /** Absent: the built-in demo toolkit. */
  readonly toolkit?: Toolkit;
  readonly confirmMode?: ConfirmMode;
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly fixtures?: boolean;
  /** fisk-ai agents whose tools are served too, over the backend's NATS server. */
  readonly bridge?: BridgeConfig;
}

const KNOWN = new Set(["port", "toolkit", "confirmMode", "concurrency", "timeoutMs", "fixtures", "bridge"]);
const MAX_BRIDGED = 16;
const MAX_PATTERNS = 32;
const MAX_PATTERN_CHARS = 512;

function stringList(value: unknown, name: string, max: number, maxChars: number): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > max || !value.every((v) => typeof v === "string" && v !== "" && v.length <= maxChars)) {
    throw invalid(`"${name}" must be a list of at most ${max} non-empty strings of at most ${maxChars} characters`);
  }
  return value as string[];
}

/** `bridge`: {"identities": [...], "include"?: [...], "exclude"?: [...]}, checked as the CLI checks --bridge. */
export function bridgeOption(raw: unknown): BridgeConfig | undefined {
  if (raw === undefined) return undefined;
  if (!isJsonObject(raw)) throw invalid('"bridge" must be an object such as {"identities": ["nats-tools"]}');
  const extra = Object.keys(raw).find((key) => !["identities", "include", "exclude"].includes(key));
  if (extra !== undefined) throw invalid(`unknown bridge option "${extra}"; expected identities, include, exclude`);
  const config = {
    identities: stringList(raw.identities, "bridge.identities", MAX_BRIDGED, 128),
    include: stringList(raw.include, "bridge.include", MAX_PATTERNS, MAX_PATTERN_CHARS),
    exclude: stringList(raw.exclude, "bridge.exclude", MAX_PATTERNS, MAX_PATTERN_CHARS),
  };
  const problem = bridgeConfigProblem(config);
  if (problem) throw invalid(`"bridge": ${problem}`);
  return config;
}

export function invalid(message: string): HttpError {
  return new HttpError(400, "invalid_body", message);
}

export function wholeNumber(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) throw invalid(`"${name}" must be a whole number from ${min} to ${max}`);
  return value;
}

export function issueLine(issue: ToolkitIssue): string {
  return `${issue.severity} at ${issue.pointer || "(the toolkit)"}: ${issue.message}`;
}

/** A start body's toolkit (absent: none) and its issues as lines; one that cannot be used at all is refused with its errors named. */
export function startToolkit(raw: unknown): { readonly toolkit?: Toolkit; readonly issues: string[] } {
  if (raw === undefined) return { issues: [] };
  const read = readToolkit(raw);
  if (!read.toolkit) throw new HttpError(400, "invalid_toolkit", `the toolkit cannot be served: ${read.issues.map(issueLine).join("; ")}`);
  return { toolkit: read.toolkit, issues: read.issues.map(issueLine) };
}

/**
 * The options, plus every issue in the toolkit. A toolkit that cannot be used at all is refused
 * with its errors named; otherwise a tool with errors is left out and the rest are served.
 */
export function parseStartOptions(body: unknown): { readonly options: McpStartOptions; readonly issues: string[] } {
  if (!isJsonObject(body)) throw invalid("expected a JSON object such as {} or {\"port\": 0, \"toolkit\": {…}}");
  const unknown = Object.keys(body).find((key) => !KNOWN.has(key));
  if (unknown !== undefined) throw invalid(`unknown option "${unknown}"; expected ${[...KNOWN].join(", ")}`);
  const confirmMode = body.confirmMode;
  if (confirmMode !== undefined && !CONFIRM_MODES.includes(confirmMode as ConfirmMode)) throw invalid(`"confirmMode" must be one of ${CONFIRM_MODES.join(", ")}`);
  if (body.fixtures !== undefined && typeof body.fixtures !== "boolean") throw invalid('"fixtures" must be true or false');
  const { toolkit, issues } = startToolkit(body.toolkit);
  const port = wholeNumber(body.port, "port", 0, 65_535) ?? DEFAULT_SERVE_PORT;
  const concurrency = wholeNumber(body.concurrency, "concurrency", 1, MAX_CONCURRENCY);
  const timeoutMs = wholeNumber(body.timeoutMs, "timeoutMs", 1, MAX_TOOL_TIMEOUT_MS);
  const bridge = bridgeOption(body.bridge);
  return {
    options: {
      port,
      ...(toolkit ? { toolkit } : {}),
      ...(confirmMode !== undefined ? { confirmMode: confirmMode as ConfirmMode } : {}),
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(typeof body.fixtures === "boolean" ? { fixtures: body.fixtures } : {}),
      ...(bridge ? { bridge } : {}),
    },
    issues,
  };
}
