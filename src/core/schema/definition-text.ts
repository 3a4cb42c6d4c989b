import type { SchemaPack } from "../validation/types.ts";
import { definitionContainer } from "./schema-document.ts";

/** Keywords that change how references resolve: a definition using one is compared with no other. */
const RESOLUTION_KEYWORDS: ReadonlySet<string> = new Set(["$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"]);

/**
 * A text that is equal for two pack definitions exactly when they are the same schema: the draft,
 * whether formats assert, and every definition the `$ref`s reach, by name. Null when something in
 * reach resolves other than by name in the document's own container.
 */
export function definitionText(pack: SchemaPack, definition: string): string | null {
  const container = definitionContainer(pack.draft);
  const defs = pack.document[container] as Readonly<Record<string, unknown>> | undefined;
  if (!defs) return null;
  const prefix = `#/${container}/`;
  const reached = new Map<string, unknown>();
  const todo = [definition];
  let portable = true;
  const follow = (key: string, value: unknown): unknown => {
    if (RESOLUTION_KEYWORDS.has(key)) portable = false;
    else if (key === "$ref" && typeof value === "string") {
      const name = value.startsWith(prefix) ? value.slice(prefix.length) : "";
      if (name === "" || name.includes("/")) portable = false;
      else todo.push(name.replaceAll("~1", "/").replaceAll("~0", "~"));
    }
    return value;
  };
  while (portable && todo.length > 0) {
    const name = todo.pop()!;
    if (reached.has(name)) continue;
    if (!Object.hasOwn(defs, name)) return null;
    reached.set(name, defs[name]);
    JSON.stringify(defs[name], follow);
  }
  if (!portable) return null;
  const named = [...reached].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([pack.draft, pack.assertFormats, named]);
}
