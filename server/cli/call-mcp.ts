/**
 * `patchbay call mcp <url | "command line"> <tool> '<json arguments>'` (or `--list`): one tool
 * call through the console's own MCP client, no browser. The arguments are checked against the
 * tool's inputSchema before they are sent; the answer's text (and structuredContent) is printed,
 * or with --json the tools/call result as received. Exits 0 on success, 1 with the outcome named
 * (isError, a JSON-RPC error, no connection, refused arguments), 2 on a usage error.
 */
import { isJsonObject } from "../../src/core/json/index.ts";
import type { CallOutcome } from "../../src/core/mcp/index.ts";
import { McpRequestError } from "../../src/core/mcp/request-failure.ts";
import { checkArguments, learnTools, type ToolSchemas } from "../../src/core/packs/mcp/tool-checks.ts";
import { draftFor, nearestVersion } from "../../src/core/packs/mcp/versions.ts";
import { SchemaCompiler } from "../../src/core/schema/compiler.ts";
import type { Issue } from "../../src/core/validation/types.ts";
import type { CallDeps } from "./call-a2a.ts";
import type { CallMcpArgs, McpAction } from "./call-mcp-args.ts";
import { connectMcp, type McpSession } from "./call-mcp-connect.ts";
import { runWithOAuth } from "./call-mcp-oauth.ts";

export { parseCallMcpArgs } from "./call-mcp-args.ts";

type Call = Extract<McpAction, { kind: "call" }>;
type Out = Pick<CallDeps, "stdout" | "stderr">;

const MAX_LISTED = 20;
const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Issue pointers are the request's (`/params/arguments/…`); the person typed only the arguments. */
function issueLines(issues: readonly Issue[], prefix: string): string {
  const lines = issues.slice(0, MAX_LISTED).map((i) => {
    const pointer = i.pointer.startsWith(prefix) ? i.pointer.slice(prefix.length) : i.pointer;
    return `  ${pointer === "" ? "(the arguments)" : pointer}: ${i.message}`;
  });
  if (issues.length > MAX_LISTED) lines.push(`  and ${issues.length - MAX_LISTED} more`);
  return lines.join("\n");
}

/** One content block as text: text verbatim, anything else named by its type. */
function blockText(block: unknown): string {
  if (!isJsonObject(block)) return `[content that is not an object: ${JSON.stringify(block)}]`;
  if (block.type === "text" && typeof block.text === "string") return block.text;
  const resource = isJsonObject(block.resource) ? block.resource : undefined;
  if (block.type === "resource" && typeof resource?.text === "string") return resource.text;
  const size = typeof block.data === "string" ? `, ${block.data.length} characters of base64` : "";
  const mime = typeof block.mimeType === "string" ? ` ${block.mimeType}` : "";
  const uri = typeof block.uri === "string" ? ` ${block.uri}` : typeof resource?.uri === "string" ? ` ${resource.uri}` : "";
  return `[${String(block.type)}${mime}${uri}${size}]`;
}

function printResult(result: Record<string, unknown>, out: Out): void {
  const content = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    const text = blockText(block);
    out.stdout(text.endsWith("\n") ? text : `${text}\n`);
  }
  if ("structuredContent" in result) out.stdout(pretty(result.structuredContent));
}

function outcomeExit(outcome: CallOutcome, tool: string, args: CallMcpArgs, session: McpSession, out: Out): number {
  const say = (text: string) => out.stderr(`call mcp: ${text}\n`);
  switch (outcome.kind) {
    case "success":
      if (args.json) out.stdout(pretty(outcome.result));
      else printResult(outcome.result, out);
      if (outcome.structuredContentIssues.length === 0) return 0;
      say(`${tool} answered, but its structuredContent does not meet the tool's outputSchema:\n${issueLines(outcome.structuredContentIssues, "/result/structuredContent")}`);
      return 1;
    case "tool-error":
      if (args.json) out.stdout(pretty(outcome.result));
      else printResult(outcome.result, out);
      say(`${tool} reported an error (isError: true in its result)`);
      return 1;
    case "invalid-result":
      out.stdout(pretty(outcome.result));
      say(`the answer is not a valid CallToolResult of MCP ${session.info.negotiatedVersion}:\n${issueLines(outcome.issues, "")}${outcome.eraIssue ? `\n${outcome.eraIssue}` : ""}`);
      return 1;
    case "json-rpc-error":
      if (args.json) out.stdout(pretty({ code: outcome.code, message: outcome.message, ...(outcome.data !== undefined ? { data: outcome.data } : {}) }));
      say(`the server refused tools/call with JSON-RPC error ${outcome.code}: ${outcome.message}`);
      return 1;
    case "timeout":
      say(`no answer from ${tool} within ${outcome.timeoutMs} ms (--timeout)`);
      return 1;
    case "cancelled":
      say(`cancelled before ${tool} answered`);
      return 1;
    case "connection-closed":
      say(`${outcome.message}${stderrTail(session.serverStderr())}`);
      return 1;
    case "relay-failure":
      say(`${outcome.step}: ${outcome.message}`);
      return 1;
    case "input-required":
      out.stdout(pretty(outcome.result));
      say(outcome.message);
      return 1;
    case "task":
      out.stdout(pretty(outcome.result));
      say(`the server runs ${tool} as task ${outcome.task.taskId} (${outcome.task.status}); its result comes through the task`);
      return 1;
  }
}

