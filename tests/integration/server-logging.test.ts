import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../helpers/http-client.ts";
import { trackedCli } from "../helpers/processes.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "patchbay-log-"));
  await mkdir(join(root, "dist", "assets"), { recursive: true });
  await writeFile(join(root, "dist", "index.html"), '<meta name="patchbay-token" content="%PATCHBAY_TOKEN%">');
  await writeFile(join(root, "dist", "assets", "a.js"), "1");
});
afterAll(() => rm(root, { recursive: true, force: true }));

const runCli = trackedCli();

describe("the log never sees a token", () => {
  it("across a full session with good and bad tokens, at debug level, with managed NATS", async () => {
    const wrong = "WRONGtoken-0123456789abcdefghijklmnopqrstuvw";
    const cli = runCli(["start", "--port", "0", "--dist", join(root, "dist"), "--workspace", join(root, "ws")], {
      PATCHBAY_LOG_LEVEL: "debug",
    });
    const url = await cli.launchUrl();
    const token = url.searchParams.get("token")!;
    const port = Number(url.port);
    const good = { authorization: `Bearer ${token}` };
    const json = { ...good, "content-type": "application/json" };

    const session = [
      () => send({ port, path: `/?token=${token}` }),
      () => send({ port, path: `/?token=${wrong}` }),
      () => send({ port, path: "/", headers: { cookie: `patchbay_token_${port}=${token}` } }),
      () => send({ port, path: "/", headers: { cookie: `patchbay_token_${port}=${wrong}` } }),
      () => send({ port, path: "/assets/a.js" }),
      () => send({ port, path: "/api/status", headers: good }),
      () => send({ port, path: "/api/status", headers: { authorization: `Bearer ${wrong}` } }),
      () => send({ port, path: `/api/status?token=${wrong}` }),
      () => send({ port, path: "/api/status", headers: { authorization: wrong } }),
      () => send({ port, path: "/api/nope", headers: good }),
      () => send({ port, path: "/api/status", host: `evil.example:${port}`, headers: { authorization: `Bearer ${wrong}` } }),
      () => send({ port, method: "PUT", path: "/api/workspace/settings/a", headers: json, body: JSON.stringify({ data: { token } }) }),
      () => send({ port, method: "PUT", path: "/api/workspace/settings/b", headers: json, body: `{"data": "${wrong}"` }),
      () => send({ port, path: "/api/workspace/settings/a", headers: good }),
      () => send({ port, method: "DELETE", path: "/api/workspace/settings/a", headers: good }),
    ];
    const statuses: number[] = [];
    for (const step of session) statuses.push((await step()).status);
    expect(statuses).toEqual([303, 401, 200, 401, 200, 200, 401, 401, 401, 404, 403, 200, 400, 200, 204]);

    cli.stop();
    expect(await cli.done).toBe(0);

    const log = cli.stderr.join("");
    // The log did record the session, including the startup banner and the refusals…
    expect(log).toMatch(/backend listening url=http:\/\/127\.0\.0\.1:\d+\//);
    expect(log).toMatch(/nats-server started/);
    expect(log).toContain("GET /api/status 401");
    expect(log).toContain("GET / 401");
    expect(log).toContain("GET /api/status 200");
    // …but neither the real token nor the wrong one.
    expect(log).not.toContain(token);
    expect(log).not.toContain(wrong);
    expect(log).not.toContain(token.slice(0, 16));
    // The token reaches the user exactly once, on stdout.
    const out = cli.stdout.join("");
    expect(out.split(token)).toHaveLength(2);
  });
});
