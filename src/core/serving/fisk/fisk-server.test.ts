import { describe, expect, it } from "vitest";
import { createValidationEngine } from "../../packs/index.ts";
import { BUILTIN_DEFS } from "../builtin-tools.ts";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { ToolRun } from "../tool-run.ts";
import { engineValidator } from "./fisk-intake.ts";
import { FiskServeError, defaultConcurrency } from "./fisk-server.ts";
import { SERVICE_ERROR, SERVICE_ERROR_CODE } from "./reply-stream.ts";
import { Harness, type Answer } from "./testing/harness.ts";
import { settle } from "./testing/memory-bus.ts";

const NS = "io.choria.fisk-ai.v1";
const engine = createValidationEngine();
const validate = engineValidator(engine);

function expectGen2Set(set: Answer[]): void {
  expect(set.length).toBeGreaterThan(1);
  set.forEach((a, i) => {
    expect(a.json?.sequence).toBe(i + 1);
    expect(a.final).toBe(i === set.length - 1);
    expect(engine.session().validateText(a.text, { packId: "fisk-ai/gen2" }).status, a.text).toBe("valid");
  });
  expect(set[0]?.json?.protocol).toBe(`${NS}.ack`);
  expect(set.at(-1)?.json?.protocol).toBe(`${NS}.tool.reply`);
}

