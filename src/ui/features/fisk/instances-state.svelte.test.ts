import { describe, expect, it } from "vitest";
import type { InstanceLoad } from "../../../core/fisk/client/index.ts";
import { NOT_CONNECTED } from "./fisk-api.ts";
import { instanceRow, InstancesState } from "./instances-state.svelte.ts";
import { FakeClient, fakeSource } from "./test-fakes.ts";

const load = (instance: string | undefined, tool: { requests: number; errors?: number; inFlight?: number; capacity?: number; averageMs?: number; lastError?: string }): InstanceLoad => ({
  serviceId: `svc-${instance ?? "x"}`,
  ...(instance ? { instance } : {}),
  rttMs: 1,
  endpoints: [
    { name: "discovery", requests: 1, errors: 0, lastError: "", averageMs: 0.1 },
    { name: "tool", errors: 0, lastError: "", averageMs: 2, ...tool },
    { name: "task", requests: 0, errors: 0, lastError: "", averageMs: 0, inFlight: 0, capacity: 4 },
  ],
});

describe("instanceRow", () => {
  it("sums requests and errors, and shows in flight against capacity for tool calls and tasks", () => {
    expect(instanceRow(load("east", { requests: 9, errors: 2, inFlight: 3, capacity: 8, lastError: "400:invalid request: x" }))).toEqual({
      name: "east",
      serviceId: "svc-east",
      requests: 10,
      errors: 2,
      tools: "3 / 8",
      tasks: "0 / 4",
      averageMs: "1.81",
      lastError: "400:invalid request: x",
    });
    // Another fisk-ai build names no instance and reports no load.
    expect(instanceRow(load(undefined, { requests: 0 }))).toMatchObject({ name: "(unnamed)", tools: "—", averageMs: "0.10" });
  });
});

describe("InstancesState", () => {
  it("lists an identity's instances, says when none answers, and refuses a bad identity or no connection", async () => {
    const client = new FakeClient();
    const source = fakeSource(client);
    const state = new InstancesState(source);
    client.instances.set("orders", { kind: "instances", identity: "orders", elapsedMs: 5, instances: [load("a", { requests: 1 }), load("b", { requests: 2 })] });
    await state.load("orders");
    expect(state.rows.map((r) => r.name)).toEqual(["a", "b"]);
    await state.load("nobody");
    expect(state.listing).toEqual({ kind: "no-responders", identity: "nobody" });
    expect(state.rows).toEqual([]);
    await state.load("a.b");
    expect(state.error).toMatch(/not valid/);
    source.connected = false;
    await state.load("orders");
    expect(state.error).toBe(NOT_CONNECTED);
    expect(client.calls.filter((c) => c[0] === "listInstances")).toEqual([["listInstances", "orders"], ["listInstances", "nobody"]]);
  });
});
