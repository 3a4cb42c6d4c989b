/**
 * A quoted command line split into argv the way a POSIX shell splits words, for starting a stdio
 * server without a shell: whitespace separates words; '…' is literal; "…" is literal except for
 * \" \\ \$ \` and backslash-newline; outside quotes a backslash escapes the next character.
 * What a shell would expand or interpret (pipes, redirections, $variables, `commands`, a leading
 * ~) is refused rather than passed on as literal text, so the command never means something else
 * than it would at a prompt.
 */

export class CommandWordsError extends Error {}

const SHELL_SYNTAX = new Set(["|", "&", ";", "<", ">", "(", ")", "$", "`"]);
const DOUBLE_QUOTE_ESCAPES = new Set(['"', "\\", "$", "`"]);

const refuse = (what: string, at: number) =>
  new CommandWordsError(`${what} at character ${at + 1}: the command is started without a shell, so quote it ('…') or put the pipeline in a script`);

export function commandWords(line: string): string[] {
  if (line.includes("\0")) throw new CommandWordsError("the command contains a NUL character");
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const end = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      end();
      i++;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new CommandWordsError(`the ' at character ${i + 1} is never closed`);
      word += line.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      i = doubleQuoted(line, i, (text) => (word += text));
      inWord = true;
    } else if (c === "\\") {
      const next = line[i + 1];
      if (next === undefined) throw new CommandWordsError("the command ends with a lone backslash");
      if (next !== "\n") {
        word += next;
        inWord = true;
      }
      i += 2;
    } else if (SHELL_SYNTAX.has(c)) {
      throw refuse(`${JSON.stringify(c)} is shell syntax`, i);
    } else if (c === "~" && !inWord) {
      throw refuse("a leading ~ is expanded by a shell only; give the full path", i);
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  end();
  if (words.length === 0) throw new CommandWordsError("the command is empty");
  return words;
}

/** Reads a "…" word part starting at `open`; returns the index after the closing quote. */
function doubleQuoted(line: string, open: number, append: (text: string) => void): number {
  let i = open + 1;
  while (i < line.length) {
    const c = line[i]!;
    if (c === '"') return i + 1;
    if (c === "\\") {
      const next = line[i + 1];
      if (next !== undefined && DOUBLE_QUOTE_ESCAPES.has(next)) append(next);
      else if (next !== "\n") append(`\\${next ?? ""}`);
      i += 2;
    } else if (c === "$" || c === "`") {
      throw refuse(`${JSON.stringify(c)} inside "…" is expanded by a shell`, i);
    } else {
      append(c);
      i++;
    }
  }
  throw new CommandWordsError(`the " at character ${open + 1} is never closed`);
}
