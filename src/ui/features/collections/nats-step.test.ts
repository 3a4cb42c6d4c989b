import { describe, expect, it } from "vitest";
import { appendStep, emptyCollection, parseCollection } from "../../../core/harness/index.ts";
import { natsComposeRequest, natsStepRequest, tcpServer } from "./nats-step.ts";
import { withSecrets } from "./step-drafts.ts";

const MANAGED = { mode: "managed", url: "nats://127.0.0.1:4222", wsUrl: "ws://127.0.0.1:8222" } as const;
const form = { servers: "ws://127.0.0.1:8222", authMode: "none", subject: " svc.echo ", headerRows: [{ name: "X-Trace", value: "1" }, { name: "", value: "" }], payload: '{"a":1}', readAll: false };

describe("natsStepRequest", () => {
  it("saves the managed server by its TCP address, since the backend runs the step", () => {
    const made = natsStepRequest(form, MANAGED);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.target).toEqual({ protocol: "nats", server: "nats://127.0.0.1:4222" });
    expect(made.request.draft.action).toEqual({ protocol: "nats", kind: "request", subject: "svc.echo", payload: '{"a":1}', headers: { "X-Trace": "1" } });
    expect(made.request.notes).toEqual(["saved with the backend's TCP address nats://127.0.0.1:4222"]);
    expect(parseCollection(appendStep(emptyCollection("c"), made.request.draft))).toMatchObject({ ok: true });
  });

  it("saves a token as a declared secret the checker accepts", () => {
    const made = natsStepRequest({ ...form, servers: "nats://10.0.0.1:4222", authMode: "token", readAll: true }, undefined);
    if (!made.ok) throw new Error(made.error);
    expect(made.request.draft.target).toEqual({ protocol: "nats", server: "nats://10.0.0.1:4222", token: "{{nats_svc_token}}" });
    expect(made.request.secrets).toEqual({ nats_svc_token: { env: "NATS_SVC_TOKEN", description: "The NATS token" } });
    expect(made.request.notes).toEqual(["the step reads the first reply only", "the token is saved as the secret nats_svc_token"]);
    expect(parseCollection(withSecrets(appendStep(emptyCollection("c"), made.request.draft), made.request.secrets))).toMatchObject({ ok: true });
  });

  it("refuses what a step cannot say: an unknown WebSocket server, other auth, repeated headers, no subject", () => {
    expect(natsStepRequest({ ...form, servers: "wss://elsewhere:443" }, MANAGED)).toMatchObject({ ok: false, error: expect.stringContaining("the TCP address of wss://elsewhere:443 is not known") });
    expect(natsStepRequest({ ...form, authMode: "creds" }, MANAGED)).toEqual({ ok: false, error: "a collection's NATS target takes a token only, not creds authentication" });
    expect(natsStepRequest({ ...form, headerRows: [{ name: "A", value: "1" }, { name: "A", value: "2" }] }, MANAGED)).toEqual({ ok: false, error: 'header "A" is given twice; a step sends one value per header' });
    expect(natsStepRequest({ ...form, subject: "  " }, MANAGED)).toEqual({ ok: false, error: "give the subject first" });
  });

  it("without the backend's status only a nats:// address saves", async () => {
    const down = () => Promise.reject(new Error("backend unreachable"));
    expect(await natsComposeRequest(form, down)).toMatchObject({ ok: false });
    expect(await natsComposeRequest({ ...form, servers: "nats://h:4222" }, down)).toMatchObject({ ok: true });
    expect(tcpServer("not a url", MANAGED)).toMatchObject({ error: expect.stringContaining("not a url") });
  });
});
