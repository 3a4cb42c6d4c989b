import { describe, expect, it } from "vitest";
import type { RelayConsoleEvent } from "../../../core/mcp/index.ts";
import { fakeRelay } from "../../../core/mcp/test-relay.ts";
import { linked, rawServer, toolServer, WireError } from "../../../core/mcp/test-servers.ts";
import { McpWorkbenchState, type TransportFactory } from "./mcp-state.svelte.ts";
import { pageCompiler } from "./page-compiler.ts";
import { memoryHandle, relayHandle } from "./test-transports.ts";
import { createValidationEngine } from "../../../core/packs/index.ts";
import { ValidationClient } from "../validate/validation-client.ts";
import { inProcessWorker } from "../validate/fake-worker.ts";

type Server = Parameters<typeof linked>[0];

/** A workbench whose every connect reaches `server` in memory; `seen` keeps the session bodies asked for. */
async function benchFor(server: Server, onOpen?: (onConsole: (e: RelayConsoleEvent) => void) => void) {
  const transport = memoryHandle(await linked(server));
  const seen: unknown[] = [];
  const open: TransportFactory = (body, onConsole) => {
    seen.push(body);
    onOpen?.(onConsole);
    return transport;
  };
  const bench = new McpWorkbenchState(open, pageCompiler(true));
  bench.form.command = "srv";
  return { bench, seen, transport };
}

async function connected(server: Server = toolServer()) {
  const made = await benchFor(server);
  await made.bench.connect();
  expect(made.bench.status).toBe("connected");
  return made;
}

function selectByName(bench: McpWorkbenchState, name: string): void {
  bench.toolFilter = name;
  bench.select(bench.filteredTools.findIndex((t) => t.name === name));
  expect(bench.selectedTool?.name).toBe(name);
}

describe("McpWorkbenchState connecting", () => {
  it("refuses an incomplete form without opening anything", async () => {
    const { bench, seen } = await benchFor(toolServer());
    bench.form.command = "  ";
    await bench.connect();
    expect(bench.formError).toBe("Give the command that starts the server");
    expect(seen).toEqual([]);
    expect(bench.status).toBe("idle");
  });

  it("asks for the chosen session and version, then shows info and the tools", async () => {
    const { bench, seen } = await benchFor(toolServer());
    bench.form.argsText = "a b\n\n--flag\n";
    bench.form.envRows = [{ name: "TOKEN", value: "x" }];
    bench.form.requestedVersion = "2024-11-05";
    await bench.connect();
    expect(seen).toEqual([{ transport: "stdio", command: "srv", args: ["a b", "--flag"], env: { TOKEN: "x" } }]);
    expect(bench.status).toBe("connected");
    expect(bench.info?.requestedVersion).toBe("2024-11-05");
    expect(bench.info?.negotiatedVersion).toBe("2024-11-05");
    expect(bench.info?.instructions).toBe("Use add for sums.");
    expect(bench.tools.map((t) => t.name)).toContain("echo");
    expect(bench.transport).toBeDefined();
  });

  it("says failed, naming the step and the command, when the command cannot start; the failure goes stale when the form changes", async () => {
    const relay = fakeRelay({ create: Response.json({ error: { code: "spawn_failed", message: 'command "srv" was not found (ENOENT)' } }, { status: 502 }) });
    const bench = new McpWorkbenchState(() => relayHandle(relay).transport, pageCompiler(true));
    bench.form.command = "srv";
    await bench.connect();
    expect(bench.status).toBe("failed");
    expect(bench.failure).toEqual({ step: "spawn", message: 'command "srv" was not found (ENOENT)' });
    expect(bench.transport).toBeUndefined();
    expect(bench.failureStale).toBe(false);
    bench.form.command = "./srv";
    expect(bench.failureStale).toBe(true);
  });

  it("shows the relay's console events in order, and notes the close", async () => {
    const { bench } = await benchFor(toolServer(), (onConsole) => {
      onConsole({ type: "stderr", text: "booting", at: 1 });
      onConsole({ type: "http", status: 200, headers: {}, at: 2 });
    });
    await bench.connect();
    expect(bench.consoleLines.slice(0, 2)).toEqual([
      { type: "stderr", text: "booting", at: 1 },
      { type: "http", status: 200, headers: {}, at: 2 },
    ]);
    await bench.disconnect();
    expect(bench.status).toBe("idle");
    expect(bench.transport).toBeUndefined();
  });

  it("marks the session closed when the server side goes away", async () => {
    const { bench, transport } = await connected();
    await transport.close();
    expect(bench.status).toBe("closed");
    expect(bench.consoleLines.at(-1)).toEqual({ type: "note", text: "connection closed" });
  });

  it("a server that crashes: the end names its exit code and repeats its last stderr, and connecting again clears it", async () => {
    let console: ((e: RelayConsoleEvent) => void) | undefined;
    const { bench, transport } = await benchFor(toolServer(), (onConsole) => (console = onConsole));
    await bench.connect();
    for (let i = 1; i <= 15; i++) console!({ type: "stderr", text: `line ${i}`, at: i });
    console!({ type: "closed", reason: "process exited with code 3", code: 3, at: 20 });
    await transport.close();
    expect(bench.status).toBe("closed");
    expect(bench.ended).toEqual({ reason: "process exited with code 3", code: 3, stderr: Array.from({ length: 12 }, (_, i) => `line ${i + 4}`) });
    // Reconnect is the form's own Connect: a new session, the notice gone until that one ends too.
    const again = bench.connect();
    expect(bench.ended).toBeNull();
    expect(bench.status).toBe("connecting");
    await again.catch(() => undefined);
  });
});

