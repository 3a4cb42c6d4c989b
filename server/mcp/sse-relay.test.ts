/** The legacy HTTP+SSE relay under the same limits, with msw as the server. */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PeerEvent } from "./relay-peer.ts";
import { DEFAULT_LIMITS, type RelayLimits } from "../relay/relay-limits.ts";
import { startLegacySse } from "./sse-relay.ts";
import { event, scripted, SECRET, SSE } from "./test-upstream.ts";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const SSE_URL = "http://legacy.test/sse";

function start(limits: Partial<RelayLimits> = {}) {
  const events: PeerEvent[] = [];
  const closed: string[] = [];
  const spec = { transport: "sse" as const, url: new URL(SSE_URL), headers: { Authorization: SECRET }, limits: { ...DEFAULT_LIMITS, ...limits } };
  const peer = startLegacySse(spec, { emit: (e) => events.push(e), closed: (r) => closed.push(r) });
  const until = async <T,>(probe: () => T | undefined, what: string): Promise<T> => {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
      const got = probe();
      if (got !== undefined) return got;
    }
    throw new Error(`timed out waiting for ${what}: ${JSON.stringify(events)}`);
  };
  const errors = () => events.filter((e): e is Extract<PeerEvent, { type: "error" }> => e.type === "error");
  const texts = () => events.flatMap((e) => (e.type === "message" ? [e.text] : []));
  return { peer, events, closed, until, errors, texts };
}

describe("the legacy SSE relay", () => {
  it("refuses a redirect of the SSE stream to another origin and ends the session", async () => {
    server.use(http.get(SSE_URL, () => new HttpResponse(null, { status: 302, headers: { location: "http://evil.test/sse" } })));
    const r = start();
    const reason = await r.until(() => r.closed[0], "the close");
    expect(reason).toMatch(/redirected \(302\) to http:\/\/evil\.test\/sse, another origin; not followed/);
    expect(r.errors()[0]).toMatchObject({ step: "http", status: 302 });
  });

  it("refuses an oversize message on the stream, keeps the session, and names requests a failed POST leaves unanswered", async () => {
    const small = { jsonrpc: "2.0", method: "notifications/message", params: { data: "ok" } };
    server.use(
      http.get(SSE_URL, () =>
        new HttpResponse(scripted(["event: endpoint\ndata: /messages?s=1\n\n", event({ pad: "x".repeat(3000) }), event(small)], { hang: true }), { headers: SSE }),
      ),
      http.post("http://legacy.test/messages", () => new HttpResponse("overloaded", { status: 503 })),
    );
    const r = start({ maxMessageBytes: 1024 });
    await r.until(() => r.texts()[0], "the small message");
    expect(r.texts()).toEqual([JSON.stringify(small)]);
    expect(r.errors()[0]!.message).toMatch(/refused: the limit is 1024 bytes/);
    await r.peer.send(Buffer.from('{"jsonrpc":"2.0","id":4,"method":"tools/list"}'));
    const failed = await r.until(() => r.errors()[1], "the POST failure");
    expect(failed).toMatchObject({ step: "http", status: 503, body: "overloaded", requestIds: [4] });
    expect(r.closed).toEqual([]);
    await r.peer.close();
    expect(JSON.stringify(r.events)).not.toContain("relay-test-secret");
  });
});
