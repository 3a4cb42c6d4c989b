/**
 * The words of a command line as Patchbay's snippets write them: plain words, '…' quoting (with
 * '\'' for a quote inside) and backslash-newline continuations. Anything else is refused, so a
 * snippet that drifts from this shape fails its test instead of being read loosely.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /\s*(?:'((?:[^']|'\\'')*)'|([^\s'"\\$`]+)|\\\n)/y;
  while (re.lastIndex < line.length) {
    if (/^\s*$/.test(line.slice(re.lastIndex))) break;
    const m = re.exec(line);
    if (m === null) throw new Error(`not a plain shell word at ${JSON.stringify(line.slice(re.lastIndex, re.lastIndex + 20))}`);
    const word = m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2];
    if (word !== undefined) words.push(word);
  }
  return words;
}
