/**
 * How a finished tool run ends its task. A command that ran keeps its output as an artifact
 * whatever its exit code; exit 0 completes the task, any other ends it failed, the code in the
 * reason. An in-process tool's text is the artifact (with its structured value as a data part); a
 * harness failure (bad arguments, no program, time limit) fails the task with the reason.
 */
import { TaskState } from "@a2a-js/sdk";
import type { ToolRun } from "../tool-run.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import type { ArtifactBody } from "./task-events.ts";

export interface RunEnding {
  readonly artifact?: ArtifactBody;
  readonly state: TaskState;
  readonly reason?: string;
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function runEnding(tool: ToolDef, run: ToolRun): RunEnding {
  switch (run.kind) {
    case "ran": {
      const exitCode = run.exitCode;
      const structured = tool.outputSchema && !run.output.truncated ? parsedObject(run.output.text) : undefined;
      const metadata = { command: run.commandLine, exitCode: exitCode ?? -1, ...(run.signal ? { signal: run.signal } : {}), ...(run.output.truncated ? { truncated: true } : {}) };
      const artifact: ArtifactBody = { name: "output", text: run.output.text, metadata, ...(structured ? { data: structured } : {}) };
      if (exitCode === 0) return { artifact, state: TaskState.TASK_STATE_COMPLETED, reason: `${run.commandLine} exited with code 0` };
      const how = exitCode === null ? `was ended by ${run.signal ?? "a signal"}` : `exited with code ${exitCode}`;
      return { artifact, state: TaskState.TASK_STATE_FAILED, reason: `${run.commandLine} ${how}; its output is the task's artifact` };
    }
    case "text":
      return { artifact: { name: "result", text: run.text, ...(run.structured ? { data: run.structured } : {}) }, state: TaskState.TASK_STATE_COMPLETED };
    case "harness-error":
      return { state: run.reason === "cancelled" ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_FAILED, reason: run.message };
  }
}
