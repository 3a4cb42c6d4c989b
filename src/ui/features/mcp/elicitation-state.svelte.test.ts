import { describe, expect, it } from "vitest";
import { linked, toolServer } from "../../../core/mcp/test-servers.ts";
import { ElicitationState, type ElicitParams } from "./elicitation-state.svelte.ts";
import { McpWorkbenchState } from "./mcp-state.svelte.ts";
import { pageCompiler } from "./page-compiler.ts";
import { memoryHandle } from "./test-transports.ts";

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name" },
    age: { type: "integer", minimum: 1, maximum: 120, default: 30 },
    pet: { type: "string", enum: ["cat", "dog"], default: "dog" },
  },
  required: ["name"],
} as const;

const request = (message = "Who are you?"): ElicitParams => ({ message, requestedSchema: SCHEMA }) as unknown as ElicitParams;

describe("ElicitationState", () => {
  it("shows a request with defaults applied, then resolves the handler with the accepted content", async () => {
    const state = new ElicitationState();
    const answer = state.handle(request());
    expect(state.pending?.message).toBe("Who are you?");
    expect(state.pending?.requestedSchema).toEqual(SCHEMA);
    expect(state.values).toEqual({ name: "", age: "30", pet: "dog" });

    state.accept();
    expect(state.errors).toEqual({ name: "Required" });
    expect(state.pending).not.toBeNull();

    state.values.name = "Ada";
    state.values.age = "36";
    state.accept();
    await expect(answer).resolves.toEqual({ action: "accept", content: { name: "Ada", age: 36, pet: "dog" } });
    expect(state.pending).toBeNull();
  });

  it("leaves a multi-select field out of the answer in a version whose answers hold no lists", async () => {
    const withTags = { ...SCHEMA, properties: { ...SCHEMA.properties, tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, default: ["a"] } } };
    const ask = (version: string) => {
      const state = new ElicitationState(() => version);
      const answer = state.handle({ message: "m", requestedSchema: withTags } as unknown as ElicitParams);
      state.values.name = "Ada";
      state.accept();
      return answer;
    };
    await expect(ask("2025-06-18")).resolves.toEqual({ action: "accept", content: { name: "Ada", age: 30, pet: "dog" } });
    await expect(ask("2025-11-25")).resolves.toEqual({ action: "accept", content: { name: "Ada", age: 30, pet: "dog", tags: ["a"] } });
  });

  it("answers decline and cancel, one request at a time in arrival order", async () => {
    const state = new ElicitationState();
    const first = state.handle(request("first"));
    const second = state.handle(request("second"));
    expect(state.pending?.message).toBe("first");
    state.decline();
    await expect(first).resolves.toEqual({ action: "decline" });
    expect(state.pending?.message).toBe("second");
    state.cancel();
    await expect(second).resolves.toEqual({ action: "cancel" });
    expect(state.pending).toBeNull();
  });

  it("cancels every waiting request when cleared, and declines URL mode without showing it", async () => {
    const state = new ElicitationState();
    const a = state.handle(request("a"));
    const b = state.handle(request("b"));
    state.clear();
    await expect(Promise.all([a, b])).resolves.toEqual([{ action: "cancel" }, { action: "cancel" }]);
    const url = state.handle({ mode: "url", message: "go", url: "https://example.com", elicitationId: "e1" });
    await expect(url).resolves.toEqual({ action: "decline" });
    expect(state.pending).toBeNull();
  });
});

describe("McpWorkbenchState elicitation", () => {
  it("advertises elicitation; a tool's request shows, and the answer completes the call", async () => {
    const transport = memoryHandle(await linked(toolServer()));
    const bench = new McpWorkbenchState(() => transport, pageCompiler(true));
    bench.form.command = "srv";
    await bench.connect();
    bench.toolFilter = "confirm";
    bench.select(bench.filteredTools.findIndex((t) => t.name === "confirm"));
    const call = bench.send();
    await expect.poll(() => bench.elicitation.pending?.message).toBe("Proceed?");
    expect(bench.elicitation.pending?.form.fields.map((f) => [f.name, f.kind, f.required])).toEqual([["approve", "boolean", true]]);
    expect(bench.calling).toBe(true);
    bench.elicitation.values.approve = true;
    bench.elicitation.accept();
    await call;
    expect(bench.outcome?.kind).toBe("success");
    expect(JSON.stringify(bench.outcome)).toContain('\\"approve\\":true');
    expect(bench.elicitation.pending).toBeNull();
  });

  it("cancels a waiting request when the user disconnects", async () => {
    const transport = memoryHandle(await linked(toolServer()));
    const bench = new McpWorkbenchState(() => transport, pageCompiler(true));
    bench.form.command = "srv";
    await bench.connect();
    const answer = bench.elicitation.handle(request());
    await bench.disconnect();
    await expect(answer).resolves.toEqual({ action: "cancel" });
    expect(bench.elicitation.pending).toBeNull();
  });
});
