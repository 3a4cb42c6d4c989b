import { describe, expect, it } from "vitest";
import { mcpResult } from "./mcp-result.ts";
import type { ToolRun } from "./tool-run.ts";

const ran = (text: string, exitCode = 0, truncated = false): ToolRun => ({ kind: "ran", commandLine: "tool --x", exitCode, signal: null, output: { text, truncated } });

describe("mcpResult", () => {
  it("a command that ran is a success carrying its exit code, also when non-zero", () => {
    const result = mcpResult(ran("boom\n", 4));
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content[0]!.text)).toEqual({ command: "tool --x", exit_code: 4, output: "boom\n" });
    expect(JSON.parse(mcpResult(ran("x", 0, true)).content[0]!.text)).toMatchObject({ truncated: true });
  });

  it("only a harness failure is isError; in-process text passes through with its structured content", () => {
    expect(mcpResult({ kind: "harness-error", reason: "timeout", message: "too slow" })).toEqual({ content: [{ type: "text", text: "too slow" }], isError: true });
    expect(mcpResult({ kind: "text", text: "5", structured: { sum: 5 } })).toEqual({ content: [{ type: "text", text: "5" }], isError: false, structuredContent: { sum: 5 } });
  });

  it("a command tool with an outputSchema gives its JSON object output as structured content, or says why it cannot", () => {
    expect(mcpResult(ran('{"files": 3}'), { outputSchema: true })).toEqual({ content: [{ type: "text", text: '{"files": 3}' }], isError: false, structuredContent: { files: 3 } });
    const notJson = mcpResult(ran("plain text", 2), { outputSchema: true });
    expect(notJson.isError).toBe(true);
    expect(notJson.content[0]!.text).toBe("tool --x declares an outputSchema, but its output is not a JSON object (exit code 2): plain text");
    expect(mcpResult(ran("[1]"), { outputSchema: true }).isError).toBe(true);
    expect(mcpResult(ran('{"a":1}', 0, true), { outputSchema: true }).content[0]!.text).toContain("was cut at the output cap");
  });
});
