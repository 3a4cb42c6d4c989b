/**
 * The Node executors under the core runner, as `patchbay run` and the backend drive them: one
 * collection across MCP (server-everything over stdio), A2A (the SDK agent) and NATS (Patchbay's
 * served fisk-ai agent), values captured by one step and used by the next, the runner's time
 * limit reported as a timeout, and every session closed with the run.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { nodeExecutors } from "../../server/harness/node-executors.ts";
import { systemScheduler } from "../../src/core/env/index.ts";
import type { Collection } from "../../src/core/harness/collection-types.ts";
import { runCollection } from "../../src/core/harness/index.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import type { FiskServer } from "../../src/core/serving/fisk/index.ts";
import { startSdkAgent, type SdkAgent } from "../helpers/a2a-peers/index.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
const natsUrl = inject("natsUrl");

let sdk: SdkAgent;
let port: NatsPort;
let agent: FiskServer;

beforeAll(async () => {
  sdk = await startSdkAgent();
  port = await tcpConnector().connect({ servers: natsUrl, name: "harness-executors-test" });
  agent = await startDemoAgent(port, `demo-${crypto.randomUUID().slice(0, 8)}`);
}, 30_000);
afterAll(async () => {
  await agent?.stop();
  await port?.close();
  await sdk?.close();
});

const options = () => ({ now: () => performance.now(), wallNow: () => Date.now(), scheduler: systemScheduler() });

describe("the Node executors under the runner", () => {
  it("runs one collection across the three protocols, captures feeding later steps", async () => {
    const collection: Collection = {
      name: "three protocols",
      targets: {
        everything: { protocol: "mcp", command: `'${process.execPath}' '${EVERYTHING}' stdio` },
        sdk: { protocol: "a2a", card: sdk.baseUrl, dialect: "1.0" },
        bus: { protocol: "nats", server: natsUrl },
      },
      environments: { local: { greeting: "hello from the collection" } },
      timeoutMs: 15_000,
      steps: [
        {
          name: "echo over MCP",
          target: "everything",
          action: { protocol: "mcp", method: "tools/call", params: { name: "echo", arguments: { message: "{{greeting}}" } } },
          assert: [{ kind: "outcome", is: "result" }, { kind: "valid", version: "2025-11-25" }, { kind: "equals", pointer: "/result/content/0/text", value: "Echo: hello from the collection" }],
          capture: { echoed: "/result/content/0/text" },
        },
        {
          name: "ask over A2A",
          target: "sdk",
          action: { protocol: "a2a", operation: "send", text: "ask" },
          assert: [{ kind: "outcome", is: "task-state", state: "input-required" }, { kind: "valid" }],
          capture: { task: "/task/id" },
        },
        {
          name: "read the task back",
          target: "sdk",
          action: { protocol: "a2a", operation: "get", taskId: "{{task}}" },
          assert: [{ kind: "outcome", is: "task-state", state: "input-required" }, { kind: "equals", pointer: "/id", value: "{{task}}" }],
        },
        {
          name: "echo over NATS",
          target: "bus",
          action: { protocol: "nats", kind: "tool", identity: agent.identity, tool: "echo", input: { message: "{{echoed}}" } },
          assert: [{ kind: "outcome", is: "result" }, { kind: "valid" }, { kind: "stream", order: ["ack", "tool.reply"], final: true }, { kind: "equals", pointer: "/output", value: "Echo: hello from the collection" }],
        },
        {
          name: "exit 4 over NATS",
          target: "bus",
          action: { protocol: "nats", kind: "tool", identity: agent.identity, tool: "fail", input: { exit_code: 4 } },
          assert: [{ kind: "outcome", is: "exit-code", code: 4 }],
        },
      ],
    };
    const report = await runCollection(collection, nodeExecutors(), { ...options(), environment: "local" });
    const failures = report.steps.filter((s) => s.status !== "passed").map((s) => `${s.name}: ${s.error ?? s.assertions.filter((a) => !a.passed).map((a) => a.message).join("; ")}`);
    expect(failures).toEqual([]);
    expect(report.totals).toMatchObject({ steps: 5, passed: 5 });
    expect(report.steps[0]!.captured).toEqual({ echoed: "Echo: hello from the collection" });
  }, 60_000);

  it("a step past its time limit is reported as the executor's timeout, and the run goes on", async () => {
    const collection: Collection = {
      name: "limits",
      targets: { bus: { protocol: "nats", server: natsUrl } },
      environments: {},
      steps: [
        { name: "too slow", target: "bus", timeoutMs: 500, action: { protocol: "nats", kind: "tool", identity: agent.identity, tool: "slow", input: { seconds: 5 } }, assert: [{ kind: "outcome", is: "timeout" }] },
        { name: "after it", target: "bus", action: { protocol: "nats", kind: "tool", identity: agent.identity, tool: "echo", input: { message: "next" } }, assert: [{ kind: "outcome", is: "result" }] },
      ],
    };
    const started = performance.now();
    const report = await runCollection(collection, nodeExecutors(), options());
    expect(report.steps.map((s) => [s.status, s.outcome?.kind])).toEqual([
      ["passed", "timeout"],
      ["passed", "result"],
    ]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
