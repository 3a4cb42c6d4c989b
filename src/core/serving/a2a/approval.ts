/**
 * Approval of an ai:confirm tool inside its own task: the task stops at input-required with the
 * question, and the next message on that task answers it, as text (yes / no) or as a data part
 * `{"approve": true}`. Anything else is asked again.
 */
import type { Message } from "@a2a-js/sdk";
import { isJsonObject } from "../../json/index.ts";

const YES = /^\s*(yes|y|approve|approved|ok|okay|run it|run)\s*[.!]?\s*$/i;
const NO = /^\s*(no|n|deny|denied|refuse|refused|reject|don'?t|do not)\b/i;

export function approvalQuestion(agent: string, tool: string, what: string): string {
  return `${agent} asks to run a tool that needs your approval.\n\nTool: ${tool}\nWhat: ${what}\n\nApprove? Answer "yes" to run it now or "no" to refuse (or send a data part {"approve": true} or {"approve": false}).`;
}

/** true to run, false to refuse, undefined when the message answers neither. */
export function readApproval(message: Message): boolean | undefined {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === "data" && isJsonObject(content.value) && typeof content.value.approve === "boolean") return content.value.approve;
  }
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case !== "text") continue;
    if (YES.test(content.value)) return true;
    if (NO.test(content.value)) return false;
  }
  return undefined;
}
