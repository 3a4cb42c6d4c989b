/**
 * The harness's MCP executor against real servers: server-everything over stdio, the odd-results
 * fixture (a JSON-RPC error, a result that is not a CallToolResult), and Patchbay's served demo
 * agent over Streamable HTTP (an answer streamed as SSE with its progress). Each outcome kind a
 * server can be made to produce, frames verbatim with their verdicts, one session per target.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeExecutors } from "../../server/harness/node-executors.ts";
import { freePort } from "../../server/nats/free-port.ts";
import { startMcpServing, type McpServing } from "../../server/serving/mcp-engine.ts";
import { silentLogger } from "../../src/core/env/index.ts";
import type { McpAction, McpTargetSpec } from "../../src/core/harness/collection-types.ts";
import type { ResolvedStep, StepExecutor, StepFrame } from "../../src/core/harness/run-types.ts";
import { DEMO_TOOLKIT } from "../../src/core/serving/demo-toolkit.ts";
import { EVERYTHING_JS, LOOPBACK_IMPORT } from "../helpers/everything-server.ts";
import { startModernServer } from "../helpers/modern-mcp-server.ts";

const EVERYTHING = EVERYTHING_JS;
const STDIO: McpTargetSpec = { protocol: "mcp", command: `'${process.execPath}' '${EVERYTHING}' stdio` };
const ODD: McpTargetSpec = { protocol: "mcp", command: `'${process.execPath}' '${fileURLToPath(new URL("../fixtures/mcp/odd-results-server.mjs", import.meta.url))}'` };

let served: McpServing;
let executor: StepExecutor;
const children: ChildProcess[] = [];

beforeAll(async () => {
  served = await startMcpServing({ toolkit: DEMO_TOOLKIT, port: 0, logger: silentLogger });
  executor = nodeExecutors().mcp!;
});
afterAll(async () => {
  await executor?.close();
  await served?.close();
  for (const child of children) child.kill("SIGKILL");
});

function step(targetName: string, target: McpTargetSpec, action: Omit<McpAction, "protocol">, timeoutMs = 15_000): ResolvedStep {
  return { index: 0, name: action.method, targetName, target, action: { protocol: "mcp", ...action }, timeoutMs };
}

const run = (s: ResolvedStep, signal = new AbortController().signal) => executor.run(s, { signal });
const call = (name: string, args: Record<string, unknown> = {}) => ({ method: "tools/call", params: { name, arguments: args } });
const received = (frames: readonly StepFrame[]) => frames.filter((f) => f.direction === "received");
const sent = (frames: readonly StepFrame[]) => frames.filter((f) => f.direction === "sent");

describe("MCP steps over stdio (server-everything)", () => {
  it("a tools/call result: the response as the body, the frames verbatim over stdin and stdout, each received one valid", async () => {
    const obs = await run(step("everything", STDIO, call("echo", { message: "harness hello" })));
    expect(obs.outcome).toEqual({ kind: "result", message: "echo answered" });
    expect(obs.body).toMatchObject({ jsonrpc: "2.0", result: { content: [{ type: "text", text: "Echo: harness hello" }] } });
    const [request] = sent(obs.frames);
    expect(request!.channel).toBe("stdin");
    expect(JSON.parse(request!.text)).toMatchObject({ jsonrpc: "2.0", method: "tools/call", params: { name: "echo", arguments: { message: "harness hello" } } });
    const answers = received(obs.frames);
    // Whatever else the server said meanwhile (it announces list changes after connecting) is kept too, in order.
    const answer = answers[answers.length - 1]!;
    expect(answers.every((f) => f.channel === "stdout" && f.validity?.valid === true)).toBe(true);
    // Verbatim: the frame's text is exactly what the body was read from.
    expect(JSON.parse(answer.text)).toEqual(obs.body);
    expect(answer.validity).toEqual({ valid: true, kind: "tools/call result (MCP 2025-11-25)", version: "2025-11-25", problems: [] });
    expect(request!.validity).toBeUndefined();
    expect(obs.stream).toBeUndefined();
    expect(obs.frames.some((f) => f.text.includes('"initialize"'))).toBe(false);
  });

  it("keeps the target's session across steps: the next request continues the session's ids", async () => {
    const first = await run(step("everything", STDIO, { method: "tools/list" }));
    expect(first.outcome.kind).toBe("result");
    expect((first.body as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toContain("get-sum");
    const second = await run(step("everything", STDIO, { method: "ping" }));
    expect(second.outcome).toEqual({ kind: "result", message: "ping answered" });
    const id = (o: typeof first) => (JSON.parse(sent(o.frames)[0]!.text) as { id: number }).id;
    expect(id(second)).toBe(id(first) + 1);
    // A request without params goes out without them.
    expect(JSON.parse(sent(second.frames)[0]!.text)).not.toHaveProperty("params");
  });

  it("isError from the tool is is-error; the whole response is still the body", async () => {
    const obs = await run(step("everything", STDIO, call("get-sum", { a: "one", b: 2 })));
    expect(obs.outcome.kind).toBe("is-error");
    expect(obs.body).toMatchObject({ result: { isError: true } });
    expect(received(obs.frames)[0]!.validity?.valid).toBe(true);
  });

  it("an unknown method is a JSON-RPC error with the server's code; the error frame is a valid error response", async () => {
    const obs = await run(step("everything", STDIO, { method: "no/such-method", params: {} }));
    expect(obs.outcome).toMatchObject({ kind: "json-rpc-error", code: -32601 });
    expect(obs.body).toMatchObject({ jsonrpc: "2.0", error: { code: -32601 } });
    expect(received(obs.frames)[0]!.validity?.valid).toBe(true);
  });

  it("a tool's JSON-RPC refusal and a result that is not a CallToolResult (the odd-results fixture)", async () => {
    const locked = await run(step("odd", ODD, call("locked")));
    expect(locked.outcome).toEqual({ kind: "json-rpc-error", code: -32042, message: "the server refused tools/call with JSON-RPC error -32042: the vault is locked" });
    expect(locked.body).toMatchObject({ error: { code: -32042, data: { retryAfter: "never" } } });
    const malformed = await run(step("odd", ODD, call("malformed")));
    expect(malformed.outcome.kind).toBe("invalid-answer");
    expect(malformed.outcome.message).toMatch(/^the answer is not a valid CallToolResult of MCP 2025-11-25: \/content/);
    const listed = await run(step("odd", ODD, { method: "tools/list" }));
    expect(listed.outcome.kind).toBe("result");
    // Once the tools are listed in the session, structuredContent that misses the outputSchema makes its frame invalid.
    const weather = await run(step("odd", ODD, call("weather")));
    expect(weather.outcome.kind).toBe("result");
    expect(received(weather.frames)[0]!.validity).toMatchObject({ valid: false, problems: [expect.stringMatching(/celsius/)] });
  });

  it("a command that is not found is a transport error at once, naming it; a target with neither url nor command is the step's own error", async () => {
    const started = performance.now();
    const obs = await run(step("missing", { protocol: "mcp", command: "no-such-command-xyz --flag" }, call("echo")));
    expect(obs.outcome.kind).toBe("transport-error");
    expect(obs.outcome.message).toMatch(/cannot start "no-such-command-xyz --flag" as an MCP server: .*not found \(ENOENT\)/);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(run(step("none", { protocol: "mcp" }, call("echo")))).rejects.toThrow(/exactly one of "url" and "command"/);
    await expect(run(step("shell", { protocol: "mcp", command: "node server.js | tee log" }, call("echo")))).rejects.toThrow(/the MCP target's command .*shell syntax/);
  });
});

describe("MCP steps over Streamable HTTP (Patchbay's served demo agent)", () => {
  it("an answer sent as SSE: the progress and the result as received frames, the stream's kinds, final on the result", async () => {
    const obs = await run(step("demo", { protocol: "mcp", url: served.url }, { method: "tools/call", params: { name: "sleep", arguments: { seconds: 1 }, _meta: { progressToken: "p-1" } } }));
    expect(obs.outcome).toEqual({ kind: "result", message: "sleep answered" });
    expect(obs.body).toMatchObject({ result: { content: [{ type: "text", text: "slept 1 s" }], isError: false } });
    expect(sent(obs.frames)[0]!.channel).toBe("POST /mcp");
    expect(received(obs.frames).map((f) => f.channel)).toEqual(["SSE message", "SSE message"]);
    expect(received(obs.frames).every((f) => f.validity?.valid === true)).toBe(true);
    expect(obs.stream).toEqual({ kinds: ["notifications/progress", "result"], final: true });
    expect(obs.latencyMs).toBeGreaterThanOrEqual(900);
  });

  it("a harness failure of the served tool is is-error; its non-zero exit is the tool's answer, a result", async () => {
    const bad = await run(step("demo", { protocol: "mcp", url: served.url }, call("echo", { message: 5 })));
    expect(bad.outcome.kind).toBe("is-error");
    const fail = await run(step("demo", { protocol: "mcp", url: served.url }, call("fail", { exit_code: 3 })));
    expect(fail.outcome.kind).toBe("result");
    expect(JSON.parse((fail.body as { result: { content: { text: string }[] } }).result.content[0]!.text)).toMatchObject({ command: "fail 3", exit_code: 3 });
  });

  it("a call past the step's time limit is a timeout; a stop is cancelled; both promptly, and the session goes on", async () => {
    const target: McpTargetSpec = { protocol: "mcp", url: served.url };
    const started = performance.now();
    const slow = await run(step("demo", target, call("slow", { seconds: 20 }), 600));
    expect(slow.outcome.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(slow.body).toBeNull();
    const stop = new AbortController();
    setTimeout(() => stop.abort(new Error("the run was stopped")), 200);
    const stopped = await run(step("demo", target, call("slow", { seconds: 20 })), stop.signal);
    expect(stopped.outcome).toEqual({ kind: "cancelled", message: "cancelled before tools/call was answered" });
    const after = await run(step("demo", target, call("echo", { message: "still here" })));
    expect(after.outcome.kind).toBe("result");
  });

  it("a server that refuses Streamable HTTP is reached over legacy HTTP+SSE, its answers as SSE events", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [...LOOPBACK_IMPORT, EVERYTHING, "sse"], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let said = "";
      child.stderr!.on("data", (d: Buffer) => ((said += d.toString()), /running on port/.test(said) && resolve()));
      child.once("exit", (code) => reject(new Error(`server-everything sse exited (${code}): ${said}`)));
    });
    const obs = await run(step("legacy", { protocol: "mcp", url: `http://127.0.0.1:${port}/sse` }, call("echo", { message: "old transport" })));
    expect(obs.outcome.kind).toBe("result");
    expect(obs.body).toMatchObject({ result: { content: [{ type: "text", text: "Echo: old transport" }] } });
    expect(sent(obs.frames)[0]!.channel).toBe("POST (SSE message endpoint)");
    expect(received(obs.frames).every((f) => f.channel === "SSE message" && f.validity?.valid === true)).toBe(true);
    expect(obs.stream?.final).toBe(true);
    expect(obs.stream?.kinds.at(-1)).toBe("result");
  });

  it("a server nobody listens on is a transport error at once", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const started = performance.now();
    const obs = await run(step("dead", { protocol: "mcp", url }, call("echo")));
    expect(obs.outcome.kind).toBe("transport-error");
    expect(obs.outcome.message).toContain(`cannot connect to ${url}`);
    expect(obs.outcome.message).toContain("ECONNREFUSED");
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("MCP steps in the 2026-07-28 era (the modern test server)", () => {
  it("reaches the server in the era the target names, and judges its frames by that era", async () => {
    const modern = await startModernServer();
    try {
      const target: McpTargetSpec = { protocol: "mcp", url: modern.url, era: "auto" };
      const obs = await run(step("modern", target, call("echo", { message: "from a collection" })));
      expect(obs.outcome).toEqual({ kind: "result", message: "echo answered" });
      expect(obs.body).toMatchObject({ result: { resultType: "complete", content: [{ text: "Echo: from a collection" }] } });
      const [request] = sent(obs.frames);
      expect(JSON.parse(request!.text)).toMatchObject({ params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } } });
      expect(received(obs.frames).at(-1)!.validity).toMatchObject({ valid: true, version: "2026-07-28" });
      // Without the era the target is reached as before, with initialize, which this server refuses.
      const legacy = await run(step("legacy-try", { protocol: "mcp", url: modern.url }, call("echo", { message: "x" })));
      expect(legacy.outcome.kind).toBe("transport-error");
    } finally {
      await modern.close();
    }
  });
});
