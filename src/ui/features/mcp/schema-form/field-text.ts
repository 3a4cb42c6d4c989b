import { kindLabel, preview, type FormNode } from "../../../../core/forms/index.ts";

/** What a number box's text means: a number, nothing (empty), or a mistake to show. */
export type NumberText = { readonly kind: "number"; readonly value: number } | { readonly kind: "empty" } | { readonly kind: "invalid"; readonly message: string };

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Reads a number as typed; "1." and "-" stay drafts until they are numbers. */
export function readNumber(text: string, integer: boolean): NumberText {
  const t = text.trim();
  if (t === "") return { kind: "empty" };
  if (!NUMBER.test(t)) return { kind: "invalid", message: integer ? "Type a whole number." : "Type a number." };
  const value = Number(t);
  if (!Number.isFinite(value)) return { kind: "invalid", message: "This number is too large." };
  if (integer && !Number.isInteger(value)) return { kind: "invalid", message: "Type a whole number." };
  return { kind: "number", value };
}

const INPUT_TYPES: Readonly<Record<string, string>> = { email: "email", uri: "url", url: "url", date: "date" };
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  "date-time": "2025-01-31T12:00:00Z",
  time: "12:00:00Z",
  uuid: "00000000-0000-0000-0000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
};

/** The input type for a string format; formats a browser input would reshape stay plain text. */
export const inputTypeFor = (format: string | undefined): string => (format !== undefined ? INPUT_TYPES[format] : undefined) ?? "text";

/** An example for formats whose shape is not obvious, or the default. */
export function placeholderFor(node: FormNode): string | undefined {
  if (node.kind === "string" && node.format !== undefined && PLACEHOLDERS[node.format] !== undefined) return PLACEHOLDERS[node.format];
  return node.hasDefault ? `default: ${preview(node.default, 40)}` : undefined;
}

function numberBounds(node: Extract<FormNode, { kind: "number" }>): string[] {
  const parts: string[] = [];
  if (node.minimum !== undefined) parts.push(`at least ${node.minimum}`);
  if (node.exclusiveMinimum !== undefined) parts.push(`more than ${node.exclusiveMinimum}`);
  if (node.maximum !== undefined) parts.push(`at most ${node.maximum}`);
  if (node.exclusiveMaximum !== undefined) parts.push(`less than ${node.exclusiveMaximum}`);
  if (node.multipleOf !== undefined) parts.push(`a multiple of ${node.multipleOf}`);
  return parts;
}

/** The rules of a field in a few words ("whole number, at least 1; default 3"), or undefined. */
export function constraintsOf(node: FormNode): string | undefined {
  const parts: string[] = [];
  switch (node.kind) {
    case "string":
      if (node.format !== undefined) parts.push(`format ${node.format}`);
      if (node.minLength !== undefined) parts.push(`at least ${count(node.minLength, "character")}`);
      if (node.maxLength !== undefined) parts.push(`at most ${count(node.maxLength, "character")}`);
      if (node.pattern !== undefined) parts.push(`matches ${node.pattern}`);
      break;
    case "number":
      parts.push(node.integer ? "whole number" : "number", ...numberBounds(node));
      break;
    case "array":
      if (node.minItems !== undefined) parts.push(`at least ${count(node.minItems, "item")}`);
      if (node.maxItems !== undefined) parts.push(`at most ${count(node.maxItems, "item")}`);
      if (node.uniqueItems) parts.push("no duplicates");
      break;
    default:
      break;
  }
  if (node.hasDefault) parts.push(`default ${preview(node.default, 40)}`);
  if (node.readOnly) parts.push("read-only: the server may ignore it");
  if (node.deprecated) parts.push("deprecated");
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** The words for what a field expects, for "not a …" notes. */
export const expected = (node: FormNode): string => (node.kind === "enum" ? "one of its choices" : kindLabel(node));
