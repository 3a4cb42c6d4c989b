/**
 * Records the frames of an HTTP answer as they go out, without holding the answer up: a JSON
 * body is one frame, an event stream one frame per event's data. The text is exactly what the
 * client receives.
 */
import { SseSplitter } from "../../framing/sse-splitter.ts";

/** The answer, recording its frames through `record` as the client reads them. */
export function tapResponseFrames(response: Response, record: (text: string) => void): Response {
  if (response.body === null) return response;
  const type = response.headers.get("content-type") ?? "";
  const sse = type.includes("text/event-stream");
  if (!sse && !type.includes("application/json")) return response;
  const decoder = new TextDecoder();
  const splitter = sse ? new SseSplitter() : undefined;
  let json = "";
  const take = (text: string) => {
    if (!splitter) json += text;
    else for (const event of splitter.push(text)) if (event.data !== "") record(event.data);
  };
  const flush = () => {
    take(decoder.decode());
    if (splitter) {
      const last = splitter.finish();
      if (last && last.data !== "") record(last.data);
    } else if (json !== "") record(json);
  };
  return watchResponseBody(response, {
    chunk: (bytes) => take(decoder.decode(bytes, { stream: true })),
    end: flush,
  });
}

/**
 * The same answer, its body passed through untouched while `watch` sees each chunk and, once,
 * its end: read to the last byte, failed, or cancelled by the client.
 */
export function watchResponseBody(response: Response, watch: { readonly chunk?: (bytes: Uint8Array) => void; readonly end: () => void }): Response {
  const source = response.body;
  if (source === null) return response;
  const reader = source.getReader();
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    watch.end();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        watch.chunk?.(next.value);
        controller.enqueue(next.value);
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
