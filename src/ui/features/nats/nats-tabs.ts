import type { FiskTab } from "../fisk/fisk-state.svelte.ts";

export type NatsTab = "request" | FiskTab;

export interface NatsTabItem {
  readonly id: NatsTab;
  readonly label: string;
  readonly purpose: string;
}

/** The NATS workbench's tabs: the raw request, then the fisk-ai client's panels (loaded on first use). */
export const NATS_TABS: readonly NatsTabItem[] = [
  { id: "request", label: "Request", purpose: "Send any bytes with any headers to any subject and see the reply." },
  { id: "agents", label: "Agents", purpose: "Find fisk-ai agents and read, validate and compare their cards." },
  { id: "call", label: "Tool call", purpose: "Call an agent's tool and watch every message of its reply set." },
  { id: "tasks", label: "Tasks", purpose: "Prompt an agent, follow its stream, answer its questions, cancel it." },
  { id: "tap", label: "Tap", purpose: "Watch fisk-ai traffic on any subject, decoded, checked and paired." },
  { id: "import", label: "Import preview", purpose: "See which tools a fisk-ai run would import from several hosts, and under which names." },
];
