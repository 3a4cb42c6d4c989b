/**
 * `patchbay run` end to end against real peers: one collection across MCP (server-everything
 * over stdio, Patchbay's served agent over Streamable HTTP), A2A (the SDK peer, Patchbay's served
 * agent) and NATS (Patchbay's served fisk-ai agent) passes with exit 0; one with a failing
 * assertion of each kind exits 1 naming each failure; the JUnit and JSON reports say the same.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateXML } from "xmllint-wasm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { encodeCollectionFile, type Collection, type RunReport, type Step } from "../../src/core/harness/index.ts";
import { EVERYTHING_STDIO, ODD_RESULTS_STDIO, startHarnessPeers, type HarnessPeers } from "../helpers/harness-peers.ts";
import { runCli } from "../helpers/http-client.ts";

let peers: HarnessPeers;
let dir: string;

beforeAll(async () => {
  peers = await startHarnessPeers(inject("natsUrl"));
  dir = mkdtempSync(join(tmpdir(), "patchbay-run-"));
}, 30_000);
afterAll(async () => {
  await peers?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function collection(name: string, steps: Step[]): Collection {
  return {
    name,
    targets: {
      everything: { protocol: "mcp", command: EVERYTHING_STDIO },
      odd: { protocol: "mcp", command: ODD_RESULTS_STDIO },
      served: { protocol: "mcp", url: "{{mcpUrl}}" },
      sdk: { protocol: "a2a", card: "{{sdkCard}}", dialect: "1.0" },
      "served-a2a": { protocol: "a2a", card: "{{a2aCard}}" },
      bus: { protocol: "nats", server: "{{natsUrl}}" },
    },
    environments: { local: { mcpUrl: peers.mcpUrl, sdkCard: peers.sdkCard, a2aCard: peers.a2aCard, natsUrl: peers.natsUrl, identity: peers.identity } },
    steps,
  };
}

function save(c: Collection): string {
  const path = join(dir, `${c.name}.json`);
  writeFileSync(path, encodeCollectionFile(c, Date.now()));
  return path;
}

/** A JUnit file checked against the JUnit XSD (the Ant/Jenkins format CI test reporters read). */
async function expectValidJunit(xml: string): Promise<void> {
  const xsd = readFileSync(new URL("../fixtures/junit/junit.xsd", import.meta.url), "utf8");
  const result = await validateXML({ xml: [{ fileName: "report.xml", contents: xml }], schema: [xsd] });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

async function run(...args: string[]) {
  const cli = runCli(["run", ...args]);
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

const echo = (message: string) => ({ protocol: "mcp" as const, method: "tools/call", params: { name: "echo", arguments: { message } } });

const PASSING: Step[] = [
  { name: "everything lists tools", target: "everything", action: { protocol: "mcp", method: "tools/list" }, assert: [{ kind: "outcome", is: "result" }, { kind: "valid" }, { kind: "exists", pointer: "/result/tools/0/name" }] },
  { name: "everything echoes", target: "everything", action: echo("hi"), assert: [{ kind: "equals", pointer: "/result/content/0/text", value: "Echo: hi" }, { kind: "matches", pointer: "/result/content/0/text", pattern: "^Echo" }, { kind: "absent", pointer: "/result/isError" }, { kind: "latency", belowMs: 30_000 }] },
  { name: "served agent echoes over MCP", target: "served", action: echo("over http"), assert: [{ kind: "outcome", is: "result" }, { kind: "valid" }, { kind: "matches", pointer: "/result/content/0/text", pattern: "over http" }] },
  { name: "served agent refuses an unknown tool", target: "served", action: { protocol: "mcp", method: "tools/call", params: { name: "no-such-tool", arguments: {} } }, assert: [{ kind: "outcome", is: "is-error" }] },
  { name: "everything refuses an unknown method", target: "everything", action: { protocol: "mcp", method: "tools/calls" }, assert: [{ kind: "outcome", is: "json-rpc-error", code: -32601 }] },
  { name: "sdk completes a task", target: "sdk", action: { protocol: "a2a", operation: "send", text: "echo hello there" }, assert: [{ kind: "outcome", is: "result" }, { kind: "valid" }], capture: { taskId: "/task/id" } },
  { name: "sdk gets the task back", target: "sdk", action: { protocol: "a2a", operation: "get", taskId: "{{taskId}}" }, assert: [{ kind: "equals", pointer: "/id", value: "{{taskId}}" }, { kind: "outcome", is: "result" }] },
  { name: "sdk streams chunks", target: "sdk", action: { protocol: "a2a", operation: "stream", text: "chunks 3" }, assert: [{ kind: "stream", count: { min: 3 }, final: true }, { kind: "outcome", is: "result" }] },
  { name: "sdk task fails on request", target: "sdk", action: { protocol: "a2a", operation: "send", text: "fail" }, assert: [{ kind: "outcome", is: "task-state", state: "failed" }] },
  { name: "served A2A agent echoes", target: "served-a2a", action: { protocol: "a2a", operation: "send", text: "hello a2a" }, assert: [{ kind: "outcome", is: "result" }, { kind: "valid" }] },
  { name: "fisk echo tool", target: "bus", action: { protocol: "nats", kind: "tool", identity: "{{identity}}", tool: "echo", input: { message: "over nats" } }, assert: [{ kind: "outcome", is: "result" }, { kind: "valid" }, { kind: "stream", final: true }] },
  { name: "fisk fail tool exits 3", target: "bus", action: { protocol: "nats", kind: "tool", identity: "{{identity}}", tool: "fail", input: { exit_code: 3 } }, assert: [{ kind: "outcome", is: "exit-code", code: 3 }] },
  { name: "micro ping", target: "bus", action: { protocol: "nats", kind: "request", subject: "$SRV.PING.{{identity}}", payload: "" }, assert: [{ kind: "equals", pointer: "/name", value: "{{identity}}" }] },
  { name: "nobody serves this", target: "bus", action: { protocol: "nats", kind: "request", subject: "patchbay.test.nobody.{{identity}}", payload: "{}" }, assert: [{ kind: "outcome", is: "no-responders" }] },
];

describe("patchbay run", () => {
  it("runs a collection across MCP, A2A and NATS: a line per step, exit 0, JUnit and JSON reports", async () => {
    const path = save(collection("smoke", PASSING));
    const r = await run(path, "--env", "local", "--junit", join(dir, "out/smoke.xml"), "--json", join(dir, "out/smoke.json"));
    process.stdout.write(`patchbay run smoke:\n${r.out}`);
    expect(r.out, r.err).toMatch(/^smoke \(environment local\): 14 steps, 14 passed, 0 failed, 0 errors, 0 skipped in [\d.]+ s$/m);
    expect(r.code).toBe(0);
    expect(r.out.match(/^ok {3}\d+\/14 /gm)).toHaveLength(14);
    const report = JSON.parse(readFileSync(join(dir, "out/smoke.json"), "utf8")) as RunReport;
    expect(report.totals).toEqual({ steps: 14, passed: 14, failed: 0, errors: 0, skipped: 0 });
    expect(report.steps.find((s) => s.name === "sdk completes a task")?.captured.taskId).toMatch(/\S/);
    const xml = readFileSync(join(dir, "out/smoke.xml"), "utf8");
    expect(xml).toMatch(/<testsuites [^>]*tests="14" failures="0" errors="0"/);
    await expectValidJunit(xml);
  }, 120_000);

  it("fails with exit 1 and names each failing assertion, one of each kind, against real answers", async () => {
    const text = "/result/content/0/text";
    const steps: Step[] = [
      { name: "equals", target: "everything", action: echo("hi"), assert: [{ kind: "equals", pointer: text, value: "Echo: bye" }] },
      { name: "matches", target: "everything", action: echo("hi"), assert: [{ kind: "matches", pointer: text, pattern: "^Bye" }] },
      { name: "exists", target: "everything", action: echo("hi"), assert: [{ kind: "exists", pointer: "/result/structuredContent" }] },
      { name: "absent", target: "everything", action: echo("hi"), assert: [{ kind: "absent", pointer: "/result/content" }] },
      { name: "outcome", target: "bus", action: { protocol: "nats", kind: "tool", identity: "{{identity}}", tool: "fail", input: { exit_code: 3 } }, assert: [{ kind: "outcome", is: "result" }] },
      { name: "latency", target: "sdk", action: { protocol: "a2a", operation: "send", text: "slow 300" }, assert: [{ kind: "latency", belowMs: 50 }] },
      { name: "stream", target: "sdk", action: { protocol: "a2a", operation: "stream", text: "chunks 3" }, assert: [{ kind: "stream", count: 2 }] },
      { name: "valid", target: "odd", action: { protocol: "mcp", method: "tools/call", params: { name: "malformed", arguments: {} } }, assert: [{ kind: "valid" }] },
      { name: "unresolved", target: "everything", action: echo("{{nowhere}}") },
    ];
    const path = save(collection("broken", steps));
    const r = await run(path, "--env", "local", "--junit", join(dir, "out/broken.xml"));
    process.stdout.write(`patchbay run broken:\n${r.out}`);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/^broken \(environment local\): 9 steps, 0 passed, 8 failed, 1 errors, 0 skipped in [\d.]+ s$/m);
    const block = (name: string) => new RegExp(`^FAIL \\d+/9 ${name} [^\\n]*\\n((?: {7}[^\\n]*\\n)+)`, "m").exec(r.out)?.[1] ?? "";
    expect(block("equals")).toContain(`equals: ${text}`);
    expect(block("equals")).toContain('"Echo: bye"');
    expect(block("equals")).toContain('"Echo: hi"');
    expect(block("matches")).toMatch(/matches: .*\^Bye/);
    expect(block("exists")).toContain("/result/structuredContent");
    expect(block("absent")).toContain("/result/content");
    expect(block("outcome")).toMatch(/outcome: expected outcome result; got exit-code/);
    expect(block("outcome")).toContain("3");
    expect(block("latency")).toMatch(/latency: .*50 ms/);
    expect(block("stream")).toMatch(/stream: .*2/);
    expect(block("valid")).toMatch(/valid: /);
    expect(r.out).toMatch(/^ERR {2}9\/9 unresolved [^\n]*\n {7}step 'unresolved': \{\{nowhere\}\}/m);
    const xml = readFileSync(join(dir, "out/broken.xml"), "utf8");
    expect(xml).toMatch(/<testsuites [^>]*tests="9" failures="8" errors="1"/);
    expect(xml.match(/<failure /g)).toHaveLength(8);
    await expectValidJunit(xml);
  }, 120_000);

  it("exits 2 for a collection it cannot read, an unknown environment or target, naming it", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ format: "patchbay.collections", version: 1, savedAt: new Date().toISOString(), data: { name: "x", targets: {}, environments: {}, steps: [{ name: "s", target: "nope", action: { protocol: "mcp", method: "tools/list" }, assert: [{ kind: "equals", pointr: "/a" }] }] } }));
    const unreadable = await run(bad);
    expect(unreadable.code).toBe(2);
    expect(unreadable.err).toContain("/steps/0/target");
    expect(unreadable.err).toContain("pointr");
    const missing = await run(join(dir, "none.json"));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("ENOENT");
    const path = save(collection("envs", PASSING.slice(0, 1)));
    const env = await run(path, "--env", "prod");
    expect([env.code, env.err]).toEqual([2, expect.stringContaining("--env prod: the collection has no such environment (it has: local)")]);
    const target = await run(path, "--env", "local", "--target", "nowhere=http://127.0.0.1:1/mcp");
    expect([target.code, target.err]).toEqual([2, expect.stringContaining('--target nowhere: the collection has no target "nowhere"')]);
  });

  it("--target points a target elsewhere: the same collection replayed against another server", async () => {
    const steps: Step[] = [{ name: "echo", target: "served", action: echo("moved"), assert: [{ kind: "equals", pointer: "/result/content/0/text", value: "Echo: moved" }] }];
    const path = save(collection("moved", steps));
    const there = await run(path, "--env", "local", "--target", `served=${EVERYTHING_STDIO}`);
    expect(there.code, there.out).toBe(0);
    const here = await run(path, "--env", "local");
    expect(here.code).toBe(1);
  });

  it("runs 1,000 steps headless, keeping frames only for the failed ones so memory stays bounded", async () => {
    const steps: Step[] = Array.from({ length: 1000 }, (_, i) => ({ name: `ping ${i}`, target: "bus", action: { protocol: "nats", kind: "request", subject: "$SRV.PING.{{identity}}", payload: "" }, assert: [{ kind: "equals", pointer: "/name", value: i === 500 ? "someone else" : "{{identity}}" }] }) as Step);
    const path = save(collection("load", steps));
    const out = join(dir, "out/load.json");
    const r = await run(path, "--env", "local", "--json", out);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(out, "utf8")) as RunReport;
    expect(report.totals).toEqual({ steps: 1000, passed: 999, failed: 1, errors: 0, skipped: 0 });
    expect(report.steps.filter((s) => s.frames.length > 0).map((s) => s.name)).toEqual(["ping 500"]);
    expect(readFileSync(out).byteLength).toBeLessThan(1_000_000);
  }, 120_000);
});
