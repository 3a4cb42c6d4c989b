/**
 * `patchbay call a2a` against real peers on 127.0.0.1: the @a2a-js/sdk 1.3 agent (v1.0 and, by
 * its compatibility layer, v0.3; JSON-RPC and REST) and this project's v0.1 and v0.2 peers, plus
 * the OpenFang-like one. Each dialect and binding gets a message through, streamed and not; the
 * exit status says how the task ended, and a failure names its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLegacyAgent, startSdkAgent, type LegacyAgent, type SdkAgent } from "../helpers/a2a-peers/index.ts";
import { runCli } from "../helpers/http-client.ts";

let sdk: SdkAgent;
let v01: LegacyAgent;
let v02: LegacyAgent;
let openfang: LegacyAgent;
let only10: SdkAgent;

beforeAll(async () => {
  [sdk, v01, v02, openfang, only10] = await Promise.all([
    startSdkAgent(),
    startLegacyAgent({ dialect: "0.1" }),
    startLegacyAgent({ dialect: "0.2" }),
    startLegacyAgent({ dialect: "0.1", quirks: "openfang" }),
    startSdkAgent({ versions: ["1.0"] }),
  ]);
}, 30_000);
afterAll(async () => {
  await Promise.all([sdk, v01, v02, openfang, only10].map((p) => p?.close()));
});

async function call(...args: string[]) {
  const cli = runCli(["call", "a2a", ...args]);
  const code = await cli.done;
  return { code, out: cli.stdout.join(""), err: cli.stderr.join("") };
}

describe("patchbay call a2a", () => {
  it.each([
    ["1.0", "jsonrpc"],
    ["1.0", "rest"],
    ["0.3", "jsonrpc"],
    ["0.3", "rest"],
  ])("A2A %s over %s with the SDK agent: the task completes and its artifact is printed, streamed or not", async (version, binding) => {
    const plain = await call(sdk.baseUrl, "echo hello there", "--a2a-version", version, "--binding", binding);
    expect(plain.err).toContain(`A2A ${version} over ${binding}`);
    expect(plain.out).toMatch(/: completed\n/);
    expect(plain.out).toContain("hello there");
    expect(plain.code).toBe(0);
    const streamed = await call(sdk.baseUrl, "chunks 3", "--a2a-version", version, "--binding", binding, "--stream");
    expect(streamed.code, streamed.err).toBe(0);
    expect(streamed.out.match(/artifact chunks/g)?.length).toBe(3);
    expect(streamed.out).toMatch(/\(last chunk\)/);
  });

  it.each([
    ["0.1", () => v01],
    ["0.2", () => v02],
  ])("the v%s peer: its card at agent.json, a message sent and streamed", async (dialect, peer) => {
    const plain = await call(peer().baseUrl, "echo old school");
    expect(plain.err).toContain(`A2A ${dialect} over jsonrpc`);
    expect(plain.err).toContain(".well-known/agent.json");
    expect(plain.out).toContain("old school");
    expect(plain.code).toBe(0);
    const streamed = await call(peer().baseUrl, "chunks 2", "--stream");
    expect(streamed.code, streamed.err).toBe(0);
    expect(streamed.out).toMatch(/\(final\)/);
  });

  it("prints a direct message, and raw JSON frames with --json", async () => {
    const msg = await call(sdk.baseUrl, "message hi back");
    expect([msg.code, msg.out.trim()]).toEqual([0, "hi back"]);
    const raw = await call(sdk.baseUrl, "echo x", "--a2a-version", "1.0", "--stream", "--json");
    const frames = raw.out.trim().split("\n").map((l) => JSON.parse(l) as { jsonrpc: string; result: Record<string, unknown> });
    expect(frames.every((f) => f.jsonrpc === "2.0")).toBe(true);
    expect(Object.keys(frames[0]!.result)).toEqual(["task"]);
  });

  it.each([
    ["fail", /the task ended failed/],
    ["reject", /the task ended rejected/],
    ["ask", /the task needs input/],
    ["auth", /needs authentication/],
  ])("exits 1 naming the outcome when the task does not complete (%s)", async (text, reason) => {
    const r = await call(sdk.baseUrl, text, "--a2a-version", "1.0");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(reason);
  });

  it("names a refused version, an unreachable agent, a missing card, and a slow agent past the time limit", async () => {
    const refused = await call(only10.baseUrl, "echo", "--a2a-version", "1.0", "--no-version-header");
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/VersionNotSupportedError \(-32009\)|version/i);
    const gone = await call("http://127.0.0.1:9/", "echo");
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/no Agent Card: .*could not reach/);
    const nowhere = await call(`${sdk.baseUrl}/nothing-here/card.json`, "echo");
    expect(nowhere.err).toMatch(/no Agent Card: .*HTTP 404/);
    const slow = await call(sdk.baseUrl, "slow 3000", "--a2a-version", "1.0", "--timeout", "400");
    expect(slow.code).toBe(1);
    expect(slow.err).toMatch(/the time limit of 400 ms was reached before the agent named a task, so there is none to cancel/);
  });

  it("reaches OpenFang's card, which fits v0.1 and v0.2 alike, and names why its card URL takes no message", async () => {
    const guessed = await call(openfang.baseUrl, "echo hi");
    expect(guessed.err).toContain("A2A 0.2 over jsonrpc");
    expect(guessed.err).toContain("or a v0.1 card");
    const r = await call(openfang.baseUrl, "echo hi", "--a2a-version", "0.1");
    expect(r.code).toBe(1);
    expect(r.err).toContain("A2A 0.1 over jsonrpc");
    expect(r.err).toMatch(/call a2a: HTTP 404 \(after/);
  });

  it.each([
    [[], /give the agent and the text/],
    [["http://x", "t", "--binding", "grpc"], /--binding must be jsonrpc or rest/],
    [["http://x", "t", "--a2a-version", "2"], /--a2a-version must be one of 0.1, 0.2, 0.3, 1.0/],
    [["ftp://x", "t"], /is not an http\(s\) URL/],
    [["http://x", "t", "--frob"], /unknown option '--frob'/],
    [["http://x", "t", "-H", "nocolon"], /needs "Name: value"/],
  ])("refuses %j with exit 2", async (args, message) => {
    const r = await call(...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it.each([
    ["1.0", "jsonrpc", () => sdk],
    ["1.0", "rest", () => sdk],
    ["0.3", "jsonrpc", () => sdk],
    ["0.3", "rest", () => sdk],
    ["0.2", "jsonrpc", () => v02],
    ["0.1", "jsonrpc", () => v01],
  ] as const)("A2A %s over %s: a streamed task still working at the time limit is canceled on the agent", async (version, binding, peer) => {
    const gaveUp = await call(peer().baseUrl, "slow 20000", "--a2a-version", version, "--binding", binding, "--stream", "--timeout", "1500");
    expect(gaveUp.code).toBe(1);
    expect(gaveUp.out).toMatch(/status (working|TASK_STATE_WORKING)/);
    expect(gaveUp.err).toMatch(/the time limit of 1500 ms was reached while the task was working; task \S+ was canceled on the agent \(now canceled\)/);
  });

  it("--no-cancel leaves the task running; an interrupt (Ctrl-C) cancels it", async () => {
    const kept = await call(sdk.baseUrl, "slow 5000", "--stream", "--timeout", "800", "--no-cancel");
    expect(kept.code).toBe(1);
    expect(kept.err).toMatch(/time limit of 800 ms was reached while the task was working; task \S+ may still be running/);
    const cli = runCli(["call", "a2a", sdk.baseUrl, "slow 20000", "--stream"]);
    for (let i = 0; i < 100 && !cli.stdout.join("").includes("working"); i++) await new Promise((r) => setTimeout(r, 50));
    cli.stop();
    expect(await cli.done).toBe(1);
    expect(cli.stderr.join("")).toMatch(/interrupted while the task was working; task \S+ was canceled on the agent \(now canceled\)/);
  });
});
