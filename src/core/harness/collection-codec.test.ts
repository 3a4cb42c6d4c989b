import { describe, expect, it } from "vitest";
import { DocumentError } from "../persist/document-store.ts";
import { encodeEnvelope } from "../persist/envelope.ts";
import { canonicalCollection, decodeCollectionFile, describeProblems, encodeCollectionFile, parseCollection } from "./collection-codec.ts";
import type { Collection } from "./collection-types.ts";

const T = Date.UTC(2026, 0, 2, 3, 4, 5);

function valid(): Record<string, unknown> {
  return {
    name: "demo",
    description: "every protocol",
    timeoutMs: 5000,
    targets: {
      everything: { protocol: "mcp", url: "{{baseUrl}}/mcp", headers: { Authorization: "Bearer {{token}}", "X-Trace": "on" } },
      local: { protocol: "mcp", command: "npx server-everything" },
      agent: { protocol: "a2a", card: "http://localhost:9999/.well-known/agent-card.json", dialect: "0.3", binding: "jsonrpc" },
      bus: { protocol: "nats", server: "nats://localhost:4222", token: "{{natsToken}}" },
    },
    environments: { dev: { baseUrl: "http://localhost:3001" }, prod: { baseUrl: "https://example.test" } },
    secrets: { token: { env: "MCP_TOKEN", description: "bearer token" }, natsToken: { env: "NATS_TOKEN" } },
    steps: [
      {
        name: "echo",
        target: "everything",
        timeoutMs: 1000,
        action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "hi", nested: { b: 1, a: [3, { z: 1, y: 2 }] } } } },
        assert: [
          { kind: "valid", version: "2025-11-25" },
          { kind: "equals", pointer: "/result/content/0/text", value: { b: 2, a: 1 } },
          { kind: "matches", pointer: "/result/content/0/text", pattern: "^Echo" },
          { kind: "exists", pointer: "/result" },
          { kind: "absent", pointer: "/error" },
          { kind: "outcome", is: "json-rpc-error", code: -32602 },
          { kind: "outcome", is: "task-state", state: "failed" },
          { kind: "latency", belowMs: 500 },
          { kind: "stream", count: { min: 1, max: 4 }, order: ["status-update", "artifact-update"], final: true },
          { kind: "stream", count: 3 },
        ],
        capture: { text: "/result/content/0/text" },
      },
      { name: "send", target: "agent", action: { protocol: "a2a", operation: "send", text: "hello {{text}}" }, capture: { taskId: "/id" } },
      { name: "get", target: "agent", action: { protocol: "a2a", operation: "get", taskId: "{{taskId}}" } },
      { name: "ping", target: "bus", action: { protocol: "nats", kind: "request", subject: "svc.ping", payload: "", headers: { "Nats-Trace": "1" } } },
      { name: "tool", target: "bus", action: { protocol: "nats", kind: "tool", identity: "demo", tool: "echo", input: null } },
      { name: "task", target: "bus", action: { protocol: "nats", kind: "task", identity: "demo", text: "do it" } },
      { name: "list", target: "local", action: { protocol: "mcp", method: "tools/list" } },
    ],
  };
}

/** The same object with every object's keys in reverse order, at every depth. */
function shuffled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shuffled);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, shuffled(v)]));
}

function problemsOf(data: unknown): { pointer: string; message: string }[] {
  const result = parseCollection(data);
  if (result.ok) throw new Error("expected problems");
  return [...result.problems];
}

function withStep(step: Record<string, unknown>): Record<string, unknown> {
  const doc = valid();
  (doc.steps as unknown[]).push(step);
  return doc;
}

const lastStep = (doc: Record<string, unknown>) => `/steps/${(doc.steps as unknown[]).length - 1}`;

