import { describe, expect, it } from "vitest";
import { expandTemplate, parseTemplate, templateVariables } from "./uri-template.ts";

// The variable values of RFC 6570's own examples (section 3.2).
const values = { var: "value", hello: "Hello World!", path: "/foo/bar", empty: "", x: "1024", y: "768", undef: undefined };

function expanded(template: string, vars: Record<string, string | undefined> = values): string {
  const result = expandTemplate(template, vars);
  if (!result.ok) throw new Error(result.error);
  return result.uri;
}

describe("expandTemplate, level 1", () => {
  it("substitutes each {var}, percent-encoding all but unreserved characters", () => {
    expect(expanded("demo://resource/dynamic/text/{resourceId}", { resourceId: "3" })).toBe("demo://resource/dynamic/text/3");
    expect(expanded("{var}")).toBe("value");
    expect(expanded("{hello}")).toBe("Hello%20World%21");
    expect(expanded("x://{a}/{b}", { a: "a/b?c#d", b: "é ~-._*'()" })).toBe("x://a%2Fb%3Fc%23d/%C3%A9%20~-._%2A%27%28%29");
    expect(expanded("{v}", { v: "50%" })).toBe("50%25");
  });

  it("expands an undefined variable to nothing and keeps literals as they are", () => {
    expect(expanded("file:///{undef}x")).toBe("file:///x");
    expect(expanded("no expressions at all")).toBe("no expressions at all");
    expect(expanded("{empty}")).toBe("");
  });

  it("encodes characters outside the BMP as their UTF-8 bytes", () => {
    expect(expanded("{v}", { v: "😀" })).toBe("%F0%9F%98%80");
  });
});

describe("expandTemplate, levels 2 and 3", () => {
  it.each([
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["here?ref={+path}", "here?ref=/foo/bar"],
    ["{#var}", "#value"],
    ["{#hello}", "#Hello%20World!"],
    ["map?{x,y}", "map?1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["X{.var}", "X.value"],
    ["X{.x,y}", "X.1024.768"],
    ["{/var}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{;x,y}", ";x=1024;y=768"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y}", "?x=1024&y=768"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{&x,y,empty}", "&x=1024&y=768&empty="],
    ["{x,undef,y}", "1024,768"],
    ["{?undef}", ""],
    ["{var:3}", "val"],
    ["{var:30}", "value"],
    ["{+path:6}/here", "/foo/b/here"],
    ["{var*}", "value"],
  ])("%s gives %s", (template, want) => {
    expect(expanded(template)).toBe(want);
  });

  it("keeps pct-encoded triplets under + and encodes a bare percent sign", () => {
    expect(expanded("{+v}", { v: "a%2Fb%zz" })).toBe("a%2Fb%25zz");
  });
});

describe("malformed templates", () => {
  it.each([
    ["x://{id", 'The "{" at character 5 is never closed.'],
    ["x://{a{b}}", 'The "{" at character 5 is never closed.'],
    ["x://a}", 'The template has a "}" without a matching "{" at character 6.'],
    ["x://{}", 'The expression at character 5 has a malformed variable "".'],
    ["x://{a b}", 'The expression at character 5 has a malformed variable "a b".'],
    ["x://{a,}", 'The expression at character 5 has a malformed variable "".'],
    ["x://{=a}", 'The expression at character 5 uses the operator "=", which RFC 6570 reserves for future use.'],
    ["x://{a:0}", "The variable a has a prefix length of 0; it must be 1 to 9999."],
    ["x://{a:10000}", 'The expression at character 5 has a malformed variable "a:10000".'],
  ])("%s: %s", (template, error) => {
    expect(expandTemplate(template, { a: "1" })).toEqual({ ok: false, error });
    expect(parseTemplate(template).ok).toBe(false);
    expect(templateVariables(template)).toEqual([]);
  });

  it("refuses a value no URI can carry, instead of throwing", () => {
    expect(expandTemplate("{v}", { v: "a\uD800b" })).toEqual({ ok: false, error: expect.stringContaining("unpaired UTF-16 surrogate") });
  });
});

describe("templateVariables", () => {
  it("names each variable once, in order, with the operator it first appears under", () => {
    expect(templateVariables("x://{a}/{+b}{?c,a,d:3}{#e*}")).toEqual([
      { name: "a", operator: "" },
      { name: "b", operator: "+" },
      { name: "c", operator: "?" },
      { name: "d", operator: "?" },
      { name: "e", operator: "#" },
    ]);
    expect(templateVariables("x://static")).toEqual([]);
    expect(templateVariables("{var.name}/{%41b}")).toEqual([
      { name: "var.name", operator: "" },
      { name: "%41b", operator: "" },
    ]);
  });
});
