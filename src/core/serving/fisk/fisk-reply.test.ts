import { describe, expect, it } from "vitest";
import { fiskBehavior } from "./fisk-card.ts";
import { commandWithoutPath, replyFields } from "./fisk-reply.ts";

const output = (text: string, truncated = false) => ({ text, truncated });

describe("replyFields", () => {
  it("maps a run to fisk-ai's ToolReply fields", () => {
    expect(replyFields({ kind: "ran", commandLine: "/usr/bin/ls -la", exitCode: 0, signal: null, output: output("") })).toEqual({ exec: { command: "ls -la" } });
    expect(replyFields({ kind: "ran", commandLine: "x", exitCode: null, signal: "SIGKILL", output: output("partial", true) })).toEqual({ output: "partial", exec: { command: "x", exit_code: -1, truncated: true } });
    expect(replyFields({ kind: "text", text: "" })).toEqual({});
    expect(replyFields({ kind: "text", text: "5", structured: { sum: 5 } })).toEqual({ output: "5" });
    expect(replyFields({ kind: "harness-error", reason: "start", message: "could not start x" })).toEqual({ is_error: true, output: "could not start x" });
  });

  it("leaves the program's directory out of the command line", () => {
    expect(commandWithoutPath("/opt/nats/bin/nats stream info -- ORDERS")).toBe("nats stream info -- ORDERS");
    expect(commandWithoutPath("nats stream ls")).toBe("nats stream ls");
    expect(commandWithoutPath("'/opt/my tools/run' --x")).toBe("run --x");
    expect(commandWithoutPath("'/opt/tools/my run' --x")).toBe("'my run' --x");
    expect(commandWithoutPath("echo a/b")).toBe("echo a/b");
  });
});

describe("fiskBehavior", () => {
  it("derives behaviour from tags as fisk-ai does, each flag absent when undeclared", () => {
    expect(fiskBehavior([])).toEqual({});
    expect(fiskBehavior(["ai:read_only", "ai:idempotent"])).toEqual({ read_only: true, idempotent: true });
    expect(fiskBehavior(["ai:destructive"])).toEqual({ read_only: false, destructive: true });
    expect(fiskBehavior(["ai:additive"])).toEqual({ read_only: false, destructive: false });
    expect(fiskBehavior(["ai:read_only", "ai:destructive"])).toEqual({ read_only: false, destructive: true });
  });
});
