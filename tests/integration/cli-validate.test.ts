import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { binPath } from "../../server/paths.ts";
import { validateUsage } from "../../server/cli/usage.ts";
import type { ValidationReport } from "../../src/core/validation/index.ts";
import { runCli } from "../helpers/http-client.ts";

let dir: string;

async function run(args: string[], stdin?: string) {
  const cli = runCli(["validate", ...args], {}, { cwd: dir, ...(stdin !== undefined && { stdin: async () => stdin }) });
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

const fiskHeader = (protocol: string, sender = "console-1") => ({
  protocol,
  id: "3qa7yEeeby3abP3E2Zs8IQ9Y7aJ",
  request: "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3",
  conversation: "3Ky9Pf34qY6Nb3wWD25RQ4F5ZR3",
  sequence: 0,
  time: "2026-08-21T09:14:03.512309871Z",
  sender: { name: sender },
  recipient: { name: "nats-tools" },
});

const MESSAGES = {
  mcpCall: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } },
  mcpCallNoName: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } },
  mcpError: { jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } },
  a2aSend: {
    jsonrpc: "2.0",
    id: "a1",
    method: "message/send",
    params: { message: { kind: "message", messageId: "m1", role: "user", parts: [{ kind: "text", text: "hello" }] } },
  },
  fiskRequest: { ...fiskHeader("io.choria.fisk-ai.v1.tool.request"), name: "stream_info", input: { stream: "ORDERS" } },
  fiskBadSender: { ...fiskHeader("io.choria.fisk-ai.v1.tool.request", ""), name: "stream_info", input: {} },
};

const line = (v: unknown) => JSON.stringify(v);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "patchbay-validate-"));
  const { mcpCall, mcpCallNoName, mcpError, a2aSend, fiskRequest, fiskBadSender } = MESSAGES;
  await writeFile(join(dir, "mixed.jsonl"), [mcpCall, mcpCallNoName, a2aSend, fiskRequest, fiskBadSender].map(line).join("\n") + "\n{not json\n");
  await writeFile(join(dir, "good.jsonl"), [mcpCall, a2aSend, fiskRequest, mcpError].map(line).join("\n"));
  await writeFile(join(dir, "single.json"), JSON.stringify(mcpCallNoName, null, 2));
  const sse = `event: message\ndata: ${line({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } })}\n\n`;
  const har = {
    log: {
      version: "1.2",
      entries: [
        {
          request: { method: "POST", url: "http://localhost:3001/mcp", postData: { mimeType: "application/json", text: line(mcpCall) } },
          response: { status: 200, content: { mimeType: "text/event-stream", text: sse } },
        },
      ],
    },
  };
  await writeFile(join(dir, "session.har"), JSON.stringify(har));
  await writeFile(join(dir, "latin1.json"), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
  await mkdir(join(dir, "folder"));
  const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
  const huge = JSON.stringify({ ...MESSAGES.mcpCall, params: { name: "echo", arguments: { blob: "x".repeat(9 * 1024 * 1024) } } });
  await writeFile(join(dir, "hostile.jsonl"), [line(MESSAGES.mcpCall), deep, huge, "7", line(MESSAGES.a2aSend)].join("\n"));
});

