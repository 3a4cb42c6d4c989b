import { describe, expect, it } from "vitest";
import { appendStep, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import { type A2aComposeInput, a2aStepRequest } from "./a2a-step.ts";
import { withSecrets } from "./step-drafts.ts";

const input: A2aComposeInput = {
  cardUrl: "http://127.0.0.1:9/.well-known/agent-card.json",
  agentName: "Echo Agent",
  target: { dialect: "1.0", binding: "jsonrpc" },
  operation: "send",
  parts: [{ kind: "text", text: "echo hello" }],
  taskId: "",
  contextId: " ctx-1 ",
  headers: { Authorization: "Bearer sekrit", "X-API-Key": "k" },
  raw: false,
};

describe("a2aStepRequest", () => {
  it("saves a text message to the agent by its card, credentials as secrets, into a valid collection", () => {
    const made = a2aStepRequest(input);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.action).toEqual({ protocol: "a2a", operation: "send", text: "echo hello", contextId: "ctx-1" });
    expect(made.request.draft.target).toEqual({
      protocol: "a2a",
      card: "http://127.0.0.1:9/.well-known/agent-card.json",
      dialect: "1.0",
      binding: "jsonrpc",
      headers: { Authorization: "Bearer {{echo_agent_token}}", "X-API-Key": "{{echo_agent_x_api_key}}" },
    });
    expect(JSON.stringify(made.request)).not.toContain("sekrit");
    expect(parseCollection(withSecrets(appendStep(emptyCollection("c"), made.request.draft), made.request.secrets))).toMatchObject({ ok: true });
  });

  it("saves a task operation with its task id", () => {
    const made = a2aStepRequest({ ...input, operation: "get", taskId: "t-1", headers: {} });
    expect(made.ok && made.request.draft.action).toEqual({ protocol: "a2a", operation: "get", taskId: "t-1", contextId: "ctx-1" });
  });

  it("says what keeps a request from being a step", () => {
    expect(a2aStepRequest({ ...input, raw: true })).toEqual({ ok: false, error: "a raw request is not saved as a step: use the template" });
    expect(a2aStepRequest({ ...input, cardUrl: undefined })).toMatchObject({ ok: false, error: expect.stringContaining("fetch the agent's card first") });
    expect(a2aStepRequest({ ...input, target: "choose an interface" })).toEqual({ ok: false, error: "choose an interface" });
    expect(a2aStepRequest({ ...input, headers: "header row 1 has a value but no name" })).toEqual({ ok: false, error: "header row 1 has a value but no name" });
    expect(a2aStepRequest({ ...input, parts: [{ kind: "data", text: "{}" }] })).toMatchObject({ ok: false, error: expect.stringContaining("one text part") });
    expect(a2aStepRequest({ ...input, operation: "cancel" })).toEqual({ ok: false, error: "give the task id: cancel names a task" });
    expect(a2aStepRequest({ ...input, operation: "list" })).toEqual({ ok: false, error: "the list operation is not saved as a step from here" });
  });
});
