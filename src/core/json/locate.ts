import { arrayIndex, formatPointer, parsePointer } from "./pointer.ts";
import { LineIndex, type TextRange } from "./positions.ts";
import { scanJson, type JsonNode, type JsonPropertyNode, type JsonScanResult } from "./scanner.ts";

/** Where a JSON pointer lands in the raw text. */
export interface JsonLocation extends TextRange {
  /** False when the pointer names nothing in the text; the range is then its nearest existing ancestor. */
  readonly found: boolean;
  /** The pointer of what the range covers: the input when found, else the ancestor's. */
  readonly resolvedPointer: string;
  /** What the range covers: a value, a property key, or an empty document. */
  readonly target: "value" | "key" | "document";
  /** The node kind at the range (absent for a key or an empty document). */
  readonly nodeType?: JsonNode["type"];
}

/** Which part of a property to locate: its value (default) or its key. */
export interface LocateOptions {
  readonly target?: "value" | "key";
}

interface Step {
  readonly node: JsonNode;
  readonly property?: JsonPropertyNode;
  readonly tokens: number;
}

/** Later members win, as in JSON.parse, so a duplicate key resolves to its last occurrence. */
function findProperty(properties: readonly JsonPropertyNode[], key: string): JsonPropertyNode | undefined {
  for (let i = properties.length - 1; i >= 0; i--) {
    if (properties[i]!.key === key) return properties[i];
  }
  return undefined;
}

function walk(root: JsonNode, tokens: readonly string[]): Step {
  let step: Step = { node: root, tokens: 0 };
  for (const token of tokens) {
    const { node } = step;
    let next: Step | undefined;
    if (node.type === "object") {
      const property = findProperty(node.properties, token);
      if (property?.value) next = { node: property.value, property, tokens: step.tokens + 1 };
    } else if (node.type === "array") {
      const index = arrayIndex(token);
      const item = index === undefined ? undefined : node.items[index];
      if (item) next = { node: item, tokens: step.tokens + 1 };
    }
    if (!next) return step;
    step = next;
  }
  return step;
}

/**
 * Locates JSON pointers in one text, scanning it once. Tolerant: in malformed text, whatever
 * precedes the first syntax error can still be located.
 */
export class JsonLocator {
  readonly scan: JsonScanResult;
  readonly lines: LineIndex;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
    this.scan = scanJson(text);
    this.lines = new LineIndex(text);
  }

  /** Locates a pointer; throws JsonPointerSyntaxError when the pointer itself is malformed. */
  locate(pointer: string, options: LocateOptions = {}): JsonLocation {
    const tokens = parsePointer(pointer);
    const root = this.scan.root;
    if (!root) {
      const start = this.#firstNonSpace();
      return { ...this.lines.range(start, 0), found: false, resolvedPointer: "", target: "document" };
    }
    const step = walk(root, tokens);
    const found = step.tokens === tokens.length;
    const resolvedPointer = found ? pointer : formatPointer(tokens.slice(0, step.tokens));
    if (found && options.target === "key" && step.property) {
      const { keyOffset, keyLength } = step.property;
      return { ...this.lines.range(keyOffset, keyLength), found, resolvedPointer, target: "key" };
    }
    const { node } = step;
    return { ...this.lines.range(node.offset, node.length), found, resolvedPointer, target: "value", nodeType: node.type };
  }

  #firstNonSpace(): number {
    const m = /\S/.exec(this.#text);
    return m ? m.index : this.#text.length;
  }
}

/** Range of the value an RFC 6901 pointer designates in raw JSON text (or its nearest ancestor). */
export function locatePointer(text: string, pointer: string, options?: LocateOptions): JsonLocation {
  return new JsonLocator(text).locate(pointer, options);
}

/** Range of the property key a pointer ends in; falls back to the value for array items and the root. */
export function locatePointerKey(text: string, pointer: string): JsonLocation {
  return new JsonLocator(text).locate(pointer, { target: "key" });
}
