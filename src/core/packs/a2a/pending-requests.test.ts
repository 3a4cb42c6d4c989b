import { describe, expect, it } from "vitest";
import { METHOD_INDEX, type MethodEntry } from "./catalog.ts";
import { PendingRequests } from "./pending-requests.ts";

const entry = (method: string): MethodEntry => METHOD_INDEX.get(method)![0]!;
const send = entry("message/send");
const cancel = entry("tasks/cancel");

describe("PendingRequests", () => {
  it("finds a request by its id, number or string, and never by an id of another type or value", () => {
    const pending = new PendingRequests(10);
    pending.remember(1, send);
    pending.remember("1", cancel);
    expect(pending.get(1)).toBe(send);
    expect(pending.get("1")).toBe(cancel);
    expect(pending.get(2)).toBeUndefined();
    expect(pending.get("2")).toBeUndefined();
    expect(pending.get(null)).toBeUndefined();
    expect(pending.get({})).toBeUndefined();
  });

  it("still finds ids of one type once every id of the other type is forgotten", () => {
    const pending = new PendingRequests(10);
    pending.remember("a", send);
    pending.remember(7, cancel);
    pending.forget(7);
    pending.forget(7);
    expect(pending.get(7)).toBeUndefined();
    expect(pending.get("a")).toBe(send);
    pending.remember(8, cancel);
    expect(pending.get(8)).toBe(cancel);
    pending.forget("a");
    pending.forget({});
    expect(pending.get("a")).toBeUndefined();
    expect(pending.get(8)).toBe(cancel);
    expect(pending.size).toBe(1);
  });

  it("forgets the oldest beyond its limit, a repeated id counting as the newest", () => {
    const pending = new PendingRequests(3);
    pending.remember(1, send);
    pending.remember("b", send);
    pending.remember(3, send);
    pending.remember(1, cancel);
    pending.remember(4, send);
    expect(pending.size).toBe(3);
    expect(pending.get("b")).toBeUndefined();
    expect(pending.get(1)).toBe(cancel);
    pending.remember(5, send);
    expect(pending.get(3)).toBeUndefined();
    expect([pending.get(1), pending.get(4), pending.get(5)]).toEqual([cancel, send, send]);
  });

  it("after evicting every string id, a string id remembered again is found", () => {
    const pending = new PendingRequests(2);
    pending.remember("x", send);
    pending.remember(1, send);
    pending.remember(2, send);
    expect(pending.get("x")).toBeUndefined();
    pending.remember("y", cancel);
    expect(pending.get("y")).toBe(cancel);
    expect(pending.get(1)).toBeUndefined();
  });
});

describe("PendingRequests, listed before indexed", () => {
  /** The same steps on a map kept up to date at every step, the behaviour the listing must keep. */
  function eagerly(limit: number, steps: readonly (readonly ["remember", string | number, MethodEntry] | readonly ["forget", string | number])[]): Map<string | number, MethodEntry> {
    const open = new Map<string | number, MethodEntry>();
    for (const step of steps) {
      if (step[0] === "forget") {
        open.delete(step[1]);
        continue;
      }
      open.delete(step[1]);
      open.set(step[1], step[2]);
      if (open.size > limit) open.delete(open.keys().next().value!);
    }
    return open;
  }

  it("ends as a map kept up to date would, whenever it is asked, repeated ids and evictions included", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const limit = 2 + (seed % 5);
      const pending = new PendingRequests(limit);
      const steps: (readonly ["remember", string | number, MethodEntry] | readonly ["forget", string | number])[] = [];
      for (let k = 0; k < 40; k++) {
        const r = (seed * 31 + k * 17) % 23;
        const id = r % 3 === 0 ? `s${r % 7}` : r % 7;
        if (r % 5 === 0) {
          steps.push(["forget", id]);
          pending.forget(id);
        } else {
          const e = r % 2 === 0 ? send : cancel;
          steps.push(["remember", id, e]);
          pending.remember(id, e);
        }
        // Ask only now and then, so several requests wait in the list between questions.
        if (r % 4 !== 0) continue;
        const want = eagerly(limit, steps);
        for (const probe of [0, 1, 2, 3, 4, 5, 6, "s0", "s1", "s2", "s3", "s4", "s5", "s6"]) expect(pending.get(probe)).toBe(want.get(probe));
        expect(pending.size).toBe(want.size);
      }
    }
  });

  it("keeps at most its limit open, however many were listed at once", () => {
    const pending = new PendingRequests(100);
    for (let i = 0; i < 1_000; i++) pending.remember(`r${i}`, send);
    expect(pending.size).toBeLessThanOrEqual(100);
    expect(pending.get("r999")).toBe(send);
    expect(pending.get("r899")).toBeUndefined();
    expect(pending.get("r900")).toBe(send);
  });

  it("finds nothing under an id of a type it has none of, listed or open", () => {
    const pending = new PendingRequests(10);
    pending.remember("a", send);
    expect(pending.get(1)).toBeUndefined();
    expect(pending.get("a")).toBe(send);
  });
});
