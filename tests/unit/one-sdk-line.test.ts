/**
 * What ships speaks MCP through the v2 packages only (@modelcontextprotocol/client and /server);
 * the v1 SDK stays a development dependency for the tests' real legacy peers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TEST_ONLY = /(\.test\.ts$|(^|\/)test-[^/]*\.ts$|\/fixtures\/)/;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|svelte|mjs|js)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

describe("one MCP SDK line in what ships", () => {
  it("no shipped source imports the v1 SDK", () => {
    const shipped = ["src", "server", "bin"].flatMap(sources).filter((f) => !TEST_ONLY.test(f));
    expect(shipped.length).toBeGreaterThan(100);
    const v1 = shipped.filter((f) => /["']@modelcontextprotocol\/sdk(\/[^"']*)?["']/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(v1).toEqual([]);
  });

  it("the v1 SDK is a development dependency only", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.dependencies["@modelcontextprotocol/sdk"]).toBeUndefined();
    expect(pkg.devDependencies["@modelcontextprotocol/sdk"]).toBeDefined();
    expect(Object.keys(pkg.dependencies).filter((d) => d.startsWith("@modelcontextprotocol/")).sort()).toEqual(["@modelcontextprotocol/client", "@modelcontextprotocol/server"]);
  });
});
