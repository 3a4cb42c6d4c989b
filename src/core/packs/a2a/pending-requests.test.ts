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
