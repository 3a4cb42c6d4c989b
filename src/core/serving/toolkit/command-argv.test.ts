import { describe, expect, it } from "vitest";
import { buildArgv } from "./command-argv.ts";
import type { CommandImpl } from "./toolkit-types.ts";

const impl: CommandImpl = { kind: "command", argv: ["git", "log"], positionals: ["path"], timeoutMs: 1000, env: {} };
const schema = { type: "object", properties: { path: {}, max: {}, oneline: {}, author: {}, all: {}, weird: {}, "bad name": {} } };

describe("buildArgv", () => {
  it("puts flags first, then -- and the positionals", () => {
    expect(buildArgv(impl, schema, { path: "src", max: 5, oneline: true, all: false })).toEqual({
      ok: true,
      argv: ["git", "log", "--max=5", "--oneline", "--no-all", "--", "src"],
    });
  });

  it("repeats array flags and spreads array positionals; null and absent values are left out", () => {
    expect(buildArgv(impl, schema, { author: ["a", "b"], path: ["x", "y"], max: null })).toEqual({
      ok: true,
      argv: ["git", "log", "--author=a", "--author=b", "--", "x", "y"],
    });
    expect(buildArgv(impl, schema, undefined)).toEqual({ ok: true, argv: ["git", "log"] });
  });

  it("keeps a value that looks like a flag as data: it is joined with = or placed after --", () => {
    expect(buildArgv(impl, schema, { author: "--exec=rm", path: "-rf" })).toEqual({ ok: true, argv: ["git", "log", "--author=--exec=rm", "--", "-rf"] });
  });

  it("refuses what it cannot map, with the reason", () => {
    expect(buildArgv(impl, schema, { nope: 1 })).toEqual({ ok: false, error: 'unknown argument "nope": the tool\'s input schema does not declare it' });
    expect(buildArgv(impl, schema, { weird: { a: 1 } })).toEqual({ ok: false, error: '"weird" must be a string, number or boolean here, not object' });
    expect(buildArgv(impl, schema, { path: [["nested"]] })).toEqual({ ok: false, error: '"path" must be a string, number or boolean here, not an array' });
    expect(buildArgv(impl, schema, { "bad name": "x" })).toEqual({ ok: false, error: 'argument "bad name" cannot be a command-line flag name' });
    expect(buildArgv(impl, schema, [1])).toEqual({ ok: false, error: "the arguments must be a JSON object" });
    expect(buildArgv(impl, schema, { __proto__: "x" })).toMatchObject({ ok: true });
    expect(buildArgv(impl, schema, JSON.parse('{"__proto__": "x"}'))).toEqual({ ok: false, error: 'unknown argument "__proto__": the tool\'s input schema does not declare it' });
  });
});
