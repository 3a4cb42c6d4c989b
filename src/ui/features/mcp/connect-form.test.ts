import { describe, expect, it } from "vitest";
import type { ServerEntry } from "../../../core/mcp/index.ts";
import { argsFromText, type ConnectFormValues, entryFromForm, formFromEntry, rowsToRecord, relayLimitsFor, secondsToMs, sessionBody } from "./connect-form.ts";
import { ConnectFormState } from "./connect-form-state.svelte.ts";

const base: ConnectFormValues = { transport: "stdio", command: "node", argsText: "", envRows: [], url: "", headerRows: [] };

describe("sessionBody", () => {
  it("builds a stdio session, one argument per line, blank lines dropped", () => {
    expect(sessionBody({ ...base, command: " node ", argsText: "server.js\n\n  --port 3 \r\nstdio" })).toEqual({
      ok: true,
      body: { transport: "stdio", command: "node", args: ["server.js", "  --port 3 ", "stdio"] },
    });
    expect(argsFromText("")).toEqual([]);
  });

  it("keeps env rows, skips empty ones, refuses a nameless value and a duplicate", () => {
    expect(sessionBody({ ...base, envRows: [{ name: "A", value: "1" }, { name: "", value: "" }] })).toEqual({
      ok: true,
      body: { transport: "stdio", command: "node", env: { A: "1" } },
    });
    expect(sessionBody({ ...base, envRows: [{ name: " ", value: "secret" }] })).toEqual({ ok: false, error: "Environment variable 1 has a value but no name" });
    expect(rowsToRecord([{ name: "X", value: "1" }, { name: "X", value: "2" }], "Header")).toEqual({ error: 'Header 2: "X" is given twice' });
  });

  it("builds a Streamable HTTP session with headers, and refuses non-HTTP URLs", () => {
    expect(sessionBody({ ...base, transport: "streamable-http", url: "http://127.0.0.1:3001/mcp", headerRows: [{ name: "Authorization", value: "Bearer k" }] })).toEqual({
      ok: true,
      body: { transport: "streamable-http", url: "http://127.0.0.1:3001/mcp", headers: { Authorization: "Bearer k" } },
    });
    expect(sessionBody({ ...base, transport: "streamable-http", url: "ftp://x" })).toEqual({ ok: false, error: "The server URL must start with http:// or https://" });
    expect(sessionBody({ ...base, transport: "streamable-http", url: "not a url" })).toEqual({ ok: false, error: '"not a url" is not a URL' });
    expect(sessionBody({ ...base, command: "" })).toEqual({ ok: false, error: "Give the command that starts the server" });
  });

  it("keeps the legacy SSE transport for an SSE URL", () => {
    expect(sessionBody({ ...base, transport: "sse", url: "http://127.0.0.1:3001/sse" })).toEqual({ ok: true, body: { transport: "sse", url: "http://127.0.0.1:3001/sse" } });
  });

  it("reads time limits in seconds and refuses what is not a sensible number", () => {
    expect(secondsToMs("2.5", "The connect timeout")).toEqual({ ms: 2500 });
    for (const bad of ["", "0", "-1", "abc", "1e9", "Infinity"]) {
      expect(secondsToMs(bad, "The connect timeout")).toEqual({ error: "The connect timeout must be a number of seconds between 0 and 86400" });
    }
  });
});

describe("bearer token and working directory", () => {
  const http: ConnectFormValues = { ...base, transport: "streamable-http", url: "https://mcp.example/mcp" };

  it("sends the bearer token as an Authorization header", () => {
    expect(sessionBody({ ...http, bearerToken: " tok.en-1 ", headerRows: [{ name: "X-Team", value: "blue" }] })).toEqual({
      ok: true,
      body: { transport: "streamable-http", url: "https://mcp.example/mcp", headers: { "X-Team": "blue", Authorization: "Bearer tok.en-1" } },
    });
  });

  it("refuses a token given twice, and one that would break the header", () => {
    expect(sessionBody({ ...http, bearerToken: "t", headerRows: [{ name: "authorization", value: "Basic x" }] })).toEqual({
      ok: false,
      error: "Give the token either as the bearer token or as an Authorization header, not both",
    });
    for (const bad of ["a b", "a\r\nX-Evil: 1", "töken"]) {
      expect(sessionBody({ ...http, bearerToken: bad })).toEqual({ ok: false, error: "The bearer token must be visible ASCII characters, without spaces or line breaks" });
    }
  });

  it("passes a working directory to a stdio server", () => {
    expect(sessionBody({ ...base, cwd: " /srv/app " })).toEqual({ ok: true, body: { transport: "stdio", command: "node", cwd: "/srv/app" } });
  });
});

