import { describe, expect, it } from "vitest";
import { NOT_CONNECTED } from "./fisk-api.ts";
import { ImportState } from "./import-state.svelte.ts";
import { cardResult, FakeClient, fakeSource } from "./test-fakes.ts";

describe("ImportState", () => {
  it("edits the host rows, always keeping one", () => {
    const importer = new ImportState(fakeSource(new FakeClient()));
    importer.addHost();
    expect(importer.hosts).toHaveLength(2);
    importer.removeHost(0);
    importer.removeHost(0);
    expect(importer.hosts).toEqual([{ identity: "", alias: "", include: "", exclude: "" }]);
  });

  it("needs a host and a connection, then plans from what discovery found", async () => {
    const client = new FakeClient();
    client.discoveries.set("alpha", cardResult("alpha", { tools: [{ name: "kv_get", description: "Get" }] }));
    const source = fakeSource(client);
    const importer = new ImportState(source);
    await importer.preview();
    expect(importer.error).toBe("add at least one host identity");
    importer.hosts[0]!.identity = "alpha";
    source.connected = false;
    await importer.preview();
    expect(importer.error).toBe(NOT_CONNECTED);
    source.connected = true;
    await importer.preview();
    expect(importer.error).toBeNull();
    expect(importer.plan?.tools.map((t) => t.name)).toEqual(["kv_get"]);
    expect(importer.running).toBe(false);
  });
});
