import { afterAll, describe, expect, it } from "vitest";
import { createValidationEngine } from "../../../core/packs/index.ts";
import { inProcessWorker } from "../validate/fake-worker.ts";
import { ValidationClient } from "../validate/validation-client.ts";
import { ToolLintState, type SchemaChecker } from "./tool-lint-state.svelte.ts";

const client = new ValidationClient(() => inProcessWorker(createValidationEngine));
afterAll(() => client.dispose());

const good = { name: "ok", description: "Fine", inputSchema: { type: "object", properties: { a: { type: "string", description: "A" } }, additionalProperties: false } };
const bad = { name: "bad name", inputSchema: { type: "object", properties: { a: { type: "strin", description: "A" } }, additionalProperties: false } };

function stateFor(tools: Record<string, unknown>[], checker: SchemaChecker | undefined = client) {
  let list = tools;
  const state = new ToolLintState(() => list, () => "2025-06-18", checker);
  return { state, replace: (next: Record<string, unknown>[]) => (list = next) };
}

describe("ToolLintState", () => {
  it("counts each tool's findings, with duplicate names found across the list", () => {
    const twin = { ...good };
    const { state, replace } = stateFor([good, bad]);
    expect(state.counts(good)).toEqual({ error: 0, warning: 0, info: 0 });
    expect(state.counts(bad)).toEqual({ error: 1, warning: 2, info: 0 });
    replace([good, bad, twin]);
    expect(state.findings(good).map((f) => f.rule)).toEqual(["tool.name-duplicate"]);
    expect(state.findings(twin).map((f) => f.rule)).toEqual(["tool.name-duplicate"]);
  });

  it("caches findings per tool object", () => {
    const { state } = stateFor([bad]);
    expect(state.findings(bad)).toBe(state.findings(bad));
  });

  it("asks the worker whether the schemas compile, and adds its refusal as an error", async () => {
    const { state } = stateFor([good, bad]);
    await state.checkCompiles(bad);
    expect(state.compile).toMatchObject({ status: "done", findings: [{ rule: "schema.invalid", severity: "error", pointer: "/inputSchema", message: expect.stringContaining("does not compile") }] });
    expect(state.allFindings(bad)[0]?.rule).toBe("schema.invalid");
    await state.checkCompiles(good);
    expect(state.compile).toEqual({ status: "done", findings: [] });
    expect(state.allFindings(good)).toEqual([]);
  });

  it("asks only once per tool, and not at all without a worker", async () => {
    let asked = 0;
    const counting: SchemaChecker = { checkSchema: async (...args) => (asked++, client.checkSchema(...args)) };
    const { state } = stateFor([good], counting);
    await state.checkCompiles(good);
    await state.checkCompiles(good);
    expect(asked).toBe(1);
    const none = new ToolLintState(() => [good], () => "2025-06-18");
    await none.checkCompiles(good);
    expect(none.compile).toBeNull();
  });

  it("says so when the worker cannot answer, and keeps the newest question's answer", async () => {
    const broken: SchemaChecker = { checkSchema: async () => Promise.reject(new Error("The validation worker stopped: blocked.")) };
    const { state } = stateFor([good], broken);
    await state.checkCompiles(good);
    expect(state.compile).toEqual({ status: "failed", message: "Whether the schemas compile could not be checked: The validation worker stopped: blocked." });
    let release: () => void = () => {};
    const slow: SchemaChecker = { checkSchema: () => new Promise((r) => (release = () => r([{ pointer: "/inputSchema", message: "late", severity: "warning", source: "tool-schema", keyword: "$schema" }]))) };
    const racing = stateFor([good, bad], slow).state;
    const first = racing.checkCompiles(bad);
    await racing.checkCompiles(undefined);
    release();
    await first;
    expect(racing.compile).toBeNull();
  });

  it("does not send a schema too large for the worker to compile, and says so", async () => {
    let asked = 0;
    const counting: SchemaChecker = { checkSchema: async () => (asked++, []) };
    const properties = Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`property_${i}`, { type: "string", description: "a property of the tool" }]));
    const huge = { name: "huge", description: "d", inputSchema: { type: "object", properties } };
    const { state } = stateFor([huge], counting);
    await state.checkCompiles(huge);
    expect(asked).toBe(0);
    expect(state.compile).toMatchObject({ status: "done", findings: [{ severity: "info", message: "The inputSchema is too large for this console to compile, so only the lint looked at it." }] });
  });
});
