import { describe, expect, it } from "vitest";
import { BackendClient, BackendError } from "./backend-client.ts";

describe("BackendClient", () => {
  it("gives streaming transports its base URL and token, empty base for the page's own origin", () => {
    const fetch = (() => Promise.reject(new Error("unused"))) as unknown as typeof globalThis.fetch;
    expect(new BackendClient({ fetch, token: "t1" }).connection()).toEqual({ baseUrl: "", token: "t1" });
    expect(new BackendClient({ fetch, token: "t2", baseUrl: "http://127.0.0.1:7420" }).connection()).toEqual({ baseUrl: "http://127.0.0.1:7420", token: "t2" });
  });

  it("sends the token as a bearer header and turns an error body into a BackendError with its code", async () => {
    const seen: Headers[] = [];
    const fetch = (async (_url: string, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return new Response(JSON.stringify({ error: { code: "not_found", message: "no such document" } }), { status: 404 });
    }) as unknown as typeof globalThis.fetch;
    const client = new BackendClient({ fetch, token: "secret" });
    const err = await client.call("GET", "/workspace/connections/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect(err).toMatchObject({ status: 404, code: "not_found", message: "no such document" });
    expect(seen[0]?.get("authorization")).toBe("Bearer secret");
  });
});