describe("patchbay validate", () => {
  it("prints one line per failed message with file, index, kind and first error, and exits 1", async () => {
    const { code, out, err } = await run(["mixed.jsonl"]);
    expect(code).toBe(1);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^mixed\.jsonl #1 \(line 2\): invalid: tools\/call request, MCP \S+ \(no version declared; .*\): .*"name"/);
    expect(lines[1]).toMatch(/^mixed\.jsonl #4 \(line 5\): invalid: tool\.request, fisk-ai .*\(no version declared; judged by the version nearest to passing\): \/sender\/name/);
    expect(lines[2]).toMatch(/^mixed\.jsonl #5 \(line 6\): unparseable: .*Not JSON.*\(at 6:\d+\)/);
    expect(err).toContain("6 messages in 1 file: 3 valid, 0 valid error responses, 2 invalid, 0 unrecognised, 1 unparseable");
  });

  it("exits 0 when every message is valid; a valid error response counts as passing", async () => {
    const { code, out, err } = await run(["good.jsonl"]);
    expect(out).toBe("");
    expect(err).toContain("4 messages in 1 file: 3 valid, 1 valid error responses, 0 invalid");
    expect(code).toBe(0);
  });

  it("names a single-message file without an index and places the error", async () => {
    const { code, out } = await run(["single.json"]);
    expect(code).toBe(1);
    expect(out).toMatch(/^single\.json: invalid: tools\/call request, MCP .*\(no version declared; .*\): \/params: Missing required property "name"\. \(at 5:13\)\n$/);
  });

  it("reads HAR files, splitting event-stream responses into messages", async () => {
    const { code, err } = await run(["session.har", "--json"]);
    expect(code).toBe(0);
    expect(err).toContain("2 messages in 1 file: 2 valid");
  });

  it("--json prints the full report: inputs, summary and every message's verdict", async () => {
    const { code, out } = await run(["mixed.jsonl", "good.jsonl", "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as ValidationReport;
    expect(report.format).toBe("patchbay.validation-report");
    expect(report.version).toBe(2);
    expect(report.inputs.map((i) => [i.source, i.format, i.messages])).toEqual([
      ["mixed.jsonl", "jsonl", 6],
      ["good.jsonl", "jsonl", 4],
    ]);
    expect(report.summary.total).toBe(10);
    expect(report.summary.byStatus).toEqual({ valid: 6, "error-response": 1, invalid: 2, unrecognised: 0, unparseable: 1 });
    expect(report.summary.byFamily).toEqual({ mcp: 4, a2a: 2, "fisk-ai": 3 });
    const bad = report.messages[1]!;
    expect(bad).toMatchObject({ source: "mixed.jsonl", position: 1, line: 2, status: "invalid", family: "mcp" });
    expect(bad.issues[0]).toMatchObject({ pointer: "/params", severity: "error", line: 1 });
    expect(bad.judgedBy).toMatchObject({ family: "mcp", kindId: "tools/call:request", basis: "evidence" });
    expect(bad.judgedBy?.evidence.length).toBeGreaterThan(0);
    const fisk = report.messages[3]!;
    expect(fisk.judgedBy).toMatchObject({ family: "fisk-ai", basis: "evidence" });
    // tool.request is the same in both generations: the report says it is valid in each.
    expect(fisk.judgedBy?.validIn).toEqual(expect.arrayContaining(["gen2", "gen1-v0.0.3"]));
    expect(report.messages[5]!.judgedBy).toBeNull();
  });

  it("flags a mistyped or undefined method unless --allow-method names it, and --all prints every message", async () => {
    await writeFile(join(dir, "methods.jsonl"), [
      line({ jsonrpc: "2.0", id: 1, method: "tools/calls", params: { name: "echo", arguments: {} } }),
      line({ jsonrpc: "2.0", id: 2, method: "acme/reindex", params: {} }),
    ].join("\n"));
    const strict = await run(["methods.jsonl"]);
    expect(strict.code).toBe(1);
    const lines = strict.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/invalid: tools\/call request, .*\/method: MCP \S+ defines no method "tools\/calls"\. Did you mean "tools\/call"\?/);
    expect(lines[1]).toMatch(/invalid: .*\/method: MCP \S+ defines no method "acme\/reindex"\. .*--allow-method/);
    const allowed = await run(["methods.jsonl", "--allow-method", "acme/*", "--all"]);
    expect(allowed.code).toBe(1);
    const shown = allowed.out.trimEnd().split("\n");
    expect(shown).toHaveLength(2);
    expect(shown[1]).toMatch(/^methods\.jsonl #1 \(line 2\): valid: /);
    expect((await run(["methods.jsonl", "--allow-method"])).code).toBe(2);
  });

  it("answers hostile input with a clear line per message and still checks the rest", async () => {
    const { code, out, err } = await run(["hostile.jsonl"]);
    expect(code).toBe(1);
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^hostile\.jsonl #1 \(line 2\): unparseable: Not JSON: .*nest/i);
    expect(lines[1]).toMatch(/^hostile\.jsonl #2 \(line 3\): unparseable: The message is 9\.0 M characters, over the 8 M/);
    expect(lines[2]).toMatch(/^hostile\.jsonl #3 \(line 4\): unrecognised: .*object/i);
    expect(err).toContain("5 messages in 1 file: 2 valid");
  });

  it("reads standard input for -", async () => {
    const { code, out } = await run(["-"], line(MESSAGES.fiskBadSender));
    expect(code).toBe(1);
    expect(out).toMatch(/^stdin: invalid: tool\.request, fisk-ai .*\(no version declared; judged by the version nearest to passing\)/);
  });

  it("--as validates as the chosen pack and kind", async () => {
    const { code, out } = await run(["--as", "fisk-ai/gen2:tool.reply", "-"], line(MESSAGES.fiskRequest));
    expect(code).toBe(1);
    expect(out).toMatch(/^stdin: invalid: tool\.reply, fisk-ai .*\(the version you chose\)/i);
  });

  it.each([
    [[], "patchbay validate: name at least one file to validate"],
    [["nope.json"], "patchbay validate: cannot read nope.json: no such file"],
    [["folder"], "patchbay validate: cannot read folder: it is a directory"],
    [["latin1.json"], "patchbay validate: cannot read latin1.json: it is not UTF-8 text"],
    [["--frob", "x.json"], "patchbay validate: unknown option '--frob'"],
    [["--as"], "patchbay validate: --as needs a pack id"],
  ])("%j is a usage error: exit 2 with one clear line", async (args, message) => {
    const { code, out, err } = await run(args);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err.startsWith(message)).toBe(true);
    expect(err.trimEnd().split("\n")).toHaveLength(1);
  });

  it("prints its usage for --help", async () => {
    const { code, out } = await run(["--help"]);
    expect(code).toBe(0);
    // Run from a folder outside the clone, the help names bin/patchbay.mjs by its absolute path.
    expect(out).toBe(validateUsage(`node ${binPath()}`));
  });
});
