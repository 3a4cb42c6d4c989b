import { BackendError } from "../../../core/backend/backend-client.ts";
import type { ServedFramePage } from "../../../core/backend/serve-api.ts";
import type { Scheduler } from "../../../core/env/index.ts";
import { isJsonObject } from "../../../core/json/index.ts";
import { keepDraft, SERVED_CURSORS_DRAFT } from "../../state/drafts.svelte.ts";
import { repeat } from "./poller.ts";
import { SERVED_SURFACES, type ServedFrameRecorder, type ServedSurface } from "./served-frames.ts";

export type FrameSource = Record<ServedSurface, (after: number) => Promise<ServedFramePage>>;

/** Pages read per surface per tick: enough to catch up with a burst without stalling the other surface. */
const MAX_PAGES = 20;
export const FRAME_POLL_MS = 1_000;
/** Frames asked for per read; a shorter page means the reader has caught up. */
export const FRAME_PAGE = 500;

interface Follow {
  running: boolean;
  /** One more read after the surface stopped, for the frames of its last moments. */
  finalRead: boolean;
  cursor: number;
}

const perSurface = <T>(value: () => T): Record<ServedSurface, T> => ({ mcp: value(), nats: value(), a2a: value() });
const NAME: Record<ServedSurface, string> = { mcp: "MCP", nats: "NATS", a2a: "A2A" };

/**
 * Follows the served traffic of every surface into the wire log while it runs, whichever
 * workbench is open, and says how much arrived and how much the backend dropped.
 */
export class ServedTraffic {
  recorded = $state<Record<ServedSurface, number>>(perSurface(() => 0));
  dropped = $state<Record<ServedSurface, number>>(perSurface(() => 0));
  error = $state<Record<ServedSurface, string | null>>(perSurface(() => null));

  readonly #source: FrameSource;
  readonly #recorder: ServedFrameRecorder;
  readonly #scheduler: Scheduler;
  readonly #follow: Record<ServedSurface, Follow> = perSurface(() => ({ running: false, finalRead: false, cursor: 0 }));
  #stop: (() => void) | undefined;

  constructor(source: FrameSource, recorder: ServedFrameRecorder, scheduler: Scheduler) {
    this.#source = source;
    this.#recorder = recorder;
    this.#scheduler = scheduler;
    // The Traffic log comes back after a reload; where each surface was read to comes back with it
    // (each on its own, so a position saved before a surface existed still counts for the others).
    const saved = () => Object.fromEntries(SERVED_SURFACES.map((s) => [s, this.#follow[s].cursor]));
    keepDraft(SERVED_CURSORS_DRAFT, () => (SERVED_SURFACES.forEach((s) => void this.recorded[s]), saved()), (d) => {
      if (!isJsonObject(d)) return;
      for (const s of SERVED_SURFACES) {
        const cursor = d[s];
        if (typeof cursor === "number" && Number.isSafeInteger(cursor) && cursor >= 0) this.#follow[s].cursor = cursor;
      }
    });
  }

  /** Whether the frames are being read now. */
  get active(): boolean {
    return this.#stop !== undefined;
  }

  /** Tells the follower whether a surface runs; reading starts and stops with the surfaces. */
  watch(surface: ServedSurface, running: boolean): void {
    const follow = this.#follow[surface];
    if (follow.running === running) return;
    follow.running = running;
    if (running) this.error[surface] = null;
    else follow.finalRead = true;
    this.#stop ??= repeat(this.#scheduler, FRAME_POLL_MS, () => this.#tick());
  }

  /** Stops reading (the session is being dropped). */
  close(): void {
    this.#stop?.();
    this.#stop = undefined;
  }

  async #tick(): Promise<void> {
    for (const surface of SERVED_SURFACES) {
      const follow = this.#follow[surface];
      if (!follow.running && !follow.finalRead) continue;
      follow.finalRead = false;
      await this.#read(surface, follow);
    }
    if (SERVED_SURFACES.every((s) => !this.#follow[s].running && !this.#follow[s].finalRead)) this.close();
  }

  async #read(surface: ServedSurface, follow: Follow): Promise<void> {
    for (let page = 0; page < MAX_PAGES; page++) {
      let answer: ServedFramePage;
      try {
        answer = await this.#source[surface](follow.cursor);
      } catch (err) {
        this.error[surface] = trafficError(surface, err);
        // A backend without the route will not grow one: stop asking until the surface restarts.
        if (err instanceof BackendError && err.status === 404) follow.running = false;
        return;
      }
      this.error[surface] = null;
      if (answer.dropped > 0) {
        this.#recorder.gap(surface, answer.dropped);
        this.dropped[surface] += answer.dropped;
      }
      for (const frame of answer.frames) this.#recorder[surface](frame);
      this.recorded[surface] += answer.frames.length;
      const moved = answer.next !== follow.cursor;
      follow.cursor = answer.next;
      if (answer.frames.length < FRAME_PAGE || !moved) return;
    }
  }
}

function trafficError(surface: ServedSurface, err: unknown): string {
  const name = NAME[surface];
  if (err instanceof BackendError && err.status === 404) return `The backend does not report served ${name} traffic (${err.message}).`;
  return `Could not read the served ${name} traffic: ${(err as Error).message}`;
}
