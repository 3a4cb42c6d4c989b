/**
 * JSON with comments and trailing commas (VS Code's config dialect) made plain JSON. Comments and
 * the commas become spaces, line breaks stay, so a syntax error still points at the right place.
 */
export function stripJsonComments(text: string): string {
  if (!text.includes("/") && !/,\s*[}\]]/.test(text)) return text;
  let out = "";
  let i = 0;
  // Index in `out` of a comma that may turn out to be trailing, and whether only blanks followed it.
  let comma = -1;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      comma = -1;
    } else if (c === "/" && next === "/") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      out += " ".repeat(stop - i);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\r\n]/g, " ");
      i = stop;
    } else {
      if ((c === "}" || c === "]") && comma >= 0) out = `${out.slice(0, comma)} ${out.slice(comma + 1)}`;
      if (c === ",") comma = out.length;
      else if (!/\s/.test(c)) comma = -1;
      out += c;
      i++;
    }
  }
  return out;
}

/** Index just past the string that opens at `start` (or the end of the text when it never closes). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
