import { describe, expect, it } from "vitest";
import { redactServers, splitServerCredentials } from "./server-credentials.ts";

describe("server URL credentials", () => {
  it("moves user and password, or a token, out of the URLs into auth", () => {
    expect(splitServerCredentials("nats://agent:s%40cret@h1:4222,nats://h2:4222", undefined)).toEqual({ servers: "nats://h1:4222,nats://h2:4222", auth: { user: "agent", pass: "s@cret" } });
    expect(splitServerCredentials("tls://T0KEN@h:4222", undefined)).toEqual({ servers: "tls://h:4222", auth: { token: "T0KEN" } });
    expect(splitServerCredentials("nats://h:4222", undefined)).toEqual({ servers: "nats://h:4222", auth: undefined });
  });

  it("explicit auth wins, and the URLs still lose their credentials", () => {
    expect(splitServerCredentials("nats://a:b@h", { user: "u", pass: "p" })).toEqual({ servers: "nats://h", auth: { user: "u", pass: "p" } });
  });

  it("redacts every URL of a list", () => {
    expect(redactServers("could not connect to nats://a:b@h1,ws://tok@h2/x: refused")).toBe("could not connect to nats://***@h1,ws://***@h2/x: refused");
  });
});
