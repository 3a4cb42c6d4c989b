import { describe, expect, it } from "vitest";
import { natsConfig } from "./managed-nats.ts";
import { isWebSocketUrl, natsUrlProblem, redactUrl } from "./nats-urls.ts";

describe("NATS URLs", () => {
  it("accepts client schemes and lists", () => {
    for (const ok of ["nats://h:4222", "tls://h:4222", "ws://h:8080", "wss://h", "nats://a:1, nats://b:2"]) expect(natsUrlProblem(ok), ok).toBeNull();
  });

  it("refuses other schemes and non-URLs", () => {
    expect(natsUrlProblem("http://h")).toMatch(/must start with nats:\/\//);
    expect(natsUrlProblem("h:4222")).not.toBeNull();
    expect(natsUrlProblem("not a url")).toMatch(/is not a URL/);
    expect(natsUrlProblem("nats://h", true)).toMatch(/ws:\/\/ or wss:\/\//);
  });

  it("redacts credentials", () => {
    expect(redactUrl("nats://user:pw@h:4222")).toBe("nats://***@h:4222");
    expect(redactUrl("nats://tok@h:1,nats://u:p@g:2")).toBe("nats://***@h:1,nats://***@g:2");
    expect(redactUrl("nats://h:4222")).toBe("nats://h:4222");
  });

  it("knows WebSocket URLs", () => {
    expect(isWebSocketUrl("ws://h")).toBe(true);
    expect(isWebSocketUrl("WSS://h")).toBe(true);
    expect(isWebSocketUrl("nats://h")).toBe(false);
  });
});

describe("managed nats-server config", () => {
  it("binds every listener to loopback with websocket enabled without TLS", () => {
    const text = natsConfig({ client: 1, ws: 2, monitor: 3 });
    expect(text).toContain("listen: 127.0.0.1:1\n");
    expect(text).toContain("http: 127.0.0.1:3\n");
    expect(text).toMatch(/websocket \{\n {2}listen: "127\.0\.0\.1:2"\n {2}no_tls: true\n\}/);
    expect(text).not.toContain("allowed_origins");
  });

  it("lists allowed browser origins when given, and appends extra config", () => {
    const text = natsConfig({ client: 1, ws: 2, monitor: 3 }, { allowedOrigins: ["http://127.0.0.1:7420", "http://localhost:7420"], extraConfig: "max_payload: 2048" });
    expect(text).toContain('allowed_origins: ["http://127.0.0.1:7420", "http://localhost:7420"]');
    expect(text).toContain("max_payload: 2048");
  });
});
