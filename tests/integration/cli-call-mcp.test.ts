/**
 * `patchbay call mcp` against real servers: server-everything started over stdio by the command
 * (and over legacy SSE, reached by the fallback from Streamable HTTP), and Patchbay's own served
 * demo agent over Streamable HTTP. The exit status says how the call ended; stderr names why.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../server/nats/free-port.ts";
import { startMcpServing, type McpServing } from "../../server/serving/mcp-engine.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { runCli } from "../helpers/http-client.ts";
import { EVERYTHING_JS, LOOPBACK_IMPORT } from "../helpers/everything-server.ts";

const EVERYTHING = EVERYTHING_JS;
const STDIO = `'${process.execPath}' '${EVERYTHING}' stdio`;
const ODD = `'${process.execPath}' '${fileURLToPath(new URL("../fixtures/mcp/odd-results-server.mjs", import.meta.url))}'`;

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
}

async function call(args: string[], env: Record<string, string> = {}) {
  const cli = runCli(["call", "mcp", ...args], env);
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

let served: McpServing;
/** The texts of the frames the served agent saw, to know when a call has reached it. */
const servedFrames: string[] = [];
const children: ChildProcess[] = [];
beforeAll(async () => {
  served = await startMcpServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger, onFrame: (f) => servedFrames.push(f.text) });
});
afterAll(async () => {
  await served?.close();
  for (const child of children) child.kill("SIGKILL");
});

