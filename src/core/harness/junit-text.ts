/**
 * Text for reports a CI reads: XML 1.0 escaping that keeps any frame text well-formed, times in
 * seconds, and one-line words for an assertion (shared by the JUnit writer and the run diff).
 */
import { preview } from "../forms/json-values.ts";
import type { Assertion, CountSpec } from "./collection-types.ts";

/**
 * What XML 1.0 forbids anywhere in a document: C0 controls other than tab, LF and CR, lone
 * surrogates, U+FFFE and U+FFFF. With the `u` flag a lone surrogate is one code point of its own.
 */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** A forbidden character written as its `\uXXXX` escape, so the reader still sees what was sent. */
const visible = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** The text with every character XML 1.0 forbids replaced by its visible escape. */
export function xmlSafe(text: string): string {
  return text.replace(FORBIDDEN, visible);
}

/** Element content: `&`, `<`, `>` escaped; CR kept as a reference so parsers do not fold it into LF. */
export function xmlText(text: string): string {
  return xmlSafe(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** An attribute value in double quotes; tab, LF and CR as references, which attribute normalisation keeps. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

/** Milliseconds as seconds with three decimals; anything not a finite non-negative number is 0. */
export function seconds(ms: number | undefined): string {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 ? (Math.round(ms) / 1000).toFixed(3) : "0.000";
}

/** At most `max` characters, the rest counted. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function countWords(spec: CountSpec): string {
  if (typeof spec === "number") return String(spec);
  if (spec.min !== undefined && spec.max !== undefined) return `${spec.min}..${spec.max}`;
  return spec.min !== undefined ? `>= ${spec.min}` : spec.max !== undefined ? `<= ${spec.max}` : "any";
}

/** An assertion in a few words, e.g. `equals /result/content/0/text "hi"`. */
export function assertionLabel(a: Assertion): string {
  switch (a.kind) {
    case "valid":
      return a.version !== undefined ? `valid (${a.version})` : "valid";
    case "equals":
      return `equals ${a.pointer || "(body)"} ${preview(a.value, 60)}`;
    case "matches":
      return `matches ${a.pointer || "(body)"} /${a.pattern}/`;
    case "exists":
      return `exists ${a.pointer || "(body)"}`;
    case "absent":
      return `absent ${a.pointer || "(body)"}`;
    case "outcome": {
      const detail = a.code !== undefined ? ` (code ${a.code})` : a.state !== undefined ? ` (state ${a.state})` : "";
      return `outcome is ${a.is}${detail}`;
    }
    case "latency":
      return `latency below ${a.belowMs} ms`;
    case "stream": {
      const parts = [
        a.count !== undefined ? `count ${countWords(a.count)}` : "",
        a.order !== undefined ? `order ${a.order.join(" > ")}` : "",
        a.final !== undefined ? (a.final ? "ends final" : "not final") : "",
      ].filter((p) => p !== "");
      return `stream${parts.length > 0 ? ` ${parts.join(", ")}` : ""}`;
    }
  }
}
