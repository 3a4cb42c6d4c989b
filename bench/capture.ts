/**
 * A deterministic mixed capture for benchmarks: MCP, A2A (v0.3 and v1.0) and fisk-ai Gen 2
 * messages in realistic proportions, with a few invalid ones, one JSON text per message.
 */
type Template = (i: number) => unknown;

const time = (i: number) => `2026-08-21T09:${String(10 + (i % 50)).padStart(2, "0")}:05.00311728Z`;
const ksuid = (i: number) => `3Ky9Pf34qY6Nb3wWD25R${String(i).padStart(7, "0")}`;
const fiskHeader = (protocol: string, i: number, sequence = 0) => ({
  protocol,
  id: ksuid(i),
  request: ksuid(i >> 2),
  conversation: ksuid(i >> 2),
  sequence,
  time: time(i),
  sender: { name: "nats-tools" },
  recipient: { name: "console-1" },
});

const TEMPLATES: readonly Template[] = [
  (i) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_weather", arguments: { city: `city-${i}`, days: i % 7 } } }),
  (i) => ({ jsonrpc: "2.0", id: i - 1, result: { content: [{ type: "text", text: `Sunny, ${i % 30} degrees` }], isError: false } }),
  (i) => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: `t${i}`, progress: i % 100, total: 100 } }),
  (i) => ({
      jsonrpc: "2.0",
      id: `req-${i}`,
      method: "message/send",
      params: { message: { kind: "message", messageId: `m-${i}`, role: "user", parts: [{ kind: "text", text: "hello" }] } },
    }),
  (i) => ({
      jsonrpc: "2.0",
      id: `req-${i}`,
      method: "SendMessage",
      params: { message: { messageId: `m-${i}`, role: "ROLE_USER", parts: [{ text: "hello" }] } },
    }),
  (i) => ({ ...fiskHeader("io.choria.fisk-ai.v1.tool.request", i), name: "stream_info", input: { stream: `S${i}` } }),
  (i) => ({ ...fiskHeader("io.choria.fisk-ai.v1.event.text", i, 3), block: { text: `chunk ${i}` } }),
  (i) => ({ ...fiskHeader("io.choria.fisk-ai.v1.tool.reply", i, 2), output: `{"streams":${i % 9}}` }),
];

/** How many message templates the capture cycles through (diagnostics group by template). */
export const TEMPLATE_COUNT = TEMPLATES.length;

/**
 * About one message in 21 loses a required member (its id, or its params when it has no id).
 * 21 is coprime with the number of templates, so every kind takes its turn at being broken.
 */
export const isSpoilt = (index: number): boolean => index % 21 === 20;

function spoil(value: unknown): unknown {
  const copy = { ...(value as Record<string, unknown>) };
  if ("id" in copy) delete copy.id;
  else delete copy.params;
  return copy;
}

export function mixedCapture(count: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const value = TEMPLATES[i % TEMPLATES.length]!(i);
    lines.push(JSON.stringify(isSpoilt(i) ? spoil(value) : value));
  }
  return lines;
}
