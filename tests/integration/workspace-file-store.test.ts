import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DocumentError } from "../../src/core/persist/document-store.ts";
import type { DocumentStore } from "../../src/core/persist/document-store.ts";
import { fileDocumentStore } from "../../src/core/persist/node/file-store.ts";

let root: string;
let workspace: string;
let store: DocumentStore;
let clock = 1_800_000_000_000;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "patchbay-store-"));
  workspace = join(root, "ws");
  clock = 1_800_000_000_000;
  store = fileDocumentStore({ root: workspace, now: () => clock });
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function rejection(promise: Promise<unknown>): Promise<DocumentError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocumentError);
  return err as DocumentError;
}

describe("file store basics", () => {
  it("round-trips a document through a versioned envelope on disk", async () => {
    await store.write("connections", "local-nats", { url: "ws://127.0.0.1:8080", tags: ["a"] });
    expect(await store.read("connections", "local-nats")).toEqual({ url: "ws://127.0.0.1:8080", tags: ["a"] });
    const onDisk = JSON.parse(await readFile(join(workspace, "connections", "local-nats.json"), "utf8"));
    expect(onDisk).toEqual({
      format: "patchbay.connections",
      version: 1,
      savedAt: new Date(clock).toISOString(),
      data: { url: "ws://127.0.0.1:8080", tags: ["a"] },
    });
  });

  it("creates the workspace on first write with mode 0700, files 0600", async () => {
    await expect(stat(workspace)).rejects.toThrow();
    await store.write("servers", "s1", { n: 1 });
    expect((await stat(workspace)).mode & 0o777).toBe(0o700);
    expect((await stat(join(workspace, "servers"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(workspace, "servers", "s1.json"))).mode & 0o777).toBe(0o600);
  });

  it("lists documents by name with their modification time, ignoring strays", async () => {
    expect(await store.list("toolkits")).toEqual([]);
    await store.write("toolkits", "b", 2);
    await store.write("toolkits", "a", 1);
    const dir = join(workspace, "toolkits");
    await writeFile(join(dir, "notes.txt"), "x");
    await writeFile(join(dir, ".hidden.json"), "{}");
    await writeFile(join(dir, "a.json.set-aside-20260101T000000000Z"), "junk");
    const listed = await store.list("toolkits");
    expect(listed.map((d) => d.name)).toEqual(["a", "b"]);
    for (const d of listed) expect(typeof d.modifiedAt).toBe("number");
  });

  it("overwrites a valid document atomically and leaves no temp files", async () => {
    await store.write("settings", "ui", { theme: "dark" });
    await store.write("settings", "ui", { theme: "light" });
    expect(await store.read("settings", "ui")).toEqual({ theme: "light" });
    expect(await readdir(join(workspace, "settings"))).toEqual(["ui.json"]);
  });

  it("removes documents; missing ones are not_found", async () => {
    await store.write("collections", "c", []);
    await store.remove("collections", "c");
    expect((await rejection(store.read("collections", "c"))).code).toBe("not_found");
    expect((await rejection(store.remove("collections", "c"))).code).toBe("not_found");
  });

  it("refuses a value JSON cannot hold, writing nothing", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect((await rejection(store.write("settings", "loop", cyclic))).code).toBe("invalid_document");
    expect((await rejection(store.write("settings", "undef", undefined))).code).toBe("invalid_document");
    expect(await store.list("settings")).toEqual([]);
  });
});

describe("names", () => {
  it.each(["..", "../x", "a/b", "a\\b", "a\0b", "", ".hidden", "-dash", "a..b", "CON", "nul.txt", "x".repeat(129), "trailing."])(
    "refuses %j without touching the disk",
    async (name) => {
      expect((await rejection(store.write("connections", name, 1))).code).toBe("invalid_name");
      expect((await rejection(store.read("connections", name))).code).toBe("invalid_name");
      await expect(stat(workspace)).rejects.toThrow();
    },
  );

  it("refuses an unknown kind", async () => {
    const err = await rejection(store.write("../etc" as never, "x", 1));
    expect(err.code).toBe("invalid_name");
    expect(err.message).toMatch(/unknown document kind/);
  });

  it("accepts the full allowed alphabet and length", async () => {
    const name = `A0._-${"z".repeat(123)}`;
    await store.write("connections", name, 1);
    expect(await store.read("connections", name)).toBe(1);
  });
});

