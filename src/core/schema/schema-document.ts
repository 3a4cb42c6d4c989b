import { parsePointer } from "../json/index.ts";
import type { SchemaDraft, SchemaPack } from "../validation/types.ts";

/** Where a document of the draft keeps its named definitions. */
export function definitionContainer(draft: SchemaDraft): "$defs" | "definitions" {
  return draft === "2020-12" ? "$defs" : "definitions";
}

/** A pack document's definition by name, undefined when it has none of that name. */
export function definitionNode(pack: Pick<SchemaPack, "document" | "draft">, name: string): unknown {
  const defs = pack.document[definitionContainer(pack.draft)];
  return typeof defs === "object" && defs !== null && Object.hasOwn(defs, name) ? (defs as Readonly<Record<string, unknown>>)[name] : undefined;
}

function walk(root: unknown, tokens: readonly string[]): unknown {
  let node = root;
  for (const token of tokens) node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[token] : undefined;
  return node;
}

/** The value a JSON pointer names in `root` (array items by index), undefined when it names nothing. */
export function pointerTarget(root: unknown, pointer: string): unknown {
  return walk(root, parsePointer(pointer));
}

/** A local `$ref`'s target in `root`, by the URI fragment after `#`; undefined for a reference with none. */
export function localRefTarget(root: unknown, ref: string): unknown {
  const at = ref.indexOf("#");
  if (at < 0) return undefined;
  const fragment = ref.slice(at + 1);
  if (fragment === "") return root;
  return walk(root, fragment.split("/").slice(1).map((raw) => decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~")));
}
