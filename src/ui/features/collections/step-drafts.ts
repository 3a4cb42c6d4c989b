/**
 * A request crafted in a workbench, described as a collection step: where it went (the target)
 * and what was sent (the action). A collection file is shared, so credentials never go in it:
 * a credential header becomes a `{{secret}}` reference, declared with the environment variable a
 * headless run reads it from, and a stdio server's environment values are left out.
 */
import type { Collection, SecretSpec, StepAction, StepDraft, TargetSpec } from "../../../core/harness/index.ts";
import type { CreateSessionBody } from "../../../core/mcp/index.ts";

/** A step to save, the secrets its target refers to, and what was left out on the way. */
export interface SavedRequest {
  readonly draft: StepDraft;
  readonly secrets: Readonly<Record<string, SecretSpec>>;
  readonly notes: readonly string[];
}

export type SavedRequestResult = { readonly ok: true; readonly request: SavedRequest } | { readonly ok: false; readonly error: string };

/** Header names whose values are credentials (or may be): written as secret references. */
const SECRET_HEADER = /auth|token|key|secret|cookie|session|passw|credential|signature/i;

/** Word characters a POSIX shell reads as they are, so they need no quotes. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argv word as the harness's command-line splitter reads it back: bare, or in '…'. */
export function quoteWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** An identifier for `{{name}}` from free text: lower case, `_` between words. */
export function identifierFrom(text: string): string {
  const s = text.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 40);
  return s === "" || /^[0-9]/.test(s) ? `s_${s}` : s;
}

/**
 * Header values as references to secrets named after the server and the header, so saving the
 * same server twice gives the same target (and the same secret).
 */
export function headersWithSecrets(headers: Readonly<Record<string, string>>, serverName: string): { headers: Record<string, string>; secrets: Record<string, SecretSpec> } {
  const out: Record<string, string> = {};
  const secrets: Record<string, SecretSpec> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name)) {
      out[name] = value;
      continue;
    }
    const secret = identifierFrom(`${serverName} ${name.toLowerCase() === "authorization" ? "token" : name}`);
    // An auth scheme word (Bearer, Basic) is not secret and the harness allows it beside the reference.
    const scheme = /^([A-Za-z][A-Za-z0-9._~+/-]*) \S/.exec(value)?.[1];
    out[name] = scheme && /^auth/i.test(name) ? `${scheme} {{${secret}}}` : `{{${secret}}}`;
    secrets[secret] = { env: secret.toUpperCase(), description: `The ${name} header of ${serverName}` };
  }
  return { headers: out, secrets };
}

/** The MCP server a session was opened to, as a collection target. */
export function mcpTarget(body: CreateSessionBody, serverName: string): { target: TargetSpec; secrets: Record<string, SecretSpec>; notes: string[] } {
  if (body.transport === "stdio") {
    const notes: string[] = [];
    if (body.env && Object.keys(body.env).length > 0) notes.push(`the server's environment variables (${Object.keys(body.env).join(", ")}) are not saved`);
    if (body.cwd !== undefined) notes.push(`the working directory (${body.cwd}) is not saved; the run starts the server in its own`);
    return { target: { protocol: "mcp", command: [body.command, ...(body.args ?? [])].map(quoteWord).join(" ") }, secrets: {}, notes };
  }
  const { headers, secrets } = headersWithSecrets(body.headers ?? {}, serverName);
  const notes = Object.keys(secrets).length > 0 ? [`header values that may be credentials are saved as secrets: ${Object.keys(secrets).join(", ")}`] : [];
  return { target: { protocol: "mcp", url: body.url, ...(Object.keys(headers).length > 0 ? { headers } : {}) }, secrets, notes };
}

/** A tools/call with the arguments as the editor holds them now; they must be a JSON object. */
export function mcpToolCallRequest(body: CreateSessionBody, serverName: string, tool: string, argsText: string): SavedRequestResult {
  let args: unknown;
  try {
    args = JSON.parse(argsText.trim() === "" ? "{}" : argsText);
  } catch (err) {
    return { ok: false, error: `the arguments are not JSON (${(err as Error).message})` };
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) return { ok: false, error: "the arguments must be a JSON object" };
  const { target, secrets, notes } = mcpTarget(body, serverName);
  const action: StepAction = { protocol: "mcp", method: "tools/call", params: { name: tool, arguments: args as Record<string, unknown> } };
  return { ok: true, request: { draft: { name: tool, target, targetHint: serverName, action }, secrets, notes } };
}

/** The collection with the secrets declared that it does not declare yet. */
export function withSecrets(collection: Collection, secrets: Readonly<Record<string, SecretSpec>>): Collection {
  const missing = Object.entries(secrets).filter(([name]) => !Object.hasOwn(collection.secrets ?? {}, name));
  if (missing.length === 0) return collection;
  return { ...collection, secrets: { ...collection.secrets, ...Object.fromEntries(missing) } };
}