const stderrTail = (lines: readonly string[]): string => (lines.length === 0 ? "" : `\nthe server's last stderr lines:\n${lines.slice(-20).map((l) => `  ${l}`).join("\n")}`);

async function listTools(session: McpSession, args: CallMcpArgs, deps: CallDeps): Promise<Record<string, unknown>[] | number> {
  try {
    return await session.connection.listTools({ timeoutMs: args.timeoutMs, ...(deps.signal ? { signal: deps.signal } : {}) });
  } catch (error) {
    if (!(error instanceof McpRequestError)) throw error;
    deps.stderr(`call mcp: ${error.message}${stderrTail(session.serverStderr())}\n`);
    return 1;
  }
}

function printTools(tools: readonly Record<string, unknown>[], args: CallMcpArgs, out: Out): number {
  if (args.json) {
    out.stdout(pretty({ tools }));
    return 0;
  }
  const names = tools.map((t) => String(t.name));
  const width = Math.min(32, Math.max(0, ...names.map((n) => n.length)));
  tools.forEach((t, i) => {
    const description = typeof t.description === "string" ? (t.description.trim().split("\n", 1)[0] ?? "") : "";
    out.stdout(`${names[i]!.padEnd(width)}  ${description}`.trimEnd() + "\n");
  });
  if (tools.length === 0) out.stderr("call mcp: the server lists no tools\n");
  return 0;
}

/** Finds the tool and checks the arguments; an exit code when the call must not be sent. */
function refusal(tools: readonly Record<string, unknown>[], call: Call, session: McpSession, compiler: SchemaCompiler, out: Out): number | undefined {
  const known = new Map<string, ToolSchemas>();
  learnTools({ tools }, known);
  const tool = known.get(call.tool);
  if (!tool) {
    const names = tools.map((t) => String(t.name));
    out.stderr(`call mcp: the server has no tool ${JSON.stringify(call.tool)}; it lists ${names.length === 0 ? "none" : names.join(", ")}\n`);
    return 1;
  }
  const draft = draftFor(nearestVersion(session.info.negotiatedVersion));
  const request = { params: { name: call.tool, arguments: call.arguments ?? {} } };
  const issues = checkArguments(request, known, { validateWithSchema: (schema, value, pointer, d) => compiler.checkDynamic(schema, value, pointer, d) }, draft);
  for (const issue of issues) if (issue.severity !== "error") out.stderr(`call mcp: warning: ${issue.message}\n`);
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length === 0) return undefined;
  out.stderr(`call mcp: not sent: the arguments do not meet the inputSchema of ${call.tool} (--no-check sends them anyway):\n${issueLines(errors, "/params/arguments")}\n`);
  return 1;
}

export async function runCallMcp(args: CallMcpArgs, deps: CallDeps): Promise<number> {
  // With --oauth the token is got first, and the call runs again after a refresh or step-up.
  return args.oauth ? runWithOAuth(args, deps, callOnce) : callOnce(args, deps);
}

async function callOnce(args: CallMcpArgs, deps: CallDeps): Promise<number> {
  const compiler = new SchemaCompiler();
  const attempt = await connectMcp(args.target, { compiler, timeoutMs: args.timeoutMs, stderr: deps.stderr, ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  if (!attempt.ok) {
    deps.stderr(`call mcp: ${attempt.message}${stderrTail(attempt.serverStderr)}\n`);
    return 1;
  }
  const session = attempt.session;
  const { serverInfo, negotiatedVersion } = session.info;
  deps.stderr(`server ${serverInfo.name} ${serverInfo.version}: MCP ${negotiatedVersion} over ${session.via}\n`);
  try {
    const action = args.action;
    if (action.kind === "call" && !args.check) {
      return outcomeExit(await session.connection.callTool(action.tool, action.arguments, options(args, deps)), action.tool, args, session, deps);
    }
    const tools = await listTools(session, args, deps);
    if (typeof tools === "number") return tools;
    if (action.kind === "list") return printTools(tools, args, deps);
    const refused = refusal(tools, action, session, compiler, deps);
    if (refused !== undefined) return refused;
    return outcomeExit(await session.connection.callTool(action.tool, action.arguments, options(args, deps)), action.tool, args, session, deps);
  } finally {
    await session.connection.close().catch(() => {});
  }
}

const options = (args: CallMcpArgs, deps: CallDeps) => ({ timeoutMs: args.timeoutMs, ...(deps.signal ? { signal: deps.signal } : {}) });
