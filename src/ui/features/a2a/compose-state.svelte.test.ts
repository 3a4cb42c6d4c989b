import { afterEach, describe, expect, it } from "vitest";
import { drafts } from "../../state/drafts.svelte.ts";
import { A2aState } from "./a2a-state.svelte.ts";
import { uploadedPart } from "./parts-draft.ts";
import { FakeAgent, fakeDeps, json, rpc } from "./test-fakes.ts";

const BASE = "http://agent.test";
const card = {
  name: "n",
  description: "d",
  version: "1",
  capabilities: {},
  skills: [],
  supportedInterfaces: [
    { url: `${BASE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    { url: `${BASE}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    { url: `${BASE}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    { url: "grpc://agent.test", protocolBinding: "GRPC", protocolVersion: "1.0" },
  ],
};

async function open() {
  const agent = new FakeAgent()
    .on((s) => s.method === "GET", () => json(card))
    .on(() => true, (_, b) => json(rpc((b as { id?: unknown } | undefined)?.id ?? null, { kind: "message", messageId: "r", role: "agent", parts: [{ kind: "text", text: "ok" }] })));
  const { deps } = fakeDeps(agent);
  const a2a = new A2aState(deps);
  a2a.card.url = BASE;
  await a2a.card.fetch();
  return { a2a, compose: a2a.compose, agent };
}

const body = (text: string) => JSON.parse(text) as { method: string; params: Record<string, unknown> };

describe("ComposeState", () => {
  it("starts on the preferred interface and offers that dialect's operations; gRPC cannot be chosen to talk", async () => {
    const { compose } = await open();
    expect(compose.interfaceIndex).toBe(0);
    expect(compose.operations).toContain("list");
    compose.interfaceIndex = 2;
    expect(compose.operations).not.toContain("list");
    compose.operation = "list";
    expect(compose.op).toBe("send");
    compose.interfaceIndex = 3;
    expect(compose.target).toBe("GRPC is not spoken here: choose a JSON-RPC or HTTP+JSON interface");
    expect(compose.built).toMatchObject({ ok: false });
  });

  it("builds each operation with the core and attaches the matching schema", async () => {
    const { compose } = await open();
    compose.operation = "get";
    compose.taskId = "t9";
    expect(body(compose.text)).toMatchObject({ method: "GetTask", params: { id: "t9" } });
    expect(compose.schema).toMatchObject({ $ref: "#/$defs/GetTaskJsonRpcRequest" });
    compose.interfaceIndex = 1;
    compose.operation = "cancel";
    expect(compose.built).toMatchObject({ ok: true, spec: { method: "POST", url: `${BASE}/rest/tasks/t9:cancel` } });
    compose.interfaceIndex = 2;
    compose.operation = "send";
    expect(body(compose.text).method).toBe("message/send");
    expect(compose.schema).toMatchObject({ $ref: "#/definitions/SendMessageRequest" });
  });

  it("sends A2A-Version by choice, and a custom A2A-Version row on the card form never overrides it", async () => {
    const { compose, a2a, agent } = await open();
    a2a.card.headerRows[0] = { name: "A2A-Version", value: "9.9" };
    compose.interfaceIndex = 2;
    await compose.send();
    expect(agent.sent.at(-1)?.headers["A2A-Version"]).toBeUndefined();
    compose.versionHeader = "send";
    await compose.send();
    expect(agent.sent.at(-1)?.headers["A2A-Version"]).toBe("0.3");
    compose.interfaceIndex = 0;
    compose.versionHeader = "omit";
    await compose.send();
    expect(agent.sent.at(-1)?.headers["A2A-Version"]).toBeUndefined();
  });

  it("sends the edited body, keeps the edit until reset, and marks the answer stale when the input changes", async () => {
    const { compose, agent } = await open();
    const edited = compose.text.replace('"text": "echo hello"', '"text": "edited"');
    compose.text = edited;
    expect(compose.edited).toBe(true);
    await compose.send();
    expect(agent.sent.at(-1)?.body).toBe(edited);
    expect(compose.stale).toBe(false);
    compose.parts[0] = { kind: "text", text: "other" };
    expect(compose.stale).toBe(true);
    compose.resetTemplate();
    expect(compose.text).toContain('"text": "other"');
  });

  it("writes text, file and data parts, and names a part that cannot be sent", async () => {
    const { compose } = await open();
    compose.parts.push(uploadedPart("a.txt", "text/plain", new TextEncoder().encode("hi")));
    compose.addPart("data");
    compose.parts[2] = { kind: "data", text: '{"k": 1}' };
    expect((body(compose.text).params.message as { parts: unknown[] }).parts).toEqual([{ text: "echo hello" }, { raw: "aGk=", filename: "a.txt", mediaType: "text/plain" }, { data: { k: 1 } }]);
    compose.parts[2] = { kind: "data", text: "{nope" };
    expect(compose.built).toMatchObject({ ok: false, error: expect.stringMatching(/^part 3: not JSON/) });
    await compose.send();
    expect(compose.sendError).toMatch(/^part 3: not JSON/);
  });

  it("raw mode sends exactly what it holds: no credentials added", async () => {
    const { compose, a2a, agent } = await open();
    a2a.card.bearer = "s3cret";
    compose.copyToRaw();
    expect(compose.mode).toBe("raw");
    compose.raw.body = '{"jsonrpc":"2.0","id":7,"method":"Nope"}';
    await compose.send();
    const sent = agent.sent.at(-1)!;
    expect(sent.body).toBe('{"jsonrpc":"2.0","id":7,"method":"Nope"}');
    expect(sent.headers.Authorization).toBeUndefined();
    compose.raw.method = "GET";
    await compose.send();
    expect(compose.sendError).toBe("a GET carries no body: clear it, or choose POST");
  });
});

describe("ComposeState across a reload", () => {
  afterEach(() => {
    drafts.clear();
  });

  it("keeps the form, the parts and an edited body; never the push token, a credential header's value or an uploaded file's bytes", async () => {
    const before = (await open()).compose;
    before.contextId = "ctx-kept";
    before.parts = [{ kind: "text", text: "kept across a reload" }, uploadedPart("notes.txt", "text/plain", new TextEncoder().encode("file-bytes-not-kept"))];
    before.pushToken = "push-token-secret";
    before.raw = { method: "POST", url: `${BASE}/rpc`, headers: [{ name: "Content-Type", value: "application/json" }, { name: "Authorization", value: "Bearer header-secret" }], body: "{}" };
    before.text = '{"edited": "by hand"}';
    // The page writes this draft when the form settles (effects do not run in these tests).
    drafts.save("a2a.compose", before.draft());
    const stored = JSON.stringify(drafts.read("a2a.compose"));
    expect(stored).toContain("kept across a reload");
    for (const secret of ["push-token-secret", "header-secret", btoa("file-bytes-not-kept")]) expect(stored).not.toContain(secret);

    const after = (await open()).compose;
    expect(after.contextId).toBe("ctx-kept");
    expect(after.parts).toEqual([{ kind: "text", text: "kept across a reload" }, { kind: "file", source: "upload", name: "notes.txt", mediaType: "text/plain", bytes: "", uri: "" }]);
    expect(after.pushToken).toBe("");
    expect(after.raw.headers).toEqual([{ name: "Content-Type", value: "application/json" }, { name: "Authorization", value: "" }]);
    expect(after.text).toBe('{"edited": "by hand"}');
    expect(after.edited).toBe(true);
  });

  it("a saved draft that does not fit the form is left alone", async () => {
    drafts.save("a2a.compose", { operation: 7, parts: [{ kind: "video" }], raw: "nope", edited: 3 });
    const { compose } = await open();
    expect(compose.operation).toBe("send");
    expect(compose.parts).toEqual([{ kind: "text", text: "echo hello" }]);
    expect(compose.raw.method).toBe("POST");
    expect(compose.edited).toBe(false);
  });
});
