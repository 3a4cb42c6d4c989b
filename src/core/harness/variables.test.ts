import { describe, expect, it } from "vitest";
import type { Collection } from "./collection-types.ts";
import { referencesIn, referencesOf, resolveStep, scrubSecrets, type VariableScope } from "./variables.ts";

const collection: Collection = {
  name: "refs",
  timeoutMs: 4000,
  targets: {
    api: { protocol: "mcp", url: "{{ baseUrl }}/mcp", headers: { Authorization: "Bearer {{token}}" } },
    agent: { protocol: "a2a", card: "{{baseUrl}}/card" },
  },
  environments: { dev: { baseUrl: "http://localhost:3001", who: "dev-user" } },
  secrets: { token: { env: "MCP_TOKEN" } },
  steps: [
    { name: "call", target: "api", timeoutMs: 900, action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "{{who}} in {{sessionId}}", list: ["{{who}}", 3, null], "{{who}}": "key kept" } } } },
    { name: "get task", target: "agent", action: { protocol: "a2a", operation: "get", taskId: "{{taskId}}" } },
    { name: "literal", target: "agent", action: { protocol: "a2a", operation: "send", text: "{{ not a ref }} {{1x}} {x}" } },
  ],
};

const scope = (extra: Partial<VariableScope> = {}): VariableScope => ({
  environment: "dev",
  variables: collection.environments.dev!,
  secrets: { token: "tok-123456" },
  captured: { sessionId: "s-1" },
  ...extra,
});

describe("references", () => {
  it("finds identifier-like names between braces, whitespace allowed", () => {
    expect(referencesIn("{{a}} {{ b_2 }} {{  c}} {{ not a ref }} {{1x}} {x} {{}}")).toEqual(["a", "b_2", "c"]);
  });

  it("resolves every string of the target and the action, deep, leaving keys and other values", () => {
    const result = resolveStep(collection, 0, scope());
    expect(result).toEqual({
      ok: true,
      step: {
        index: 0,
        name: "call",
        targetName: "api",
        target: { protocol: "mcp", url: "http://localhost:3001/mcp", headers: { Authorization: "Bearer tok-123456" } },
        action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "dev-user in s-1", list: ["dev-user", 3, null], "{{who}}": "key kept" } } },
        timeoutMs: 900,
      },
      assert: [],
    });
  });

  it("takes the collection's time limit, then the default", () => {
    const step = resolveStep(collection, 1, scope({ captured: { taskId: "t-9" } }));
    expect(step.ok && step.step.timeoutMs).toBe(4000);
    const bare = resolveStep({ ...collection, timeoutMs: undefined } as Collection, 1, scope({ captured: { taskId: "t-9" } }));
    expect(bare.ok && bare.step.timeoutMs).toBe(30_000);
  });

  it("resolves the override target instead of the collection's", () => {
    const result = resolveStep(collection, 1, scope({ captured: { taskId: "t-9" }, targets: { agent: { protocol: "a2a", card: "{{baseUrl}}/other", dialect: "1.0" } } }));
    expect(result.ok && result.step.target).toEqual({ protocol: "a2a", card: "http://localhost:3001/other", dialect: "1.0" });
    expect(result.ok && result.step.action).toEqual({ protocol: "a2a", operation: "get", taskId: "t-9" });
  });

  it("prefers a captured value to a variable of the same name", () => {
    const result = resolveStep(collection, 0, scope({ captured: { sessionId: "s-2", who: "captured-user" } }));
    expect(result.ok && (result.step.action as unknown as { params: { arguments: { message: string } } }).params.arguments.message).toBe("captured-user in s-2");
  });

  it("names the step, the reference and what was captured when a name is unknown", () => {
    expect(resolveStep(collection, 1, scope())).toEqual({
      ok: false,
      error: "step 'get task': {{taskId}} in action /taskId is not a variable of environment 'dev', a secret, or a value captured so far (captured: sessionId)",
    });
    expect(resolveStep(collection, 1, scope({ environment: null, variables: {}, captured: {} }))).toEqual({
      ok: false,
      error: "step 'get task': {{baseUrl}} in target 'agent' /card is not a variable (no environment is chosen), a secret, or a value captured so far (nothing captured yet)",
    });
    expect(resolveStep(collection, 1, scope({ captured: { taskID: "x" } }))).toEqual({
      ok: false,
      error: "step 'get task': {{taskId}} in action /taskId is not a variable of environment 'dev', a secret, or a value captured so far (captured: taskID); did you mean {{taskID}}?",
    });
  });

  it("says where a secret with no value comes from", () => {
    expect(resolveStep(collection, 0, scope({ secrets: {} }))).toEqual({
      ok: false,
      error: "step 'call': secret 'token' has no value: set the environment variable MCP_TOKEN or type it in",
    });
  });

  it("leaves text that is not a reference as written", () => {
    const result = resolveStep(collection, 2, scope());
    expect(result.ok && result.step.action).toEqual({ protocol: "a2a", operation: "send", text: "{{ not a ref }} {{1x}} {x}" });
  });

  it("does not find names on the object prototype", () => {
    const proto: Collection = { ...collection, steps: [{ name: "p", target: "agent", action: { protocol: "a2a", operation: "send", text: "{{constructor}} {{__proto__}}" } }] };
    const result = resolveStep(proto, 0, scope());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^step 'p': \{\{constructor\}\} in action \/text is not a variable/);
  });

  it("reports a step index out of range", () => {
    expect(resolveStep(collection, 7, scope())).toEqual({ ok: false, error: "there is no step 7 (the collection has 3)" });
  });

  it("lists the names each step uses, and which are secrets", () => {
    expect(referencesOf(collection)).toEqual([
      { index: 0, name: "call", names: ["baseUrl", "sessionId", "token", "who"], secrets: ["token"] },
      { index: 1, name: "get task", names: ["baseUrl", "taskId"], secrets: [] },
      { index: 2, name: "literal", names: ["baseUrl"], secrets: [] },
    ]);
  });
});

describe("scrubSecrets", () => {
  it("replaces every occurrence of each secret of four characters or more", () => {
    expect(scrubSecrets("Bearer tok-123456 and tok-123456, abc stays", ["tok-123456", "abc"])).toBe("Bearer ••• and •••, abc stays");
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    expect(scrubSecrets("key=secret-long", ["secret", "secret-long"])).toBe("key=•••");
  });

  it("replaces a secret where it appears JSON-escaped", () => {
    const secret = 'pa"ss\\word';
    expect(scrubSecrets(JSON.stringify({ password: secret }), [secret])).toBe('{"password":"•••"}');
  });

  it("leaves text without secrets unchanged", () => {
    expect(scrubSecrets("nothing here", [])).toBe("nothing here");
  });
});
