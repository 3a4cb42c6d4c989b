import type { Scheduler } from "../env/scheduler.ts";
import { isJsonObject } from "../json/index.ts";
import type { ToolProgress, ToolRun } from "./tool-run.ts";
import { OutputCollector } from "./toolkit/output-cap.ts";
import type { BuiltinTool, ToolDef } from "./toolkit/toolkit-types.ts";

export interface BuiltinContext {
  readonly scheduler: Scheduler;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
}

const MAX_SLEEP_S = 300;
const MAX_LARGE_BYTES = 10 * 1024 * 1024;

const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, required, additionalProperties: false });

/** The demo toolkit's tools, which need no program. */
export const BUILTIN_DEFS: readonly ToolDef[] = [
  { name: "echo", description: "Returns the message it is given.", inputSchema: object({ message: { type: "string", description: "Text to echo back." } }, ["message"]), tags: ["ai:read_only", "ai:idempotent"], impl: { kind: "builtin", builtin: "echo" } },
  {
    name: "add",
    description: "Adds two numbers.",
    inputSchema: object({ a: { type: "number", description: "First addend." }, b: { type: "number", description: "Second addend." } }, ["a", "b"]),
    outputSchema: object({ sum: { type: "number" } }, ["sum"]),
    tags: ["ai:read_only", "ai:idempotent"],
    impl: { kind: "builtin", builtin: "add" },
  },
  { name: "sleep", description: "Waits, reporting progress every second.", inputSchema: object({ seconds: { type: "number", minimum: 0, maximum: MAX_SLEEP_S, description: "How long to wait." } }, ["seconds"]), tags: ["ai:read_only"], impl: { kind: "builtin", builtin: "sleep" } },
  { name: "fail", description: "Ends like a command that exits with the chosen code.", inputSchema: object({ exit_code: { type: "integer", minimum: 0, maximum: 255, description: "The exit code." }, output: { type: "string", description: "What the command prints." } }, ["exit_code"]), tags: ["ai:read_only"], impl: { kind: "builtin", builtin: "fail" } },
  { name: "large-output", description: "Prints many bytes, to see output capping.", inputSchema: object({ bytes: { type: "integer", minimum: 0, maximum: MAX_LARGE_BYTES, description: "How many bytes to print." } }, ["bytes"]), tags: ["ai:read_only"], impl: { kind: "builtin", builtin: "large-output" } },
  { name: "slow", description: "Takes a while without progress reports (default 15 s).", inputSchema: object({ seconds: { type: "number", minimum: 0, maximum: MAX_SLEEP_S, description: "How long to take." } }), tags: ["ai:read_only"], impl: { kind: "builtin", builtin: "slow" } },
  { name: "confirm", description: "Does something that needs the operator's approval first.", inputSchema: object({ action: { type: "string", description: "What to do." } }, ["action"]), tags: ["ai:confirm", "ai:destructive"], impl: { kind: "builtin", builtin: "confirm" } },
];

function wait(ms: number, ctx: BuiltinContext): Promise<boolean> {
  return new Promise((resolve) => {
    if (ctx.signal?.aborted) return resolve(false);
    const onAbort = () => {
      cancel();
      resolve(false);
    };
    const cancel = ctx.scheduler.after(ms, () => {
      ctx.signal?.removeEventListener("abort", onAbort);
      resolve(true);
    });
    ctx.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const bad = (message: string): ToolRun => ({ kind: "harness-error", reason: "arguments", message });
const cancelled: ToolRun = { kind: "harness-error", reason: "cancelled", message: "the call was cancelled" };

function num(input: Record<string, unknown>, name: string, min: number, max: number, fallback?: number): number | string {
  const value = input[name] ?? fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) return `"${name}" must be a finite number`;
  if (value < min || value > max) return `"${name}" must be a number from ${min} to ${max}`;
  return value;
}

/** Runs a built-in demo tool. Inputs are checked here too: a caller may skip schema validation. */
export async function runBuiltin(builtin: BuiltinTool, rawInput: unknown, ctx: BuiltinContext): Promise<ToolRun> {
  const input = rawInput ?? {};
  if (!isJsonObject(input)) return bad("the arguments must be a JSON object");
  switch (builtin) {
    case "echo":
      return typeof input.message === "string" ? { kind: "text", text: input.message } : bad('"message" must be a string');
    case "add": {
      const a = num(input, "a", -Infinity, Infinity);
      const b = num(input, "b", -Infinity, Infinity);
      if (typeof a === "string") return bad(a);
      if (typeof b === "string") return bad(b);
      return { kind: "text", text: String(a + b), structured: { sum: a + b } };
    }
    case "sleep": {
      const seconds = num(input, "seconds", 0, MAX_SLEEP_S);
      if (typeof seconds === "string") return bad(seconds);
      const steps = Math.ceil(seconds);
      for (let i = 1; i <= steps; i++) {
        if (!(await wait((Math.min(i, seconds) - (i - 1)) * 1000, ctx))) return cancelled;
        ctx.onProgress?.({ progress: i, total: steps, message: `${i} of ${steps} s` });
      }
      return { kind: "text", text: `slept ${seconds} s` };
    }
    case "slow": {
      const seconds = num(input, "seconds", 0, MAX_SLEEP_S, 15);
      if (typeof seconds === "string") return bad(seconds);
      return (await wait(seconds * 1000, ctx)) ? { kind: "text", text: `finished after ${seconds} s` } : cancelled;
    }
    case "fail": {
      const code = input.exit_code;
      if (typeof code !== "number" || !Number.isInteger(code) || code < 0 || code > 255) return bad('"exit_code" must be a whole number from 0 to 255');
      const collector = new OutputCollector();
      collector.push(new TextEncoder().encode(typeof input.output === "string" ? input.output : `exiting with ${code}\n`));
      return { kind: "ran", commandLine: `fail ${code}`, exitCode: code, signal: null, output: collector.finish() };
    }
    case "large-output": {
      const bytes = num(input, "bytes", 0, MAX_LARGE_BYTES);
      if (typeof bytes === "string" || !Number.isInteger(bytes)) return bad(`"bytes" must be a whole number from 0 to ${MAX_LARGE_BYTES}`);
      const collector = new OutputCollector();
      const line = new TextEncoder().encode("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n");
      for (let left = bytes; left > 0; left -= line.length) collector.push(line.subarray(0, Math.min(left, line.length)));
      return { kind: "ran", commandLine: `large-output ${bytes}`, exitCode: 0, signal: null, output: collector.finish() };
    }
    case "confirm":
      return typeof input.action === "string" ? { kind: "text", text: `done: ${input.action}` } : bad('"action" must be a string');
  }
}