describe("unreadable files are set aside, never overwritten", () => {
  const file = () => join(workspace, "connections", "c.json");

  async function plant(content: string) {
    await mkdir(join(workspace, "connections"), { recursive: true });
    await writeFile(file(), content);
  }

  it.each([
    ["corrupt", "{ not json", "corrupt"],
    ["newer version", JSON.stringify({ format: "patchbay.connections", version: 99, savedAt: "x", data: {} }), "unknown_version"],
    ["another kind", JSON.stringify({ format: "patchbay.servers", version: 1, savedAt: "x", data: {} }), "invalid_document"],
  ])("a %s file: read fails with its code and the set-aside path, content intact", async (_label, content, code) => {
    await plant(content);
    const err = await rejection(store.read("connections", "c"));
    expect(err.code).toBe(code);
    expect(err.setAsideTo).toBe(`${file()}.set-aside-20270115T080000000Z`);
    expect(err.message).toContain(err.setAsideTo);
    expect(await readFile(err.setAsideTo!, "utf8")).toBe(content);
    await expect(stat(file())).rejects.toThrow();
    expect((await rejection(store.read("connections", "c"))).code).toBe("not_found");
  });

  it("a later write creates a fresh file and keeps the set-aside one", async () => {
    await plant("garbage");
    await rejection(store.read("connections", "c"));
    await store.write("connections", "c", { fresh: true });
    expect(await store.read("connections", "c")).toEqual({ fresh: true });
    const names = await readdir(join(workspace, "connections"));
    expect(names.sort()).toEqual(["c.json", "c.json.set-aside-20270115T080000000Z"]);
  });

  it("a write over an unread corrupt file sets it aside first instead of replacing it", async () => {
    await plant("precious but broken");
    await store.write("connections", "c", { v: 2 });
    const aside = (await readdir(join(workspace, "connections"))).filter((n) => n.includes("set-aside"));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(workspace, "connections", aside[0]!), "utf8")).toBe("precious but broken");
    expect(await store.read("connections", "c")).toEqual({ v: 2 });
  });

  it("two set-asides in the same millisecond get distinct names", async () => {
    await plant("one");
    const first = await rejection(store.read("connections", "c"));
    await plant("two");
    const second = await rejection(store.read("connections", "c"));
    expect(second.setAsideTo).not.toBe(first.setAsideTo);
    expect(await readFile(first.setAsideTo!, "utf8")).toBe("one");
    expect(await readFile(second.setAsideTo!, "utf8")).toBe("two");
  });
});

describe("concurrency", () => {
  it("concurrent writes to one name leave one valid document from one of the writers", async () => {
    const values = Array.from({ length: 40 }, (_, i) => ({ writer: i, payload: "p".repeat(1000 + i * 97) }));
    await Promise.all(values.map((v) => store.write("collections", "shared", v)));
    const result = (await store.read("collections", "shared")) as { writer: number; payload: string };
    expect(values[result.writer]).toEqual(result);
    expect(await readdir(join(workspace, "collections"))).toEqual(["shared.json"]);
  });

  it("readers during writes only ever see a complete document", async () => {
    await store.write("collections", "busy", { n: -1 });
    const writes = Array.from({ length: 30 }, (_, n) => store.write("collections", "busy", { n, pad: "x".repeat(5000) }));
    const reads = Array.from({ length: 30 }, () => store.read("collections", "busy"));
    const seen = (await Promise.all([...writes, ...reads])).slice(30) as { n: number }[];
    for (const doc of seen) expect(typeof doc.n).toBe("number");
    expect((await readdir(join(workspace, "collections"))).filter((n) => n.includes("set-aside"))).toEqual([]);
  });
});
