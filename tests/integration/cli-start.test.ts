import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackendStatus } from "../../src/core/backend/backend-client.ts";
import { errorOf, send } from "../helpers/http-client.ts";
import { portFree, trackedCli } from "../helpers/processes.ts";
import { freePort } from "../../server/nats/free-port.ts";

let root: string;
let dist: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "patchbay-cli-"));
  dist = join(root, "dist");
  await mkdir(dist);
  await writeFile(join(dist, "index.html"), '<meta name="patchbay-token" content="%PATCHBAY_TOKEN%">');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const runCli = trackedCli();

const base = (name: string) => ["start", "--port", "0", "--dist", dist, "--workspace", join(root, name)];

async function status(url: URL): Promise<BackendStatus> {
  const token = url.searchParams.get("token") ?? "";
  const res = await send({ port: Number(url.port), path: "/api/status", headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return res.json<BackendStatus>();
}

describe("patchbay start, in-process", () => {
  it("serves the API and the index with the printed token, then stops cleanly", async () => {
    const cli = runCli([...base("ws1"), "--no-nats"]);
    const url = await cli.launchUrl();
    expect(url.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url.pathname).toBe("/");
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const port = Number(url.port);

    const st = await status(url);
    expect(st.workspace).toBe(join(root, "ws1"));
    expect(st.nats).toEqual({ mode: "unavailable", message: "NATS is disabled (--no-nats)" });

    const handoff = await send({ port, path: `/?token=${token}` });
    expect(handoff.status).toBe(303);
    const cookie = handoff.headers["set-cookie"]![0]!.split(";")[0]!;
    const index = await send({ port, path: "/", headers: { cookie } });
    expect(index.text).toContain(`content="${token}"`);

    const put = await send({
      port,
      method: "PUT",
      path: "/api/workspace/connections/saved",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ data: { ok: 1 } }),
    });
    expect(put.status).toBe(200);
    const onDisk = JSON.parse(await readFile(join(root, "ws1", "connections", "saved.json"), "utf8"));
    expect(onDisk.data).toEqual({ ok: 1 });

    expect(cli.stdout.join("")).toBe(`Patchbay is running at ${url.href}\n`);
    cli.stop();
    expect(await cli.done).toBe(0);
    expect(await portFree(port)).toBe(true);
    expect(cli.stderr.join("")).toMatch(/stopped/);
  });

  it("starts a managed nats-server, reports it in /api/status and stops it", async () => {
    const cli = runCli(base("ws2"));
    const url = await cli.launchUrl();
    const st = await status(url);
    expect(st.nats.mode).toBe("managed");
    expect(st.nats.url).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(st.nats.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);

    const nc = await connect({ servers: st.nats.url! });
    await nc.flush();
    await nc.close();

    cli.stop();
    expect(await cli.done).toBe(0);
    expect(await portFree(Number(new URL(st.nats.url!).port))).toBe(true);
    expect(await portFree(Number(new URL(st.nats.wsUrl!).port))).toBe(true);
  });

  it("without the nats-server binary prints the one-line hint and runs without NATS", async () => {
    const cli = runCli(base("ws3"), {}, { nats: { pathEnv: join(root, "empty"), searchDirs: [] } });
    const url = await cli.launchUrl();
    const hint = cli.stderr.filter((l) => l.includes("apt-get install nats-server"));
    expect(hint).toHaveLength(1);
    expect(hint[0]!.trim().split("\n")).toHaveLength(1);
    const st = await status(url);
    expect(st.nats.mode).toBe("unavailable");
    expect(st.nats.message).toContain("apt-get install nats-server");
    cli.stop();
    expect(await cli.done).toBe(0);
  });

  it("uses NATS_URL instead of starting a server, without exposing its credentials", async () => {
    const cli = runCli(base("ws4"), { NATS_URL: "nats://alice:s3cret@127.0.0.1:4999" });
    const url = await cli.launchUrl();
    const st = await status(url);
    expect(st.nats.mode).toBe("external");
    expect(st.nats.url).toBe("nats://***@127.0.0.1:4999");
    expect(st.nats.wsUrl).toBeUndefined();
    expect(st.nats.message).toMatch(/NATS_WS_URL/);
    cli.stop();
    expect(await cli.done).toBe(0);
    expect(cli.stderr.join("")).not.toContain("s3cret");
    expect(cli.stderr.join("")).not.toMatch(/nats-server started/);
  });

  it("takes the port from PORT when --port is absent", async () => {
    const port = await freePort();
    const cli = runCli(["start", "--no-nats", "--dist", dist, "--workspace", join(root, "ws5")], { PORT: String(port) });
    const url = await cli.launchUrl();
    expect(Number(url.port)).toBe(port);
    cli.stop();
    expect(await cli.done).toBe(0);
  });

  it("port in use: one line suggesting --port, exit 1", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen({ host: "127.0.0.1", port: 0 }, r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const cli = runCli(["start", "--port", String(port), "--no-nats", "--dist", dist, "--workspace", join(root, "ws6")]);
      expect(await cli.done).toBe(1);
      expect(cli.stdout.join("")).toBe("");
      expect(cli.stderr.join("")).toBe(`patchbay: port ${port} is already in use on 127.0.0.1; choose another with --port <n>\n`);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it("an --allow-origin is honoured by the running server", async () => {
    const cli = runCli([...base("ws7"), "--no-nats", "--allow-origin", "http://localhost:5173"]);
    const url = await cli.launchUrl();
    const token = url.searchParams.get("token")!;
    const port = Number(url.port);
    const ok = await send({ port, path: "/api/status", headers: { authorization: `Bearer ${token}`, origin: "http://localhost:5173" } });
    expect(ok.status).toBe(200);
    const bad = await send({ port, path: "/api/status", headers: { authorization: `Bearer ${token}`, origin: "http://localhost:5174" } });
    expect(bad.status).toBe(403);
    expect(errorOf(bad).code).toBe("forbidden_origin");
    cli.stop();
    expect(await cli.done).toBe(0);
  });
});
