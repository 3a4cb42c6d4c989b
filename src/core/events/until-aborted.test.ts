import { describe, expect, it } from "vitest";
import { untilAborted } from "./until-aborted.ts";

const stopped = () => new Error("stopped");

describe("untilAborted", () => {
  it("passes the promise's value and failure through while the signal stays quiet", async () => {
    const quiet = new AbortController().signal;
    await expect(untilAborted(Promise.resolve(7), quiet, stopped)).resolves.toBe(7);
    await expect(untilAborted(Promise.reject(new Error("boom")), quiet, stopped)).rejects.toThrow("boom");
    // A non-Error rejection becomes an Error with its text.
    await expect(untilAborted(Promise.reject("plain"), quiet, stopped)).rejects.toThrow("plain");
  });

  it("fails with the stop's error as soon as the signal aborts, and drops what the promise brings later", async () => {
    const stop = new AbortController();
    let settle: (v: number) => void = () => undefined;
    const raced = untilAborted(new Promise<number>((r) => (settle = r)), stop.signal, stopped);
    stop.abort();
    await expect(raced).rejects.toThrow("stopped");
    settle(1);
  });

  it("fails at once on a signal that has aborted already, and a later rejection of the promise goes unhandled nowhere", async () => {
    const stop = new AbortController();
    stop.abort();
    let fail: (e: Error) => void = () => undefined;
    const late = new Promise<number>((_, reject) => (fail = reject));
    await expect(untilAborted(late, stop.signal, stopped)).rejects.toThrow("stopped");
    fail(new Error("too late"));
    await new Promise((r) => setTimeout(r, 0));
  });
});
