import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentTypeFor, resolveAsset } from "./static-files.ts";

describe("content types", () => {
  it.each([
    ["index.html", "text/html; charset=utf-8"],
    ["app.js", "text/javascript; charset=utf-8"],
    ["worker.mjs", "text/javascript; charset=utf-8"],
    ["app.css", "text/css; charset=utf-8"],
    ["icon.svg", "image/svg+xml"],
    ["font.woff2", "font/woff2"],
    ["font.ttf", "font/ttf"],
    ["data.json", "application/json; charset=utf-8"],
    ["mod.wasm", "application/wasm"],
    ["app.js.map", "application/json; charset=utf-8"],
    ["UPPER.JS", "text/javascript; charset=utf-8"],
    ["blob.bin", "application/octet-stream"],
    ["noext", "application/octet-stream"],
  ])("%s → %s", (file, type) => {
    expect(contentTypeFor(file)).toBe(type);
  });
});

describe("resolveAsset", () => {
  let root: string;
  let dist: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "patchbay-static-"));
    dist = join(root, "dist");
    await mkdir(join(dist, "assets"), { recursive: true });
    await writeFile(join(dist, "assets", "a.js"), "a");
    await writeFile(join(dist, ".env"), "SECRET=1");
    await writeFile(join(root, "outside.txt"), "outside");
    await symlink(join(root, "outside.txt"), join(dist, "assets", "escape.txt"));
    await symlink(join(dist, "assets", "a.js"), join(dist, "assets", "alias.js"));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("finds files inside the dist folder", async () => {
    expect(await resolveAsset(dist, "/assets/a.js")).toMatch(/dist\/assets\/a\.js$/);
    expect(await resolveAsset(dist, "/assets/%61.js")).toMatch(/dist\/assets\/a\.js$/);
  });

  it("follows a symlink only while it stays inside", async () => {
    expect(await resolveAsset(dist, "/assets/alias.js")).toMatch(/dist\/assets\/a\.js$/);
    expect(await resolveAsset(dist, "/assets/escape.txt")).toBeNull();
  });

  it.each(["/../outside.txt", "/assets/../../outside.txt", "/%2e%2e/outside.txt", "/.env", "/assets", "/missing.js", "/a%00.js", "/..\\outside.txt"])(
    "refuses %s",
    async (path) => {
      expect(await resolveAsset(dist, path)).toBeNull();
    },
  );

  it("throws a 400 for malformed percent-encoding", async () => {
    await expect(resolveAsset(dist, "/%E0%A4%A")).rejects.toMatchObject({ status: 400 });
  });
});
