import {
  buildFormModel,
  editorOnly,
  fillDefaults,
  getAt,
  initialValue,
  insertItem,
  moveItem,
  NO_INFO,
  removeAt,
  setAt,
  switchVariant,
  toJsonText,
  type ArrayNode,
  type ChoiceNode,
  type FormModel,
  type FormNode,
  type FormPath,
} from "../../../../core/forms/index.ts";
import { isJsonObject, parseJsonText } from "../../../../core/json/index.ts";
import { readNumber } from "./field-text.ts";

/** The argument text the form and the editor share, and the schema that shapes the form. */
export interface FormSource {
  text: string;
  readonly schema: object | undefined;
}

/** Which of the two views of the arguments are on screen. */
export type ArgsView = "both" | "form" | "json";

type Shown = { readonly value: Record<string, unknown>; readonly error: string | null };

const NO_SCHEMA: FormModel = { root: editorOnly(NO_INFO, "the tool gives no inputSchema object"), nodeCount: 0 };

const keyOf = (path: FormPath): string => JSON.stringify(path);

/**
 * The form view of the shared argument text. The text is the one truth: a form edit rewrites it
 * as pretty JSON from the parsed value (members the schema does not know are kept), and typing in
 * the editor is only read, never rewritten. While the text does not parse as an object the form
 * shows the last object it did parse, read-only, with the reason.
 */
export class SchemaFormState {
  view = $state<ArgsView>("both");
  /** Number boxes as typed, by path, while their text is not (yet) the number in the arguments. */
  drafts = $state<Record<string, string>>({});

  readonly #source: FormSource;
  // Plain fields: remembered by the derivation below, never shown by themselves.
  #lastSchema: object | undefined;
  #lastGood: Record<string, unknown> = {};

  constructor(source: FormSource) {
    this.#source = source;
  }

  readonly model: FormModel = $derived.by(() => {
    const schema = this.#source.schema;
    return schema === undefined ? NO_SCHEMA : buildFormModel(schema);
  });

  readonly #shown: Shown = $derived.by(() => this.#read(this.#source.text, this.#source.schema));

  /** The arguments the form shows. */
  get value(): Record<string, unknown> {
    return this.#shown.value;
  }

  /** Why the form is read-only (the editor text is not a JSON object), or null. */
  get error(): string | null {
    return this.#shown.error;
  }

  get readonly(): boolean {
    return this.#shown.error !== null;
  }

  #read(text: string, schema: object | undefined): Shown {
    if (schema !== this.#lastSchema) {
      this.#lastSchema = schema;
      this.#lastGood = {};
    }
    if (text.trim() === "") return { value: {}, error: null };
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      const where = `line ${parsed.line}, column ${parsed.column}`;
      return { value: this.#lastGood, error: `The editor text is not valid JSON: ${parsed.message} (${where}). The form is read-only until it parses again.` };
    }
    if (!isJsonObject(parsed.value)) {
      return { value: this.#lastGood, error: "The editor text is not a JSON object, and tool arguments are one. The form is read-only until it is." };
    }
    this.#lastGood = parsed.value;
    return { value: parsed.value, error: null };
  }

  #write(next: unknown): void {
    if (this.readonly) return;
    this.#source.text = toJsonText(isJsonObject(next) ? next : {});
  }

  set(path: FormPath, value: unknown): void {
    this.#write(setAt(this.value, path, value));
  }

  remove(path: FormPath): void {
    this.#write(removeAt(this.value, path));
  }

  /** Gives an absent field (or one of the wrong type) its initial value. */
  start(path: FormPath, node: FormNode): void {
    this.set(path, initialValue(node) ?? null);
  }

  /** Turns null on, or off again to the field's own initial value. */
  setNull(path: FormPath, node: FormNode, on: boolean): void {
    const start = initialValue(node);
    this.set(path, on ? null : start === null ? initialValue({ ...node, hasDefault: false }) : start);
  }

  addItem(path: FormPath, node: ArrayNode): void {
    this.#write(insertItem(this.value, path, initialValue(node.items) ?? null));
  }

  removeItem(path: FormPath, index: number): void {
    this.remove([...path, index]);
  }

  moveItem(path: FormPath, from: number, to: number): void {
    this.#write(moveItem(this.value, path, from, to));
  }

  choose(path: FormPath, node: ChoiceNode, index: number): void {
    this.set(path, switchVariant(node, getAt(this.value, path), index));
  }

  /** Adds the defaults and required members that are missing; keeps everything present. */
  fillDefaults(): void {
    this.#write(fillDefaults(this.model.root, this.value));
  }

  /** A number box's text: its draft while one is open, else the number in the arguments. */
  numberText(path: FormPath, value: unknown, integer: boolean): string {
    const shown = typeof value === "number" ? String(value) : "";
    const draft = this.drafts[keyOf(path)];
    if (draft === undefined) return shown;
    // A draft that no longer says what the arguments hold (the editor changed them) gives way.
    const read = readNumber(draft, integer);
    const agrees = read.kind === "invalid" || (read.kind === "empty" ? value === undefined : read.value === value);
    return agrees ? draft : shown;
  }

  /** Why the number box's draft is not a number yet, or undefined. */
  numberError(path: FormPath, integer: boolean): string | undefined {
    const draft = this.drafts[keyOf(path)];
    if (draft === undefined) return undefined;
    const read = readNumber(draft, integer);
    return read.kind === "invalid" ? read.message : undefined;
  }

  /** Takes typing in a number box: a number is written at once, an empty box removes the member. */
  typeNumber(path: FormPath, text: string, integer: boolean): void {
    if (this.readonly) return;
    this.drafts = { ...this.drafts, [keyOf(path)]: text };
    const read = readNumber(text, integer);
    if (read.kind === "number") this.set(path, read.value);
    else if (read.kind === "empty") this.remove(path);
  }

  /** Leaving a number box shows the arguments' number again. */
  endNumber(path: FormPath): void {
    const key = keyOf(path);
    if (!(key in this.drafts)) return;
    const { [key]: _gone, ...rest } = this.drafts;
    this.drafts = rest;
  }
}
