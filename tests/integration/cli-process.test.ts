import { spawn, type ChildProcess } from "node:child_process";
import { copyFile, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { alive } from "../helpers/processes.ts";
import { send } from "../helpers/http-client.ts";
import { waitForLaunchUrl } from "../helpers/launch-url.ts";

const repo = fileURLToPath(new URL("../..", import.meta.url));
let out: string;
let cli: string;

beforeAll(async () => {
  // Laid out as in the package (dist/server beside package.json and node_modules), so the bundle
  // resolves its external packages as it does when installed.
  out = await mkdtemp(join(tmpdir(), "patchbay-build-"));
  await symlink(join(repo, "node_modules"), join(out, "node_modules"), "dir");
  await copyFile(join(repo, "package.json"), join(out, "package.json"));
  await build({ configFile: join(repo, "vite.server.config.ts"), logLevel: "silent", build: { outDir: join(out, "dist/server") } });
  cli = join(out, "dist/server/cli.js");
}, 60_000);
afterAll(() => rm(out, { recursive: true, force: true }));

interface Proc {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const spawned: ChildProcess[] = [];
afterEach(() => {
  // A failed assertion must not leave a backend behind; the watchdog then ends its nats-server.
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function run(args: string[]): Proc {
  const child = spawn(process.execPath, [cli, ...args], { cwd: out, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NATS_URL: "" } });
  spawned.push(child);
  const proc: Proc = {
    child,
    stdout: "",
    stderr: "",
    exit: new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal }))),
  };
  child.stdout!.on("data", (d: Buffer) => (proc.stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (proc.stderr += d.toString()));
  return proc;
}

describe("the built CLI (dist/server/cli.js) as a real process", () => {
  it("builds to one ESM file whose import exposes main without running it", async () => {
    expect((await readdir(join(out, "dist/server"))).filter((f) => f.endsWith(".js"))).toEqual(["cli.js"]);
    const writes: string[] = [];
    const mod = (await import(pathToFileURL(cli).href)) as { main: (argv: string[], io: object) => Promise<number> };
    expect(typeof mod.main).toBe("function");
    const code = await mod.main(["--version"], { stdout: (s: string) => writes.push(s), stderr: (s: string) => writes.push(s) });
    expect(code).toBe(0);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^patchbay \d/);
  });

  it("prints help and exits 0; a bad command exits 2", async () => {
    const help = run(["--help"]);
    expect((await help.exit).code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: node bin\/patchbay\.mjs <command>/);
    const bad = run(["bogus"]);
    expect((await bad.exit).code).toBe(2);
    expect(bad.stderr).toBe("patchbay: unknown command 'bogus'. Run 'node bin/patchbay.mjs --help' for usage.\n");
  });

  it.each(["SIGTERM", "SIGINT"] as const)("serves, then on %s stops the server and its nats-server and exits 0", async (signal) => {
    const ws = await mkdtemp(join(tmpdir(), "patchbay-proc-ws-"));
    try {
      const proc = run(["start", "--port", "0", "--workspace", ws, "--dist", out]);
      const url = await waitForLaunchUrl(proc.child, 10_000);
      const token = url.searchParams.get("token")!;
      const res = await send({ port: Number(url.port), path: "/api/status", headers: { authorization: `Bearer ${token}` } });
      expect(res.json<{ nats: { mode: string } }>().nats.mode).toBe("managed");
      const pid = Number(proc.stderr.match(/nats-server started .*pid=(\d+)/)?.[1]);
      expect(alive(pid)).toBe(true);

      proc.child.kill(signal);
      expect(await proc.exit).toEqual({ code: 0, signal: null });
      expect(alive(pid)).toBe(false);
      expect(proc.stderr).toMatch(/stopped\n$/);
      expect(proc.stderr).not.toContain(token);
    } finally {
      await rm(ws, { recursive: true, force: true });
    }
  });

  it("a SIGKILLed backend does not leave its nats-server behind", async () => {
    const ws = await mkdtemp(join(tmpdir(), "patchbay-proc-ws-"));
    try {
      const proc = run(["start", "--port", "0", "--workspace", ws, "--dist", out]);
      await waitForLaunchUrl(proc.child, 10_000);
      const pid = Number(proc.stderr.match(/nats-server started .*pid=(\d+)/)?.[1]);
      expect(alive(pid)).toBe(true);
      proc.child.kill("SIGKILL");
      expect((await proc.exit).signal).toBe("SIGKILL");
      // No exit handler runs on SIGKILL; the watchdog notices the closed pipe instead.
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(pid)).toBe(false);
    } finally {
      await rm(ws, { recursive: true, force: true });
    }
  });
});
