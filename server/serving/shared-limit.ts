/**
 * One concurrency limit for every surface the backend serves at once (MCP, NATS, A2A): a tool
 * run counts against the same slots whichever protocol asked for it. The first surface to start
 * sizes the limit; it is dropped when the last one stops.
 */
import { Semaphore } from "../../src/core/serving/semaphore.ts";
import { HttpError } from "../http/errors.ts";

/** The largest limit any surface accepts (fisk-ai's). */
const MAX_SHARED = 1024;

export type ServedSurfaceName = "MCP" | "NATS" | "A2A";

export class SharedLimit {
  #semaphore: Semaphore | undefined;
  readonly #holders = new Set<ServedSurfaceName>();

  /**
   * The slots for a surface about to start: the running surfaces' own, or new ones of
   * `requested ?? fallback`. Refuses (409) a different number while another surface holds them.
   */
  join(surface: ServedSurfaceName, requested: number | undefined, fallback: number): Semaphore {
    if (requested !== undefined && (!Number.isInteger(requested) || requested < 1 || requested > MAX_SHARED)) {
      throw new HttpError(400, "invalid_body", `"concurrency" must be a whole number from 1 to ${MAX_SHARED}`);
    }
    const others = [...this.#holders].filter((s) => s !== surface);
    if (this.#semaphore && others.length > 0) {
      const limit = this.#semaphore.limit;
      if (requested !== undefined && requested !== limit) {
        throw new HttpError(
          409,
          "concurrency_shared",
          `the ${others.join(" and ")} surface${others.length > 1 ? "s share" : " shares"} a limit of ${limit} tool calls at once with every surface served here; leave concurrency empty or give ${limit}, or stop ${others.join(" and ")} first to choose another`,
        );
      }
      this.#holders.add(surface);
      return this.#semaphore;
    }
    this.#semaphore = new Semaphore(requested ?? fallback);
    this.#holders.clear();
    this.#holders.add(surface);
    return this.#semaphore;
  }

  /** The surface stopped (or failed to start): the last one out drops the limit. */
  leave(surface: ServedSurfaceName): void {
    this.#holders.delete(surface);
    if (this.#holders.size === 0) this.#semaphore = undefined;
  }

  /** The other running surfaces a surface shares its limit with. */
  sharedWith(surface: ServedSurfaceName): ServedSurfaceName[] {
    return [...this.#holders].filter((s) => s !== surface);
  }
}
