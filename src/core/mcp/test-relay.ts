/** A backend relay double for RelayTransport tests; imported by tests only. */
const enc = new TextEncoder();
const NDJSON = { "content-type": "application/x-ndjson" };

export interface RelayCall {
  readonly url: string;
  readonly body: string | undefined;
  readonly headers: Record<string, string>;
}

/** A backend relay double: canned answers per path suffix, and a stream the test writes into by hand. */
export function fakeRelay(
  answers: { create?: Response; stream?: Response; messages?: Response; onMessage?: (text: string, write: (line: string) => void) => void } = {},
) {
  const calls: RelayCall[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const fetch = (async (input: URL | string, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, body: init?.body as string | undefined, headers: init?.headers as Record<string, string> });
    if (url.endsWith("/api/mcp/sessions")) return answers.create ?? Response.json({ id: "s1", transport: "stdio", pid: 42 }, { status: 201 });
    if (url.endsWith("/stream")) return answers.stream ?? new Response(body, { status: 200, headers: NDJSON });
    if (url.endsWith("/messages")) {
      answers.onMessage?.(String(init?.body), (text) => controller.enqueue(enc.encode(text)));
      return answers.messages ?? Response.json({ accepted: true }, { status: 202 });
    }
    if (url.endsWith("/close")) return Response.json({ closed: true });
    return new Response("no route", { status: 404 });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    calls,
    write: (text: string | Uint8Array) => controller.enqueue(typeof text === "string" ? enc.encode(text) : text),
    end: () => controller.close(),
  };
}

