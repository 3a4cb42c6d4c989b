import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type AnySchema } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, it } from "vitest";

/**
 * Upstream schemas and examples live outside the repository, in ../shared/reference (or wherever
 * PATCHBAY_REFERENCE_DIR points). They are read at test time and never copied in.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The reference folder, or null when it is absent on this machine. */
export function referenceDir(): string | null {
  const dir = process.env.PATCHBAY_REFERENCE_DIR ?? resolve(repoRoot, "../shared/reference");
  return existsSync(dir) ? dir : null;
}

const SKIP_REASON =
  "SKIPPED: the upstream reference folder is absent (expected ../shared/reference next to the repository, " +
  "or set PATCHBAY_REFERENCE_DIR); agreement with upstream schemas was NOT checked";

/**
 * A describe block that needs the reference folder. When the folder is absent, it still registers
 * one skipped test whose title says why, and warns on stderr, so the skip is never silent.
 */
export function describeWithReference(name: string, body: (dir: string) => void): void {
  const dir = referenceDir();
  if (dir) {
    describe(name, () => body(dir));
    return;
  }
  process.stderr.write(`\n[${name}] ${SKIP_REASON}\n`);
  describe(name, () => {
    it.skip(SKIP_REASON, () => undefined);
  });
}

/** Parses a JSON file under the reference folder. */
export function readReferenceJson(dir: string, ...path: string[]): unknown {
  return JSON.parse(readFileSync(join(dir, ...path), "utf8")) as unknown;
}

/** Every `.json` file directly inside a reference sub-folder, parsed, by file name. */
export function readReferenceFolder(dir: string, ...path: string[]): Map<string, unknown> {
  const folder = join(dir, ...path);
  const files = readdirSync(folder).filter((name) => name.endsWith(".json")).sort();
  return new Map(files.map((name) => [name, readReferenceJson(folder, name)]));
}

/** Validates against upstream documents the same way the project's compiler does (ajv, formats as asked). */
export interface ReferenceValidator {
  /** True when `value` is valid against `ref`, a full `$id#/pointer` reference. */
  valid(ref: string, value: unknown): boolean;
  /** The ajv errors of the last call, for failure messages. */
  lastErrors(): string;
}

/** An ajv instance for one set of upstream documents (one generation: fisk-ai generations share $ids). */
export function referenceValidator(
  documents: readonly unknown[],
  draft: "draft-07" | "2020-12",
  assertFormats: boolean,
): ReferenceValidator {
  const options = { strict: false, allErrors: false, validateFormats: assertFormats };
  const ajv = draft === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  for (const doc of documents) ajv.addSchema(doc as AnySchema);
  let errors = "";
  return {
    valid(ref, value) {
      const validate = ajv.getSchema(ref);
      if (!validate) throw new Error(`reference schema not found: ${ref}`);
      const ok = validate(value) as boolean;
      errors = ok ? "" : ajv.errorsText(validate.errors);
      return ok;
    },
    lastErrors: () => errors,
  };
}
