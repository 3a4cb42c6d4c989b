import { describe, expect, it } from "vitest";
import { BackendClient } from "../../core/backend/backend-client.ts";
import { BackendStatusView, tokenFromLaunch } from "./backend-status.svelte.ts";

const STATUS = { version: "0.1.0", workspace: "/ws", nats: { mode: "unavailable" } };

/** A backend that answers with `token`, or is down when `up` is false. */
function fakeBackend() {
  const state = { token: "A".repeat(43), up: true, seen: [] as string[] };
  const fetch = (async (_url: string, init?: RequestInit) => {
    const auth = (init?.headers as Record<string, string>).authorization ?? "";
    state.seen.push(auth);
    if (!state.up) throw new TypeError("Failed to fetch");
    if (auth !== `Bearer ${state.token}`) return new Response(JSON.stringify({ error: { code: "unauthorized", message: "missing or wrong access token" } }), { status: 401 });
    return new Response(JSON.stringify(STATUS), { status: 200 });
  }) as typeof globalThis.fetch;
  return { state, client: new BackendClient({ fetch, token: state.token }) };
}

describe("BackendStatusView", () => {
  it("tells a backend that stopped from one restarted under the page, and carries on with the new launch's URL", async () => {
    const { state, client } = fakeBackend();
    const view = new BackendStatusView(client);
    await view.refresh();
    expect(view.current.kind).toBe("ok");
    state.up = false;
    await view.refresh();
    expect(view.current).toMatchObject({ kind: "down", message: expect.stringContaining("unreachable") });
    state.up = true;
    state.token = "B".repeat(43);
    await view.refresh();
    expect(view.current.kind).toBe("relaunched");
    expect(await view.adopt("http://127.0.0.1:7420/?token=" + "C".repeat(43))).toMatch(/not this backend's token/);
    expect(client.connection().token).toBe("A".repeat(43));
    expect(await view.adopt("nonsense")).toMatch(/paste the whole URL/);
    expect(await view.adopt(`http://127.0.0.1:7420/?token=${state.token}`)).toBeNull();
    expect(view.current.kind).toBe("ok");
    expect(client.connection().token).toBe(state.token);
  });

  it("a 401 on the very first ask is not a restart: the page never had a working token", async () => {
    const { state, client } = fakeBackend();
    state.token = "Z".repeat(43);
    const view = new BackendStatusView(client);
    await view.refresh();
    expect(view.current.kind).toBe("down");
  });

  it("reads the token from a launch URL or takes a bare token", () => {
    expect(tokenFromLaunch(" http://127.0.0.1:7420/?token=abc_DEF-123 ")).toBe("abc_DEF-123");
    expect(tokenFromLaunch("x".repeat(43))).toBe("x".repeat(43));
    expect(tokenFromLaunch("http://127.0.0.1:7420/")).toBeNull();
    expect(tokenFromLaunch("short")).toBeNull();
  });
});
