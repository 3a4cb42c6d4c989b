import { describe, expect, it } from "vitest";
import { A2aState } from "./a2a-state.svelte.ts";
import { FakeAgent, fakeDeps, json, logText, rpc, VALID } from "./test-fakes.ts";

const BASE = "http://agent.test";
const v02 = { name: "old", description: "d", url: `${BASE}/`, version: "1", capabilities: {}, defaultInputModes: ["text"], defaultOutputModes: ["text"], skills: [], securitySchemes: {}, supportsAuthenticatedExtendedCard: true };
const v10 = {
  name: "new",
  description: "d",
  version: "1",
  capabilities: { extendedAgentCard: true },
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
  supportedInterfaces: [
    { url: `${BASE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: "grpc://agent.test", protocolBinding: "GRPC", protocolVersion: "1.0" },
  ],
  skills: [{ id: "echo", name: "Echo" }],
};

function setup(agent: FakeAgent, verdict?: Parameters<typeof fakeDeps>[1]) {
  const { deps, frames, checked } = fakeDeps(agent, verdict);
  const a2a = new A2aState(deps);
  return { a2a, card: a2a.card, frames, checked };
}

describe("CardState", () => {
  it("falls back to the old well-known path, reads the dialect and checks the card with the engine", async () => {
    const agent = new FakeAgent().on((s) => s.url === `${BASE}/.well-known/agent.json`, () => json(v02));
    const { card, checked } = setup(agent);
    card.url = BASE;
    await card.fetch();
    expect(card.fetched?.attempts.map((a) => [a.url, a.status, a.problem === undefined])).toEqual([
      [`${BASE}/.well-known/agent-card.json`, 404, false],
      [`${BASE}/.well-known/agent.json`, 200, true],
    ]);
    expect(card.found?.dialect.dialect).toBe("0.2");
    expect(card.verdict).toBe(VALID);
    // The engine chose v1.0, the card reads as v0.2: it is judged as v0.2 too.
    expect(checked.map((c) => c.packId)).toEqual([undefined, "a2a/v0.2"]);
    expect(card.dialectVerdict).toEqual(VALID);
  });

  it("takes an exact URL alone, and marks the result stale once the form changes", async () => {
    const agent = new FakeAgent().on((s) => s.url === `${BASE}/custom`, () => json(v10));
    const { card } = setup(agent);
    card.url = `${BASE}/custom`;
    card.pathMode = "exact";
    await card.fetch();
    expect(card.fetched?.attempts).toHaveLength(1);
    expect(card.found?.dialect.dialect).toBe("1.0");
    expect(card.stale).toBe(false);
    card.headerRows[0] = { name: "A2A-Version", value: "1.0" };
    expect(card.stale).toBe(true);
  });

  it("says that a direct fetch likely met CORS, and names a bad header row before sending", async () => {
    const agent = new FakeAgent();
    const { card } = setup(agent);
    card.url = BASE;
    card.via = "direct";
    await card.fetch();
    expect(card.found).toBeUndefined();
    expect(card.fetched?.note).toContain("CORS");
    card.headerRows[0] = { name: "bad name", value: "x" };
    await card.fetch();
    expect(card.formError).toContain('header name "bad name"');
    card.url = "";
    await card.fetch();
    expect(card.formError).toBe("give the agent's base URL or its card's URL");
  });

  it("fetches the extended card the way its version says, with the bearer token, which never reaches the log", async () => {
    const agent = new FakeAgent()
      .on((s) => s.url.endsWith("agent-card.json"), () => json(v10))
      .on((s, body) => s.url === `${BASE}/rpc` && (body as { method?: string }).method === "GetExtendedAgentCard", (s, body) =>
        s.headers.Authorization === "Bearer t0ken" ? json(rpc((body as { id: unknown }).id, { ...v10, skills: [...v10.skills, { id: "vip", name: "VIP" }] })) : json({ error: { code: 401, status: "UNAUTHENTICATED", message: "no" } }, 401),
      );
    const { a2a, card, frames } = setup(agent);
    card.url = BASE;
    await card.fetch();
    await card.fetchExtended(undefined, "auto");
    expect(card.extended?.problem).toContain("HTTP 401 UNAUTHENTICATED");
    card.bearer = "t0ken";
    card.apiKeyName = "X-Agent-Key";
    card.apiKeyValue = "k3y-value";
    await card.fetchExtended(a2a.compose.interfaces[0], "auto");
    expect(card.extended?.way).toBe("GetExtendedAgentCard (A2A 1.0, JSONRPC)");
    expect((card.extended?.card?.skills as unknown[]).length).toBe(2);
    expect(agent.sent.at(-1)?.headers).toMatchObject({ Authorization: "Bearer t0ken", "X-Agent-Key": "k3y-value", "A2A-Version": "1.0" });
    const log = logText(frames);
    expect(log).not.toContain("t0ken");
    expect(log).not.toContain("k3y-value");
    expect(log).toContain("GetExtendedAgentCard");
  });

  it("keeps cards for comparison, sorted by member name", async () => {
    const agent = new FakeAgent().on((s) => s.url.endsWith("agent-card.json"), () => json(v10));
    const { card } = setup(agent);
    card.url = BASE;
    await card.fetch();
    card.keep("card");
    card.keep("extended");
    expect(card.kept).toHaveLength(1);
    expect(card.kept[0]!.label).toBe(`1. new · v1.0 · ${BASE}/.well-known/agent-card.json`);
    expect(card.kept[0]!.json.indexOf('"capabilities"')).toBeLessThan(card.kept[0]!.json.indexOf('"name"'));
    card.forget(card.kept[0]!.id);
    expect(card.kept).toEqual([]);
  });
});
