import { describe, expect, it } from "vitest";
import { BackendError } from "../../../core/backend/backend-client.ts";
import { ManualScheduler } from "../../../core/env/index.ts";
import type { Collection } from "../../../core/harness/index.ts";
import { FakeHarness, progressPage, runReport, settle, stepReport, twoSteps } from "./collections-fakes.ts";
import { capturedOf, KEPT_RUNS, POLL_MS, RunState } from "./run-state.svelte.ts";

function setup() {
  const api = new FakeHarness();
  const scheduler = new ManualScheduler();
  const box: { collection: Collection | undefined } = { collection: twoSteps() };
  const run = new RunState(api, scheduler, () => box.collection);
  /** The next poll falls due and its answer is read. */
  const tick = async () => {
    scheduler.advance(POLL_MS);
    await settle();
  };
  return { api, scheduler, run, box, tick };
}

const echo = stepReport(0, "echo", "passed", { captured: { greeting: "hi" } });
const sum = stepReport(1, "sum", "failed", { assertions: [{ assertion: { kind: "equals", pointer: "/result", value: 4 }, passed: false, message: "/result is 3, not 4" }], captured: { total: "3" } });

describe("RunState", () => {
  it("starts a run with the chosen environment and typed secrets, follows its progress and keeps the report", async () => {
    const { api, run, tick, scheduler } = setup();
    expect(run.environments).toEqual(["default", "staging"]);
    expect(run.chosenEnvironment).toBe("default");
    run.environment = "staging";
    expect(run.secretFields).toEqual([{ name: "api_token", env: "API_TOKEN" }]);
    run.secrets.api_token = "s3cret";
    run.secrets.undeclared = "ignored";
    const report = runReport("demo", [echo, sum]);
    api.pages = [progressPage("run-1", 2, [], 0, null, { index: 0, name: "echo" }), progressPage("run-1", 2, [echo], 1, null, { index: 1, name: "sum" }), progressPage("run-1", 2, [sum], 2, report)];
    await run.run();
    expect(api.starts[0]).toMatchObject({ environment: "staging", secrets: { api_token: "s3cret" } });
    expect(api.starts[0]?.secrets).toEqual({ api_token: "s3cret" });
    await settle();
    expect(run.running).toBe(true);
    expect(run.current).toEqual({ index: 0, name: "echo" });
    expect(run.total).toBe(2);
    await tick();
    expect(run.rows.map((r) => r.name)).toEqual(["echo"]);
    expect(run.finished).toBe(1);
    expect(run.current).toEqual({ index: 1, name: "sum" });
    await tick();
    expect(api.reads.map((r) => r.after)).toEqual([0, 0, 1]);
    expect(run.running).toBe(false);
    expect(run.report).toBe(report);
    expect(run.history).toEqual([report]);
    // The failing step is selected for the user.
    expect(run.selectedRow?.name).toBe("sum");
    expect(scheduler.pending).toBe(0);
  });

  it("re-runs one step with what the last run captured, and replaces only its row", async () => {
    const { api, run, tick } = setup();
    api.pages = [progressPage("run-1", 2, [echo, sum], 2, runReport("demo", [echo, sum]))];
    await run.run();
    await settle();
    const fixed = stepReport(1, "sum", "passed", { captured: { total: "4" } });
    const rerunReport = runReport("demo", [fixed]);
    api.pages = [progressPage("run-2", 1, [], 0, null, { index: 1, name: "sum" }), progressPage("run-2", 1, [fixed], 1, rerunReport)];
    await run.rerun(1);
    expect(api.starts[1]).toMatchObject({ only: [1], captured: { greeting: "hi", total: "3" } });
    await settle();
    expect(run.rerunning).toBe(1);
    await tick();
    expect(run.rows.map((r) => `${r.name} ${r.status}`)).toEqual(["echo passed", "sum passed"]);
    expect(run.report).toBe(rerunReport);
    // A re-run is not a run to compare with.
    expect(run.history).toHaveLength(1);
  });

  it("shows a refused start next to Run: the backend's problems, or a run already going", async () => {
    const { api, run } = setup();
    api.startError = new BackendError(400, "invalid_collection", "the collection is not valid: /steps/0/target: no target 'x'");
    await run.run();
    expect(run.error).toBe("could not start the run: the collection is not valid: /steps/0/target: no target 'x'");
    expect(run.running).toBe(false);
    api.startError = new BackendError(409, "run_active", "a collection is running; stop it or wait for it to finish");
    await run.run();
    expect(run.error).toBe("could not start the run: a collection is running; stop it or wait for it to finish");
  });

  it("will not run or re-run what cannot run, saying why", async () => {
    const { api, run, box } = setup();
    box.collection = undefined;
    await run.run();
    expect(run.error).toBe("the collection has problems: fix them before running it");
    box.collection = twoSteps();
    await run.rerun(0);
    expect(run.error).toBe('the steps on show are from a run of "": run "demo" first');
    api.pages = [progressPage("run-1", 2, [echo, sum], 2, runReport("demo", [echo, sum]))];
    await run.run();
    await settle();
    await run.rerun(7);
    expect(run.error).toBe("the collection has no step 8 now");
    expect(api.starts).toHaveLength(1);
  });

  it("stops a run, and reports a run it lost track of without polling on", async () => {
    const { api, run, tick, scheduler } = setup();
    api.pages = [progressPage("run-1", 2, [], 0, null, { index: 0, name: "echo" }), new BackendError(404, "unknown_run", 'no run "run-1"')];
    await run.run();
    await settle();
    await run.stop();
    expect(api.stops).toEqual(["run-1"]);
    await tick();
    expect(run.error).toBe('lost the run: no run "run-1"');
    expect(run.running).toBe(false);
    expect(scheduler.pending).toBe(0);
  });

  it("keeps the last five full runs", async () => {
    const { api, run } = setup();
    for (let i = 0; i < KEPT_RUNS + 2; i++) {
      api.pages = [progressPage(`run-${i + 1}`, 2, [echo, sum], 2, runReport("demo", [echo, sum], { durationMs: i }))];
      await run.run();
      await settle();
    }
    expect(run.history.map((r) => r.durationMs)).toEqual([2, 3, 4, 5, 6]);
  });

  it("forgets the rows and the typed secrets when another collection opens, but not while running", async () => {
    const { api, run, tick } = setup();
    run.secrets.api_token = "s3cret";
    api.pages = [progressPage("run-1", 2, [echo], 1), progressPage("run-1", 2, [sum], 2, runReport("demo", [echo, sum]))];
    await run.run();
    await settle();
    run.reset();
    expect(run.rows).toHaveLength(1);
    expect(run.secrets).toEqual({ api_token: "s3cret" });
    await tick();
    expect(run.running).toBe(false);
    run.reset();
    expect(run.rows).toEqual([]);
    expect(run.report).toBeNull();
    expect(run.secrets).toEqual({});
    expect(run.ranFor).toBeNull();
    // Earlier runs stay, to compare with when the collection opens again.
    expect(run.history).toHaveLength(1);
  });
});

describe("capturedOf", () => {
  it("merges captured values in step order, later steps winning", () => {
    expect(capturedOf([stepReport(2, "c", "passed", { captured: { a: "3" } }), stepReport(0, "a", "passed", { captured: { a: "1", b: "1" } })])).toEqual({ a: "3", b: "1" });
  });
});
