import { describe, expect, it } from "vitest";
import { cardsEqual, diffAgentCards } from "./diff-cards.ts";
import { DiffInputError } from "./diff-json.ts";

type Card = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function v03(): Card {
  return {
    protocolVersion: "0.3.0",
    name: "Currency Agent",
    description: "Converts currencies",
    url: "http://127.0.0.1:10000/",
    preferredTransport: "JSONRPC",
    additionalInterfaces: [{ url: "http://127.0.0.1:10000/", transport: "JSONRPC" }, { url: "http://127.0.0.1:10000/rest", transport: "HTTP+JSON" }],
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false },
    securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    security: [{ bearer: [] }],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [
      { id: "convert", name: "Convert", description: "Convert an amount", tags: ["currency", "fx"], examples: ["100 USD in EUR?"] },
      { id: "rates", name: "Rates", description: "Today's rates", tags: ["fx"] },
    ],
  };
}

function v10(): Card {
  return {
    name: "Currency Agent",
    description: "Converts currencies",
    supportedInterfaces: [
      { url: "http://127.0.0.1:10000/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: "http://127.0.0.1:10000/a2a/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    ],
    version: "2.0.0",
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "convert", name: "Convert", description: "Convert an amount", tags: ["currency", "fx"] }],
  };
}

describe("diffAgentCards on A2A cards", () => {
  it("finds nothing between identical cards, of either dialect, with lists in another order", () => {
    const shuffled = v03();
    shuffled.defaultInputModes.reverse();
    shuffled.skills.reverse();
    shuffled.skills[1].tags.reverse();
    expect(cardsEqual(diffAgentCards(v03(), shuffled))).toBe(true);
    const same = diffAgentCards(v10(), v10());
    expect(cardsEqual(same)).toBe(true);
    expect(same.dialect).toEqual({ before: "1.0", after: "1.0" });
  });

  it("reports fields, modes, skills and security of one v0.3 card version to the next", () => {
    const after = v03();
    after.version = "1.1.0";
    after.capabilities.pushNotifications = true;
    after.defaultInputModes = ["text/plain", "image/png"];
    after.securitySchemes.apiKey = { type: "apiKey", in: "header", name: "X-API-Key" };
    after.skills[0].tags.push("money");
    after.skills[0].description = "Convert an amount between currencies";
    after.skills.splice(1, 1);
    after.skills.push({ id: "history", name: "History", description: "Past rates", tags: [] });
    const d = diffAgentCards(v03(), after);
    expect(d.kind).toBe("a2a");
    expect(d.fields.map((c) => c.text)).toEqual([
      'changed at /version: "1.0.0" → "1.1.0"',
      "changed at /capabilities/pushNotifications: false → true",
      'added /securitySchemes/apiKey: {"type":"apiKey","in":"header","name":"X-API-Key"}',
      '/defaultInputModes lost "application/json"',
      '/defaultInputModes gained "image/png"',
    ]);
    expect(d.skills!.added.map((s) => s.id)).toEqual(["history"]);
    expect(d.skills!.removed).toEqual([{ id: "rates", name: "Rates", description: "Today's rates" }]);
    expect(d.skills!.changed).toHaveLength(1);
    expect(d.skills!.changed[0]!.changes.map((c) => [c.kind, c.pointer])).toEqual([
      ["changed", "/description"],
      ["item-added", "/tags"],
    ]);
    expect(d.interfaces).toEqual({ added: [], removed: [] });
  });

  it("reads a move from v0.3 to v1.0 as a dialect change with the interfaces that moved", () => {
    const d = diffAgentCards(v03(), v10());
    expect(d.dialect).toEqual({ before: "0.3", after: "1.0" });
    expect(d.interfaces!.removed.map((i) => `${i.bindingName} ${i.url}`)).toEqual(["JSONRPC http://127.0.0.1:10000/", "HTTP+JSON http://127.0.0.1:10000/rest"]);
    expect(d.interfaces!.added.map((i) => `${i.bindingName} ${i.dialect} ${i.url}`)).toEqual(["JSONRPC 1.0 http://127.0.0.1:10000/a2a/v1", "HTTP+JSON 1.0 http://127.0.0.1:10000/a2a/rest"]);
    const pointers = d.fields.map((c) => c.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/protocolVersion", "/url", "/security", "/supportedInterfaces", "/securityRequirements", "/capabilities/extendedAgentCard", "/securitySchemes/bearer/type"]));
    expect(d.skills!.changed[0]!.changes.map((c) => c.pointer)).toEqual(["/examples"]);
    expect(cardsEqual(d)).toBe(false);
  });

  it("matches v1.0 interfaces by URL and binding, so a reorder is no change and a new one is one item", () => {
    const after = v10();
    after.supportedInterfaces.reverse();
    expect(cardsEqual(diffAgentCards(v10(), after))).toBe(true);
    after.supportedInterfaces.push({ url: "grpc://127.0.0.1:10001", protocolBinding: "GRPC", protocolVersion: "1.0" });
    after.supportedInterfaces[0].tenant = "t1";
    const d = diffAgentCards(v10(), after);
    expect(d.fields.map((c) => [c.kind, c.pointer])).toEqual([
      ["added", "/supportedInterfaces/0/tenant"],
      ["item-added", "/supportedInterfaces"],
    ]);
  });

  it("refuses what is no card, and a card of each kind, naming the side", () => {
    expect(() => diffAgentCards([], v03())).toThrow(/before: an agent card must be a JSON object, got an array/);
    expect(() => diffAgentCards(v03(), { name: "x", version: "1", tools: [] })).toThrow(DiffInputError);
  });

  it("lists skills without an id or name as problems and compares the rest", () => {
    const before = v10();
    before.skills.push({ description: "anonymous" });
    const d = diffAgentCards(before, v10());
    expect(d.problems).toEqual(['before: skills[1] has neither a string "id" nor a "name"; not compared']);
    expect(d.skills!.unchanged).toEqual(["convert"]);
  });
});

describe("diffAgentCards on fisk-ai cards", () => {
  const reply = (over: Card = {}): Card => ({
    protocol: "io.choria.fisk-ai.v1.discovery.reply",
    id: "2yXq1",
    request: "r1",
    conversation: "",
    sequence: 0,
    time: "2026-01-01T00:00:00Z",
    sender: { name: "demo" },
    name: "demo",
    version: "0.4.0",
    protocols: ["io.choria.fisk-ai.v1"],
    tools: [{ name: "uptime", description: "Uptime of the host" }],
    ...over,
  });

  it("ignores the discovery header and compares the card and its tools", () => {
    expect(cardsEqual(diffAgentCards(reply(), reply({ id: "other", time: "2026-02-02T00:00:00Z", request: "r2" })))).toBe(true);
    const d = diffAgentCards(reply(), reply({ version: "0.5.0", model: "m1", tools: [{ name: "uptime", description: "Uptime", behavior: { read_only: true } }, { name: "df" }] }));
    expect(d.kind).toBe("fisk");
    expect(d.fields.map((c) => c.pointer)).toEqual(["/version", "/model"]);
    expect(d.tools!.added.map((t) => t.name)).toEqual(["df"]);
    expect(d.tools!.changed[0]!.fields.map((c) => c.pointer)).toEqual(["/description", "/behavior"]);
  });

  it("says when tools is not an array", () => {
    const d = diffAgentCards(reply(), reply({ tools: "none" }));
    expect(d.problems).toEqual(['after: "tools" must be an array, got a string; read as no tools']);
    expect(d.tools!.removed.map((t) => t.name)).toEqual(["uptime"]);
  });
});