describe("parseCollection", () => {
  it("accepts a collection using every protocol, action kind and assertion kind", () => {
    const result = parseCollection(valid());
    expect(result).toEqual({ ok: true, collection: valid() });
  });

  it("rejects non-objects at the root", () => {
    for (const data of [null, 5, "x", [], undefined, new Date(0)]) {
      expect(problemsOf(data)).toHaveLength(1);
      expect(problemsOf(data)[0]!.pointer).toBe("");
      expect(problemsOf(data)[0]!.message).toMatch(/^a collection must be an object; got /);
    }
    expect(problemsOf([])[0]!.message).toBe("a collection must be an object; got an array");
  });

  it("names every missing required field at once", () => {
    expect(problemsOf({})).toEqual([
      { pointer: "", message: "missing required field 'name'" },
      { pointer: "", message: "missing required field 'targets'" },
      { pointer: "", message: "missing required field 'environments'" },
      { pointer: "", message: "missing required field 'steps'" },
    ]);
  });

  it("names a misspelt assertion field and suggests the right one", () => {
    const doc = withStep({ name: "x", target: "everything", action: { protocol: "mcp", method: "ping" }, assert: [{ kind: "exists", pointr: "/a" }] });
    expect(problemsOf(doc)).toEqual([
      { pointer: `${lastStep(doc)}/assert/0`, message: "unknown field 'pointr' (did you mean 'pointer'?)" },
      { pointer: `${lastStep(doc)}/assert/0`, message: "missing required field 'pointer'" },
    ]);
  });

  it("lists the known fields when an unknown one is nothing like them", () => {
    const doc = { ...valid(), colour: "blue" };
    expect(problemsOf(doc)).toEqual([
      { pointer: "", message: "unknown field 'colour' (known fields of a collection: name, description, timeoutMs, targets, environments, secrets, steps)" },
    ]);
  });

  it("refuses fields of another protocol's target", () => {
    const doc = valid();
    (doc.targets as Record<string, unknown>).bus = { protocol: "nats", server: "nats://x", card: "http://x" };
    expect(problemsOf(doc)).toEqual([{ pointer: "/targets/bus", message: "unknown field 'card' (known fields of an nats target: protocol, server, token)" }]);
  });

  it("wants step names unique and non-empty", () => {
    const doc = withStep({ name: "echo", target: "everything", action: { protocol: "mcp", method: "ping" } });
    (doc.steps as unknown[]).push({ name: "  ", target: "everything", action: { protocol: "mcp", method: "ping" } });
    expect(problemsOf(doc)).toEqual([
      { pointer: "/steps/7/name", message: "step name 'echo' is already used by step 0" },
      { pointer: "/steps/8/name", message: "must not be empty" },
    ]);
  });

  it("wants each step's target to exist and to speak the action's protocol", () => {
    const doc = withStep({ name: "a", target: "everythin", action: { protocol: "mcp", method: "ping" } });
    (doc.steps as unknown[]).push({ name: "b", target: "bus", action: { protocol: "mcp", method: "ping" } });
    (doc.steps as unknown[]).push({ name: "c", target: "nowhere-near", action: { protocol: "mcp", method: "ping" } });
    expect(problemsOf(doc)).toEqual([
      { pointer: "/steps/7/target", message: "no target 'everythin' in targets (did you mean 'everything'?)" },
      { pointer: "/steps/8/action/protocol", message: "the action is mcp but target 'bus' is nats" },
      { pointer: "/steps/9/target", message: "no target 'nowhere-near' in targets (targets: everything, local, agent, bus)" },
    ]);
  });

  it("wants an MCP target to have exactly one of url and command", () => {
    const doc = valid();
    const targets = doc.targets as Record<string, unknown>;
    targets.local = { protocol: "mcp" };
    targets.everything = { protocol: "mcp", url: "http://x", command: "y" };
    expect(problemsOf(doc)).toEqual([
      { pointer: "/targets/everything", message: "an mcp target needs exactly one of 'url' and 'command'; it has both" },
      { pointer: "/targets/local", message: "an mcp target needs exactly one of 'url' and 'command'; it has neither" },
    ]);
  });

  it("takes an MCP target's era, and names one it does not know", () => {
    const doc = valid();
    const targets = doc.targets as Record<string, unknown>;
    targets.modern = { protocol: "mcp", url: "http://x/mcp", era: "modern" };
    const parsed = parseCollection(doc);
    expect(parsed.ok && parsed.collection.targets.modern).toEqual({ protocol: "mcp", url: "http://x/mcp", era: "modern" });
    targets.modern = { protocol: "mcp", url: "http://x/mcp", era: "2026" };
    expect(problemsOf(doc)).toEqual([{ pointer: "/targets/modern/era", message: expect.stringMatching(/^'2026' is not a known era/) }]);
  });

  it("checks A2A operations, dialects and bindings against the known ones", () => {
    const doc = valid();
    (doc.targets as Record<string, unknown>).agent = { protocol: "a2a", card: "http://x", dialect: "0.4", binding: "grpc" };
    (doc.steps as Record<string, unknown>[])[1] = { name: "send", target: "agent", action: { protocol: "a2a", operation: "sned", text: "x" } };
    (doc.steps as Record<string, unknown>[])[2] = { name: "get", target: "agent", action: { protocol: "a2a", operation: "get" } };
    expect(problemsOf(doc)).toEqual([
      { pointer: "/targets/agent/dialect", message: "'0.4' is not a known dialect: did you mean '0.1'?" },
      { pointer: "/targets/agent/binding", message: "'grpc' is not a known binding: expected one of jsonrpc, rest" },
      { pointer: "/steps/1/action/operation", message: "'sned' is not a known operation: did you mean 'send'?" },
      { pointer: "/steps/2/action", message: "a2a 'get' needs 'taskId'" },
    ]);
  });

  it("checks assertion kinds, outcome kinds, codes and states", () => {
    const doc = withStep({
      name: "x",
      target: "everything",
      action: { protocol: "mcp", method: "ping" },
      assert: [{ kind: "equal", pointer: "/a", value: 1 }, { kind: "outcome", is: "timout" }, { kind: "outcome", is: "result", code: 1 }, { kind: "outcome", is: "exit-code", state: "done" }],
    });
    const at = `${lastStep(doc)}/assert`;
    expect(problemsOf(doc)).toEqual([
      { pointer: `${at}/0/kind`, message: "'equal' is not a known assertion kind: did you mean 'equals'?" },
      { pointer: `${at}/1/is`, message: "'timout' is not a known outcome: did you mean 'timeout'?" },
      { pointer: `${at}/2/code`, message: "a code applies only to outcomes exit-code, json-rpc-error, refused; not result" },
      { pointer: `${at}/3/state`, message: "a state applies only to outcome task-state; not exit-code" },
    ]);
  });

  it("checks pointers, patterns, latency, stream counts and captures", () => {
    const doc = withStep({
      name: "x",
      target: "everything",
      action: { protocol: "mcp", method: "ping" },
      assert: [
        { kind: "exists", pointer: "result" },
        { kind: "absent", pointer: "/a~2" },
        { kind: "matches", pointer: "/a", pattern: "(" },
        { kind: "latency", belowMs: 0 },
        { kind: "stream", count: { min: 5, max: 2 }, order: ["a", 3], final: "yes" },
        { kind: "stream", count: 1.5 },
      ],
      capture: { "task-id": "/id", ok: "id", token: "/t" },
    });
    const at = lastStep(doc);
    expect(problemsOf(doc)).toEqual([
      { pointer: `${at}/assert/0/pointer`, message: 'JSON pointer "result" must be empty or start with "/"' },
      { pointer: `${at}/assert/1/pointer`, message: 'JSON pointer "/a~2" has a "~" not followed by 0 or 1' },
      { pointer: `${at}/assert/2/pattern`, message: "is not a valid regular expression: Invalid regular expression: /(/: Unterminated group" },
      { pointer: `${at}/assert/3/belowMs`, message: "must be a number of milliseconds above 0 and at most 3,600,000; got an integer (0)" },
      { pointer: `${at}/assert/4/count`, message: "min 5 is greater than max 2" },
      { pointer: `${at}/assert/4/order/1`, message: "must be a string; got an integer (3)" },
      { pointer: `${at}/assert/4/final`, message: 'must be true or false; got a string ("yes")' },
      { pointer: `${at}/assert/5/count`, message: "must be a whole number of messages or {min, max}; got a number (1.5)" },
      { pointer: `${at}/capture/task-id`, message: "'task-id' is not a valid name: letters, digits and _, not starting with a digit, so {{name}} can refer to it" },
      { pointer: `${at}/capture/ok`, message: 'JSON pointer "id" must be empty or start with "/"' },
      { pointer: `${at}/capture/token`, message: "capture 'token' has the name of a secret: a captured value must not stand in for a secret" },
    ]);
  });

  it("checks secret and variable names, and keeps them apart", () => {
    const doc = valid();
    doc.environments = { dev: { baseUrl: "http://x", token: "oops", "base url": "y" } };
    doc.secrets = { token: { env: "MCP_TOKEN" }, natsToken: { env: "NATS-TOKEN" }, "2fa": { env: "TWO_FA", note: "x" } };
    expect(problemsOf(doc)).toEqual([
      { pointer: "/environments/dev/base url", message: "'base url' is not a valid name: letters, digits and _, not starting with a digit, so {{name}} can refer to it" },
      { pointer: "/secrets/token", message: "secret 'token' has the same name as a variable of environment 'dev': a {{token}} would be ambiguous" },
      { pointer: "/secrets/natsToken/env", message: "'NATS-TOKEN' is not a valid environment variable name (letters, digits and _, not starting with a digit)" },
      { pointer: "/secrets/2fa", message: "'2fa' is not a valid name: letters, digits and _, not starting with a digit, so {{name}} can refer to it" },
      { pointer: "/secrets/2fa", message: "unknown field 'note' (known fields: env, description)" },
    ]);
  });

  it("refuses credentials written in the file", () => {
    const doc = valid();
    const targets = doc.targets as Record<string, Record<string, unknown>>;
    targets.everything!.headers = { authorization: "Bearer abc123" };
    targets.bus!.token = "s3cr3t";
    targets.agent!.headers = { Authorization: "Bearer {{baseUrl}}" };
    (doc.steps as unknown[]).push({ name: "x", target: "bus", action: { protocol: "nats", kind: "request", subject: "a", payload: "", headers: { Authorization: "{{token}} extra words" } } });
    const never = "secrets are never written: use a {{secret}} declared under secrets";
    expect(problemsOf(doc)).toEqual([
      { pointer: "/targets/everything/headers/authorization", message: `the authorization header holds a literal value: ${never}` },
      { pointer: "/targets/agent/headers/Authorization", message: `the Authorization header refers to {{baseUrl}}, a variable of environment 'dev' written in the file: ${never}` },
      { pointer: "/targets/bus/token", message: `a NATS token holds a literal value: ${never}` },
      { pointer: "/steps/7/action/headers/Authorization", message: `the Authorization header holds a literal value: ${never}` },
    ]);
  });

  it("enforces the limits on steps, targets, environments, strings and time limits", () => {
    const step = { name: "s", target: "everything", action: { protocol: "mcp", method: "ping" } };
    expect(problemsOf({ ...valid(), steps: Array.from({ length: 10_001 }, () => step) })).toEqual([{ pointer: "/steps", message: "has 10,001 steps; at most 10,000 are allowed" }]);
    const targets = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`t${i}`, { protocol: "nats", server: "nats://x" }]));
    expect(problemsOf({ ...valid(), targets, steps: [] })).toEqual([{ pointer: "/targets", message: "targets has 201 entries; at most 200 are allowed" }]);
    const environments = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`e${i}`, {}]));
    expect(problemsOf({ ...valid(), environments })).toEqual([
      { pointer: "/environments", message: "environments has 101 entries; at most 100 are allowed" },
      // baseUrl is then no variable, and the Authorization header's token is still a secret: no other problem.
    ]);
    expect(problemsOf({ ...valid(), description: "x".repeat(1024 * 1024 + 1) })).toEqual([
      { pointer: "/description", message: "is 1,048,577 characters long; at most 1,048,576 are allowed" },
    ]);
    for (const timeoutMs of [0, 3_600_001, 1.5, "100"]) {
      expect(problemsOf({ ...valid(), timeoutMs })[0]!.message).toMatch(/^must be an integer from 1 to 3,600,000; got /);
    }
    expect(parseCollection({ ...valid(), timeoutMs: 3_600_000 }).ok).toBe(true);
  });

  it("gives problems, never throws or hangs, on hostile input", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const doc = withStep({ name: "deep", target: "everything", action: { protocol: "mcp", method: "x", params: { deep } } });
    expect(problemsOf(doc)).toEqual([{ pointer: `${lastStep(doc)}/action/params/deep/${"0/".repeat(62)}0`, message: "nests deeper than 64 levels" }]);

    // Shared sub-values make a small graph whose unfolding is astronomically large.
    let shared: unknown = 1;
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    const wide = withStep({ name: "wide", target: "everything", action: { protocol: "mcp", method: "x", params: { shared } } });
    expect(problemsOf(wide)).toEqual([expect.objectContaining({ message: "the document holds more than 1,000,000 values" })]);

    const huge = withStep({ name: "huge", target: "everything", action: { protocol: "mcp", method: "x", params: { list: new Array(5_000_000).fill(0) } } });
    expect(problemsOf(huge)).toEqual([{ pointer: expect.stringMatching(/^\/steps\/7\/action\/params\/list\/9999\d\d$/), message: "the document holds more than 1,000,000 values" }]);

    const proto = JSON.parse('{"__proto__": {"polluted": true}, "name": "p", "targets": {"__proto__": {"protocol": "nats", "server": "x"}}, "environments": {}, "steps": []}') as unknown;
    expect(problemsOf(proto)).toEqual([{ pointer: "", message: "unknown field '__proto__' (known fields of a collection: name, description, timeoutMs, targets, environments, secrets, steps)" }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const throwing = { ...valid(), get steps(): unknown { throw new Error("boom"); } };
    expect(problemsOf(throwing)).toEqual([{ pointer: "", message: "the document could not be read: boom" }]);

    const odd = withStep({ name: "odd", target: "everything", action: { protocol: "mcp", method: "x", params: { a: undefined, b: NaN, c: new Map(), d: () => 1 } } });
    const at = `${lastStep(odd)}/action/params`;
    expect(problemsOf(odd)).toEqual([
      { pointer: `${at}/a`, message: "must be a JSON value; got undefined" },
      { pointer: `${at}/b`, message: "must be a finite number; got NaN" },
      { pointer: `${at}/c`, message: "must be a JSON value; got an object that is not plain JSON" },
      { pointer: `${at}/d`, message: "must be a JSON value; got a function" },
    ]);

    const many = { ...valid(), steps: Array.from({ length: 3000 }, () => ({ name: "" })) };
    const problems = problemsOf(many);
    expect(problems).toHaveLength(1001);
    expect(problems[1000]).toEqual({ pointer: "", message: expect.stringMatching(/^and [\d,]+ more problems$/) });
  });

  it("escapes pointer tokens", () => {
    const doc = valid();
    doc.environments = { "a/b~c": { "x y": "1" } };
    expect(problemsOf(doc)).toContainEqual({ pointer: "/environments/a~1b~0c/x y", message: expect.stringContaining("is not a valid name") });
  });
});

