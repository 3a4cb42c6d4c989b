import { describe, expect, it } from "vitest";
import { commandWords, CommandWordsError } from "./command-words.ts";

describe("commandWords", () => {
  it("splits on any run of whitespace", () => {
    expect(commandWords("  npx  -y\t@modelcontextprotocol/server-everything \n stdio ")).toEqual(["npx", "-y", "@modelcontextprotocol/server-everything", "stdio"]);
  });

  it("keeps quoted text as one word, literally in single quotes", () => {
    expect(commandWords(`node 'my server.js' '$HOME' 'a"b'`)).toEqual(["node", "my server.js", "$HOME", 'a"b']);
  });

  it("reads double quotes with their four escapes and keeps other backslashes", () => {
    expect(commandWords(String.raw`run "a \"b\" \\ \$ \` c\d"`)).toEqual(["run", 'a "b" \\ $ ` c\\d']);
  });

  it("joins adjacent quoted and plain parts, and keeps empty quoted words", () => {
    expect(commandWords(`--name='x y'z "" ''`)).toEqual(["--name=x yz", "", ""]);
  });

  it("escapes with a backslash outside quotes and drops a backslash-newline", () => {
    expect(commandWords("a\\ b c\\\n d \\|")).toEqual(["a b", "c", "d", "|"]);
  });

  it.each([
    ["node s.js | tee log", /"\|" is shell syntax at character 11/],
    ["node s.js > out", /">" is shell syntax/],
    ["node s.js; rm x", /";" is shell syntax/],
    ["node $SERVER", /"\$" is shell syntax/],
    ["node `which s`", /"`" is shell syntax/],
    [`node "$HOME/s.js"`, /inside "…" is expanded by a shell/],
    ["~/bin/server", /a leading ~ is expanded by a shell only/],
  ])("refuses what a shell would interpret: %s", (line, message) => {
    expect(() => commandWords(line)).toThrow(message);
    expect(() => commandWords(line)).toThrow(/started without a shell/);
  });

  it("passes a ~ inside a word and quoted shell syntax through", () => {
    expect(commandWords("node a~b '|' \"a;b\"")).toEqual(["node", "a~b", "|", "a;b"]);
  });

  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ["node 'oops", /' at character 6 is never closed/],
    ['node "oops', /" at character 6 is never closed/],
    ["node \\", /lone backslash/],
    ["node a\0b", /NUL/],
  ])("refuses a malformed command %j", (line, message) => {
    expect(() => commandWords(line)).toThrow(CommandWordsError);
    expect(() => commandWords(line)).toThrow(message);
  });
});
