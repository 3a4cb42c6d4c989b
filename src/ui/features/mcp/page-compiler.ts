import type { Issue, SchemaDraft, SchemaPack } from "../../../core/validation/types.ts";
import { SchemaCompiler } from "../../../core/schema/compiler.ts";

/**
 * The page's CSP forbids eval, and ajv compiles schemas to code, so on the page a tools/call result
 * is not checked against the CallToolResult schema or the tool's outputSchema: every check passes.
 * Outcome naming (JSON-RPC error, isError, success) does not depend on these checks.
 */
export class UncheckedCompiler extends SchemaCompiler {
  override check(_pack: SchemaPack, _definition: string, _value: unknown): Issue[] {
    return [];
  }
  override checkDynamic(_schema: unknown, _value: unknown, _pointer: string, _fallback: SchemaDraft): Issue[] {
    return [];
  }
}

/** True when this realm may generate code (tests, a page without CSP); false under the app's CSP. */
export function evalAllowed(): boolean {
  try {
    return (new Function("return true") as () => boolean)();
  } catch {
    return false;
  }
}

/** The compiler result checks use here: ajv when code generation is allowed, else none (see UncheckedCompiler). */
export function pageCompiler(allowed = evalAllowed()): { readonly compiler: SchemaCompiler; readonly checksResults: boolean } {
  return allowed ? { compiler: new SchemaCompiler(), checksResults: true } : { compiler: new UncheckedCompiler(), checksResults: false };
}
