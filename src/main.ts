import { mount } from "svelte";
import { redactFrameTokens } from "./core/fisk/client/redact.ts";
import { BackendClient } from "./core/backend/backend-client.ts";
import { backendDocuments } from "./core/backend/backend-documents.ts";
import { NatsSession } from "./core/nats/index.ts";
import { WireLog } from "./core/wire/index.ts";
import App from "./ui/app/App.svelte";
import { createBrowserEnv, readLaunchToken } from "./ui/env/browser-env.ts";
import { drafts } from "./ui/state/drafts.svelte.ts";
import { keepWireLog } from "./ui/state/wire-log-draft.ts";
import "./ui/app/theme.css";

const backend = new BackendClient({
  fetch: globalThis.fetch.bind(globalThis),
  token: readLaunchToken(document, new URL(location.href), sessionStorage),
});
const env = createBrowserEnv(backendDocuments(backend));
// fisk-ai conversation tokens are credentials: they never reach the log, its views or its exports.
const wireLog = new WireLog(env.clock, undefined, { redact: redactFrameTokens });
// Drafts live in this tab's storage: a reload brings them back, closing the tab lets them go.
drafts.use(sessionStorage, () => Date.now());
const wireDraft = keepWireLog(wireLog, drafts, () => env.clock.wallNow());
addEventListener("pagehide", () => {
  wireDraft.flush();
  drafts.flush();
});
const nats = new NatsSession({ connector: env.nats!, clock: env.clock, ids: env.ids, wireLog, logger: env.logger });

mount(App, {
  target: document.getElementById("app")!,
  props: { services: { env, backend, wireLog, nats } },
});