describe("form and server entry", () => {
  const remote: ServerEntry = {
    name: "remote",
    transport: "streamable-http",
    url: "https://mcp.example/mcp",
    headers: { Authorization: "Bearer abc", "X-Team": "blue" },
    extra: { timeout: 30 },
  };

  it("puts a bearer Authorization header in the token field and back", () => {
    const values = formFromEntry(remote);
    expect(values).toMatchObject({ transport: "streamable-http", url: "https://mcp.example/mcp", bearerToken: "abc", headerRows: [{ name: "X-Team", value: "blue" }] });
    expect(entryFromForm(values, "remote", remote)).toEqual({ ok: true, entry: { ...remote, headers: { "X-Team": "blue", Authorization: "Bearer abc" } } });
  });

  it("keeps another Authorization scheme as a header row", () => {
    expect(formFromEntry({ ...remote, headers: { Authorization: "Basic eDp5" } })).toMatchObject({ bearerToken: "", headerRows: [{ name: "Authorization", value: "Basic eDp5" }] });
  });

  it("carries kept fields over only while the transport is unchanged", () => {
    const stdio: ServerEntry = { name: "s", transport: "stdio", command: "node", args: ["a.js", "--x"], env: { K: "v" }, cwd: "/w", extra: { disabled: false } };
    const values = formFromEntry(stdio);
    expect(values).toMatchObject({ command: "node", argsText: "a.js\n--x", cwd: "/w", envRows: [{ name: "K", value: "v" }] });
    expect(entryFromForm(values, "s2", stdio)).toEqual({ ok: true, entry: { ...stdio, name: "s2" } });
    expect(entryFromForm({ ...values, transport: "sse", url: "http://h/sse" }, "s2", stdio)).toEqual({
      ok: true,
      entry: { name: "s2", transport: "sse", url: "http://h/sse", headers: {}, extra: {} },
    });
    expect(entryFromForm({ ...values, command: "" }, "s2", stdio)).toEqual({ ok: false, error: "Give the command that starts the server" });
  });
});

describe("ConnectFormState", () => {
  it("asks for the chosen mode for HTTP servers and always the relay for stdio", () => {
    const form = new ConnectFormState();
    form.connectionMode = "auto";
    form.command = "node";
    expect(form.build()).toMatchObject({ ok: true, request: { mode: "relay", body: { transport: "stdio" } } });
    form.transportChoice = "streamable-http";
    form.url = "http://127.0.0.1:3001/mcp";
    form.bearerToken = "k";
    expect(form.build()).toMatchObject({ ok: true, request: { mode: "auto", body: { headers: { Authorization: "Bearer k" } } } });
  });

  it("loads an entry with its mode, leaving one empty row to type in", () => {
    const form = new ConnectFormState();
    form.load({ name: "x", transport: "sse", url: "http://h/sse", headers: {}, extra: {} }, "direct");
    expect([form.transportChoice, form.url, form.connectionMode, form.headerRows]).toEqual(["sse", "http://h/sse", "direct", [{ name: "", value: "" }]]);
    expect(form.entry("x")).toEqual({ ok: true, entry: { name: "x", transport: "sse", url: "http://h/sse", headers: {}, extra: {} } });
  });

  it("gives the relay time limits that outlast the form's request limit, within the relay's range", () => {
    expect(relayLimitsFor(60_000)).toEqual({ headersTimeoutMs: 70_000, idleTimeoutMs: 70_000 });
    expect(relayLimitsFor(3_600_000)).toEqual({ headersTimeoutMs: 300_000, idleTimeoutMs: 300_000 });
  });
});