describe("canonical form and the collection file", () => {
  it("orders keys the same whatever order they were written in", () => {
    const a = encodeCollectionFile(valid() as unknown as Collection, T);
    const b = encodeCollectionFile(shuffled(valid()) as Collection, T);
    expect(b).toBe(a);
    expect(Object.keys(JSON.parse(a).data)).toEqual(["name", "description", "timeoutMs", "targets", "environments", "secrets", "steps"]);
  });

  it("sorts maps and free-form values, keeps arrays and the documented field order", () => {
    const canonical = canonicalCollection(valid() as unknown as Collection);
    // Read back through JSON, which keeps key order, to index the result freely.
    const c = JSON.parse(JSON.stringify(canonical));
    expect(Object.keys(c.targets)).toEqual(["agent", "bus", "everything", "local"]);
    expect(Object.keys(c.targets.everything)).toEqual(["protocol", "url", "headers"]);
    expect(Object.keys(c.targets.everything.headers)).toEqual(["Authorization", "X-Trace"]);
    expect(Object.keys(c.steps[0])).toEqual(["name", "target", "timeoutMs", "action", "assert", "capture"]);
    expect(JSON.stringify(c.steps[0].action.params)).toBe('{"arguments":{"message":"hi","nested":{"a":[3,{"y":2,"z":1}],"b":1}},"name":"echo"}');
    expect(JSON.stringify(c.steps[0].assert[1])).toBe('{"kind":"equals","pointer":"/result/content/0/text","value":{"a":1,"b":2}}');
    expect(JSON.stringify(c.steps[0].assert[8])).toBe('{"kind":"stream","count":{"min":1,"max":4},"order":["status-update","artifact-update"],"final":true}');
    expect(c.steps.map((s: { name: string }) => s.name)).toEqual(["echo", "send", "get", "ping", "tool", "task", "list"]);
    expect(canonical).toEqual(valid());
  });

  it("keeps a member named __proto__ in a free-form value", () => {
    const doc = withStep({ name: "p", target: "everything", action: { protocol: "mcp", method: "x", params: JSON.parse('{"__proto__": {"b": 1, "a": 2}}') } });
    const parsed = parseCollection(doc);
    expect(parsed.ok).toBe(true);
    const text = encodeCollectionFile(doc as unknown as Collection, T);
    expect(text).toContain('"__proto__": {\n');
    expect(decodeCollectionFile(text, "p.json").steps[7]!.action).toEqual(JSON.parse('{"protocol": "mcp", "method": "x", "params": {"__proto__": {"a": 2, "b": 1}}}'));
  });

  it("round-trips through the file byte for byte", () => {
    const text = encodeCollectionFile(valid() as unknown as Collection, T);
    const back = decodeCollectionFile(text, "demo.json");
    expect(back).toEqual(valid());
    expect(encodeCollectionFile(back, T)).toBe(text);
    expect(JSON.parse(text)).toMatchObject({ format: "patchbay.collections", version: 1, savedAt: "2026-01-02T03:04:05.000Z" });
  });

  it("refuses an invalid collection file, naming every problem", () => {
    const bad = { ...valid(), name: "", steps: [{ name: "x", target: "nope", action: { protocol: "mcp", method: "ping" } }] };
    const text = encodeEnvelope("collections", bad, T);
    let error: unknown;
    try {
      decodeCollectionFile(text, "bad.json");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DocumentError);
    expect((error as DocumentError).code).toBe("invalid_document");
    expect((error as DocumentError).message).toBe("bad.json is not a valid collection: /name: must not be empty; /steps/0/target: no target 'nope' in targets (targets: everything, local, agent, bus)");
    expect(() => decodeCollectionFile("{", "broken.json")).toThrow(/broken.json is not valid JSON/);
    expect(() => decodeCollectionFile(encodeEnvelope("servers", valid(), T), "other.json")).toThrow(/expected "patchbay.collections"/);
  });

  it("describes many problems with a count of the rest", () => {
    const problems = Array.from({ length: 25 }, (_, i) => ({ pointer: i === 0 ? "" : `/steps/${i}`, message: "m" }));
    const text = describeProblems(problems);
    expect(text.startsWith("(document): m; /steps/1: m")).toBe(true);
    expect(text.endsWith("/steps/19: m; and 5 more")).toBe(true);
  });
});

describe("matches patterns", () => {
  it("refuses nested quantifiers and oversize patterns, and keeps ordinary ones", async () => {
    const { patternProblem } = await import("./step-check.ts");
    for (const bad of ["(a+)+$", "(\\d*)*", "(x+){2,}", "([a-z]+)*b"]) expect(patternProblem(bad), bad).toMatch(/exponential time/);
    for (const ok of ["^Echo", "(ab)+", "(a|b)*c", "\\(a+\\)+", "(a+)?", "(\\d{2}){3}", "[+*]+"]) expect(patternProblem(ok), ok).toBeUndefined();
    expect(patternProblem("x".repeat(1001))).toMatch(/at most 1000/);
    expect(patternProblem("(")).toMatch(/not a valid regular expression/);
  });
});
