import type { ComposeState } from "./compose-state.svelte.ts";
import type { ConversationsState } from "./conversations.svelte.ts";
import type { PushReceiversState } from "./push-receivers.svelte.ts";

/**
 * Compose's push-config set: a receiver for the form's task, its URL and token put in the form.
 * Returns why not, when it could not.
 */
export async function receiveInCompose(push: PushReceiversState, compose: ComposeState, conversations: ConversationsState): Promise<string | null> {
  const taskId = compose.taskId.trim();
  if (taskId === "") return "give the taskId first: a receiver is made for one task";
  const thread = conversations.threads.find((t) => t.task(taskId));
  const contextId = thread?.contextId ?? (compose.contextId.trim() || undefined);
  const target = thread?.target ?? (typeof compose.target === "string" ? undefined : compose.target);
  const made = await push.open(taskId, { ...(contextId ? { contextId } : {}), ...(target ? { target } : {}) });
  if (typeof made === "string") return made;
  compose.pushUrl = made.url;
  compose.pushToken = made.token;
  return null;
}
