import { describe, expect, it } from "vitest";
import { DEFAULT_SERVE_PORT } from "../serving/start-options.ts";
import { parseServeArgs, ServeUsageError } from "./serve.ts";

describe("parseServeArgs", () => {
  it("reads the mode, the toolkit and every option", () => {
    expect(parseServeArgs(["--stdio"])).toEqual({ mode: "stdio", port: DEFAULT_SERVE_PORT });
    expect(parseServeArgs(["--http", "--port", "0", "kit.yaml", "--confirm", "always", "--concurrency", "4", "--timeout", "5000", "--no-fixtures"])).toEqual({
      mode: "http",
      port: 0,
      toolkitPath: "kit.yaml",
      confirmMode: "always",
      concurrency: 4,
      timeoutMs: 5000,
      fixtures: false,
    });
    expect(parseServeArgs(["kit.json", "--stdio", "--fixtures"])).toMatchObject({ toolkitPath: "kit.json", fixtures: true });
  });

  it.each<[string[], string]>([
    [[], "choose --stdio (for Claude Desktop and other clients that start Patchbay) or --http (for the MCP Inspector's URL form)"],
    [["--stdio", "--http"], "choose one of --stdio and --http"],
    [["--stdio", "--port"], "--port needs a value"],
    [["--http", "--port", "99999"], '--port must be a whole number from 0 to 65535, got "99999"'],
    [["--stdio", "--concurrency", "0"], '--concurrency must be a whole number from 1 to 64, got "0"'],
    [["--stdio", "--confirm", "maybe"], "--confirm must be one of auto, always, never"],
    [["--stdio", "--confirm"], "--confirm must be one of auto, always, never"],
    [
      ["--stdio", "--confirm", "operator"],
      "--confirm operator needs the Patchbay console to approve each call, and 'patchbay serve' has none; start the agent from the Serve workbench ('patchbay start') for that, or choose auto, always or never",
    ],
    [
      ["--http", "--confirm", "operator"],
      "--confirm operator needs the Patchbay console to approve each call, and 'patchbay serve' has none; start the agent from the Serve workbench ('patchbay start') for that, or choose auto, always or never",
    ],
    [["--stdio", "--frob"], "unknown option '--frob'"],
    [["--stdio", "a.json", "b.json"], "unexpected argument 'b.json': give at most one toolkit file"],
  ])("refuses %j", (args, message) => {
    expect(() => parseServeArgs(args)).toThrow(new ServeUsageError(message));
  });
});
