import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { get, request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alive, portFree } from "../helpers/processes.ts";
import { findExecutable } from "../../server/nats/find-binary.ts";
import {
  missingNatsMessage,
  NatsStartError,
  startNatsServer,
  type ManagedNats,
} from "../../server/nats/managed-nats.ts";
import { guardChild } from "../../server/nats/watchdog.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "patchbay-nats-test-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

/** Attempt a WebSocket upgrade and report the HTTP status the server answered with. */
function upgradeStatus(wsUrl: string, origin?: string): Promise<number> {
  const url = new URL(wsUrl.replace(/^ws/, "http"));
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname,
      port: url.port,
      path: "/",
      agent: false,
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": Buffer.from("0123456789abcdef").toString("base64"),
        ...(origin ? { origin } : {}),
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

async function script(name: string, body: string): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

async function started(options: Parameters<typeof startNatsServer>[0] = {}): Promise<ManagedNats> {
  const result = await startNatsServer(options);
  if (!result.ok) throw new Error(result.message);
  return result.server;
}

describe("startNatsServer with the real nats-server", () => {
  it("starts healthy on free loopback ports, serves clients, and stop() releases everything", async () => {
    const nats = await started();
    const ports = [nats.url, nats.wsUrl, nats.monitorUrl].map((u) => Number(new URL(u).port));
    expect(nats.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(nats.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set(ports).size).toBe(3);
    expect(await httpStatus(`${nats.monitorUrl}/healthz`)).toBe(200);

    const nc = await connect({ servers: nats.url, name: "managed-nats-test" });
    const sub = nc.subscribe("patchbay.test.echo");
    void (async () => {
      for await (const m of sub) m.respond(`echo:${m.string()}`);
    })();
    const reply = await nc.request("patchbay.test.echo", "ping", { timeout: 2000 });
    expect(reply.string()).toBe("echo:ping");
    await nc.close();

    expect(await upgradeStatus(nats.wsUrl)).toBe(101);
    const dir = dirname(nats.configPath);
    expect((await stat(nats.configPath)).isFile()).toBe(true);

    await nats.stop();
    expect(alive(nats.pid)).toBe(false);
    for (const port of ports) expect(await portFree(port)).toBe(true);
    await expect(stat(dir)).rejects.toThrow();
    await nats.stop(); // a second stop is harmless
  });

  it("restricts browser origins on the WebSocket port when asked", async () => {
    const nats = await started({ allowedOrigins: ["http://127.0.0.1:7420"] });
    try {
      expect(await upgradeStatus(nats.wsUrl, "http://127.0.0.1:7420")).toBe(101);
      expect(await upgradeStatus(nats.wsUrl, "https://evil.example")).toBe(403);
    } finally {
      await nats.stop();
    }
  });

  it("two servers side by side get different ports", async () => {
    const [a, b] = await Promise.all([started(), started()]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(a.wsUrl).not.toBe(b.wsUrl);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("retries with new ports when a port was taken in the meantime", async () => {
    const real = await findExecutable("nats-server", process.env.PATH);
    expect(real, "nats-server must be installed for this suite").not.toBeNull();
    const marker = join(scratch, "collided-once");
    const flaky = await script(
      "flaky-nats",
      `if [ ! -e "${marker}" ]; then touch "${marker}"; echo "listen tcp 127.0.0.1:1: bind: address already in use" >&2; exit 1; fi\nexec "${real}" "$@"`,
    );
    const nats = await started({ binary: flaky });
    try {
      expect((await stat(marker)).isFile()).toBe(true);
      expect(await httpStatus(`${nats.monitorUrl}/healthz`)).toBe(200);
    } finally {
      await nats.stop();
    }
  });
});

describe("startNatsServer failures", () => {
  it("a missing binary is a typed result with a one-line install hint", async () => {
    const result = await startNatsServer({ pathEnv: scratch, searchDirs: [] });
    expect(result).toEqual({ ok: false, reason: "missing", message: missingNatsMessage([]) });
    expect(missingNatsMessage([])).not.toContain("\n");
    expect(missingNatsMessage([])).toContain("apt-get install nats-server");
    expect(missingNatsMessage()).toContain("PATH, /usr/sbin, /usr/local/sbin");
  });

  it("a server that dies reports its stderr", async () => {
    const broken = await script("broken-nats", 'echo "nats: config error: bogus directive" >&2\nexit 1');
    const err = await startNatsServer({ binary: broken }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NatsStartError);
    expect((err as NatsStartError).message).toMatch(/exited \(1\) before it was healthy/);
    expect((err as NatsStartError).message).toContain("bogus directive");
    expect((err as NatsStartError).stderr).toContain("bogus directive");
  });

  it("a server that never gets healthy is killed after the timeout", async () => {
    const pidFile = join(scratch, "hung.pid");
    const hung = await script("hung-nats", `echo $$ > "${pidFile}"\nexec sleep 30`);
    const began = Date.now();
    const err = await startNatsServer({ binary: hung, startTimeoutMs: 400 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NatsStartError);
    expect((err as Error).message).toMatch(/not healthy within 400 ms/);
    expect(Date.now() - began).toBeLessThan(5000);
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(alive(pid)).toBe(false);
  });

  it("a binary that cannot be executed is a clear error", async () => {
    const err = await startNatsServer({ binary: join(scratch, "does-not-exist") }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NatsStartError);
    expect((err as Error).message).toMatch(/could not run .*does-not-exist.*ENOENT/);
  });
});

describe("watchdog", () => {
  it("a released watchdog leaves the child alone (stop() then ends it normally)", async () => {
    const sleeper = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      guardChild(sleeper.pid!).release();
      await new Promise((r) => setTimeout(r, 300));
      expect(alive(sleeper.pid!)).toBe(true);
    } finally {
      sleeper.kill("SIGKILL");
    }
  });
});
