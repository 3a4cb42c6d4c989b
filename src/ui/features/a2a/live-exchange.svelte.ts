import type { AnswerFrame, Binding, Dialect, ExchangePorts, ExchangeResult, HttpRequestSpec, RequestTarget } from "../../../core/a2a/index.ts";
import type { Via } from "./a2a-ports.ts";
import { FrameChecks, REQUEST_KEY, type Validate } from "./frame-checks.svelte.ts";
import { answerPlan, readingOf, requestPlan, type Reading } from "./frame-plan.ts";

/** What a request goes out with: the ports (way out and log), and how its answers are read. */
export interface Outbound {
  readonly ports: ExchangePorts;
  readonly via: Via;
  readonly dialect: Dialect | undefined;
  readonly binding: Binding;
  readonly target?: RequestTarget;
}

let nextId = 1;

/** One request and its answer as they happen: frames live, each checked by the engine, then the result. */
export class LiveExchange {
  readonly id = nextId++;
  readonly spec: HttpRequestSpec;
  readonly label: string;
  readonly via: Via;
  readonly dialect: Dialect | undefined;
  /** The input it was made from, to tell when the form has moved on. */
  readonly key: string;
  /** The dialect, binding and operation the frames are judged by. */
  readonly reading: Reading;
  /** The verdict of the request body (REQUEST_KEY) and of each frame (its index). */
  readonly checks: FrameChecks;
  frames = $state.raw<readonly AnswerFrame[]>([]);
  result = $state.raw<ExchangeResult | null>(null);
  running = $state(true);
  readonly #controller = new AbortController();

  constructor(spec: HttpRequestSpec, label: string, out: Outbound, key: string, validate?: Validate) {
    this.spec = spec;
    this.label = label;
    this.via = out.via;
    this.dialect = out.dialect;
    this.key = key;
    this.reading = readingOf(spec, out.dialect, out.binding);
    this.checks = new FrameChecks(validate);
    this.checks.add(REQUEST_KEY, spec.body ?? "", requestPlan(this.reading, spec.body));
  }

  /** A frame as it arrives: shown at once, its verdict later. */
  add(frame: AnswerFrame): void {
    const index = this.frames.length;
    this.frames = [...this.frames, frame];
    this.checks.add(index, frame.text, answerPlan(this.reading, frame.text, frame.status));
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Stops waiting: the exchange ends with "aborted". */
  stop(): void {
    this.#controller.abort();
  }
}
