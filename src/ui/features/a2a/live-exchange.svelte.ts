import type { AnswerFrame, Binding, Dialect, ExchangePorts, ExchangeResult, HttpRequestSpec, RequestTarget } from "../../../core/a2a/index.ts";
import type { Via } from "./a2a-ports.ts";

/** What a request goes out with: the ports (way out and log), and how its answers are read. */
export interface Outbound {
  readonly ports: ExchangePorts;
  readonly via: Via;
  readonly dialect: Dialect | undefined;
  readonly binding: Binding;
  readonly target?: RequestTarget;
}

let nextId = 1;

/** One request and its answer as they happen: frames live, then the result. */
export class LiveExchange {
  readonly id = nextId++;
  readonly spec: HttpRequestSpec;
  readonly label: string;
  readonly via: Via;
  readonly dialect: Dialect | undefined;
  /** The input it was made from, to tell when the form has moved on. */
  readonly key: string;
  frames = $state.raw<readonly AnswerFrame[]>([]);
  result = $state.raw<ExchangeResult | null>(null);
  running = $state(true);
  readonly #controller = new AbortController();

  constructor(spec: HttpRequestSpec, label: string, out: Outbound, key: string) {
    this.spec = spec;
    this.label = label;
    this.via = out.via;
    this.dialect = out.dialect;
    this.key = key;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Stops waiting: the exchange ends with "aborted". */
  stop(): void {
    this.#controller.abort();
  }
}
