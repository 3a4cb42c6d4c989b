/**
 * `patchbay diff` on real inputs: server-everything's tool list against a changed copy (schema
 * changes by pointer), two runs of one collection against Patchbay's served MCP agent (a
 * regression named), two A2A SDK cards; the same input twice is no difference; bad input exits 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpServing, type McpServing } from "../../server/serving/mcp-engine.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import { encodeCollectionFile, type Collection } from "../../src/core/harness/index.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { startSdkAgent, type SdkAgent } from "../helpers/a2a-peers/index.ts";
import { EVERYTHING_STDIO } from "../helpers/harness-peers.ts";
import { runCli } from "../helpers/http-client.ts";

let dir: string;
let served: McpServing;
let sdk: SdkAgent;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "patchbay-diff-"));
  [served, sdk] = await Promise.all([startMcpServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger }), startSdkAgent()]);
});
afterAll(async () => {
  await Promise.all([served?.close(), sdk?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const r = runCli(args);
  const code = await r.done;
  return { code, out: r.stdout.join(""), err: r.stderr.join("") };
}

const write = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return path;
};

describe("patchbay diff", () => {
  it("shows a changed tool list as tools added, removed and schema changes by pointer", async () => {
    const listed = await cli("call", "mcp", EVERYTHING_STDIO, "--list", "--json");
    expect(listed.code, listed.err).toBe(0);
    const before = JSON.parse(listed.out) as { tools: { name: string; inputSchema: { properties: Record<string, { type?: string }>; required?: string[] } }[] };
    const after = structuredClone(before);
    const echo = after.tools.find((t) => t.name === "echo")!;
    echo.inputSchema.properties.message!.type = "number";
    echo.inputSchema.properties.loud = { type: "boolean" };
    const removed = after.tools.pop()!;
    after.tools.push({ name: "brand-new", inputSchema: { properties: {} } });
    const r = await cli("diff", write("tools-a.json", before), write("tools-b.json", after));
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain("comparing two tool lists");
    expect(r.out).toContain("+ tool brand-new");
    expect(r.out).toContain(`- tool ${removed.name}`);
    expect(r.out).toMatch(/~ tool echo\n(?: {4}.*\n)*? {4}inputSchema: .*\/properties\/message.*string.*number/);
    expect(r.out).toMatch(/ {4}inputSchema: .*loud/);
    const json = await cli("diff", join(dir, "tools-a.json"), join(dir, "tools-b.json"), "--json");
    expect(JSON.parse(json.out)).toMatchObject({ kind: "tools", same: false, diff: { added: [{ name: "brand-new" }] } });
    const same = await cli("diff", join(dir, "tools-a.json"), join(dir, "tools-a.json"));
    expect([same.code, same.out]).toEqual([0, "no differences\n"]);
  });

  it("names a regression between two runs of one collection", async () => {
    const collection = (expected: string): Collection => ({
      name: "twice",
      targets: { served: { protocol: "mcp", url: served.url } },
      environments: {},
      steps: [
        { name: "echo", target: "served", action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "same" } } }, assert: [{ kind: "equals", pointer: "/result/content/0/text", value: expected }] },
        { name: "add", target: "served", action: { protocol: "mcp", method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }, assert: [{ kind: "outcome", is: "result" }] },
      ],
    });
    const good = write("good.json", encodeCollectionFile(collection("same"), Date.now()));
    const bad = write("bad.json", encodeCollectionFile(collection("different"), Date.now()));
    expect((await cli("run", good, "--json", join(dir, "run-1.json"))).code).toBe(0);
    expect((await cli("run", bad, "--json", join(dir, "run-2.json"))).code).toBe(1);
    const r = await cli("diff", join(dir, "run-1.json"), join(dir, "run-2.json"));
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/^✘ echo: regression \(passed → failed\)/m);
    expect(r.out).toContain('expected "different"');
    expect(r.out).not.toMatch(/^\S+ add:/m);
  });

  it("compares two A2A cards field by field", async () => {
    const card = (await (await fetch(sdk.cardUrl)).json()) as { name: string; skills: { id: string }[] };
    const renamed = { ...card, name: "Renamed agent", skills: card.skills.slice(1) };
    const r = await cli("diff", write("card-a.json", card), write("card-b.json", renamed));
    expect(r.code, r.err).toBe(1);
    expect(r.out).toMatch(/~ .*\/name/);
    expect(r.out).toContain(`- skill ${card.skills[0]!.id}`);
  });

  it("exits 2 naming the side for unreadable input, two kinds, or a missing file", async () => {
    const tools = write("kinds-tools.json", { tools: [{ name: "only", inputSchema: { type: "object" } }] });
    const cardFile = write("kinds-card.json", await (await fetch(sdk.cardUrl)).json());
    const kinds = await cli("diff", tools, cardFile);
    expect([kinds.code, kinds.err]).toEqual([2, expect.stringContaining("before is a tool list and after is an agent card")]);
    const notJson = await cli("diff", write("junk.txt", "{not json"), cardFile);
    expect([notJson.code, notJson.err]).toEqual([2, expect.stringMatching(/before \(.*junk.txt\): not JSON/)]);
    const missing = await cli("diff", join(dir, "nope.json"), cardFile);
    expect([missing.code, missing.err]).toEqual([2, expect.stringContaining("ENOENT")]);
    const usage = await cli("diff", "one");
    expect([usage.code, usage.err]).toEqual([2, expect.stringContaining("give two files to compare")]);
    expect(readFileSync(cardFile, "utf8")).toContain("skills");
  });
});
