import type { McpToolResult } from "./mcp-result.ts";

/** When confirm-gated tools ask the client: `auto` asks clients that can, `always` refuses the rest, `never` leaves it to the client. */
export type ConfirmMode = "auto" | "always" | "never";
export const CONFIRM_MODES: readonly ConfirmMode[] = ["auto", "always", "never"];

/** The approval question: one required boolean. */
export const APPROVE_SCHEMA = {
  type: "object",
  properties: { approve: { type: "boolean", title: "Approve", description: "true runs the tool now; false refuses it." } },
  required: ["approve"],
} as const;

export type ElicitAnswer = { readonly action: string; readonly content?: Readonly<Record<string, unknown>> };

export interface GateRequest {
  readonly mode: ConfirmMode;
  readonly serverName: string;
  readonly toolName: string;
  /** What would run, as the user will see it. */
  readonly what: string;
  readonly canElicit: boolean;
  readonly elicit: (message: string) => Promise<ElicitAnswer>;
  readonly warn: (message: string) => void;
}

export type GateDecision = { readonly run: true } | { readonly run: false; readonly result: McpToolResult };

const refuse = (message: string): GateDecision => ({ run: false, result: { content: [{ type: "text", text: message }], isError: true } });

/** Decides whether a confirm-gated call may run; anything but an explicit `approve: true` does not. */
export async function confirmGate(request: GateRequest): Promise<GateDecision> {
  const { mode, what } = request;
  if (mode === "never") return { run: true };
  if (!request.canElicit) {
    if (mode === "auto") {
      request.warn(`running ${request.toolName} without approval: the client cannot be asked (confirm mode auto)`);
      return { run: true };
    }
    return refuse(`Not run: ${what} needs approval, and this client cannot be asked (it does not support elicitation).`);
  }
  let answer: ElicitAnswer;
  try {
    answer = await request.elicit(`${request.serverName} asks to run a tool that needs your approval.\n\nTool: ${request.toolName}\nWhat: ${what}\n\nApprove to run it now, or refuse.`);
  } catch (error) {
    return refuse(`Not run: asking for approval of ${what} failed: ${(error as Error).message}.`);
  }
  if (answer.action === "accept") {
    const approve = answer.content?.approve;
    if (approve === true) return { run: true };
    if (approve === false) return refuse(`Not run: the user reviewed ${what} and chose not to run it. That was their decision; do not retry.`);
    return refuse(`Not run: asking for approval of ${what} failed: the answer's "approve" was not a boolean.`);
  }
  if (answer.action === "decline") return refuse(`Not run: the user declined ${what}. That was their decision; ask them how to proceed rather than retrying.`);
  return refuse(`Not run: the user dismissed the approval prompt for ${what} without deciding. It may be asked again if still needed.`);
}
