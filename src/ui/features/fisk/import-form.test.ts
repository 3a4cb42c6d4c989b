import { describe, expect, it } from "vitest";
import { discoveryFailure, previewImport, toImportHost, type HostRow } from "./import-form.ts";
import { cardResult, FakeClient } from "./test-fakes.ts";

const row = (identity: string, extra: Partial<HostRow> = {}): HostRow => ({ identity, alias: "", include: "", exclude: "", ...extra });

function client(): FakeClient {
  const c = new FakeClient();
  c.discoveries.set("alpha", cardResult("alpha", { tools: [{ name: "stream_ls", description: "List" }, { name: "kv_get", description: "Get" }, { name: "bare" }] }));
  c.discoveries.set("beta", cardResult("beta", { tools: [{ name: "stream_ls", description: "List too" }, { name: "shell", description: "Run" }] }));
  return c;
}

describe("import preview", () => {
  it("turns a typed row into a host: trimmed names, one pattern per line, no empty filters", () => {
    expect(toImportHost(row(" alpha ", { alias: " a ", include: "^stream_\n\n kv ", exclude: "" }), cardResult("alpha"))).toMatchObject({
      identity: "alpha",
      alias: "a",
      include: { tools: ["^stream_", "kv"] },
    });
    const host = toImportHost(row("x"), null);
    expect(host).toMatchObject({ card: null, discoveryError: "not discovered" });
    expect("include" in host || "exclude" in host || "alias" in host).toBe(false);
  });

  it("prefixes clashing names, skips with reasons, reports failed hosts, and ignores host order", async () => {
    const rows = [row("alpha"), row("beta", { exclude: "^kv" }), row("nobody")];
    const plan = await previewImport(client(), rows, "shell, local_only");
    expect(plan.tools.map((t) => t.name)).toEqual(["alpha_stream_ls", "beta_shell", "beta_stream_ls", "kv_get"]);
    expect(plan.skipped.map((s) => `${s.host}/${s.remoteName}: ${s.reason}`)).toEqual(["alpha/bare: no-description"]);
    expect(plan.hosts[2]).toMatchObject({ identity: "nobody", error: "no such agent: nothing answers its discovery subject (503)" });
    const reversed = await previewImport(client(), [...rows].reverse(), "shell, local_only");
    expect(reversed.tools).toEqual(plan.tools);
    expect(reversed.skipped).toEqual(plan.skipped);
  });

  it("discovers each identity once even when listed twice, and an alias collision is an error", async () => {
    const c = client();
    const plan = await previewImport(c, [row("alpha", { alias: "x" }), row("alpha", { alias: "x" })], "");
    expect(c.calls.filter((call) => call[0] === "discover")).toHaveLength(1);
    expect(plan.tools).toEqual([]);
    expect(plan.collisionError).toContain('"x_stream_ls" (agent "alpha")');
  });

  it("words every discovery failure", () => {
    const base = { identity: "x", subject: "", requestText: "", rttMs: 1 };
    expect(discoveryFailure(cardResult("x"))).toBeNull();
    expect(discoveryFailure({ ...base, outcome: { kind: "refused", code: "400", description: "bad" } })).toBe("discovery refused (400): bad");
    expect(discoveryFailure({ ...base, outcome: { kind: "invalid", problem: "p" } })).toBe("the discovery reply is not a valid card: p");
    expect(discoveryFailure({ ...base, outcome: { kind: "error", message: "not connected" } })).toBe("not connected");
  });
});
