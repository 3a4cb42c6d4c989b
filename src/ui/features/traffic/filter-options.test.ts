import { describe, expect, it } from "vitest";
import { allChannels, toggled } from "./filter-options.ts";

describe("set helpers", () => {
  it("toggles into a new set without touching the input", () => {
    const all = allChannels();
    const noNats = toggled(all, "nats");
    expect([...noNats]).toEqual(["mcp", "a2a-http"]);
    expect(all.has("nats")).toBe(true);
    expect([...toggled(noNats, "nats")].sort()).toEqual(["a2a-http", "mcp", "nats"]);
  });
});
