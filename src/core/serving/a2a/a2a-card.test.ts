import { AgentCard } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { readToolkit } from "../toolkit/toolkit-read.ts";
import { servedSet } from "../toolkit/served-set.ts";
import type { ToolDef, Toolkit } from "../toolkit/toolkit-types.ts";
import { agentCard, callExample, legacyCard } from "./a2a-card.ts";
import { defaultSkillOf } from "./message-call.ts";

const JSONRPC = "http://127.0.0.1:7422/a2a/jsonrpc";
const REST = "http://127.0.0.1:7422/a2a/rest";

function cardOf(toolkit: Toolkit, askConfirm = false) {
  const tools = servedSet(toolkit, "a2a", { askConfirm }).filter((e) => e.served).map((e) => e.tool);
  const defaultSkill = defaultSkillOf(tools, toolkit === DEMO_TOOLKIT ? "echo" : undefined);
  return agentCard({ toolkit, tools, jsonRpcUrl: JSONRPC, restUrl: REST, version: "1.2.3", ...(defaultSkill ? { defaultSkill } : {}) });
}

const kit = readToolkit({
  format: "patchbay.toolkit",
  version: 1,
  name: "kit",
  description: "A kit.",
  tools: [
    { name: "list", description: "Lists a folder.", inputSchema: { type: "object", properties: { dir: { type: "string", description: "Which folder." } }, required: ["dir"] }, run: { command: ["/bin/ls"], positionals: ["dir"] } },
    { name: "wipe", description: "Wipes.", tags: ["ai:confirm", "ai:destructive"], inputSchema: { type: "object", properties: { n: { type: "integer" } } }, run: { command: ["/bin/true"] } },
    { name: "hidden", description: "Never.", tags: ["ai:deny"], inputSchema: { type: "object" }, run: { command: ["/bin/true"] } },
  ],
}).toolkit!;

describe("the Agent Card of the served tool set", () => {
  it("has one skill per served demo tool, in toolkit order, without the confirm-gated one", () => {
    const card = cardOf(DEMO_TOOLKIT);
    expect(card.skills.map((s) => s.id)).toEqual(["echo", "add", "sleep", "fail", "large-output", "slow"]);
    for (const skill of card.skills) expect(skill.id).toMatch(/^[A-Za-z0-9_.-]{1,128}$/);
    expect(card).toMatchObject({ name: "patchbay-demo", version: "1.2.3", capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false } });
  });

  it("keeps ai:confirm tools only when asked, and never ai:deny ones", () => {
    expect(cardOf(kit).skills.map((s) => s.id)).toEqual(["list"]);
    expect(cardOf(kit, true).skills.map((s) => s.id)).toEqual(["list", "wipe"]);
  });

  it("describes how to call each skill, its arguments, and which one a text-only message runs", () => {
    const card = cardOf(DEMO_TOOLKIT);
    const echo = card.skills.find((s) => s.id === "echo")!;
    expect(echo.description).toBe(
      'Returns the message it is given. Call it with a data part {"skill": "echo", "arguments": {…}}; arguments: message (string, required): Text to echo back. A message with text only runs this skill, the text as "message".',
    );
    expect(echo.inputModes).toEqual(["application/json", "text/plain"]);
    expect(echo.examples).toEqual(['{"skill":"echo","arguments":{"message":"…"}}', "any text"]);
    const add = card.skills.find((s) => s.id === "add")!;
    expect(add.inputModes).toEqual(["application/json"]);
    expect(add.outputModes).toEqual(["text/plain", "application/json"]);
    expect(add.examples).toEqual(['{"skill":"add","arguments":{"a":1,"b":1}}']);
    expect(card.description).toContain("A message with text only runs echo.");
    expect(cardOf(kit).description).toContain("A message with text only is refused: name a skill.");
  });

  it("lists both bindings in both versions, v1.0 first, and the SDK serializes it", () => {
    const card = cardOf(DEMO_TOOLKIT);
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.protocolVersion, i.url])).toEqual([
      ["JSONRPC", "1.0", JSONRPC],
      ["HTTP+JSON", "1.0", REST],
      ["JSONRPC", "0.3", JSONRPC],
      ["HTTP+JSON", "0.3", REST],
    ]);
    const wire = AgentCard.toJSON(card) as Record<string, unknown>;
    expect(wire).not.toHaveProperty("url");
    expect(AgentCard.fromJSON(wire)).toEqual(card);
  });

  it("gives v0.3 clients url, preferredTransport, additionalInterfaces and protocolVersion, and no v1.0 members", () => {
    const card = cardOf(DEMO_TOOLKIT);
    const legacy = legacyCard(card);
    expect(legacy).toMatchObject({
      protocolVersion: "0.3.0",
      url: JSONRPC,
      preferredTransport: "JSONRPC",
      additionalInterfaces: [
        { url: JSONRPC, transport: "JSONRPC" },
        { url: REST, transport: "HTTP+JSON" },
      ],
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
      supportsAuthenticatedExtendedCard: false,
    });
    expect(legacy).not.toHaveProperty("supportedInterfaces");
    expect((legacy.skills as { id: string }[]).map((s) => s.id)).toEqual(card.skills.map((s) => s.id));
    expect(legacy.skills).toEqual(card.skills.map(({ securityRequirements: _, ...rest }) => rest));
  });

  it("fills a call example's required arguments by type", () => {
    const tool: ToolDef = {
      name: "t",
      description: "",
      inputSchema: { type: "object", properties: { s: { type: "string" }, n: { type: "integer" }, b: { type: "boolean" }, l: { type: "array" }, o: { type: "object" }, x: {} }, required: ["s", "n", "b", "l", "o", "x"] },
      tags: [],
      impl: { kind: "builtin", builtin: "echo" },
    };
    expect(JSON.parse(callExample(tool))).toEqual({ skill: "t", arguments: { s: "…", n: 1, b: true, l: [], o: {}, x: "…" } });
  });
});
