/**
 * Every instruction Patchbay gives runs this project's command. `npx patchbay` outside a clone
 * fetches an unrelated package from the npm registry, so neither the README nor any help text
 * may tell anyone to run it, and the Claude Desktop example must name this clone's entry.
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { describe, expect, it } from "vitest";
import { binPath, findPackageRoot } from "../../server/paths.ts";
import { runCli } from "../helpers/http-client.ts";

const NPX = /npx\s+(?:-y\s+|--yes\s+)?patchbay\b|"command"\s*:\s*"npx"/;
const TOPICS = [[], ["start"], ["validate"], ["serve"], ["call"]];

async function help(topic: readonly string[], cwd: string): Promise<string> {
  const cli = runCli(["help", ...topic], {}, { cwd });
  expect(await cli.done).toBe(0);
  return cli.stdout.join("");
}

describe("instructions name this project's command", () => {
  it("the README mentions npx patchbay only to warn against it", () => {
    const readme = readFileSync(join(findPackageRoot(), "README.md"), "utf8");
    const lines = readme.split("\n");
    const offending = lines.flatMap((line, i) => (NPX.test(line) && !/Do not use/.test(lines[i - 1] ?? "") && !/Do not use/.test(line) ? [`${i + 1}: ${line}`] : []));
    expect(offending).toEqual([]);
    expect(readme).toMatch(/node bin\/patchbay\.mjs/);
  });

  it.each([
    ["the clone's root", findPackageRoot(), "node bin/patchbay.mjs"],
    ["another folder", "/", `node ${binPath()}`],
  ])("every help text, run from %s, uses the runnable command and never npx", async (_where, cwd, prog) => {
    for (const topic of TOPICS) {
      const text = await help(topic, cwd);
      expect(text, `help ${topic.join(" ")}`).not.toMatch(NPX);
      expect(text.startsWith(`Usage: ${prog} `), `help ${topic.join(" ")} starts with its usage line`).toBe(true);
      // Any 'patchbay <command>' an instruction quotes is the full runnable command.
      for (const quoted of text.matchAll(/'([^'\n]*patchbay[^'\n]*)'/g)) expect(quoted[1]!.startsWith(prog), quoted[1]).toBe(true);
    }
  });

  it("the Claude Desktop example in serve's help starts this clone's bin by its absolute path", async () => {
    const text = await help(["serve"], "/");
    const line = text.split("\n").find((l) => l.includes('"mcpServers"'));
    expect(line).toBeDefined();
    const config = JSON.parse(line!) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const server = config.mcpServers.patchbay!;
    expect(server.command).toBe("node");
    expect(isAbsolute(server.args[0]!)).toBe(true);
    expect(existsSync(server.args[0]!)).toBe(true);
    expect(server.args[0]).toBe(binPath());
    expect(server.args.slice(1)).toEqual(["serve", "--stdio"]);
  });

  it("a usage error's hint is the runnable command", async () => {
    const cli = runCli(["frobnicate"], {}, { cwd: "/" });
    expect(await cli.done).toBe(2);
    expect(cli.stderr.join("")).toContain(`Run 'node ${binPath()} --help' for usage.`);
  });
});
