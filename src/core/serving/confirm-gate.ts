import type { McpToolResult } from "./mcp-result.ts";

/**
 * When confirm-gated tools need approval: `auto` asks clients that can, `always` refuses the
 * rest, `never` leaves it to the client, `operator` waits for the Patchbay console's user.
 */
export type ConfirmMode = "auto" | "always" | "never" | "operator";
export const CONFIRM_MODES: readonly ConfirmMode[] = ["auto", "always", "never", "operator"];

/** The approval question: one required boolean. */
export const APPROVE_SCHEMA = {
  type: "object",
  properties: { approve: { type: "boolean", title: "Approve", description: "true runs the tool now; false refuses it." } },
  required: ["approve"],
} as const;

export type ElicitAnswer = { readonly action: string; readonly content?: Readonly<Record<string, unknown>> };

/**
 * How an operator's approval ended: decided either way, not decided in time, dismissed (serving
 * stopped), refused for want of room in the queue, or abandoned by the caller.
 */
export type OperatorVerdict = "approved" | "refused" | "expired" | "dismissed" | "full" | "cancelled";

export interface GateRequest {
  readonly mode: ConfirmMode;
  readonly serverName: string;
  readonly toolName: string;
  /** What would run, as the user will see it. */
  readonly what: string;
  readonly canElicit: boolean;
  readonly elicit: (message: string) => Promise<ElicitAnswer>;
  /** Queues the call for the operator (mode `operator`); absent where there is no operator. */
  readonly askOperator?: () => Promise<OperatorVerdict>;
  readonly warn: (message: string) => void;
}

export type GateDecision = { readonly run: true } | { readonly run: false; readonly result: McpToolResult };

const refuse = (message: string): GateDecision => ({ run: false, result: { content: [{ type: "text", text: message }], isError: true } });

const OPERATOR_REFUSALS: Readonly<Record<Exclude<OperatorVerdict, "approved">, (what: string) => string>> = {
  refused: (what) => `Not run: the Patchbay operator reviewed ${what} and chose not to run it. That was their decision; do not retry.`,
  expired: (what) => `Not run: the approval prompt for ${what} was dismissed: the Patchbay operator did not decide in time. It may be asked again if still needed.`,
  dismissed: (what) => `Not run: the approval prompt for ${what} was dismissed: serving stopped before the Patchbay operator decided. It may be asked again if still needed.`,
  full: (what) => `Not run: ${what} needs the Patchbay operator's approval, and too many calls are already waiting for it. Try again once some are decided.`,
  cancelled: (what) => `Not run: the call of ${what} was cancelled while it waited for the Patchbay operator's approval.`,
};

async function operatorGate(request: GateRequest): Promise<GateDecision> {
  const { what } = request;
  if (!request.askOperator) return refuse(`Not run: ${what} needs the approval of the Patchbay operator, and there is no operator to ask here.`);
  let verdict: OperatorVerdict;
  try {
    verdict = await request.askOperator();
  } catch (error) {
    return refuse(`Not run: asking the Patchbay operator to approve ${what} failed: ${(error as Error).message}.`);
  }
  return verdict === "approved" ? { run: true } : refuse(OPERATOR_REFUSALS[verdict](what));
}

/** The question a person approving a call is asked. */
export function approvalMessage(serverName: string, toolName: string, what: string): string {
  return `${serverName} asks to run a tool that needs your approval.\n\nTool: ${toolName}\nWhat: ${what}\n\nApprove to run it now, or refuse.`;
}

/** Decides whether a confirm-gated call may run; anything but an explicit approval does not. */
export async function confirmGate(request: GateRequest): Promise<GateDecision> {
  const { mode, what } = request;
  if (mode === "never") return { run: true };
  if (mode === "operator") return operatorGate(request);
  if (!request.canElicit) {
    if (mode === "auto") {
      request.warn(`running ${request.toolName} without approval: the client cannot be asked (confirm mode auto)`);
      return { run: true };
    }
    return refuse(`Not run: ${what} needs approval, and this client cannot be asked (it does not support elicitation).`);
  }
  let answer: ElicitAnswer;
  try {
    answer = await request.elicit(approvalMessage(request.serverName, request.toolName, what));
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
