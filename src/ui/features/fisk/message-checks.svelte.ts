import { SvelteMap } from "svelte/reactivity";
import type { ReplySetEntry } from "../../../core/fisk/client/reply-set.ts";
import { judgedText } from "../../../core/validation/report.ts";
import type { Issue, Verdict } from "../../../core/validation/types.ts";
import type { Validate } from "./fisk-api.ts";

/** Where one message's check stands: asked, answered, failed in the worker, or nothing to check. */
export type Check = "checking" | Verdict | { readonly failed: string } | { readonly skipped: string };

export type CheckTone = "ok" | "warn" | "bad" | "muted";

const lenient = new TextDecoder("utf-8");

/** Why a message has nothing to check, or null when its body is worth validating. */
export function skipReason(entry: Pick<ReplySetEntry, "message">): string | null {
  if (entry.message.status) return `a NATS status (${entry.message.status.code}), not a message`;
  if (entry.message.data.byteLength === 0) return "an empty body: nothing to check";
  return null;
}

/** The badge: the verdict's status in a word, with a tone. */
export function checkWord(check: Check | undefined): { text: string; tone: CheckTone } {
  if (check === undefined) return { text: "", tone: "muted" };
  if (check === "checking") return { text: "checking…", tone: "muted" };
  if ("skipped" in check) return { text: "—", tone: "muted" };
  if ("failed" in check) return { text: "not checked", tone: "muted" };
  if (check.status === "valid") return { text: "valid", tone: "ok" };
  if (check.status === "error-response") return { text: "error-response", tone: "warn" };
  return { text: check.status, tone: "bad" };
}

export function issueText(issue: Issue): string {
  return `${issue.pointer || "(whole message)"}${issue.line ? ` ${issue.line}:${issue.column}` : ""} — ${issue.message}`;
}

/** One line on the check: the first issue, why it was skipped or failed, or the kind it was judged as. */
export function checkDetail(check: Check | undefined): string {
  if (check === undefined || check === "checking") return "";
  if ("skipped" in check) return `Not checked: ${check.skipped}.`;
  if ("failed" in check) return `Could not be checked: ${check.failed}`;
  const first = check.issues[0];
  const what = judgedText(check) || [check.packLabel, check.kindLabel].filter(Boolean).join(" · ");
  if (!first) return what ? `${what}: no problems.` : "No problems.";
  const more = check.issues.length > 1 ? ` (and ${check.issues.length - 1} more)` : "";
  return `${what ? `${what}: ` : ""}${issueText(first)}${more}`;
}

/**
 * The verdicts of one exchange's messages, checked one by one in the validation worker (the page
 * may not compile schemas). Keyed by the message object itself, so a list that is rebuilt from
 * the same entries is not checked twice; `reset` starts a new exchange and drops late answers.
 */
export class MessageChecks {
  readonly #validate: Validate;
  readonly #checks = new SvelteMap<object, Check>();
  #generation = 0;

  constructor(validate: Validate) {
    this.#validate = validate;
  }

  get(key: object): Check | undefined {
    return this.#checks.get(key);
  }

  reset(): void {
    this.#generation++;
    this.#checks.clear();
  }

  /** Checks every entry not seen yet; foreign and dropped messages too. */
  entries(entries: readonly ReplySetEntry[]): void {
    for (const e of entries) {
      if (this.#checks.has(e)) continue;
      const skipped = skipReason(e);
      if (skipped) this.#checks.set(e, { skipped });
      else this.text(e, lenient.decode(e.message.data));
    }
  }

  /** Checks `text` under `key` unless it was checked already. */
  text(key: object, text: string): void {
    if (this.#checks.has(key)) return;
    const generation = this.#generation;
    this.#checks.set(key, "checking");
    let pending: Promise<Verdict>;
    try {
      pending = this.#validate(text);
    } catch (err) {
      pending = Promise.reject(err as Error);
    }
    pending.then(
      (verdict) => this.#land(generation, key, verdict),
      (err: unknown) => this.#land(generation, key, { failed: err instanceof Error ? err.message : String(err) }),
    );
  }

  #land(generation: number, key: object, check: Check): void {
    if (generation === this.#generation) this.#checks.set(key, check);
  }
}
