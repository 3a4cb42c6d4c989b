import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, send, startTestBackend, streamUntilAnswered, type TestBackend } from "../helpers/http-client.ts";

const LIMIT = 4096;
let t: TestBackend;
beforeAll(async () => {
  t = await startTestBackend({ maxBodyBytes: LIMIT });
});
afterAll(() => t.close());

const put = (body: string | Buffer, headers: Record<string, string> = { "content-type": "application/json" }) =>
  send({ port: t.port, method: "PUT", path: "/api/workspace/connections/doc", headers: { ...t.auth, ...headers }, body });

const stored = async () => (await send({ port: t.port, path: "/api/workspace/connections", headers: t.auth })).json<{ documents: unknown[] }>();

describe("request body size cap", () => {
  it("accepts a body right at the limit", async () => {
    const data = "x".repeat(LIMIT - '{"data":""}'.length);
    const res = await put(JSON.stringify({ data }));
    expect(Buffer.byteLength(JSON.stringify({ data }))).toBe(LIMIT);
    expect(res.status).toBe(200);
  });

  it("413s a declared Content-Length over the limit before reading the body", async () => {
    // Declare far more than we send: the server must answer without waiting for it.
    const res = await send({
      port: t.port,
      method: "PUT",
      path: "/api/workspace/connections/big",
      headers: { ...t.auth, "content-type": "application/json", "content-length": String(10 * 1024 * 1024) },
      body: "{",
    });
    expect(res.status).toBe(413);
    expect(errorOf(res)).toEqual({ code: "payload_too_large", message: `request body exceeds the limit of ${LIMIT} bytes` });
  });

  it("413s a chunked body once the running count passes the limit, without reading the rest", async () => {
    const chunk = Buffer.alloc(1024, 0x20);
    const result = await streamUntilAnswered(
      { port: t.port, method: "PUT", path: "/api/workspace/connections/big", headers: { ...t.auth, "content-type": "application/json" } },
      chunk,
      20_000,
    );
    expect(result.status).toBe(413);
    expect(JSON.parse(result.text)).toMatchObject({ error: { code: "payload_too_large" } });
    // 20 MB were on offer; the answer came long before they were all sent.
    expect(result.chunksSent).toBeLessThan(20_000);
  });

  it("keeps serving after oversize requests and stored nothing for them", async () => {
    const names = (await stored()).documents.map((d) => (d as { name: string }).name);
    expect(names).not.toContain("big");
    expect((await send({ port: t.port, path: "/api/status", headers: t.auth })).status).toBe(200);
  });
});

describe("JSON bodies", () => {
  it("415s a body that is not declared application/json", async () => {
    const variants: Record<string, string>[] = [{ "content-type": "text/plain" }, { "content-type": "application/x-www-form-urlencoded" }, {}];
    for (const headers of variants) {
      const res = await put(JSON.stringify({ data: 1 }), headers);
      expect(res.status).toBe(415);
      expect(errorOf(res).code).toBe("unsupported_media_type");
    }
  });

  it("accepts application/json with a charset parameter", async () => {
    expect((await put(JSON.stringify({ data: 1 }), { "content-type": "application/json; charset=utf-8" })).status).toBe(200);
  });

  it.each([
    ['{"data": tru}', /Unexpected 't': expected a JSON value at line 1, column 10 \(position 9\)/],
    ['{"data": 1,}', /Trailing comma before '}' at line 1, column 12 \(position 11\)/],
    ['{\n  "data":\n  [1, 2\n}', /expected ',' or ']' after an array element at line 4, column 1 \(position 20\)/],
    ["{'data': 1}", /line 1, column 2 \(position 1\)/],
  ])("400s malformed JSON %j naming the problem and where", async (body, pattern) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    const err = errorOf(res);
    expect(err.code).toBe("invalid_json");
    expect(err.message).toMatch(/^malformed JSON body: /);
    expect(err.message).toMatch(pattern);
  });

  it("400s an empty body", async () => {
    const res = await put("");
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/empty/);
  });

  it("400s a JSON body that is not {data}", async () => {
    for (const body of ["[1]", '{"value": 1}', "null", '"data"']) {
      const res = await put(body);
      expect(res.status, body).toBe(400);
      expect(errorOf(res).code).toBe("invalid_body");
    }
  });
});

describe("malformed HTTP", () => {
  it("answers an unparseable request line with a JSON 400", async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(t.port, "127.0.0.1", () => socket.write("THIS IS NOT HTTP\r\n\r\n"));
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (d: string) => (text += d));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).toContain("X-Content-Type-Options: nosniff");
    expect(reply).toContain('{"error":{"code":"bad_request","message":"malformed HTTP request"}}');
  });
});
