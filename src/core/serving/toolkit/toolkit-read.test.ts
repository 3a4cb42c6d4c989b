import { describe, expect, it } from "vitest";
import { servedSet } from "./served-set.ts";
import { MAX_TOOLS, readToolkit } from "./toolkit-read.ts";

const tool = (over: Record<string, unknown> = {}) => ({
  name: "echo",
  description: "Echo",
  inputSchema: { type: "object", properties: { message: { type: "string" } } },
  run: { builtin: "echo" },
  ...over,
});
const file = (over: Record<string, unknown> = {}) => ({ format: "patchbay.toolkit", version: 1, name: "demo", tools: [tool()], ...over });

describe("readToolkit", () => {
  it("reads a good toolkit with defaults filled in", () => {
    const { toolkit, issues } = readToolkit(file({ tools: [tool(), tool({ name: "ls", run: { command: ["ls"], positionals: ["message"] } })] }));
    expect(issues).toEqual([]);
    expect(toolkit?.filter).toEqual({ include: [], exclude: [] });
    expect(toolkit?.tools[1]?.impl).toEqual({ kind: "command", argv: ["ls"], positionals: ["message"], timeoutMs: 30_000, env: {} });
  });

  it("refuses a file that is not a toolkit, saying where", () => {
    expect(readToolkit([]).issues).toEqual([{ pointer: "", message: "a toolkit must be a JSON object, not an array", severity: "error" }]);
    const r = readToolkit({ format: "x", version: 9, name: "bad name!", tools: {} });
    expect(r.toolkit).toBeUndefined();
    expect(r.issues.map((i) => i.pointer)).toEqual(["/format", "/version", "/name", "/tools"]);
    expect(r.issues[1]?.message).toContain("newer Patchbay");
    expect(readToolkit(file({ tools: Array.from({ length: MAX_TOOLS + 1 }, () => tool()) })).issues[0]?.message).toContain("at most 1000");
  });

  it("drops a broken tool, reports why, and keeps the others", () => {
    const r = readToolkit(
      file({
        tools: [
          tool({ run: { command: [] } }),
          tool({ name: "t2", inputSchema: { type: "string" } }),
          tool({ name: "t3", run: { command: ["x"], positionals: ["nope"] } }),
          tool({ name: "t4", run: { command: ["x"], timeoutMs: 0 } }),
          tool({ name: "t5", run: { builtin: "rm-rf" } }),
          tool({ name: "ok", tags: ["ai:read_only", "ai:destructive"] }),
        ],
      }),
    );
    expect(r.toolkit?.tools.map((t) => t.name)).toEqual(["ok"]);
    expect(r.issues.map((i) => `${i.severity} ${i.pointer}`)).toEqual([
      "error /tools/0/run/command",
      "error /tools/1/inputSchema",
      "error /tools/2/run/positionals",
      "error /tools/3/run/timeoutMs",
      "error /tools/4/run/builtin",
      "warning /tools/5/tags",
    ]);
  });

  it("a tool name used twice is an error at the second, which is left out", () => {
    const r = readToolkit(file({ tools: [tool(), tool({ name: "ls" }), tool({ description: "Echo again" })] }));
    expect(r.toolkit?.tools.map((t) => [t.name, t.description])).toEqual([["echo", "Echo"], ["ls", "Echo"]]);
    expect(r.issues).toEqual([
      { pointer: "/tools/2/name", message: '"echo" is already the name of /tools/0; tool names must be unique (this one is left out)', severity: "error" },
    ]);
  });

  it("a missing inputSchema is a warning and the tool takes an empty object", () => {
    const r = readToolkit(file({ tools: [tool({ inputSchema: undefined })] }));
    expect(r.toolkit?.tools[0]?.inputSchema).toEqual({ type: "object" });
    expect(r.issues).toEqual([{ pointer: "/tools/0/inputSchema", message: 'is missing: the tool takes {"type": "object"}', severity: "warning" }]);
  });
});

describe("servedSet", () => {
  const read = readToolkit(
    file({
      filter: { exclude: ["secret-*"] },
      tools: [tool(), tool({ name: "gone", tags: ["ai:deny"] }), tool({ name: "approve-me", tags: ["ai:confirm"] }), tool({ name: "secret-a" }), tool({ name: "bad name" })],
    }),
  ).toolkit!;
  // readToolkit refuses a repeated name; a toolkit made in code can still have one.
  const kit = { ...read, tools: [...read.tools, read.tools[0]!] };

  it("says why each tool is in or out on MCP", () => {
    expect(servedSet(kit, "mcp").map((e) => [e.tool.name, e.served, e.reason])).toEqual([
      ["echo", true, "served"],
      ["gone", false, "tagged ai:deny: never served"],
      ["approve-me", true, "served; each call needs approval"],
      ["secret-a", false, 'excluded by "secret-*"'],
      ["bad name", false, "the name is not a valid MCP tool name (1–128 of A–Z a–z 0–9 _ - .)"],
      ["echo", false, "another tool already has this name"],
    ]);
  });

  it("drops confirm-gated tools over NATS, where no operator can approve", () => {
    const nats = servedSet(kit, "nats").filter((e) => e.served).map((e) => e.tool.name);
    expect(nats).toEqual(["echo"]);
    const bad = servedSet(kit, "nats").find((e) => e.tool.name === "bad name");
    expect(bad?.reason).toBe("the name is not a valid fisk-ai tool name (letters, digits, _ and - only)");
    const blank = { ...kit, tools: [{ ...kit.tools[0]!, description: " " }] };
    expect(servedSet(blank, "nats")[0]?.reason).toBe("it has no description, and fisk-ai peers do not import a tool without one");
  });

  it("over A2A drops confirm-gated tools unless asked to keep them, each call then asking in its task", () => {
    const omitted = servedSet(kit, "a2a").map((e) => [e.tool.name, e.served, e.reason]);
    expect(omitted).toEqual([
      ["echo", true, "served"],
      ["gone", false, "tagged ai:deny: never served"],
      ["approve-me", false, "needs approval (ai:confirm), and a peer agent has no operator to ask; serve with confirm asking to keep it"],
      ["secret-a", false, 'excluded by "secret-*"'],
      ["bad name", false, "the name is not a usable A2A skill id (1–128 of A–Z a–z 0–9 _ - .)"],
      ["echo", false, "another tool already has this name"],
    ]);
    const asked = servedSet(kit, "a2a", { askConfirm: true }).find((e) => e.tool.name === "approve-me");
    expect(asked).toMatchObject({ served: true, reason: "served; each call asks for approval in its task (input-required)" });
    expect(servedSet(kit, "a2a", { askConfirm: true }).find((e) => e.tool.name === "gone")?.served).toBe(false);
  });

  it("include narrows by name pattern or tag", () => {
    const narrowed = { ...kit, filter: { include: ["tag:ai:confirm", "ech*"], exclude: [] } };
    expect(servedSet(narrowed, "mcp").filter((e) => e.served).map((e) => e.tool.name)).toEqual(["echo", "approve-me"]);
  });
});
