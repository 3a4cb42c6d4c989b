import { describe, expect, it } from "vitest";
import { DEFAULT_A2A_PORT } from "../serving/a2a-routes.ts";
import { DEFAULT_SERVE_PORT } from "../serving/start-options.ts";
import { parseServeArgs, ServeUsageError } from "./serve.ts";

describe("parseServeArgs", () => {
  it("reads the mode, the toolkit and every option", () => {
    expect(parseServeArgs(["--stdio"])).toEqual({ mode: "stdio", port: DEFAULT_SERVE_PORT });
    expect(parseServeArgs(["--http", "--port", "0", "kit.yaml", "--confirm", "always", "--concurrency", "4", "--timeout", "5000", "--no-fixtures"])).toEqual({
      mode: "http",
      port: 0,
      toolkitPath: "kit.yaml",
      confirmMode: "always",
      concurrency: 4,
      timeoutMs: 5000,
      fixtures: false,
    });
    expect(parseServeArgs(["kit.json", "--stdio", "--fixtures"])).toMatchObject({ toolkitPath: "kit.json", fixtures: true });
  });

  it("reads --a2a with its own port, confirm modes, default skill and --tck", () => {
    expect(parseServeArgs(["--a2a"])).toEqual({ mode: "a2a", port: DEFAULT_A2A_PORT });
    expect(parseServeArgs(["--confirm", "ask", "--a2a", "--port", "0", "kit.yaml", "--concurrency", "8", "--timeout", "900", "--default-skill", "say", "--tck"])).toEqual({
      mode: "a2a",
      port: 0,
      toolkitPath: "kit.yaml",
      a2aConfirm: "ask",
      concurrency: 8,
      timeoutMs: 900,
      defaultSkill: "say",
      tck: true,
    });
    expect(parseServeArgs(["--a2a", "--confirm", "omit"])).toMatchObject({ a2aConfirm: "omit" });
  });

  it("reads --nats: several servers, identity, instance and secrets from named variables only", () => {
    const env = { TOKEN: "s3cret", PW: "pw", NATS_URL: "nats://from-env:4222" };
    expect(parseServeArgs(["--nats"], env)).toEqual({ mode: "nats", port: DEFAULT_SERVE_PORT, nats: { servers: "nats://from-env:4222" } });
    expect(parseServeArgs(["--nats"], {})).toMatchObject({ nats: { servers: "nats://127.0.0.1:4222" } });
    expect(
      parseServeArgs(["--nats", "--nats-url", "nats://a:1,nats://b:2", "--nats-url", "nats://c:3", "--identity", "orders", "--instance", "east-1", "--token-env", "TOKEN", "--concurrency", "4", "--keepalive", "500", "--task-workers", "2", "kit.yaml"], env),
    ).toEqual({
      mode: "nats",
      port: DEFAULT_SERVE_PORT,
      toolkitPath: "kit.yaml",
      concurrency: 4,
      nats: { servers: "nats://a:1,nats://b:2,nats://c:3", identity: "orders", instance: "east-1", token: "s3cret", keepaliveMs: 500, taskWorkers: 2 },
    });
    expect(parseServeArgs(["--nats", "--user", "agent", "--password-env", "PW"], env).nats).toMatchObject({ user: "agent", password: "pw" });
    expect(parseServeArgs(["--nats", "--creds", "u.creds"], env).nats).toMatchObject({ credsFile: "u.creds" });
  });

  it("reads --bridge: agents (repeatable or comma-separated), include/exclude patterns and the NATS connection", () => {
    const parsed = parseServeArgs(["--http", "--bridge", "a,b", "--bridge", "c", "--bridge-include", "^stream_", "--bridge-exclude", "_rm$", "--nats-url", "nats://h:4222", "--token-env", "T"], { T: "tok" });
    expect(parsed).toMatchObject({ mode: "http", fixtures: false, bridge: { identities: ["a", "b", "c"], include: ["^stream_"], exclude: ["_rm$"], nats: { servers: "nats://h:4222", token: "tok" } } });
    expect(parseServeArgs(["--stdio", "--bridge", "a", "kit.yaml"], { NATS_URL: "nats://e:1" })).toMatchObject({ mode: "stdio", toolkitPath: "kit.yaml", bridge: { identities: ["a"], nats: { servers: "nats://e:1" } } });
  });

  it.each<[string[], string]>([
    [["--nats", "--bridge", "a"], "--bridge is for --http and --stdio: it serves fisk-ai agents' tools over MCP"],
    [["--a2a", "--bridge", "a"], "--bridge is for --http and --stdio: it serves fisk-ai agents' tools over MCP"],
    [["--http", "--bridge"], "--bridge needs a fisk-ai agent identity, e.g. --bridge nats-tools"],
    [["--http", "--bridge", "--http"], "--bridge needs a fisk-ai agent identity, e.g. --bridge nats-tools"],
    [["--http", "--bridge-include", "x"], "--bridge-include and --bridge-exclude go with --bridge <identity>"],
    [["--http", "--bridge", "a", "--bridge-exclude"], "--bridge-exclude needs a pattern on tool names, e.g. --bridge-exclude '^stream_'"],
    [["--http", "--bridge", "a.b"], `--bridge: cannot bridge "a.b": an agent identity has letters, digits, '-' and '_' only`],
    [["--http", "--bridge", "a", "--bridge", "a"], "--bridge: a is named twice"],
    [["--http", "--bridge", "a", "--bridge-include", "("], '--bridge: invalid remote tool filter pattern "(": Invalid regular expression: /(/: Unterminated group'],
    [["--http", "--bridge", "a", "--identity", "x"], "--identity is for --nats; with --bridge give only where NATS is and how to log in (--nats-url, --creds, --nkey, --token-env, --user, --password-env)"],
    [["--http", "--bridge", "a", "--fixtures"], "--fixtures is not for --bridge: the bridge serves the agents' tools (and a toolkit's, when given), not the conformance fixtures"],
    [["--http", "--bridge", "a", "--nats-url", "nats://u:p@h:1"], "--nats-url must not carry credentials; use --creds, --nkey, --token-env or --user with --password-env"],
  ])("refuses the bridge options %j", (args, message) => {
    expect(() => parseServeArgs(args)).toThrow(new ServeUsageError(message));
  });

  it.each<[string[], string]>([
    [[], "choose --stdio (for Claude Desktop and other clients that start Patchbay), --http (for the MCP Inspector's URL form), --a2a (an A2A agent over HTTP) or --nats (a fisk-ai agent over NATS)"],
    [["--stdio", "--http"], "choose one of --stdio, --http, --a2a and --nats"],
    [["--a2a", "--http"], "choose one of --stdio, --http, --a2a and --nats"],
    [["--nats", "--stdio"], "choose one of --stdio, --http, --a2a and --nats"],
    [["--http", "--identity", "x"], "--identity is for --nats"],
    [["--nats", "--port", "1"], "--port, --confirm and --fixtures are not for --nats: the agent listens on no port, and its confirm-gated tools ask for approval in tasks only"],
    [["--nats", "--nats-url", "nats://u:secret@h:4222"], "--nats-url must not carry credentials; use --creds, --nkey, --token-env or --user with --password-env"],
    [["--nats", "--nats-url", "ws://h:8080"], '--nats-url must be nats:// or tls:// URLs, got "ws://h:8080"'],
    [["--nats", "--identity", "a.b"], "--identity needs the identity to serve: letters, digits, '-' and '_' only, got \"a.b\""],
    [["--nats", "--token-env", "UNSET_VAR"], "--token-env UNSET_VAR: the environment variable UNSET_VAR is not set or empty"],
    [["--nats", "--creds", "a.creds", "--nkey", "b.nk"], "give one way to authenticate: --creds, --nkey, --token-env, or --user with --password-env"],
    [["--nats", "--user", "u"], "--user and --password-env go together"],
    [["--a2a", "--confirm", "always"], "--confirm with --a2a must be one of omit, ask"],
    [["--a2a", "--confirm"], "--confirm with --a2a must be one of omit, ask"],
    [["--http", "--confirm", "ask"], "--confirm must be one of auto, always, never"],
    [["--a2a", "--fixtures"], "--fixtures and --no-fixtures are for MCP; the A2A agent serves the toolkit's tools only"],
    [["--http", "--tck"], "--tck is for --a2a: it makes the A2A agent behave as the A2A TCK expects"],
    [["--stdio", "--default-skill", "echo"], "--default-skill is for --a2a: it names the tool a text-only A2A message runs"],
    [["--a2a", "--default-skill"], "--default-skill needs the name of a tool"],
    [["--stdio", "--port"], "--port needs a value"],
    [["--http", "--port", "99999"], '--port must be a whole number from 0 to 65535, got "99999"'],
    [["--stdio", "--concurrency", "0"], '--concurrency must be a whole number from 1 to 64, got "0"'],
    [["--stdio", "--confirm", "maybe"], "--confirm must be one of auto, always, never"],
    [["--stdio", "--confirm"], "--confirm must be one of auto, always, never"],
    [
      ["--stdio", "--confirm", "operator"],
      "--confirm operator needs the Patchbay console to approve each call, and 'patchbay serve' has none; start the agent from the Serve workbench ('patchbay start') for that, or choose auto, always or never",
    ],
    [
      ["--http", "--confirm", "operator"],
      "--confirm operator needs the Patchbay console to approve each call, and 'patchbay serve' has none; start the agent from the Serve workbench ('patchbay start') for that, or choose auto, always or never",
    ],
    [["--stdio", "--frob"], "unknown option '--frob'"],
    [["--stdio", "a.json", "b.json"], "unexpected argument 'b.json': give at most one toolkit file"],
  ])("refuses %j", (args, message) => {
    expect(() => parseServeArgs(args)).toThrow(new ServeUsageError(message));
  });
});
