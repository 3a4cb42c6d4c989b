import { describe, expect, it } from "vitest";
import { SnapshotStore, TypedEventTarget } from "./typed-event-target.ts";

class Pinger extends TypedEventTarget<{ ping: number; pong: string }> {
  ping(n: number) {
    this.emit("ping", n);
  }
}

class Counter extends SnapshotStore<{ n: number }> {
  constructor() {
    super({ n: 0 });
  }
  inc() {
    this.update((s) => ({ n: s.n + 1 }));
  }
  same() {
    this.set(this.snapshot);
  }
}

describe("TypedEventTarget", () => {
  it("delivers details to listeners of that type only, until unsubscribed", () => {
    const p = new Pinger();
    const got: number[] = [];
    const pongs: string[] = [];
    const off = p.on("ping", (n) => got.push(n));
    p.on("pong", (s) => pongs.push(s));
    p.ping(1);
    p.ping(2);
    off();
    p.ping(3);
    expect(got).toEqual([1, 2]);
    expect(pongs).toEqual([]);
  });
});

describe("SnapshotStore", () => {
  it("replaces the snapshot and emits change with the new value", () => {
    const c = new Counter();
    const seen: number[] = [];
    c.on("change", (s) => seen.push(s.n));
    const before = c.snapshot;
    c.inc();
    c.inc();
    expect(seen).toEqual([1, 2]);
    expect(c.snapshot).not.toBe(before);
  });

  it("does not emit when the snapshot is the same object", () => {
    const c = new Counter();
    let calls = 0;
    c.on("change", () => calls++);
    c.same();
    expect(calls).toBe(0);
  });
});
