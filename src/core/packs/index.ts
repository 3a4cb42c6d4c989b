import { SchemaCompiler } from "../schema/compiler.ts";
import { ValidationEngine } from "../validation/engine.ts";
import type { FamilyModule } from "../validation/types.ts";
import { a2aFamily } from "./a2a/index.ts";
import { fiskAiFamily } from "./fisk-ai/index.ts";
import { mcpFamily } from "./mcp/index.ts";

/** Every protocol family Patchbay validates, in the order the UI lists them. */
export const PROTOCOL_FAMILIES: readonly FamilyModule[] = [mcpFamily, a2aFamily, fiskAiFamily];

/** An engine over every family's packs, with its own validator cache. */
export function createValidationEngine(compiler = new SchemaCompiler()): ValidationEngine {
  return new ValidationEngine(PROTOCOL_FAMILIES, compiler);
}
