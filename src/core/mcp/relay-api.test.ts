import { describe, expect, it } from "vitest";
import { parseRelayEvent, sessionTarget } from "./relay-api.ts";

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
