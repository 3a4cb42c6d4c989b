/**
 * `patchbay serve` as a real process, built the way `bin/patchbay.mjs` runs it (the bundled CLI
 * from vite.server.config.ts, whose `main` the bin hands its arguments to): the official SDK
 * client over stdio, stdout carrying MCP frames only, a toolkit file, and the --http form.
 * The bundle is built into a private folder, never into the shared dist/.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
let root: string;
let cli: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "patchbay-serve-"));
  // The bundle keeps packages external; they resolve through this link, as from the package root.
  await symlink(join(repo, "node_modules"), join(root, "node_modules"), "dir");
  const out = join(root, "dist");
  await mkdir(out);
  await build({ configFile: join(repo, "vite.server.config.ts"), logLevel: "silent", build: { outDir: out } });
  cli = join(out, "cli.js");
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

const textOf = (result: object) => ((result as { content: { text?: string }[] }).content[0]?.text ?? "");

async function stdioClient(args: string[], capabilities = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, "serve", "--stdio", ...args], cwd: root, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "serve-stdio-test", version: "0" }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

function run(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("patchbay serve --stdio", () => {
  it("serves the demo agent with its fixtures to the SDK client", async () => {
    const { client, stderr } = await stdioClient([]);
    expect(client.getServerVersion()?.name).toBe("patchbay-demo");
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "add", "sleep", "fail", "large-output", "slow", "confirm", "test_simple_text", "test_sampling"]));
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "over stdio" } }))).toBe("over stdio");
    expect(textOf(await client.callTool({ name: "confirm", arguments: { action: "go" } }))).toBe("done: go");
    expect((await client.readResource({ uri: "test://static-text" })).contents).toHaveLength(1);
    await until(() => stderr().includes("running confirm without approval"), "the approval warning on stderr");
    expect(stderr()).toMatch(/\[patchbay\] info {2}serving over MCP on stdio/);
  });

  it("keeps stdout for MCP frames only, and exits 0 when stdin closes", async () => {
    const proc = run(["serve", "--stdio", "--confirm", "always"]);
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "confirm", arguments: { action: "x" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "last" } } },
    ];
    for (const line of lines) proc.child.stdin!.write(`${JSON.stringify(line)}\n`);
    proc.child.stdin!.write("this is not json\n");
    await until(() => proc.out().includes('"text":"last"'), "the echo result");
    proc.child.stdin!.end();
    expect(await proc.exit).toBe(0);
    const frames = proc.out().trimEnd().split("\n").map((line) => JSON.parse(line) as { jsonrpc: string; id?: number; result?: { isError?: boolean; content: { text: string }[] } });
    expect(frames.every((f) => f.jsonrpc === "2.0")).toBe(true);
    expect(frames.map((f) => f.id)).toEqual([1, 2, 3]);
    expect(frames[1]!.result!.isError).toBe(true);
    expect(frames[1]!.result!.content[0]!.text).toMatch(/cannot be asked/);
    expect(proc.err()).toContain("[patchbay]");
  });

  it("serves a YAML toolkit with a command tool; the log shows the command line", async () => {
    const file = join(root, "kit.yaml");
    await writeFile(
      file,
      [
        "format: patchbay.toolkit",
        "version: 1",
        "name: yaml-kit",
        "tools:",
        "  - name: greet",
        "    description: Greets by name.",
        "    tags: [ai:read_only]",
        "    inputSchema: { type: object, properties: { who: { type: string } }, required: [who], additionalProperties: false }",
        `    run: { command: [${JSON.stringify(process.execPath)}, "-e", "console.log('hi ' + process.argv.at(-1))"], positionals: [who] }`,
        "",
      ].join("\n"),
    );
    const { client, stderr } = await stdioClient([file]);
    expect((await client.listTools()).tools.map((t) => [t.name, t.annotations])).toEqual([["greet", { readOnlyHint: true }]]);
    const result = await client.callTool({ name: "greet", arguments: { who: "ada" } });
    expect(JSON.parse(textOf(result))).toMatchObject({ exit_code: 0, output: "hi ada\n" });
    await until(() => stderr().includes("Running "), "the command line in the log");
    expect(stderr()).toMatch(/Running \S+ -e .* -- ada/);
    expect(stderr()).not.toContain("hi ada");
  });

  it("refuses a missing toolkit file and a missing mode, on stderr only", async () => {
    const missing = run(["serve", "--stdio", "nope.json"]);
    expect(await missing.exit).toBe(1);
    expect(missing.err()).toBe("patchbay serve: cannot read nope.json: no such file\n");
    expect(missing.out()).toBe("");
    const noMode = run(["serve"]);
    expect(await noMode.exit).toBe(2);
    expect(noMode.err()).toMatch(/^patchbay serve: choose --stdio .*, --http .*, --a2a .* or --nats .*Run 'node \S+ serve --help' for usage\.\n$/);
    const help = run(["serve", "--help"]);
    expect(await help.exit).toBe(0);
    expect(help.out()).toMatch(/^Usage: node \S+ serve \(--stdio \| --http \| --a2a \| --nats\)/);
  });
});

describe("patchbay serve --http", () => {
  it("prints the URL for the MCP Inspector's URL form, serves it, and stops on SIGTERM", async () => {
    const proc = run(["serve", "--http", "--port", "0", "--concurrency", "3"]);
    await until(() => /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.test(proc.out()), "the URL on stdout");
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(proc.out())![1]!;
    expect(proc.out()).toBe(`Serving patchbay-demo over MCP (Streamable HTTP) at ${url}\n`);
    const client = new Client({ name: "serve-http-cli", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    clients.push(client);
    expect(textOf(await client.callTool({ name: "echo", arguments: { message: "inspector" } }))).toBe("inspector");
    proc.child.kill("SIGTERM");
    expect(await proc.exit).toBe(0);
  });
});
