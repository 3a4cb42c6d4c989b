/**
 * Re-indents JSON text without parsing it: only whitespace outside strings changes, so numbers,
 * escapes and duplicate keys stay exactly as they were. Text that is not JSON is re-indented as
 * far as its brackets allow; nothing is lost.
 */
export function formatJsonText(text: string, indent = "  "): string {
  let out = "";
  let depth = 0;
  let i = 0;
  const newline = (): string => "\n" + indent.repeat(Math.max(depth, 0));
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    i++;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      const next = nextSignificant(text, i);
      if (text[next] === close) {
        out += c + close;
        i = next + 1;
        continue;
      }
      depth++;
      out += c + newline();
    } else if (c === "}" || c === "]") {
      depth--;
      out += newline() + c;
    } else if (c === ",") {
      out += "," + newline();
    } else if (c === ":") {
      out += ": ";
    } else {
      out += c;
    }
  }
  return out;
}

/** Index just past the string starting at `start` (or the end of the text if it never closes). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) return i + 1;
    else if (c === 10) return i; // an unclosed string ends at the line, as the scanner reports it
    else i++;
  }
  return text.length;
}

function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  return i;
}
