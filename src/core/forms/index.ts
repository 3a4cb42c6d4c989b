export { buildFormModel } from "./build-form.ts";
export { editorOnly, kindLabel, NO_INFO } from "./field-info.ts";
export { DEFAULT_FORM_LIMITS } from "./form-model.ts";
export type {
  ArrayNode,
  BooleanNode,
  ChoiceNode,
  EditorOnlyNode,
  EnumNode,
  EnumOption,
  FieldInfo,
  FormKind,
  FormLimits,
  FormModel,
  FormNode,
  FormPath,
  FormProperty,
  FormVariant,
  NullNode,
  NumberNode,
  ObjectNode,
  StringNode,
} from "./form-model.ts";
export { fillDefaults, getAt, initialValue, insertItem, moveItem, removeAt, setAt, switchVariant, toJsonText } from "./form-values.ts";
export { jsonEqual, jsonTypeName, preview } from "./json-values.ts";
export { RefResolver } from "./schema-refs.ts";
export type { RefTarget } from "./schema-refs.ts";
export { fits, matchScore, pickVariant } from "./variant-match.ts";
