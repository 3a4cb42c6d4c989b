import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import { A2aSurface } from "./a2a-surface.svelte.ts";
import { FakeServeApi, memoryStore, RUNNING_A2A } from "./serve-fakes.ts";
import { ToolkitState } from "./toolkit-state.svelte.ts";

function setup() {
  const api = new FakeServeApi();
  const running: boolean[] = [];
  return { api, running, a2a: new A2aSurface(api, (r) => running.push(r)), kit: new ToolkitState(memoryStore()) };
}

describe("A2aSurface", () => {
  it("starts with the editor's toolkit and the form's options, echo taking text messages, then shows what the backend serves", async () => {
    const { api, a2a, kit, running } = setup();
    expect(a2a.port).toBe("7422");
    expect(a2a.rows(a2a.localSet(kit))).toMatchObject({ fromBackend: false });
    expect(a2a.rows(a2a.localSet(kit)).rows.find((r) => r.name === "confirm")?.served).toBe(false);
    a2a.port = "0";
    a2a.confirm = "ask";
    a2a.concurrency = "3";
    await a2a.start(kit);
    expect(api.named("a2aStart")[0]?.[0]).toEqual({ toolkit: JSON.parse(kit.text), confirm: "ask", port: 0, concurrency: 3, defaultSkill: "echo" });
    expect(a2a.status).toEqual(RUNNING_A2A);
    expect(a2a.port).toBe("0"); // the user's choice stays for the next start
    expect(running).toEqual([true]);
    expect(a2a.rows(a2a.localSet(kit))).toEqual({ rows: RUNNING_A2A.tools, fromBackend: true });
    await a2a.stop();
    expect(a2a.status).toEqual({ running: false });
    expect(running).toEqual([true, false]);
  });

  it("keeps confirm-tagged tools in the computed set only when each call asks, and offers only text-taking skills as the default", () => {
    const { a2a, kit } = setup();
    const confirmRow = () => a2a.rows(a2a.localSet(kit)).rows.find((r) => r.name === "confirm");
    expect(confirmRow()).toMatchObject({ served: false, reason: expect.stringContaining("serve with confirm asking to keep it") });
    a2a.confirm = "ask";
    expect(confirmRow()).toMatchObject({ served: true, reason: "served; each call asks for approval in its task (input-required)" });
    a2a.defaultSkill = "add"; // two number arguments: no text can fill them
    expect(a2a.chosenDefault(kit)).toBe("");
    a2a.defaultSkill = "confirm";
    expect(a2a.chosenDefault(kit)).toBe("confirm");
    a2a.confirm = "omit";
    expect(a2a.chosenDefault(kit)).toBe("");
  });

  it("asks for no default skill when the editor's toolkit has no echo", async () => {
    const { api, a2a, kit } = setup();
    kit.text = JSON.stringify({ format: "patchbay.toolkit", version: 1, name: "kit", tools: [{ name: "add", description: "d", inputSchema: { type: "object", properties: { a: { type: "number" } } }, run: { builtin: "add" } }] });
    await a2a.start(kit);
    expect(a2a.error).toBeNull();
    expect(api.named("a2aStart")[0]?.[0]).toEqual({ toolkit: JSON.parse(kit.text), confirm: "omit", port: 7422 });
  });

  it("says in words why the backend refused: a port in use, a concurrency another surface set", async () => {
    const { api, a2a, kit } = setup();
    api.fail.a2aStart = new BackendError(409, "port_in_use", "port 7422 is already in use on 127.0.0.1; choose another port (0 picks a free one)");
    await a2a.start(kit);
    expect(a2a.error).toBe("Could not start the A2A surface: port 7422 is already in use on 127.0.0.1; choose another port (0 picks a free one).");
    expect(a2a.status.running).toBe(false);
    expect(a2a.busy).toBe(false);
    const shared = "the MCP surface shares a limit of 2 tool calls at once with every surface served here; leave concurrency empty or give 2, or stop MCP first to choose another";
    api.fail.a2aStart = new BackendError(409, "concurrency_shared", shared);
    a2a.concurrency = "5";
    await a2a.start(kit);
    expect(a2a.error).toBe(`Could not start the A2A surface: ${shared}.`);
    expect(a2a.errorStale).toBe(false);
    a2a.concurrency = "2";
    expect(a2a.errorStale).toBe(true);
  });

  it("refuses a bad field or a toolkit with errors before asking the backend", async () => {
    const { api, a2a, kit } = setup();
    a2a.port = "70000";
    await a2a.start(kit);
    expect(a2a.error).toBe('Not started: The port must be a whole number from 0 to 65535, not "70000".');
    a2a.port = "0";
    kit.text = kit.text.replace('"name": "patchbay-demo"', '"name": "bad name"');
    await a2a.start(kit);
    expect(a2a.error).toMatch(/^Not started: the toolkit in the editor has an error/);
    expect(api.named("a2aStart")).toHaveLength(0);
  });

  it("fills the form from an agent started before the page loaded; a failed read says so", async () => {
    const { api, a2a } = setup();
    api.a2a = { ...RUNNING_A2A, confirm: "ask", concurrency: 4, timeoutMs: 9000, defaultSkill: "confirm" };
    await a2a.refresh();
    expect([a2a.port, a2a.confirm, a2a.concurrency, a2a.timeoutMs, a2a.defaultSkill]).toEqual(["40002", "ask", "4", "9000", "confirm"]);
    api.fail.a2aStatus = new BackendError(0, "unreachable", "backend unreachable: Failed to fetch");
    await a2a.refresh();
    expect(a2a.error).toBe("Could not read the A2A surface's status: backend unreachable: Failed to fetch.");
  });
});
