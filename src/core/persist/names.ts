import { DOCUMENT_KINDS, DocumentError, type DocumentKind } from "./document-store.ts";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Device names Windows reserves whatever the extension; refused so a workspace copies anywhere. */
const RESERVED = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\..*)?$/i;

/** True when `kind` is one of the known document kinds. */
export function isDocumentKind(kind: string): kind is DocumentKind {
  return (DOCUMENT_KINDS as readonly string[]).includes(kind);
}

/** Why `name` cannot name a document, or null when it can. */
export function documentNameProblem(name: string): string | null {
  if (name.length === 0) return "the name is empty";
  if (name.includes("\0")) return "the name contains a NUL character";
  if (name.includes("/") || name.includes("\\")) return "the name contains a path separator";
  if (name.includes("..")) return "the name contains '..'";
  if (name.length > 128) return "the name is longer than 128 characters";
  if (!NAME.test(name)) {
    return "the name must start with a letter or digit and use only letters, digits, '.', '_' and '-'";
  }
  if (name.endsWith(".")) return "the name ends with '.'";
  if (RESERVED.test(name)) return "the name is reserved by the operating system";
  return null;
}

/** Throws an `invalid_name` DocumentError unless `name` is a safe document name. */
export function assertDocumentName(name: string): void {
  const problem = documentNameProblem(name);
  if (problem !== null) {
    throw new DocumentError("invalid_name", `invalid document name ${JSON.stringify(name)}: ${problem}`);
  }
}

/** Throws an `invalid_name` DocumentError unless `kind` is a known document kind. */
export function assertDocumentKind(kind: string): asserts kind is DocumentKind {
  if (!isDocumentKind(kind)) {
    throw new DocumentError(
      "invalid_name",
      `unknown document kind ${JSON.stringify(kind)}; expected one of ${DOCUMENT_KINDS.join(", ")}`,
    );
  }
}