describe("discovery", () => {
  it("answers one Gen 2 card without the confirm-gated tool, tags in the description and behaviour from them", async () => {
    const h = new Harness();
    await h.start({ validate, version: "1.2.3" });
    const inbox = h.discover();
    await settle();
    const [reply, ...more] = h.answers(inbox);
    expect(more).toEqual([]);
    expect(engine.session().validateText(reply!.text, { packId: "fisk-ai/gen2" }).status).toBe("valid");
    expect(Object.keys(reply!.json!).slice(0, 8)).toEqual(["protocol", "id", "request", "conversation", "sequence", "time", "sender", "recipient"]);
    const card = reply!.json!;
    expect(card).toMatchObject({ protocol: `${NS}.discovery.reply`, sequence: 0, sender: { name: "patchbay-demo" }, recipient: { name: "console-1" }, name: "patchbay-demo", version: "1.2.3", protocols: [NS] });
    const tools = card.tools as { name: string; description: string; input_schema: unknown; behavior?: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(["echo", "add", "sleep", "fail", "large-output", "slow"]);
    expect(tools[0]).toEqual({
      name: "echo",
      description: "Returns the message it is given.\n\nTags: ai:read_only, ai:idempotent",
      input_schema: { additionalProperties: false, properties: { message: { description: "Text to echo back.", type: "string" } }, required: ["message"], type: "object" },
      behavior: { read_only: true, idempotent: true },
    });
    // Go writes a map with sorted keys.
    expect(reply!.text).toContain('"input_schema":{"additionalProperties":false,"properties"');
  });

  it("a Gen 1 agent's card has no behaviour and passes the strict Gen 1 schema", async () => {
    const h = new Harness();
    await h.start({ validate, generation: "gen1" });
    const inbox = h.discover();
    await settle();
    const [reply] = h.answers(inbox);
    expect(engine.session().validateText(reply!.text, { packId: "fisk-ai/gen1-v0.0.3" }).status).toBe("valid");
    expect(reply!.text).not.toContain("behavior");
  });

  it("refuses a tool.request on the discovery subject with a 400 naming what it wants", async () => {
    const h = new Harness();
    await h.start({ validate });
    const { toolRequest, encodeFiskBytes } = await import("../../fisk/codec/index.ts");
    const inbox = h.send(`choria.fisk-ai.discovery.${h.identity}`, encodeFiskBytes(toolRequest("echo", null, h.stamp())));
    await settle();
    const [refusal] = h.answers(inbox);
    expect(refusal!.text).toBe("");
    expect(refusal!.headers[SERVICE_ERROR_CODE]).toEqual(["400"]);
    expect(refusal!.headers[SERVICE_ERROR]?.[0]).toBe(`unexpected message protocol: got "${NS}.tool.request", want "${NS}.discovery.request"`);
  });
});

describe("tool calls (Gen 2)", () => {
  it("echo answers ack then a final tool.reply with its output and no exec", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.call("echo", { message: "hi <there>" });
    await settle();
    const set = h.answers(inbox);
    expectGen2Set(set);
    expect(set[0]!.json).toMatchObject({ accepted: true });
    expect(set[1]!.json).toMatchObject({ output: "hi <there>" });
    expect(set[1]!.json).not.toHaveProperty("exec");
    expect(set[1]!.text).toContain("hi \\u003cthere\\u003e");
  });

  it("a non-zero exit is a result with exec.exit_code; exit 0 leaves exit_code out; truncation is flagged", async () => {
    const h = new Harness();
    await h.start({ validate });
    const three = h.call("fail", { exit_code: 3 });
    const zero = h.call("fail", { exit_code: 0, output: "fine\n" });
    await settle();
    const big = h.call("large-output", { bytes: 100_000 });
    await settle();
    expect(h.answers(three)[1]!.json).toMatchObject({ output: "exiting with 3\n", exec: { command: "fail 3", exit_code: 3 } });
    expect(h.answers(three)[1]!.json).not.toHaveProperty("is_error");
    expect(h.answers(zero)[1]!.json!.exec).toEqual({ command: "fail 0" });
    expect(h.answers(big)[1]!.json!.exec).toEqual({ command: "large-output 100000", truncated: true });
  });

  it("bad arguments are a harness failure (is_error), not a refusal", async () => {
    const h = new Harness();
    await h.start({ validate });
    const inbox = h.call("add", { a: 1 });
    await settle();
    expect(h.answers(inbox)[1]!.json).toMatchObject({ is_error: true, output: '"b" must be a finite number' });
  });

  it("an unknown tool and the confirm-gated tool are refused as not available, without a code", async () => {
    const h = new Harness();
    await h.start({ validate });
    for (const name of ["nope", "confirm"]) {
      const inbox = h.call(name, { action: "x" });
      await settle();
      const set = h.answers(inbox);
      expectGen2Set(set);
      expect(set[0]!.json).toMatchObject({ accepted: false, reason: `tool "${name}" is not available` });
      expect(set[1]!.json).toMatchObject({ is_error: true, output: `tool "${name}" is not available` });
      expect(set[1]!.json).not.toHaveProperty("code");
    }
  });

  it("a slow tool sends a running-tool keepalive every interval, numbered without gaps", async () => {
    const h = new Harness();
    await h.start({ validate, keepaliveMs: 10_000 });
    const inbox = h.call("slow", { seconds: 25 });
    await h.advance(26_000);
    const set = h.answers(inbox);
    expectGen2Set(set);
    expect(set.map((a) => a.json?.protocol)).toEqual([`${NS}.ack`, `${NS}.event.status`, `${NS}.event.status`, `${NS}.tool.reply`]);
    expect(set[1]!.json!.block).toEqual({ phase: "running-tool" });
    expect(set[3]!.json).toMatchObject({ output: "finished after 25 s" });
  });

  it("sleep's progress goes out as running-tool statuses with progress, total and message, then the reply", async () => {
    const h = new Harness();
    await h.start({ validate, keepaliveMs: 60_000 });
    const inbox = h.call("sleep", { seconds: 3 });
    await h.advance(3500);
    const set = h.answers(inbox);
    expectGen2Set(set);
    expect(set.map((a) => a.json?.block ?? a.json?.protocol)).toEqual([
      `${NS}.ack`,
      { phase: "running-tool", progress: 1, total: 3, message: "1 of 3 s" },
      { phase: "running-tool", progress: 2, total: 3, message: "2 of 3 s" },
      { phase: "running-tool", progress: 3, total: 3, message: "3 of 3 s" },
      `${NS}.tool.reply`,
    ]);
    expect(set[4]!.json).toMatchObject({ output: "slept 3 s" });
  });

  it("a Gen 1 agent sends no progress: its answer is the single reply", async () => {
    const h = new Harness();
    await h.start({ validate, generation: "gen1" });
    const inbox = h.call("sleep", { seconds: 2 });
    await h.advance(2500);
    expect(h.answers(inbox).map((a) => a.json?.protocol)).toEqual([`${NS}.tool.reply`]);
  });

  it("a call over the timeout is a harness failure and its slot comes back", async () => {
    const h = new Harness();
    await h.start({ validate, callTimeoutMs: 5000, concurrency: 1 });
    const inbox = h.call("slow", { seconds: 100 });
    await h.advance(6000);
    expect(h.answers(inbox).at(-1)!.json).toMatchObject({ is_error: true, output: 'tool "slow" did not finish within 5 s and was stopped' });
    const next = h.call("echo", { message: "again" });
    await settle();
    expect(h.answers(next)[1]!.json).toMatchObject({ output: "again" });
  });

  it("past its concurrency the agent refuses at once with capacity, and the slot is reusable afterwards", async () => {
    const h = new Harness();
    await h.start({ validate, concurrency: 1 });
    const first = h.call("slow", { seconds: 2 });
    await settle();
    const second = h.call("echo", { message: "x" });
    await settle();
    const refused = h.answers(second);
    expectGen2Set(refused);
    const reason = 'tool "echo" on agent "patchbay-demo" did not run: the agent is already running its maximum of 1 concurrent tool calls';
    expect(refused[0]!.json).toMatchObject({ accepted: false, reason });
    expect(refused[1]!.json).toMatchObject({ is_error: true, output: reason, code: "capacity" });
    await h.advance(3000);
    expect(h.answers(first).at(-1)!.json).toMatchObject({ output: "finished after 2 s" });
    const third = h.call("echo", { message: "y" });
    await settle();
    expect(h.answers(third)[1]!.json).toMatchObject({ output: "y" });
  });

  it("refuses bad bodies with a micro 400 and an empty body, counting them in $SRV.STATS", async () => {
    const h = new Harness();
    await h.start({ validate });
    const subject = `choria.fisk-ai.tool.${h.identity}`;
    const bodies: (string | Uint8Array)[] = ["not json", "{", "[]", '{"protocol":"io.choria.fisk-ai.v1.bogus"}', new Uint8Array([0x7b, 0xff, 0x7d]), "x".repeat(786_433), '{"protocol":"io.choria.fisk-ai.v1.tool.request"}'];
    const inboxes = bodies.map((b) => h.send(subject, b));
    await settle();
    const refusals = inboxes.map((i) => h.answers(i));
    for (const [r] of refusals) {
      expect(r!.text).toBe("");
      expect(r!.headers[SERVICE_ERROR_CODE]).toEqual(["400"]);
    }
    expect(refusals[5]![0]!.headers[SERVICE_ERROR]).toEqual(["request exceeds 786432 bytes"]);
    expect(refusals[4]![0]!.headers[SERVICE_ERROR]?.[0]).toMatch(/^invalid request: .*UTF-8/);
    expect(h.server.status().endpoints.tool).toMatchObject({ requests: bodies.length, errors: bodies.length });
  });

  it("checks the header even without a validator", async () => {
    const h = new Harness();
    await h.start();
    const inbox = h.send(`choria.fisk-ai.tool.${h.identity}`, JSON.stringify({ protocol: `${NS}.tool.request`, id: "a", request: "a.b", conversation: "a", sequence: 0, time: "t", sender: { name: "c" }, name: "echo" }));
    await settle();
    expect(h.answers(inbox)[0]!.headers[SERVICE_ERROR]?.[0]).toMatch(/^invalid request: \/request/);
  });

  it("a request without a reply subject is dropped; stop answers running calls and unsubscribes", async () => {
    const h = new Harness();
    await h.start({ validate });
    const before = h.bus.published.length;
    h.bus.publish(`choria.fisk-ai.tool.${h.identity}`, new TextEncoder().encode("{}"));
    await settle();
    expect(h.bus.published.length).toBe(before + 1);
    const inbox = h.call("slow", { seconds: 50 });
    await settle();
    await h.server.stop();
    expect(h.answers(inbox).at(-1)).toMatchObject({ final: true, json: { is_error: true, output: 'the agent stopped serving before tool "slow" finished' } });
    expect(h.bus.subscriptions).toBe(0);
  });

  it("a tool's reply over the body cap is replaced by a harness failure that fits", async () => {
    const h = new Harness();
    const huge = async (): Promise<ToolRun> => ({ kind: "text", text: "<".repeat(200_000) });
    await h.start({ validate, execute: huge });
    const inbox = h.call("echo", { message: "x" });
    await settle();
    expect(h.answers(inbox)[1]!.json).toMatchObject({ is_error: true, output: expect.stringMatching(/^the tool's reply is \d+ bytes, over the 786432 byte message limit/) });
  });
});

describe("Gen 1 switch", () => {
  it("answers one tool.reply with sequence 0 and no final header; an unknown tool in-band", async () => {
    const h = new Harness();
    await h.start({ validate, generation: "gen1" });
    const ok = h.call("echo", { message: "legacy" });
    const missing = h.call("nope");
    await settle();
    const [reply, ...rest] = h.answers(ok);
    expect(rest).toEqual([]);
    expect(reply!.final).toBe(false);
    expect(reply!.json).toMatchObject({ protocol: `${NS}.tool.reply`, sequence: 0, output: "legacy" });
    expect(engine.session().validateText(reply!.text, { packId: "fisk-ai/gen1-v0.0.3" }).status).toBe("valid");
    expect(h.answers(missing)).toMatchObject([{ json: { is_error: true, output: 'tool "nope" is not available' } }]);
  });

  it("queues past its concurrency instead of refusing, and refuses a traceparent (strict schema)", async () => {
    const h = new Harness();
    await h.start({ validate, generation: "gen1", concurrency: 1 });
    const first = h.call("slow", { seconds: 2 });
    const second = h.call("echo", { message: "waited" });
    await settle();
    expect(h.answers(second)).toEqual([]);
    await h.advance(3000);
    expect(h.answers(first)[0]!.json).toMatchObject({ output: "finished after 2 s" });
    expect(h.answers(second)[0]!.json).toMatchObject({ output: "waited" });
    const traced = h.call("echo", { message: "x" }, { traceparent: "00-8a8544970433ab6d582fd0eeecd66413-5c0c4929b744a202-01" });
    await settle();
    expect(h.answers(traced)[0]!.headers[SERVICE_ERROR_CODE]).toEqual(["400"]);
  });
});

describe("micro registration and options", () => {
  it("answers $SRV.PING, INFO and STATS under the identity and its instance id", async () => {
    const h = new Harness();
    const server = await h.start({ validate, instance: "east-1", concurrency: 3 });
    const { serviceId } = server.status();
    for (const subject of ["$SRV.INFO", "$SRV.INFO.patchbay-demo", `$SRV.INFO.patchbay-demo.${serviceId}`]) {
      const inbox = h.send(subject, "");
      await settle();
      expect(h.answers(inbox)[0]!.json).toEqual({
        name: "patchbay-demo",
        id: serviceId,
        version: "0.0.0",
        metadata: { instance: "east-1" },
        type: "io.nats.micro.v1.info_response",
        description: "fisk-ai a2a tool server",
        endpoints: [
          { name: "discovery", subject: "choria.fisk-ai.discovery.patchbay-demo", queue_group: "patchbay-demo", metadata: null },
          { name: "tool", subject: "choria.fisk-ai.tool.patchbay-demo", queue_group: "patchbay-demo", metadata: null },
          { name: "task", subject: "choria.fisk-ai.task.patchbay-demo", queue_group: "patchbay-demo", metadata: null },
        ],
      });
    }
    const ping = h.send("$SRV.PING", "");
    h.call("slow", { seconds: 5 });
    await settle();
    const stats = h.send("$SRV.STATS.patchbay-demo", "");
    await settle();
    expect(h.answers(ping)[0]!.json).toMatchObject({ type: "io.nats.micro.v1.ping_response", id: serviceId, metadata: { instance: "east-1" } });
    // The load a console shows per instance: requests, errors, and what is in flight against capacity.
    expect(h.answers(stats)[0]!.json).toMatchObject({
      type: "io.nats.micro.v1.stats_response",
      metadata: { instance: "east-1" },
      endpoints: [
        { name: "discovery", num_requests: 0 },
        { name: "tool", num_requests: 1, num_errors: 0, data: { in_flight: 1, capacity: 3 } },
        { name: "task", num_requests: 0, data: { in_flight: 0, capacity: 3 } },
      ],
    });
  });

  it("a Gen 1 agent serves no task endpoint and its card names no model", async () => {
    const h = new Harness();
    const server = await h.start({ validate, generation: "gen1" });
    expect(server.status().subjects).toEqual({ discovery: "choria.fisk-ai.discovery.patchbay-demo", tool: "choria.fisk-ai.tool.patchbay-demo" });
    expect(server.card).not.toHaveProperty("model");
    const inbox = h.send("$SRV.INFO", "");
    await settle();
    expect((h.answers(inbox)[0]!.json!.endpoints as { name: string }[]).map((e) => e.name)).toEqual(["discovery", "tool"]);
  });

  it("defaults concurrency to the CPU count clamped to 2–8 and refuses impossible options", async () => {
    expect([1, 2, 4, 8, 64].map(defaultConcurrency)).toEqual([2, 2, 4, 8, 8]);
    expect((await new Harness().start({ cpuCount: 6 })).status().concurrency).toBe(6);
    await expect(new Harness().start({ concurrency: 0 })).rejects.toThrow(FiskServeError);
    await expect(new Harness().start({ toolkit: { ...DEMO_TOOLKIT, name: "bad.name" } })).rejects.toThrow(/agent identity "bad.name" is not valid/);
  });

  it("reports every tool with its reason; fisk-ai's name and description rules apply", async () => {
    const echo = BUILTIN_DEFS[0]!;
    const toolkit = { ...DEMO_TOOLKIT, tools: [...BUILTIN_DEFS, { ...echo, name: "dotted.name" }, { ...echo, name: "quiet", description: " " }, { ...echo, name: "never", tags: ["ai:deny"] }] };
    const status = (await new Harness().start({ toolkit })).status();
    expect(status.served.filter((e) => !e.served)).toEqual([
      { name: "confirm", served: false, reason: "needs approval (ai:confirm), and a peer agent has no operator to ask" },
      { name: "dotted.name", served: false, reason: "the name is not a valid fisk-ai tool name (letters, digits, _ and - only)" },
      { name: "quiet", served: false, reason: "it has no description, and fisk-ai peers do not import a tool without one" },
      { name: "never", served: false, reason: "tagged ai:deny: never served" },
    ]);
    expect(status.subjects).toEqual({ discovery: "choria.fisk-ai.discovery.patchbay-demo", tool: "choria.fisk-ai.tool.patchbay-demo", task: "choria.fisk-ai.task.patchbay-demo" });
  });

  it("serves under another identity with a named instance; a bad instance name is refused", async () => {
    const h = new Harness();
    const server = await h.start({ validate, identity: "orders", instance: "orders-2" });
    expect(server.identity).toBe("orders");
    expect(server.card.name).toBe("orders");
    const inbox = h.call("echo", { message: "who" });
    await settle();
    for (const a of h.answers(inbox)) expect(a.json!.sender).toEqual({ name: "orders", instance: "orders-2" });
    await expect(new Harness().start({ instance: "a.b" })).rejects.toThrow(/instance name "a.b" is not valid/);
    expect((await new Harness().start()).instance).toMatch(/^pb-[0-9A-Za-z]{8}$/);
  });
});
