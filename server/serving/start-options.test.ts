import { describe, expect, it } from "vitest";
import { HttpError } from "../http/errors.ts";
import { DEFAULT_SERVE_PORT, parseStartOptions } from "./start-options.ts";

const toolkit = {
  format: "patchbay.toolkit",
  version: 1,
  name: "kit",
  tools: [
    { name: "hello", description: "Says hello.", inputSchema: { type: "object" }, run: { builtin: "echo" } },
    { name: "broken", run: { command: [] } },
  ],
};

function refusal(body: unknown): HttpError {
  try {
    parseStartOptions(body);
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("expected a refusal");
}

describe("parseStartOptions", () => {
  it("defaults to the demo toolkit on the default port", () => {
    expect(parseStartOptions({})).toEqual({ options: { port: DEFAULT_SERVE_PORT }, issues: [] });
  });

  it("reads every option; a tool with errors is left out and reported", () => {
    const { options, issues } = parseStartOptions({ port: 0, toolkit, confirmMode: "always", concurrency: 3, timeoutMs: 1000, fixtures: true });
    expect(options).toMatchObject({ port: 0, confirmMode: "always", concurrency: 3, timeoutMs: 1000, fixtures: true });
    expect(options.toolkit!.tools.map((t) => t.name)).toEqual(["hello"]);
    expect(issues).toEqual([
      'warning at /tools/1/inputSchema: is missing: the tool takes {"type": "object"}',
      expect.stringMatching(/^error at \/tools\/1\/run\/command: must be a non-empty list/),
    ]);
  });

  it("accepts confirm mode operator", () => {
    expect(parseStartOptions({ confirmMode: "operator" }).options.confirmMode).toBe("operator");
  });
  it.each<[unknown, RegExp]>([
    [null, /expected a JSON object/],
    [{ colour: "red" }, /unknown option "colour"/],
    [{ port: 70_000 }, /"port" must be a whole number from 0 to 65535/],
    [{ port: "80" }, /"port" must be a whole number/],
    [{ concurrency: 0 }, /"concurrency" must be a whole number from 1 to 64/],
    [{ confirmMode: "sometimes" }, /"confirmMode" must be one of auto, always, never, operator$/],
    [{ confirmMode: 1 }, /"confirmMode" must be one of/],
    [{ fixtures: "yes" }, /"fixtures" must be true or false/],
    [{ toolkit: { format: "other" } }, /^the toolkit cannot be served: error at \/format/],
  ])("refuses %j", (body, message) => {
    const error = refusal(body);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });
});
