/** Reading the backend's /api/serve answers: every field checked, the route and place named when wrong. */
import { isJsonObject } from "../json/index.ts";
import { BackendError } from "./backend-client.ts";
import type { ServedFrame, ServedFramePage, ServedTool } from "./serve-api-types.ts";

const MAX_ITEMS = 10_000;

/** Reads one answer, naming the route and the exact place that is wrong. */
export class Reader {
  readonly #route: string;
  constructor(route: string) {
    this.#route = route;
  }
  fail(path: string, want: string): never {
    throw new BackendError(200, "bad_response", `the backend's answer to ${this.#route} was not understood: ${path ? `"${path.replace(/^\./, "")}"` : "the body"} should be ${want}`);
  }
  obj(v: unknown, path: string): Record<string, unknown> {
    return isJsonObject(v) ? v : this.fail(path, "an object");
  }
  str(o: Record<string, unknown>, key: string, path: string): string {
    const v = o[key];
    return typeof v === "string" ? v : this.fail(`${path}.${key}`, "a string");
  }
  num(o: Record<string, unknown>, key: string, path: string): number {
    const v = o[key];
    return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : this.fail(`${path}.${key}`, "a number of 0 or more");
  }
  bool(o: Record<string, unknown>, key: string, path: string): boolean {
    const v = o[key];
    return typeof v === "boolean" ? v : this.fail(`${path}.${key}`, "true or false");
  }
  list<T>(o: Record<string, unknown>, key: string, path: string, item: (v: unknown, path: string) => T): T[] {
    const v = o[key];
    if (!Array.isArray(v) || v.length > MAX_ITEMS) this.fail(`${path}.${key}`, `a list of at most ${MAX_ITEMS} items`);
    return v.map((x, i) => item(x, `${path}.${key}[${i}]`));
  }
  /** Epoch ms, sent as a number or an ISO date. */
  time(o: Record<string, unknown>, key: string, path: string): number {
    const v = o[key];
    const ms = typeof v === "string" ? Date.parse(v) : v;
    return typeof ms === "number" && Number.isFinite(ms) ? ms : this.fail(`${path}.${key}`, "a time");
  }
  url(o: Record<string, unknown>, key: string, path: string): string {
    const v = this.str(o, key, path);
    return /^https?:\/\/[^\s]+$/i.test(v) ? v : this.fail(`${path}.${key}`, "an http(s) URL");
  }
}

export const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

export function servedTools(r: Reader, o: Record<string, unknown>, key: string, path: string): ServedTool[] {
  return r.list(o, key, path, (v, p) => {
    const t = r.obj(v, p);
    return { name: r.str(t, "name", p), served: r.bool(t, "served", p), reason: r.str(t, "reason", p) };
  });
}

function headers(r: Reader, v: unknown, path: string): Record<string, string[]> {
  const o = r.obj(v, path);
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(o)) {
    const values = typeof value === "string" ? [value] : value;
    if (!Array.isArray(values) || !values.every((x) => typeof x === "string")) r.fail(`${path}.${name}`, "a string or a list of strings");
    out[name] = values as string[];
  }
  return out;
}

function frame(r: Reader, v: unknown, path: string): ServedFrame {
  const o = r.obj(v, path);
  const direction = o.direction === "in" || o.direction === "out" ? o.direction : r.fail(`${path}.direction`, '"in" or "out"');
  const optStr = (key: string) => (o[key] === undefined ? undefined : r.str(o, key, path));
  return {
    seq: r.num(o, "seq", path),
    at: r.time(o, "at", path),
    direction,
    ...opt("session", optStr("session")),
    ...opt("subject", optStr("subject")),
    ...opt("reply", optStr("reply")),
    ...opt("headers", o.headers === undefined ? undefined : headers(r, o.headers, `${path}.headers`)),
    text: r.str(o, "text", path),
    ...opt("truncated", o.truncated === true ? (true as const) : undefined),
    ...opt("length", o.length === undefined ? undefined : r.num(o, "length", path)),
    ...opt("binding", optStr("binding")),
    ...opt("method", optStr("method")),
    ...opt("path", optStr("path")),
    ...opt("status", o.status === undefined ? undefined : r.num(o, "status", path)),
  };
}

export function framePage(r: Reader, body: unknown): ServedFramePage {
  const o = r.obj(body, "");
  return { frames: r.list(o, "frames", "", (v, p) => frame(r, v, p)), next: r.num(o, "next", ""), dropped: r.num(o, "dropped", "") };
}

