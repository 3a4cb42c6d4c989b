/**
 * The Streamable HTTP relay in the 2026-07-28 era, under msw: each message's own Mcp-* headers go
 * upstream with it (and only those), a request's stream closed by the client ends without being
 * reported unanswered, and a subscriptions/listen stream may stay quiet past the idle limit.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpError } from "../http/errors.ts";
import { forwardedHeaders, MAX_FORWARDED_HEADERS } from "./forwarded-headers.ts";
import { event, relayUnderTest, SSE, scripted, URL_MCP } from "./test-upstream.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const call = (id: number, name = "slow") => ({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: META, name, arguments: {} } });

function recording(answer: (body: { id?: number; method?: string }) => Response) {
  const seen: { headers: Record<string, string>; body: string; aborted: () => boolean }[] = [];
  server.use(
    http.post(URL_MCP, async ({ request }) => {
      const body = await request.text();
      const headers = Object.fromEntries(request.headers.entries());
      seen.push({ headers, body, aborted: () => request.signal.aborted });
      return answer(JSON.parse(body) as { id?: number; method?: string });
    }),
  );
  return seen;
}

describe("Mcp-* headers of a relayed message", () => {
  it("go upstream with their message only, lower-cased, and no session id is invented", async () => {
    const seen = recording((b) => HttpResponse.json({ jsonrpc: "2.0", id: b.id, result: { resultType: "complete", content: [] } }));
    const r = relayUnderTest();
    await r.peer.send(Buffer.from(JSON.stringify(call(1, "weather"))), { "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "weather", "Mcp-Param-Region": "eu" });
    await r.waitFor(() => r.messages()[0], "the first answer");
    await r.peer.send(Buffer.from(JSON.stringify({ ...call(2), params: { name: "plain" } })));
    await r.waitFor(() => r.messages()[1], "the second answer");
    expect(seen[0]!.headers).toMatchObject({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "weather", "mcp-param-region": "eu", authorization: expect.any(String) });
    expect(seen[0]!.headers["mcp-session-id"]).toBeUndefined();
    expect(Object.keys(seen[1]!.headers).filter((h) => h.startsWith("mcp-"))).toEqual([]);
    await r.peer.close();
  });

  it("are checked before anything is sent: only the Mcp-* names the relay forwards, once each, short, plain ASCII", () => {
    expect(forwardedHeaders({ "mcp-method": "tools/call", "mcp-param-x": "=?base64?w6Q=?=", "content-type": "application/json", "mcp-session-id": "forged", authorization: "Bearer t" })).toEqual({
      "mcp-method": "tools/call",
      "mcp-param-x": "=?base64?w6Q=?=",
    });
    const refused = (headers: Record<string, string | string[]>) => {
      try {
        forwardedHeaders(headers);
      } catch (error) {
        return error instanceof HttpError ? `${error.status} ${error.message}` : String(error);
      }
      return "accepted";
    };
    expect(refused({ "mcp-evil": "1" })).toMatch(/^400 mcp-evil is not a header the relay forwards/);
    expect(refused({ "mcp-name": ["a", "b"] })).toMatch(/^400 mcp-name came more than once/);
    expect(refused({ "mcp-name": "x".repeat(9000) })).toMatch(/^400 mcp-name is 9000 characters long/);
    expect(refused({ "mcp-name": "K\u00f6ln" })).toMatch(/outside visible ASCII/);
    const many = Object.fromEntries(Array.from({ length: MAX_FORWARDED_HEADERS + 1 }, (_, i) => [`mcp-param-p${i}`, "v"]));
    expect(refused(many)).toMatch(/^400 65 Mcp-\* headers on one message/);
  });
});

describe("closing one request's stream (2026-07-28 cancellation over HTTP)", () => {
  it("ends the upstream POST, says so, and does not report the request unanswered", async () => {
    const seen = recording(() => new HttpResponse(scripted([event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } })], { hang: true }), { headers: SSE }));
    const r = relayUnderTest({ idleTimeoutMs: 60_000 });
    await r.send(call(5));
    await r.waitFor(() => r.messages()[0], "the progress");
    expect(r.peer.abort?.(5)).toBe(true);
    expect(r.peer.abort?.(5)).toBe(false);
    expect(r.peer.abort?.(99)).toBe(false);
    await r.waitFor(() => (seen[0]!.aborted() ? true : undefined), "the upstream request to end");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.notes().some((n) => n.includes("closed the response stream of request 5"))).toBe(true);
    expect(r.errors()).toEqual([]);
    await r.peer.close();
  });
});

describe("a subscriptions/listen stream", () => {
  it("stays open past the idle limit that closes any other quiet stream", async () => {
    recording((b) =>
      b.method === "subscriptions/listen"
        ? new HttpResponse(scripted([event({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: {} } }), { wait: 600 }, event({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })], { hang: true }), { headers: SSE })
        : new HttpResponse(scripted([{ wait: 10_000 }], { hang: true }), { headers: SSE }),
    );
    const r = relayUnderTest({ idleTimeoutMs: 300 });
    await r.send({ jsonrpc: "2.0", id: "listen:1", method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } });
    await r.send(call(6));
    await r.waitFor(() => r.messages().find((m) => (m as { method?: string }).method === "notifications/tools/list_changed"), "the change after a quiet 600 ms");
    expect(r.errors().map((e) => e.requestIds)).toEqual([[6]]);
    expect(r.errors()[0]!.message).toMatch(/made no progress for 300 ms/);
    await r.peer.close();
  });
});
