import type { TaskResult } from "../../../core/fisk/client/index.ts";
import { formatCount } from "../../lib/format.ts";

/** How a task ended, in plain words. */
export function describeTaskEnd(result: TaskResult): string {
  const t = result.terminal as Record<string, unknown> | undefined;
  const end = result.end;
  switch (end.kind) {
    case "terminal":
    case "final-without-terminal": {
      if (!t) return "the reply set ended without a result";
      if (typeof t.error === "string") {
        const code = typeof t.code === "string" ? ` (code ${t.code})` : "";
        return `ended with an error${code}: ${t.error}`;
      }
      return `finished: ${typeof t.stop_reason === "string" ? t.stop_reason : "no stop reason"}`;
    }
    case "refused":
      return `refused (${end.code}): ${end.description}`;
    case "no-responders":
      return end.via
        ? `no such agent: nothing came for ${formatCount(end.via.silentMs)} ms and nothing answers ${end.via.subject} (503)`
        : "no such agent: nothing serves its task subject (503)";
    case "idle-timeout":
      return `gave up after ${formatCount(Math.round(end.idleMs / 1000))} s without a message`;
    case "instance-gone":
      return `instance ${end.instance} stopped mid-task: nothing came for ${formatCount(Math.round(end.via.silentMs / 1000))} s and it no longer answers ${end.via.subject}`;
    case "disconnected":
      return `connection lost mid-task${end.server ? ` (${end.server})` : ""}: the task may still run on the agent; read the conversation once reconnected`;
    case "protocol-error":
      return `protocol error: ${end.message}`;
    case "cancelled":
      return "stopped reading (cancelled here)";
    case "send-failed":
      return `could not send: ${end.message}`;
  }
}
