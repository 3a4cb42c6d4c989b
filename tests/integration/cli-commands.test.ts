import { describe, expect, it } from "vitest";
import { mainUsage, startUsage } from "../../server/cli/usage.ts";

/** How the help names the command when run from the clone's root, as these tests are. */
const PROG = "node bin/patchbay.mjs";
const MAIN_USAGE = mainUsage(PROG);
const START_USAGE = startUsage(PROG);
import { runCli } from "../helpers/http-client.ts";

async function run(...args: string[]) {
  const cli = runCli(args);
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

describe("help", () => {
  it.each([[], ["--help"], ["-h"], ["help"]])("%j prints the main usage and exits 0", async (...args) => {
    const { code, out, err } = await run(...args);
    expect(code).toBe(0);
    expect(out).toBe(MAIN_USAGE);
    expect(err).toBe("");
  });

  it.each([["start", "--help"], ["start", "-h"], ["help", "start"], ["start", "--port", "1", "--help"]])(
    "%j prints the start usage and exits 0 without starting",
    async (...args) => {
      const { code, out } = await run(...args);
      expect(code).toBe(0);
      expect(out).toBe(START_USAGE);
    },
  );

  it("the main usage lists every command and announces none as coming", () => {
    expect(MAIN_USAGE).toMatch(/^\s+start\s/m);
    expect(MAIN_USAGE).toMatch(/^\s+validate\s/m);
    expect(MAIN_USAGE).toMatch(/^\s+serve\s/m);
    expect(MAIN_USAGE).toMatch(/^\s+run\s/m);
    expect(MAIN_USAGE).not.toContain("not available");
  });

  it("the start usage documents every option and the default port", () => {
    for (const option of ["--host", "--port", "--workspace", "--nats-url", "--no-nats", "--allow-origin", "--max-body", "--dist", "--dangerously-expose"]) {
      expect(START_USAGE).toContain(option);
    }
    expect(START_USAGE).toContain("default 7420");
  });

  it("--version prints the package version", async () => {
    const { code, out } = await run("--version");
    expect(code).toBe(0);
    expect(out).toMatch(/^patchbay \d+\.\d+\.\d+/);
  });
});

describe("bad arguments exit 2 with one line and a usage hint", () => {
  it.each([
    [["frobnicate"], "patchbay: unknown command 'frobnicate'. Run 'node bin/patchbay.mjs --help' for usage."],
    [["--frob"], "patchbay: unknown option '--frob'. Run 'node bin/patchbay.mjs --help' for usage."],
    [["help", "nope"], "patchbay: unknown command 'nope'. Run 'node bin/patchbay.mjs --help' for usage."],
    [["serve", "x"], "patchbay serve: choose --stdio (for Claude Desktop and other clients that start Patchbay), --http (for the MCP Inspector's URL form), --a2a (an A2A agent over HTTP) or --nats (a fisk-ai agent over NATS). Run 'node bin/patchbay.mjs serve --help' for usage."],
    [["run"], "patchbay run: give one collection: a file, or the name of one in the workspace (got 0). Run 'node bin/patchbay.mjs run --help' for usage."],
    [["run", "c.json", "--target", "x"], `patchbay run: --target needs NAME=VALUE (a target of the collection and its URL, command or server), got "x". Run 'node bin/patchbay.mjs run --help' for usage.`],
    [["start", "--frob"], "patchbay start: unknown option '--frob'. Run 'node bin/patchbay.mjs start --help' for usage."],
    [["start", "extra"], "patchbay start: unexpected argument 'extra'. Run 'node bin/patchbay.mjs start --help' for usage."],
    [["start", "--port"], "patchbay start: --port needs a value. Run 'node bin/patchbay.mjs start --help' for usage."],
    [["start", "--port", "http"], `patchbay start: --port must be a port number from 0 to 65535, got "http". Run 'node bin/patchbay.mjs start --help' for usage.`],
    [["start", "--no-nats=yes"], "patchbay start: --no-nats takes no value. Run 'node bin/patchbay.mjs start --help' for usage."],
  ])("%j", async (args, line) => {
    const { code, out, err } = await run(...args);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toBe(`${line}\n`);
  });

  it("refuses a wildcard host in one line that names the flag", async () => {
    const { code, err } = await run("start", "--host", "0.0.0.0");
    expect(code).toBe(2);
    expect(err.trim().split("\n")).toHaveLength(1);
    expect(err).toMatch(/refusing to listen on 0\.0\.0\.0.*--dangerously-expose/);
  });
});
