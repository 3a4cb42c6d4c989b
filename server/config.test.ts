import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_MAX_BODY, DEFAULT_PORT, parseStartConfig, type ConfigContext } from "./config.ts";

const ctx = (env: Record<string, string> = {}): ConfigContext => ({
  env,
  home: "/home/dev",
  cwd: "/work/here",
  packageRoot: () => "/opt/patchbay",
});

const parse = (argv: string[], env: Record<string, string> = {}) => parseStartConfig(argv, ctx(env));

function error(argv: string[], env: Record<string, string> = {}): string {
  try {
    parse(argv, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).not.toContain("\n");
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("start config defaults", () => {
  it("binds 127.0.0.1:7420 with a managed NATS, ~/.patchbay and dist/client in the package", () => {
    expect(parse([])).toEqual({
      host: "127.0.0.1",
      port: 7420,
      workspace: "/home/dev/.patchbay",
      nats: { mode: "managed" },
      allowOrigins: [],
      maxBodyBytes: 1024 * 1024,
      distDir: "/opt/patchbay/dist/client",
      dangerouslyExpose: false,
    });
    expect(DEFAULT_PORT).toBe(7420);
    expect(DEFAULT_MAX_BODY).toBe(1048576);
  });
});

describe("options and environment", () => {
  it("reads --opt value and --opt=value forms", () => {
    expect(parse(["--port", "9000"]).port).toBe(9000);
    expect(parse(["--port=9001"]).port).toBe(9001);
    expect(parse(["--port", "0"]).port).toBe(0);
  });

  it("takes PORT and PATCHBAY_WORKSPACE from the environment, flags winning", () => {
    expect(parse([], { PORT: "8000" }).port).toBe(8000);
    expect(parse(["--port", "8001"], { PORT: "8000" }).port).toBe(8001);
    expect(parse([], { PATCHBAY_WORKSPACE: "/data/pb" }).workspace).toBe("/data/pb");
    expect(parse(["--workspace", "/x"], { PATCHBAY_WORKSPACE: "/data/pb" }).workspace).toBe("/x");
  });

  it("resolves paths against cwd and expands ~", () => {
    expect(parse(["--workspace", "ws"]).workspace).toBe("/work/here/ws");
    expect(parse(["--workspace", "~/pb"]).workspace).toBe("/home/dev/pb");
    expect(parse(["--dist", "../build"]).distDir).toBe("/work/build");
  });

  it("collects repeatable --allow-origin values, normalized", () => {
    expect(parse(["--allow-origin", "http://localhost:5173/", "--allow-origin=http://127.0.0.1:5173"]).allowOrigins).toEqual([
      "http://localhost:5173",
      "http://127.0.0.1:5173",
    ]);
  });

  it("reads --max-body", () => {
    expect(parse(["--max-body", "2048"]).maxBodyBytes).toBe(2048);
  });
});

describe("NATS selection", () => {
  it("uses NATS_URL or --nats-url as an external server", () => {
    expect(parse([], { NATS_URL: "nats://10.0.0.1:4222" }).nats).toEqual({ mode: "external", url: "nats://10.0.0.1:4222" });
    expect(parse(["--nats-url", "nats://a:1"], { NATS_URL: "nats://b:2" }).nats).toEqual({ mode: "external", url: "nats://a:1" });
  });

  it("pairs it with NATS_WS_URL / --nats-ws-url for the browser; a ws:// NATS_URL is its own", () => {
    expect(parse([], { NATS_URL: "nats://h:4222", NATS_WS_URL: "ws://h:8080" }).nats).toEqual({
      mode: "external",
      url: "nats://h:4222",
      wsUrl: "ws://h:8080",
    });
    expect(parse(["--nats-url", "wss://h:443"]).nats).toEqual({ mode: "external", url: "wss://h:443", wsUrl: "wss://h:443" });
  });

  it("accepts a comma-separated server list", () => {
    expect(parse([], { NATS_URL: "nats://a:1,nats://b:2" }).nats.mode).toBe("external");
  });

  it("--no-nats turns NATS off, even with NATS_URL set", () => {
    expect(parse(["--no-nats"], { NATS_URL: "nats://a:1" }).nats).toEqual({ mode: "off" });
  });

  it("an empty NATS_URL means none", () => {
    expect(parse([], { NATS_URL: "" }).nats).toEqual({ mode: "managed" });
  });
});

describe("host safety", () => {
  it.each(["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])("accepts loopback %s", (host) => {
    expect(parse(["--host", host]).host).toBe(host.replace(/^\[|\]$/g, ""));
  });

  it.each(["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com"])("refuses %s without --dangerously-expose", (host) => {
    expect(error(["--host", host])).toMatch(new RegExp(`refusing to listen on ${host.replace(/\./g, "\\.")}.*--dangerously-expose`));
  });

  it("allows them with --dangerously-expose", () => {
    const config = parse(["--host", "0.0.0.0", "--dangerously-expose"]);
    expect(config.host).toBe("0.0.0.0");
    expect(config.dangerouslyExpose).toBe(true);
  });
});

describe("bad input is one clear line", () => {
  it.each([
    [["--port", "70000"], /--port must be a port number from 0 to 65535, got "70000"/],
    [["--port", "-1"], /--port needs a value|--port must be/],
    [["--port", "12ab"], /--port must be a port number/],
    [["--port"], /--port needs a value/],
    [["--port", "--no-nats"], /--port needs a value/],
    [["--port", "1", "--port", "2"], /--port was given more than once/],
    [["--frob"], /unknown option '--frob'/],
    [["--frob=1"], /unknown option '--frob'/],
    [["stray"], /unexpected argument 'stray'/],
    [["--no-nats=1"], /--no-nats takes no value/],
    [["--host="], /--host must not be empty/],
    [["--allow-origin", "localhost:5173"], /not an origin like http:\/\/localhost:5173/],
    [["--allow-origin", "http://x/path"], /not an origin/],
    [["--max-body", "0"], /--max-body must be a positive number of bytes/],
    [["--max-body", "1MB"], /--max-body must be a positive number of bytes/],
    [["--nats-url", "http://x"], /--nats-url: "http:\/\/x" must start with nats:\/\//],
    [["--nats-url", "nats://a:1", "--no-nats"], /either --nats-url or --no-nats/],
    [["--nats-ws-url", "ws://a:1"], /needs --nats-url/],
    [["--nats-url", "nats://a:1", "--nats-ws-url", "nats://a:2"], /must start with ws:\/\/ or wss:\/\//],
  ])("%j", (argv, pattern) => {
    expect(error(argv)).toMatch(pattern);
  });

  it("names PORT when the environment is wrong", () => {
    expect(error([], { PORT: "abc" })).toMatch(/^PORT must be a port number/);
  });

  it("never echoes NATS credentials in an error", () => {
    expect(error(["--nats-url", "http://user:hunter2@x"])).not.toContain("hunter2");
  });
});
