import { describe, expect, it } from "vitest";
import { argsFromText, type ConnectFormValues, rowsToRecord, secondsToMs, sessionBody } from "./connect-form.ts";

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