describe("McpWorkbenchState tool calls", () => {
  it("names success with the text the tool returned", async () => {
    const { bench } = await connected();
    selectByName(bench, "echo");
    expect(bench.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    bench.argsDraft = '{"message":"hi"}';
    await bench.send();
    expect(bench.outcome).toMatchObject({ kind: "success", result: { content: [{ type: "text", text: "Echo: hi" }] } });
  });

  it("names a tool error (isError) apart from a JSON-RPC error", async () => {
    const { bench } = await connected();
    selectByName(bench, "fails");
    await bench.send();
    expect(bench.outcome?.kind).toBe("tool-error");

    const other = await connected(rawServer({ pages: [{ tools: [{ name: "t", inputSchema: { type: "object" } }] }], call: () => new WireError(-32602, "bad params") }));
    selectByName(other.bench, "t");
    await other.bench.send();
    expect(other.bench.outcome).toMatchObject({ kind: "json-rpc-error", code: -32602, message: "bad params" });
  });

  it("refuses arguments that are not a JSON object, sending nothing", async () => {
    const { bench } = await connected();
    selectByName(bench, "echo");
    bench.argsDraft = '{"message":';
    await bench.send();
    expect(bench.callError).toMatch(/^The arguments are not JSON: /);
    bench.argsDraft = "[1]";
    await bench.send();
    expect(bench.callError).toBe("The arguments must be a JSON object");
    expect(bench.outcome).toBeNull();
  });

  it("marks a result stale once the arguments change (a JSON error included) or the connection closes, and drops it for another tool", async () => {
    const { bench, transport } = await connected();
    selectByName(bench, "add");
    bench.argsDraft = '{"a": 40, "b": 2}';
    await bench.send();
    expect(JSON.stringify(bench.outcome)).toContain("42");
    expect(bench.callStale).toBe(false);
    // Reindenting is the same arguments; a JSON error is not.
    bench.argsDraft = '{\n  "a": 40,\n  "b": 2\n}';
    expect(bench.callStale).toBe(false);
    bench.argsDraft = '{"a": 40, "b": }';
    expect(bench.callStale).toBe(true);
    bench.argsDraft = '{"a": 40, "b": 2}';
    expect(bench.callStale).toBe(false);
    // A refusal is an answer to the text it refused too.
    bench.argsDraft = '{"a": 40, "b": }';
    await bench.send();
    expect(bench.outcome).toBeNull();
    expect(bench.callError).toMatch(/^The arguments are not JSON/);
    bench.argsDraft = '{"a": 1, "b": 1}';
    expect(bench.callStale).toBe(true);

    await bench.send();
    selectByName(bench, "echo");
    expect(bench.outcome).toBeNull();
    expect(bench.callError).toBeNull();
    selectByName(bench, "add");
    expect(bench.outcome).toBeNull();

    await bench.send();
    expect(bench.callStale).toBe(false);
    await transport.close();
    expect(bench.status).toBe("closed");
    expect(bench.callStale).toBe(true);
  });

  it("shows no answer under a tool other than the one called", async () => {
    const { bench } = await connected();
    selectByName(bench, "hang");
    const call = bench.send();
    selectByName(bench, "echo");
    bench.cancel();
    await call;
    expect(bench.outcome).toBeNull();
    expect(bench.callError).toBeNull();
  });

  it("cancels a call that hangs", async () => {
    const { bench } = await connected();
    selectByName(bench, "hang");
    const call = bench.send();
    expect(bench.calling).toBe(true);
    bench.cancel();
    await call;
    expect(bench.calling).toBe(false);
    expect(bench.outcome).toEqual({ kind: "cancelled", reason: "cancelled by the user" });
  });

  it("keeps each tool's draft when switching tools, and filters by name", async () => {
    const { bench } = await connected();
    selectByName(bench, "echo");
    bench.argsDraft = '{"message":"kept"}';
    selectByName(bench, "add");
    expect(bench.argsDraft).toBe("{}");
    expect(bench.filteredTools.map((t) => t.name)).toEqual(["add"]);
    selectByName(bench, "echo");
    expect(bench.argsDraft).toBe('{"message":"kept"}');
    bench.toolFilter = "zzz";
    expect(bench.selectedIndex).toBe(-1);
    expect(bench.selectedTool?.name).toBe("echo");
  });

  it("checks a result in the validation worker while the connection's own checks are off", async () => {
    const transport = memoryHandle(await linked(toolServer()));
    const checker = new ValidationClient(() => inProcessWorker(createValidationEngine));
    const bench = new McpWorkbenchState(() => transport, pageCompiler(false), checker);
    bench.form.command = "srv";
    await bench.connect();
    expect(bench.checksInWorker).toBe(true);
    selectByName(bench, "add");
    bench.argsDraft = '{"a":1,"b":2}';
    await bench.send();
    expect(bench.outcome?.kind).toBe("success");
    expect(bench.resultCheck).toEqual({ status: "checking" });
    await expect.poll(() => bench.resultCheck?.status).toBe("done");
    const version = bench.info?.negotiatedVersion ?? "";
    expect(bench.resultCheck).toEqual({
      status: "done",
      parts: [
        { id: "arguments", label: "Arguments checked against the tool's inputSchema", issues: [] },
        { id: "result", label: `Result checked against MCP ${version}`, issues: [] },
        { id: "structured-content", label: "structuredContent checked against the tool's outputSchema", issues: [] },
      ],
    });
    selectByName(bench, "echo");
    expect(bench.resultCheck).toBeNull();
  });

  it("checks the arguments sent against the tool's inputSchema, whatever the server answered", async () => {
    const transport = memoryHandle(await linked(toolServer()));
    const checker = new ValidationClient(() => inProcessWorker(createValidationEngine));
    const bench = new McpWorkbenchState(() => transport, pageCompiler(false), checker);
    bench.form.command = "srv";
    await bench.connect();
    selectByName(bench, "add");
    bench.argsDraft = '{"a":"x"}';
    await bench.send();
    // The SDK's server refuses the arguments; the check says which are wrong, as the validator would.
    expect(bench.outcome?.kind).not.toBe("success");
    await expect.poll(() => bench.resultCheck?.status).toBe("done");
    const parts = bench.resultCheck?.status === "done" ? bench.resultCheck.parts : [];
    expect(parts[0]).toEqual({
      id: "arguments",
      label: "Arguments checked against the tool's inputSchema",
      issues: [
        expect.objectContaining({ pointer: "/params/arguments", severity: "error", source: "tool-schema", message: 'Missing required property "b".' }),
        expect.objectContaining({ pointer: "/params/arguments/a", severity: "error", source: "tool-schema", message: '"a" must be a number, not a string.' }),
      ],
    });
  });

  it("reports a check the worker could not make, and drops a check overtaken by another call", async () => {
    const transport = memoryHandle(await linked(toolServer()));
    const checker = new ValidationClient(() => inProcessWorker(createValidationEngine));
    const bench = new McpWorkbenchState(() => transport, pageCompiler(false), checker);
    bench.form.command = "srv";
    await bench.connect();
    selectByName(bench, "echo");
    bench.argsDraft = '{"message":"hi"}';
    await bench.send();
    checker.dispose();
    await expect.poll(() => bench.resultCheck?.status).toBe("failed");
    expect(bench.resultCheck).toMatchObject({ message: expect.stringContaining("The call could not be checked: ") as string });
    await bench.send();
    const first = bench.resultCheck;
    await bench.send();
    expect(bench.resultCheck).not.toBe(first);
    await expect.poll(() => bench.resultCheck?.status).toBe("done");
  });
});
