/** Message builders for the fisk-ai corpus. Ids are KSUID-shaped, as fisk-ai mints them. */

export const NS = "io.choria.fisk-ai.v1";

/** A task's request tag and conversation, shared by the task-path examples. */
export const TASK = "3FqPlpECXVMk11oHUGCiczMSpxk";
export const CONV = "3MzN5E6EUCLDUdvdr0UwfMpf5rg";
/** A tool call's request tag (request == conversation on a fresh Gen 2 request). */
export const CALL = "3xTNJFoBinF5aJXVuLkSIc47WQA";
/** Gen 1 stamps id == request == conversation. */
export const GEN1_ID = "3t5isGXNwAMnEYYnWLeEdpomsCr";
export const TOKEN = "3A819bvTpf9dqcUgxM9ZZ810pkf";
export const TRACEPARENT = "00-8a8544970433ab6d582fd0eeecd66413-5c0c4929b744a202-01";

export type Json = Record<string, unknown>;

interface HeaderInput {
  id?: string;
  request?: string;
  conversation?: string;
  sequence?: number;
  time?: string;
  from?: string;
  to?: string;
}

/** A whole message: header fields first, in fisk-ai's order, then the body. */
export function message(suffix: string, header: HeaderInput, body: Json = {}): Json {
  const out: Json = {
    protocol: `${NS}.${suffix}`,
    id: header.id ?? "3uVAgrEAjRWPLQCMK5kN1LZTSj3",
    request: header.request ?? TASK,
    conversation: header.conversation ?? CONV,
    sequence: header.sequence ?? 0,
    time: header.time ?? "2026-08-21T09:20:00.118220931Z",
    sender: { name: header.from ?? "nats-worker" },
  };
  if (header.to !== undefined) out.recipient = { name: header.to };
  return { ...out, ...body };
}

/** A worker-to-console message on the task path. */
export const fromWorker = (suffix: string, body: Json, sequence = 5): Json => message(suffix, { sequence, to: "console-1" }, body);
/** A console-to-worker message on the task path. */
export const fromConsole = (suffix: string, body: Json): Json => message(suffix, { from: "console-1", to: "nats-worker" }, body);
/** A Gen 1 message: id == request == conversation, whole-second time. */
export const gen1 = (suffix: string, body: Json, sequence = 0): Json =>
  message(suffix, { id: GEN1_ID, request: GEN1_ID, conversation: GEN1_ID, sequence, time: "2026-07-24T12:00:01Z", from: "console-1", to: "nats-tools" }, body);

/** A copy with some properties replaced and others removed (`undefined`). */
export function edit(base: Json, changes: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** A copy with `protocol` replaced. */
export const withProtocol = (base: Json, protocol: unknown): Json => ({ ...base, protocol });
