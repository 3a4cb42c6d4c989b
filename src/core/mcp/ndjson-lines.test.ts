import { describe, expect, it } from "vitest";
import { LineSplitter, MAX_LINE_CHARS } from "./ndjson-lines.ts";
import { parseRelayEvent, sessionTarget } from "./relay-api.ts";

describe("LineSplitter", () => {
  it("returns complete lines only, keeping a partial one for later, and drops CR and blank lines", () => {
    const s = new LineSplitter();
    expect(s.push('{"a":')).toEqual([]);
    expect(s.push('1}\r\n\n{"b"')).toEqual(['{"a":1}']);
    expect(s.push(":2}\n  \n")).toEqual(['{"b":2}']);
    expect(s.push('{"c":3}')).toEqual([]);
    expect(s.finish()).toEqual(['{"c":3}']);
    expect(s.finish()).toEqual([]);
  });

  it("refuses a line that grows past the limit without a newline, and recovers", () => {
    const s = new LineSplitter();
    expect(() => s.push("x".repeat(MAX_LINE_CHARS + 1))).toThrow(/exceeds 33554432 characters without a newline/);
    expect(s.push("ok\n")).toEqual(["ok"]);
  });
});

describe("parseRelayEvent", () => {
  it("reads each event type and keeps only known fields", () => {
    expect(parseRelayEvent('{"type":"message","text":"{}","at":5,"extra":1}')).toEqual({ type: "message", text: "{}", at: 5 });
    expect(parseRelayEvent('{"type":"http","status":202,"headers":{"x":"y"},"at":1}')).toEqual({ type: "http", status: 202, headers: { x: "y" }, at: 1 });
    expect(parseRelayEvent('{"type":"error","step":"tls","message":"bad cert","at":1}')).toEqual({ type: "error", step: "tls", message: "bad cert", at: 1 });
    expect(parseRelayEvent('{"type":"closed","reason":"exit","code":0,"at":2}')).toEqual({ type: "closed", reason: "exit", code: 0, at: 2 });
  });

  it("explains what is wrong with a line that is not an event", () => {
    expect(parseRelayEvent("[1]")).toEqual({ problem: "relay stream line is not a JSON object: [1]" });
    expect(parseRelayEvent('{"type":"message"}')).toEqual({ problem: 'relay stream "message" event is missing required fields: {"type":"message"}' });
    expect(parseRelayEvent('{"type":"error","step":"moon","message":"m"}')).toMatchObject({ problem: expect.stringContaining("missing required fields") });
    const long = parseRelayEvent(`{"type":"nope","pad":"${"p".repeat(500)}"}`);
    expect("problem" in long && long.problem.endsWith("… (524 characters)")).toBe(true);
  });
});

describe("sessionTarget", () => {
  it("is the URL for HTTP sessions and the command line for stdio", () => {
    expect(sessionTarget({ transport: "sse", url: "http://h/sse" })).toBe("http://h/sse");
    expect(sessionTarget({ transport: "stdio", command: "npx", args: ["-y", "server"] })).toBe("stdio:npx -y server");
  });
});
