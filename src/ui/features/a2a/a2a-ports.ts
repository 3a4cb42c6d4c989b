import type { ExchangeFailure, ExchangePorts, FetchLike } from "../../../core/a2a/index.ts";
import type { CardAttempt } from "../../../core/a2a/index.ts";
import type { WireFrameInput } from "../../../core/wire/index.ts";
import { redactFrame } from "./request-headers.ts";

/** Through the backend's guarded relay (the default: agents send no CORS headers), or straight from the page. */
export type Via = "backend" | "direct";

export interface PortDeps {
  /** The page's fetch, for direct requests. */
  readonly direct: FetchLike;
  /** A fetch through `POST /api/relay/http`. */
  readonly relay: FetchLike;
  readonly now: () => number;
  /** The app's wire log: every frame lands in Traffic. */
  readonly record: (frame: WireFrameInput) => void;
}

/** Ports for one exchange: the chosen way out, and a log that hides the form's secrets too. */
export function exchangePorts(deps: PortDeps, via: Via, secret: readonly string[]): ExchangePorts {
  return {
    fetch: via === "direct" ? deps.direct : deps.relay,
    now: deps.now,
    record: (frame) => deps.record(redactFrame(frame, secret)),
  };
}

const CORS_NOTE =
  "Sent directly from the browser, which could not read the answer: most agents send no CORS headers (Access-Control-Allow-Origin) for this page. Choose “through the backend” to fetch it there.";

/** Why a direct request likely failed, when it failed the way a CORS refusal does. */
export function directNote(via: Via, failure: ExchangeFailure | undefined): string | null {
  return via === "direct" && failure?.kind === "network" ? CORS_NOTE : null;
}

/** The same, for a card fetch: a direct attempt that reached nothing. */
export function directCardNote(via: Via, attempts: readonly CardAttempt[]): string | null {
  return via === "direct" && attempts.some((a) => a.status === 0 && (a.problem ?? "").startsWith("could not reach")) ? CORS_NOTE : null;
}
