import { describe, expect, it } from "vitest";
import { manualClock } from "../../../core/env/index.ts";
import { LogState, logText, MAX_LOG_ENTRIES } from "./log-state.svelte.ts";

describe("LogState", () => {
  it("keeps level, logger, data and arrival time, and filters from a level up", () => {
    const clock = manualClock(0, 1_000);
    const logs = new LogState(clock);
    logs.add({ level: "debug", data: "d" });
    clock.advance(5);
    logs.add({ level: "error", logger: "db", data: { code: 7 } });
    logs.add({ level: "warning", data: "w" });
    expect(logs.entries.map((e) => [e.level, e.logger, e.data, e.at])).toEqual([
      ["debug", undefined, "d", 1_000],
      ["error", "db", { code: 7 }, 1_005],
      ["warning", undefined, "w", 1_005],
    ]);
    logs.showFrom = "warning";
    expect(logs.visible.map((e) => e.level)).toEqual(["error", "warning"]);
    logs.showFrom = "critical";
    expect(logs.visible).toEqual([]);
    logs.clear();
    expect(logs.entries).toEqual([]);
  });

  it("stays within its bound, dropping the oldest and counting them", () => {
    const logs = new LogState(manualClock());
    for (let i = 0; i < MAX_LOG_ENTRIES + 3; i++) logs.add({ level: "info", data: i });
    expect(logs.entries.length).toBe(MAX_LOG_ENTRIES);
    expect(logs.entries[0]?.data).toBe(3);
    expect(logs.dropped).toBe(3);
  });

  it("sets the server's level and says how it went", async () => {
    const logs = new LogState(manualClock());
    const asked: string[] = [];
    logs.requestLevel = "error";
    await logs.setLevel({ setLoggingLevel: async (l) => void asked.push(l) });
    expect(asked).toEqual(["error"]);
    expect(logs.levelStatus).toEqual({ ok: true, text: "The server now sends messages at error and above." });
    await logs.setLevel({ setLoggingLevel: () => Promise.reject(new Error("Method not found")) });
    expect(logs.levelStatus).toEqual({ ok: false, text: "logging/setLevel failed: Method not found" });
    expect(logs.setting).toBe(false);
  });

  it("shows data as text, cutting very long data", () => {
    expect(logText("plain")).toBe("plain");
    expect(logText({ a: [1] })).toBe('{"a":[1]}');
    expect(logText(undefined)).toBe("undefined");
    expect(logText("y".repeat(4_010))).toBe(`${"y".repeat(4_000)}… (10 more characters)`);
  });
});
