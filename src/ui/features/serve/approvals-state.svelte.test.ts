import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import type { PendingApproval } from "../../../core/backend/serve-api.ts";
import { ManualScheduler, manualClock } from "../../../core/env/index.ts";
import { ApprovalsState, timeLeft } from "./approvals-state.svelte.ts";
import { FakeServeApi, settle } from "./serve-fakes.ts";

const WALL = 1_700_000_000_000;
const ask = (id: string, expiresIn = 120_000): PendingApproval => ({ id, surface: "mcp", tool: "confirm", what: `confirm (${id})`, arguments: { message: id }, askedAt: WALL, expiresAt: WALL + expiresIn });

function setup() {
  const api = new FakeServeApi();
  const scheduler = new ManualScheduler();
  return { api, scheduler, approvals: new ApprovalsState(api, manualClock(0, WALL), scheduler) };
}

describe("ApprovalsState", () => {
  it("reads the queue every second while followed, and stops and empties it when no longer followed", async () => {
    const { api, scheduler, approvals } = setup();
    api.pending = [ask("a")];
    const stop = approvals.follow();
    await settle();
    expect(approvals.pending.map((a) => a.id)).toEqual(["a"]);
    api.pending = [ask("a"), ask("b")];
    scheduler.advance(1000);
    await settle();
    expect(approvals.pending.map((a) => a.id)).toEqual(["a", "b"]);
    stop();
    expect(approvals.pending).toEqual([]);
    const reads = api.named("approvals").length;
    scheduler.advance(5000);
    await settle();
    expect(api.named("approvals")).toHaveLength(reads);
  });

  it("approves and refuses, removing the request, and a read racing the answer cannot bring it back", async () => {
    const { api, approvals } = setup();
    api.pending = [ask("a"), ask("b")];
    await approvals.refresh();
    const pendingBefore = [...api.pending];
    await approvals.decide("a", true);
    expect(api.named("decide")).toEqual([["a", true]]);
    expect(approvals.notice).toBe("Approved: confirm (a).");
    api.pending = pendingBefore; // the backend has not caught up yet
    await approvals.refresh();
    expect(approvals.pending.map((a) => a.id)).toEqual(["b"]);
    await approvals.decide("b", false);
    expect(approvals.notice).toBe("Refused: confirm (b).");
    expect(approvals.pending).toEqual([]);
  });

  it("says an expired request is no longer waiting, and keeps one whose answer could not be sent", async () => {
    const { api, approvals } = setup();
    api.pending = [ask("gone"), ask("kept")];
    await approvals.refresh();
    api.pending = [ask("kept")];
    await approvals.decide("gone", true);
    expect(approvals.error).toBe("The request to run confirm (gone) is no longer waiting: it expired or was answered already.");
    expect(approvals.pending.map((a) => a.id)).toEqual(["kept"]);
    api.fail.decide = new BackendError(0, "unreachable", "backend unreachable: offline");
    await approvals.decide("kept", true);
    expect(approvals.error).toBe("Could not send the answer for confirm (kept): backend unreachable: offline.");
    expect(approvals.pending.map((a) => a.id)).toEqual(["kept"]);
    expect(approvals.deciding).toBeNull();
  });

  it("shows the time left in minutes and seconds", () => {
    expect(timeLeft(ask("x", 65_000), WALL)).toBe("1:05 left");
    expect(timeLeft(ask("x", 400), WALL)).toBe("0:01 left");
    expect(timeLeft(ask("x", 0), WALL)).toBe("expiring");
  });
});
