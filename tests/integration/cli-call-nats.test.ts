/**
 * `patchbay call nats` against a real nats-server and Patchbay's served fisk-ai agent (the demo
 * toolkit): the tool's output on stdout, the outcome in the NATS workbench's words on stderr,
 * exit 0 only when the tool ran and succeeded. A token-protected nats-server checks --token-env.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../server/nats/free-port.ts";
import { startNatsServer, type ManagedNats } from "../../server/nats/managed-nats.ts";
import { tcpConnector } from "../../src/core/nats/node/tcp-connector.ts";
import type { NatsPort } from "../../src/core/nats/port.ts";
import type { FiskServer } from "../../src/core/serving/fisk/index.ts";
import { runCli } from "../helpers/http-client.ts";
import { startDemoAgent } from "../helpers/demo-agent.ts";

const natsUrl = inject("natsUrl");
const NS = "io.choria.fisk-ai.v1";
const TOKEN = "tok-cli-7f3a";
let port: NatsPort;
let agent: FiskServer;
let guarded: ManagedNats;

async function call(args: string[], env: Record<string, string> = {}) {
  const cli = runCli(["call", "nats", ...args], env);
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

beforeAll(async () => {
  port = await tcpConnector().connect({ servers: natsUrl, name: "cli-call-nats-agent" });
  // The idle-timeout and interrupt tests leave their slow calls running (3 s and 20 s): room for
  // both and the next test's own call, in whatever order the tests run.
  agent = await startDemoAgent(port, `demo-${crypto.randomUUID().slice(0, 8)}`, { concurrency: 4 });
  const started = await startNatsServer({ extraConfig: `authorization { token: "${TOKEN}" }` });
  if (!started.ok) throw new Error(started.message);
  guarded = started.server;
});
afterAll(async () => {
  await agent?.stop();
  await port?.close();
  await guarded?.stop();
});

describe("patchbay call nats", () => {
  it("calls echo on the served agent: its output, exit 0, the subject named on stderr", async () => {
    const r = await call([agent.identity, "echo", '{"message": "hello over nats"}', "--server", natsUrl]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("hello over nats\n");
    expect(r.err).toContain(`agent ${agent.identity}: tool.request echo to choria.fisk-ai.tool.${agent.identity} on `);
  });

  it("takes the server from PATCHBAY_NATS_URL when --server is not given", async () => {
    const r = await call([agent.identity, "add", '{"a": 2, "b": 3.5}'], { PATCHBAY_NATS_URL: natsUrl });
    expect([r.code, r.out]).toEqual([0, "5.5\n"]);
  });

  it("a command that exits 3 is exit 1, named as exit code 3, its output printed", async () => {
    const r = await call([agent.identity, "fail", '{"exit_code": 3, "output": "boom\\n"}', "--server", natsUrl]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("boom\n");
    expect(r.err).toMatch(/^call nats: exit code 3 \(the command ran and failed: a non-zero exit is the tool's answer/m);
  });

  it("--json prints each message of the reply set as received: the ack, then the final tool.reply", async () => {
    const r = await call([agent.identity, "fail", '{"exit_code": 0}', "--server", natsUrl, "--json"]);
    expect(r.code, r.err).toBe(0);
    const messages = r.out.trim().split("\n").map((line) => JSON.parse(line) as { protocol: string; exec?: { exit_code?: number } });
    expect(messages.map((m) => m.protocol)).toEqual([`${NS}.ack`, `${NS}.tool.reply`]);
    expect(messages[1]!.exec?.exit_code ?? 0).toBe(0);
  });

  it("names is_error, a tool the agent does not serve, and an idle timeout", async () => {
    const harness = await call([agent.identity, "echo", "{}", "--server", natsUrl]);
    expect(harness.code).toBe(1);
    expect(harness.err).toMatch(/call nats: is_error: the tool did not run cleanly \("message" must be a string\)/);
    const missing = await call([agent.identity, "confirm", '{"action": "x"}', "--server", natsUrl]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/call nats: not available: the agent does not serve this tool \(tool "confirm" is not available\)/);
    const idle = await call([agent.identity, "slow", '{"seconds": 3}', "--server", natsUrl, "--timeout", "300"]);
    expect(idle.code).toBe(1);
    expect(idle.err).toMatch(/call nats: idle timeout: nothing for 300 ms/);
  });

  it("an interrupt (Ctrl-C) stops reading: exit 1, cancelled (no reply)", async () => {
    const cli = runCli(["call", "nats", agent.identity, "slow", '{"seconds": 20}', "--server", natsUrl, "--json"]);
    for (let i = 0; i < 400 && !cli.stdout.join("").includes(`${NS}.ack`); i++) await new Promise((r) => setTimeout(r, 25));
    expect(cli.stdout.join("")).toContain(`"protocol":"${NS}.ack"`);
    cli.stop();
    expect(await cli.done).toBe(1);
    expect(cli.stderr.join("")).toMatch(/call nats: cancelled \(no reply\)/);
  });

  it("an identity nobody serves is no responders, at once", async () => {
    const r = await call(["nobody-serves-this", "echo", '{"message": "x"}', "--server", natsUrl]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/call nats: no responders \(503\): nothing serves this subject/);
  });

  it("authenticates with --token-env and never prints the token; without it the server refuses", async () => {
    const ok = await call(["nobody-here", "echo", "{}", "--server", guarded.url, "--token-env", "NATS_TOKEN"], { NATS_TOKEN: TOKEN });
    expect(ok.err).toMatch(/no responders \(503\)/);
    expect(ok.out + ok.err).not.toContain(TOKEN);
    const refused = await call(["nobody-here", "echo", "{}", "--server", guarded.url]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/call nats: could not connect to .*authorization/i);
  });

  it("names a server that cannot be reached", async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const r = await call([agent.identity, "echo", '{"message": "x"}', "--server", url]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^call nats: could not connect to ${url.replace(/[.]/g, "\\.")}`, "m"));
  });

  it.each([
    [[], /give the agent and the tool/],
    [["only-identity"], /give the agent and the tool/],
    [["a.b", "echo"], /agent identity "a.b" is not valid/],
    [["agent", "echo", "{nope"], /the tool input is not JSON \(.*\); give an object/],
    [["agent", "echo", "[]"], /the tool input must be a JSON object, got an array/],
    [["agent", "echo", "{}", "extra"], /give the input as one JSON object/],
    [["agent", "echo", "--server", "http://127.0.0.1:4222"], /the server must be a nats:\/\/ or tls:\/\/ URL/],
    [["agent", "echo", "--creds", "x.creds", "--token-env", "HOME"], /give --creds or --token-env, not both/],
    [["agent", "echo", "--token-env", "UNSET_VAR_XYZ"], /the environment variable UNSET_VAR_XYZ is not set or empty/],
    [["agent", "echo", "--creds", "/nonexistent/user.creds"], /cannot read the --creds file "\/nonexistent\/user.creds" \(ENOENT\)/],
    [["agent", "echo", "--frob"], /unknown option '--frob'/],
  ])("refuses %j with exit 2", async (args, message) => {
    const r = await call(args, { HOME: "/tmp" });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });
});
