import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../core/schema/compiler.ts";
import { evalAllowed, pageCompiler, UncheckedCompiler } from "./page-compiler.ts";

describe("pageCompiler", () => {
  it("uses ajv where code generation is allowed, and says when results go unchecked", () => {
    expect(evalAllowed()).toBe(true);
    const checked = pageCompiler(true);
    expect(checked.checksResults).toBe(true);
    expect(checked.compiler).not.toBeInstanceOf(UncheckedCompiler);
    expect(checked.compiler.checkDynamic({ type: "number" }, "x", "", "2020-12").length).toBeGreaterThan(0);
    const unchecked = pageCompiler(false);
    expect(unchecked.checksResults).toBe(false);
    expect(unchecked.compiler).toBeInstanceOf(SchemaCompiler);
    expect(unchecked.compiler.checkDynamic({ type: "number" }, "x", "", "2020-12")).toEqual([]);
  });
});
