/** The /api/serve/nats routes: start and stop the fisk-ai surface, see what it serves and its traffic. */
import { isJsonObject } from "../../src/core/json/index.ts";
import { HttpError } from "../http/errors.ts";
import type { Route } from "../http/router.ts";
import { framePage } from "./frame-page.ts";
import { NatsServeError, type NatsServe, type NatsServeStart } from "./nats-serve.ts";

const OPTIONAL_NUMBERS = ["concurrency", "keepaliveMs", "callTimeoutMs"] as const;

/** The start body: `{}` serves the default toolkit with fisk-ai's defaults. */
function startInput(body: unknown): NatsServeStart {
  if (!isJsonObject(body)) throw new HttpError(400, "invalid_body", "expected a JSON object such as {} or {\"toolkit\": …, \"concurrency\": 4}");
  const known = new Set<string>(["toolkit", "generation", "identity", "instance", ...OPTIONAL_NUMBERS]);
  const unknown = Object.keys(body).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new HttpError(400, "invalid_body", `unknown field ${JSON.stringify(unknown[0])}; expected toolkit, generation, identity, instance, concurrency, keepaliveMs or callTimeoutMs`);
  for (const name of ["identity", "instance"] as const) {
    const v = body[name];
    if (v !== undefined && (typeof v !== "string" || !/^[A-Za-z0-9_-]+$/.test(v))) throw new HttpError(400, "invalid_body", `"${name}" must be letters, digits, '-' and '_' only`);
  }
  for (const name of OPTIONAL_NUMBERS) {
    if (body[name] !== undefined && typeof body[name] !== "number") throw new HttpError(400, "invalid_body", `"${name}" must be a number`);
  }
  if (body.generation !== undefined && body.generation !== "gen1" && body.generation !== "gen2") {
    throw new HttpError(400, "invalid_body", '"generation" must be "gen2" (reply sets) or "gen1" (single replies, for fisk-ai v0.0.x peers)');
  }
  return body as NatsServeStart;
}

async function mapped<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof NatsServeError) throw new HttpError(err.status, err.code, err.message);
    throw err;
  }
}

export function natsServeRoutes(serve: NatsServe): Route[] {
  return [
    { method: "GET", path: "/api/serve/nats/status", safe: true, handler: async () => ({ status: 200, body: serve.status() }) },
    {
      method: "POST",
      path: "/api/serve/nats/start",
      safe: false,
      handler: async (req) => {
        const input = startInput(await req.json());
        return { status: 200, body: await mapped(() => serve.start(input)) };
      },
    },
    { method: "POST", path: "/api/serve/nats/stop", safe: false, handler: async () => ({ status: 200, body: await mapped(() => serve.stop()) }) },
    { method: "GET", path: "/api/serve/nats/frames", safe: true, handler: async (req) => ({ status: 200, body: framePage(req, serve.frames) }) },
  ];
}
