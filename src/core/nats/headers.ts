import type { NatsHeaders } from "./port.ts";

export interface HeaderRow {
  readonly name: string;
  readonly value: string;
}

export type HeadersResult = { ok: true; headers: NatsHeaders | undefined } | { ok: false; error: string };

// NATS headers follow HTTP/1 field rules: a token name, and values without CR or LF.
const NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Turn editable rows into NATS headers; blank rows are ignored, bad ones named. */
export function rowsToHeaders(rows: readonly HeaderRow[]): HeadersResult {
  const headers: NatsHeaders = {};
  for (const [i, row] of rows.entries()) {
    const name = row.name.trim();
    if (name === "" && row.value === "") continue;
    if (name === "") return { ok: false, error: `header row ${i + 1} has a value but no name` };
    if (!NAME.test(name)) return { ok: false, error: `header name "${name}" may only contain letters, digits and !#$%&'*+.^_\`|~-` };
    if (/[\r\n]/.test(row.value)) return { ok: false, error: `header "${name}" value cannot contain a line break` };
    (headers[name] ??= []).push(row.value);
  }
  return { ok: true, headers: Object.keys(headers).length > 0 ? headers : undefined };
}
