/**
 * The `data` of each event in a text/event-stream body, as the SSE format joins it: the event's
 * data lines with newlines between them. Events without data, and the "[DONE]" sentinel some
 * servers send, carry no message and are left out.
 */
export function sseData(body: string): string[] {
  const out: string[] = [];
  let data: string[] = [];
  const flush = (): void => {
    const text = data.join("\n");
    if (data.length > 0 && text.trim() !== "" && text.trim() !== "[DONE]") out.push(text);
    data = [];
  };
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === "") {
      flush();
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== "data") continue;
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    data.push(value);
  }
  flush();
  return out;
}
