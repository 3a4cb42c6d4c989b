import type { Component } from "svelte";

export type WorkbenchId = "mcp" | "a2a" | "nats" | "validate" | "serve" | "collections" | "conformance" | "traffic";

export interface Workbench {
  readonly id: WorkbenchId;
  readonly label: string;
  /** What the workbench is for, shown while it is unfinished and as the tab's description. */
  readonly purpose: string;
  /** Lazily loaded so each workbench stays out of the first-paint bundle. Absent: not built yet. */
  readonly load?: () => Promise<{ default: Component }>;
}

export const WORKBENCHES: readonly Workbench[] = [
  {
    id: "mcp",
    label: "MCP",
    purpose:
      "Connect to MCP servers over Streamable HTTP, SSE or stdio, inspect their tools, resources and prompts, and craft tools/call requests against each tool's input schema.",
    load: () => import("../features/mcp/McpWorkbench.svelte"),
  },
  {
    id: "a2a",
    label: "A2A (HTTP)",
    purpose:
      "Fetch and validate Agent Cards, send A2A messages in any dialect from v0.1 to v1.0, and follow tasks and their streams.",
    load: () => import("../features/a2a/A2aWorkbench.svelte"),
  },
  {
    id: "nats",
    label: "NATS",
    purpose: "Connect to a NATS server over WebSocket and send requests with headers to any subject.",
    load: () => import("../features/nats/NatsWorkbench.svelte"),
  },
  {
    id: "validate",
    label: "Validate",
    purpose:
      "Paste or drop captured MCP, A2A and fisk-ai messages and see each one classified and checked against the right schema version, with errors marked at their line and column.",
    load: () => import("../features/validate/ValidateWorkbench.svelte"),
  },
  {
    id: "serve",
    label: "Serve",
    purpose:
      "Host an agent from the console: one toolkit served over MCP (Streamable HTTP and stdio) and over A2A on NATS.",
    load: () => import("../features/serve/ServeWorkbench.svelte"),
  },
  {
    id: "collections",
    label: "Collections",
    purpose:
      "Keep requests from the MCP, A2A and NATS workbenches as steps with assertions, edit them as JSON, run them against live peers, and export the report or JUnit XML.",
    load: () => import("../features/collections/CollectionsWorkbench.svelte"),
  },
  {
    id: "conformance",
    label: "Conformance",
    purpose: "Run the official MCP conformance suite against any MCP URL, and the A2A TCK against any A2A agent, with results per scenario and check.",
    load: () => import("../features/conformance/ConformancePanel.svelte"),
  },
  {
    id: "traffic",
    label: "Traffic",
    purpose: "Every frame in and out on every transport, recorded verbatim: filter, inspect, export and import.",
    load: () => import("../features/traffic/TrafficWorkbench.svelte"),
  },
];

/** The workbench the address names; else the one open before a reload; else MCP. */
export function workbenchFromHash(hash: string, saved?: unknown): WorkbenchId {
  const id = hash.replace(/^#\/?/, "");
  return WORKBENCHES.find((w) => w.id === id)?.id ?? WORKBENCHES.find((w) => w.id === saved)?.id ?? "mcp";
}