describe("patchbay call mcp over stdio (server-everything)", () => {
  it("calls echo and prints its text; names the server and transport on stderr", async () => {
    const r = await call([STDIO, "echo", '{"message": "hello there"}']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("Echo: hello there\n");
    expect(r.err).toMatch(/^server mcp-servers\/everything \S+: MCP 2025-11-25 over stdio: /m);
  });

  it("--json prints the tools/call result as received, as parseable JSON", async () => {
    const r = await call([STDIO, "echo", '{"message": "raw"}', "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ content: [{ type: "text", text: "Echo: raw" }] });
  });

  it("prints structuredContent as JSON after the text", async () => {
    const r = await call([STDIO, "get-structured-content", '{"location": "Chicago"}']);
    expect(r.code, r.err).toBe(0);
    const json = r.out.slice(r.out.indexOf("\n{") + 1);
    expect(JSON.parse(json)).toMatchObject({ temperature: 36, humidity: 82 });
  });

  it("--list prints every tool with its description; --list --json the tools as listed", async () => {
    const r = await call([STDIO, "--list"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^echo +Echoes back the input string$/m);
    expect(r.out).toMatch(/^get-sum +/m);
    const raw = await call([STDIO, "--list", "--json"]);
    const tools = (JSON.parse(raw.out) as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools.find((t) => t.name === "echo")?.inputSchema).toMatchObject({ type: "object", required: ["message"] });
  });

  it("refuses arguments that break the inputSchema before sending, naming each pointer; --no-check sends them and the server says isError", async () => {
    const refused = await call([STDIO, "get-sum", '{"a": "one", "b": 2, "c": 3}']);
    expect(refused.code).toBe(1);
    expect(refused.out).toBe("");
    expect(refused.err).toMatch(/call mcp: not sent: the arguments do not meet the inputSchema of get-sum/);
    expect(refused.err).toMatch(/^ {2}\/a: .*number/m);
    const missing = await call([STDIO, "echo"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^ {2}\(the arguments\): .*message/m);
    const sent = await call([STDIO, "get-sum", '{"a": "one", "b": 2}', "--no-check"]);
    expect(sent.code).toBe(1);
    expect(sent.out).toMatch(/Input validation error|expected number/i);
    expect(sent.err).toMatch(/call mcp: get-sum reported an error \(isError: true in its result\)/);
  });

  it("names an unknown tool with the tools the server lists; unchecked, the server's own refusal", async () => {
    const r = await call([STDIO, "no-such-tool", "{}"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the server has no tool "no-such-tool"; it lists .*\becho\b.*\bget-sum\b/);
    // server-everything (an McpServer) answers an unknown tool with a tool error, not a JSON-RPC one.
    const unchecked = await call([STDIO, "no-such-tool", "{}", "--no-check"]);
    expect(unchecked.code).toBe(1);
    expect(unchecked.out).toMatch(/Tool no-such-tool not found/);
    expect(unchecked.err).toContain("call mcp: no-such-tool reported an error (isError: true in its result)");
  });

  it("a JSON-RPC error is exit 1 with its code and message (--json: the error object); a broken result or structuredContent is named", async () => {
    const refused = await call([ODD, "locked", "{}"]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("call mcp: the server refused tools/call with JSON-RPC error -32042: the vault is locked");
    const raw = await call([ODD, "locked", "{}", "--json"]);
    expect(JSON.parse(raw.out)).toEqual({ code: -32042, message: "the vault is locked", data: { retryAfter: "never" } });
    const weather = await call([ODD, "weather", "{}"]);
    expect(weather.code).toBe(1);
    expect(weather.out).toContain('"celsius": "warm"');
    expect(weather.err).toMatch(/weather answered, but its structuredContent does not meet the tool's outputSchema:\n {2}\/celsius: /);
    const malformed = await call([ODD, "malformed", "{}"]);
    expect(malformed.code).toBe(1);
    expect(malformed.err).toMatch(/the answer is not a valid CallToolResult of MCP 2025-11-25:\n {2}\/content: /);
    const fine = await call([ODD, "fine"]);
    expect([fine.code, fine.out]).toEqual([0, "fine\n"]);
  });

  it.each([
    [["{nope"], /the tool arguments are not JSON \(.*\); give an object/],
    [["[1, 2]"], /the tool arguments must be a JSON object, got an array/],
    [['"text"'], /must be a JSON object, got string/],
  ])("bad JSON arguments %j are a usage error (exit 2): nothing is started", async (extra, message) => {
    const r = await call([STDIO, "echo", ...extra]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/^server /m);
  });

  it("names a command that is not found, and one that is not an MCP server", async () => {
    const missing = await call(["no-such-command-xyz --flag", "echo", "{}"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/cannot start "no-such-command-xyz --flag" as an MCP server: .*"no-such-command-xyz" was not found \(ENOENT\)/);
    const notMcp = await call([`'${process.execPath}' -e "console.log('hello'); console.error('oops')"`, "echo", "{}", "--timeout", "5000"]);
    expect(notMcp.code).toBe(1);
    expect(notMcp.err).toMatch(/not JSON-RPC: hello.*not an MCP server/s);
    expect(notMcp.err).toMatch(/the server's last stderr lines:\n {2}oops/);
  });
});

describe("patchbay call mcp over HTTP", () => {
  it("calls Patchbay's served demo agent over Streamable HTTP: echo, add with structuredContent", async () => {
    const echo = await call([served.url, "echo", '{"message": "served"}']);
    expect([echo.code, echo.out]).toEqual([0, "served\n"]);
    expect(echo.err).toContain(`over Streamable HTTP at ${served.url}`);
    const add = await call([served.url, "add", '{"a": 2, "b": 3}', "--json"]);
    expect(add.code, add.err).toBe(0);
    expect(JSON.parse(add.out)).toMatchObject({ structuredContent: { sum: 5 }, isError: false });
  });

  it("--era auto and --era modern reach the served agent in 2026-07-28; the default stays legacy", async () => {
    for (const era of ["auto", "modern"]) {
      const before = servedFrames.length;
      const r = await call([served.url, "add", '{"a": 2, "b": 5}', "--json", "--era", era]);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ structuredContent: { sum: 7 } });
      expect(r.err).toContain("MCP 2026-07-28");
      const methods = servedFrames.slice(before).map((t) => (JSON.parse(t) as { method?: string }).method);
      expect(methods).toContain("server/discover");
      expect(methods).not.toContain("initialize");
    }
    const before = servedFrames.length;
    const legacy = await call([served.url, "add", '{"a": 1, "b": 1}']);
    expect(legacy.code, legacy.err).toBe(0);
    expect(servedFrames.slice(before).map((t) => (JSON.parse(t) as { method?: string }).method)).toContain("initialize");
  });

  it("a harness failure of the served tool is isError: exit 1, named; a command's non-zero exit is the tool's answer, exit 0", async () => {
    const bad = await call([served.url, "echo", '{"message": 5}', "--no-check"]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('"message" must be a string');
    expect(bad.err).toContain("call mcp: echo reported an error (isError: true in its result)");
    const fail = await call([served.url, "fail", '{"exit_code": 3}']);
    expect(fail.code, fail.err).toBe(0);
    expect(JSON.parse(fail.out)).toMatchObject({ command: "fail 3", exit_code: 3 });
  });

  it("a token from --token-env is sent but never printed; an unset variable is a usage error", async () => {
    const r = await call([served.url, "echo", '{"message": "x"}', "--token-env", "MY_TOKEN", "-H", "X-Trace: 1"], { MY_TOKEN: "s3cret-value" });
    expect(r.code, r.err).toBe(0);
    expect(r.out + r.err).not.toContain("s3cret-value");
    const unset = await call([served.url, "echo", "{}", "--token-env", "MY_TOKEN"]);
    expect(unset.code).toBe(2);
    expect(unset.err).toMatch(/the environment variable MY_TOKEN is not set or empty/);
  });

  it("falls back to legacy HTTP+SSE when the server refuses Streamable HTTP's POST", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...LOOPBACK_IMPORT, EVERYTHING, "sse"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let said = "";
      child.stderr!.on("data", (d: Buffer) => ((said += d.toString()), /running on port/.test(said) && resolve()));
      child.once("exit", (code) => reject(new Error(`server-everything sse exited (${code}): ${said}`)));
    });
    const url = `http://127.0.0.1:${port}/sse`;
    const r = await call([url, "echo", '{"message": "old transport"}']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("Echo: old transport\n");
    expect(r.err).toMatch(/answered 404 to Streamable HTTP; trying the legacy HTTP\+SSE transport/);
    expect(r.err).toContain(`over HTTP+SSE (legacy) at ${url}`);
    const strict = await call([url, "echo", '{"message": "x"}', "--transport", "streamable-http"]);
    expect(strict.code).toBe(1);
    expect(strict.err).toMatch(/cannot connect to .* over Streamable HTTP: .*404/);
  });

  it("an interrupt (Ctrl-C) cancels the call: exit 1, named, and the session is ended on the server", async () => {
    const cli = runCli(["call", "mcp", served.url, "slow", '{"seconds": 20}']);
    // Interrupt once the call itself reached the server, not while the tools are still being listed.
    await until(() => served.sessionCount() === 1 && servedFrames.some((t) => t.includes('"tools/call"') && t.includes('"slow"')));
    cli.stop();
    expect(await cli.done).toBe(1);
    expect(cli.stderr.join("")).toContain("call mcp: cancelled before slow answered");
    await until(() => served.sessionCount() === 0);
  });

  it("names an unreachable server", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const r = await call([url, "echo", "{}"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`call mcp: cannot connect to ${url} over Streamable HTTP: tcp: 127.0.0.1:`);
    expect(r.err).toContain("could not be reached (ECONNREFUSED)");
  });
});

describe("patchbay call mcp usage errors", () => {
  it.each([
    [[], /give the server/],
    [[STDIO], /give the tool to call after the server, or --list/],
    [[STDIO, "--list", "echo"], /--list takes no tool/],
    [[STDIO, "echo", "{}", "{}"], /give the arguments as one JSON object/],
    [[STDIO, "echo", "-H", "X: 1"], /-H applies to a server at a URL/],
    [["node server.js | tee log", "echo"], /"\|" is shell syntax .* started without a shell/],
    [["ws://127.0.0.1/mcp", "echo"], /only http\(s\) URLs are MCP servers here/],
    [["http://x/mcp", "echo", "--transport", "ws"], /--transport must be streamable-http or sse/],
    [["http://x/mcp", "echo", "--timeout", "5"], /--timeout must be milliseconds/],
    [["http://x/mcp", "echo", "--frob"], /unknown option '--frob'/],
    [["http://x/mcp", "echo", "--era", "newest"], /--era must be legacy, modern or auto, got "newest"/],
    [["http://x/mcp", "echo", "--era"], /--era must be legacy, modern or auto(?!, got)/],
  ])("refuses %j with exit 2", async (args, message) => {
    const r = await call(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).toContain("Run '");
  });
});
