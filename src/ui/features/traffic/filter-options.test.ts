import { describe, expect, it } from "vitest";
import type { WireEntry } from "../../../core/wire/index.ts";
import { allChannels, distinctStatuses, toggled } from "./filter-options.ts";

describe("set helpers", () => {
  it("toggles into a new set without touching the input", () => {
    const all = allChannels();
    const noNats = toggled(all, "nats");
    expect([...noNats]).toEqual(["mcp", "a2a-http"]);
    expect(all.has("nats")).toBe(true);
    expect([...toggled(noNats, "nats")].sort()).toEqual(["a2a-http", "mcp", "nats"]);
  });

  it("lists distinct statuses ascending", () => {
    const entries = [{ status: 503 }, {}, { status: 200 }, { status: 503 }, { status: 404 }] as WireEntry[];
    expect(distinctStatuses(entries)).toEqual([200, 404, 503]);
    expect(distinctStatuses([])).toEqual([]);
  });
});
