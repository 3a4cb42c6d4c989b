/** Where a value sits in the arguments: member names and array indices, outermost first. */
export type FormPath = readonly (string | number)[];

/** What every field knows, whatever its kind; read from the schema's annotations. */
export interface FieldInfo {
  readonly title: string | undefined;
  /** Help text, cut to a readable length. */
  readonly description: string | undefined;
  readonly hasDefault: boolean;
  /** The schema's `default`; meaningful only when `hasDefault`. */
  readonly default: unknown;
  /** `null` is allowed besides the field's own kind (`type: [x, "null"]`, `nullable`, a null variant). */
  readonly nullable: boolean;
  readonly readOnly: boolean;
  readonly deprecated: boolean;
}

export interface StringNode extends FieldInfo {
  readonly kind: "string";
  readonly format: string | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly pattern: string | undefined;
}

export interface NumberNode extends FieldInfo {
  readonly kind: "number";
  readonly integer: boolean;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMinimum: number | undefined;
  readonly exclusiveMaximum: number | undefined;
  readonly multipleOf: number | undefined;
}

export interface BooleanNode extends FieldInfo {
  readonly kind: "boolean";
}

/** A field whose only value is null (`type: "null"`). */
export interface NullNode extends FieldInfo {
  readonly kind: "null";
}

export interface EnumOption {
  readonly value: unknown;
  readonly label: string;
}

/** A closed list of values: `enum`, `const`, or a union of titled consts. */
export interface EnumNode extends FieldInfo {
  readonly kind: "enum";
  readonly options: readonly EnumOption[];
  /** From `const`: exactly one value is allowed. */
  readonly isConst: boolean;
}

export interface FormProperty {
  readonly name: string;
  readonly required: boolean;
  readonly node: FormNode;
}

export interface ObjectNode extends FieldInfo {
  readonly kind: "object";
  readonly properties: readonly FormProperty[];
  /** `additionalProperties: false`: members other than the listed ones are refused. */
  readonly closed: boolean;
  /** Why some members are not in the form (free-form names, a schema too large), or undefined. */
  readonly note: string | undefined;
}

export interface ArrayNode extends FieldInfo {
  readonly kind: "array";
  readonly items: FormNode;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly uniqueItems: boolean;
}

export interface FormVariant {
  readonly label: string;
  readonly node: FormNode;
}

/** One of several shapes: `oneOf`, `anyOf`, or a `type` list; the value picks the variant shown. */
export interface ChoiceNode extends FieldInfo {
  readonly kind: "choice";
  readonly keyword: "oneOf" | "anyOf" | "type";
  readonly variants: readonly FormVariant[];
}

/** A part no form can express; it is edited in the JSON editor, and `reason` says why. */
export interface EditorOnlyNode extends FieldInfo {
  readonly kind: "editor";
  readonly reason: string;
}

export type FormNode = StringNode | NumberNode | BooleanNode | NullNode | EnumNode | ObjectNode | ArrayNode | ChoiceNode | EditorOnlyNode;

export type FormKind = FormNode["kind"];

/** The form for one schema, and how much of the schema it took to build. */
export interface FormModel {
  readonly root: FormNode;
  /** Fields built; at most `limits.maxNodes`. */
  readonly nodeCount: number;
}

/** Bounds that keep a hostile or huge schema from hanging the page. */
export interface FormLimits {
  /** Nesting of fields (members, items, variants) below the root. */
  readonly maxDepth: number;
  /** Fields built in total; parts past it are left to the editor. */
  readonly maxNodes: number;
  /** Choices one enum may list. */
  readonly maxEnum: number;
  /** Variants one oneOf/anyOf may offer. */
  readonly maxVariants: number;
  /** Characters of help text kept per field. */
  readonly maxDescription: number;
}

export const DEFAULT_FORM_LIMITS: FormLimits = {
  maxDepth: 24,
  maxNodes: 2_000,
  maxEnum: 1_000,
  maxVariants: 64,
  maxDescription: 2_000,
};
