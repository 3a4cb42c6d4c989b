import type { FetchLike } from "../../../core/a2a/index.ts";
import { backendPushReceivers } from "../../../core/a2a/push-receiver.ts";
import { relayFetch } from "../../../core/backend/relay-fetch.ts";
import { systemScheduler } from "../../../core/env/scheduler.ts";
import type { Override, Verdict } from "../../../core/validation/types.ts";
import type { AppServices } from "../../state/services.ts";
import { ValidationClient } from "../validate/validation-client.ts";
import type { PortDeps } from "./a2a-ports.ts";
import { CardState } from "./card-state.svelte.ts";
import { ComposeState } from "./compose-state.svelte.ts";
import { ConversationsState } from "./conversations.svelte.ts";
import { pageLifetime } from "../../lib/page-lifetime.svelte.ts";
import { followPage, PushReceiversState, type PushPorts } from "./push-receivers.svelte.ts";

export type A2aView = "card" | "compare" | "compose" | "threads";

export interface A2aDeps extends PortDeps {
  readonly validate: (text: string, override?: Override) => Promise<Verdict>;
  readonly wallNow: () => number;
  readonly newId: () => string;
  /** Push-notification receivers on the backend; without them a push config cannot point at Patchbay. */
  readonly push?: PushPorts;
}

/** The A2A (HTTP) workbench: the card form, Compose and the conversations, sharing one way out. */
export class A2aState {
  view = $state<A2aView>("card");
  readonly card: CardState;
  readonly conversations: ConversationsState;
  readonly compose: ComposeState;
  readonly push: PushReceiversState;

  constructor(deps: A2aDeps) {
    this.card = new CardState(deps);
    this.conversations = new ConversationsState({
      outbound: (target) => this.card.outbound({ dialect: target.dialect, binding: target.binding, target }),
      versionHeader: () => this.compose.versionHeader,
      now: deps.now,
      wallNow: deps.wallNow,
      newId: deps.newId,
      validate: deps.validate,
    });
    this.compose = new ComposeState(this.card, this.conversations, deps.newId);
    this.push = new PushReceiversState({ ports: deps.push, conversations: this.conversations, record: deps.record, now: deps.now, wallNow: deps.wallNow });
  }
}

const perApp = new WeakMap<AppServices, A2aState>();

/** The page's one A2aState: a stream goes on while another workbench is open. */
export function a2aStateFor(services: AppServices): A2aState {
  let state = perApp.get(services);
  if (!state) {
    const { env, backend, wireLog } = services;
    const pageFetch = env.fetch;
    const direct: FetchLike = (url, init) => pageFetch(url, init);
    const validator = new ValidationClient();
    // Made in a root of its own: its derived values must outlive the component that asked first.
    state = pageLifetime(() => new A2aState({
      direct,
      relay: relayFetch(backend, pageFetch),
      now: () => env.clock.now(),
      wallNow: () => env.clock.wallNow(),
      record: (frame) => void wireLog.record(frame),
      validate: (text, override) => validator.validateOne(text, override),
      newId: () => env.ids.next(),
      // The backend serves the page, so the agent reaches it where the page came from.
      push: { api: backendPushReceivers(backend, pageFetch), hookBase: backend.connection().baseUrl || location.origin, scheduler: systemScheduler() },
    }));
    followPage(state.push);
    perApp.set(services, state);
  }
  return state;
}
