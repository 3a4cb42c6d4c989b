import { viewToolOutcome, type OutcomeView, type ToolCallResult } from "../../../core/fisk/client/index.ts";
import type { ReplySetEntry } from "../../../core/fisk/client/reply-set.ts";
import type { JsonObject, ToolDescriptor } from "../../../core/fisk/codec/index.ts";
import type { Issue } from "../../../core/validation/types.ts";
import { keepFields } from "../../state/drafts.svelte.ts";
import { cardOf, type AgentsState } from "./agents-state.svelte.ts";
import { toolsOf } from "./card-view.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { MessageChecks, type Check } from "./message-checks.svelte.ts";
import { progressOf } from "./timeline.ts";
import { inputSchemaOf, inputSkeleton, parseToolInput } from "./tool-input.ts";

/** A console may wait less than fisk-ai's 30 s floor (three keepalive intervals), down to this. */
export const MIN_IDLE_SECONDS = 1;
export const FISK_IDLE_FLOOR_SECONDS = 30;
export const DEFAULT_IDLE_SECONDS = 120;

/** The input a result, a problem or a warning was for: when any part changes, it no longer applies. */
interface CallKey {
  readonly agent: string;
  readonly tool: string;
  readonly input: string;
}

/** What changed since a result was shown, in words; null while it still applies. */
function staleness(was: CallKey, now: CallKey): string | null {
  if (was.agent !== now.agent) return `the agent is now ${now.agent || "none"}; this result is from ${was.agent}`;
  if (was.tool !== now.tool) return `the tool is now ${now.tool || "none"}; this result is from ${was.tool}`;
  if (was.input.trim() !== now.input.trim()) return "the input has changed since this call";
  return null;
}

const sameKey = (a: CallKey | null, b: CallKey): boolean => a !== null && a.agent === b.agent && a.tool === b.tool && a.input === b.input;

/** One tool call: which agent and tool, the input, the live reply set and the outcome. */
export class ToolCallState {
  agent = $state("");
  tool = $state("");
  input = $state("{}");
  idleSeconds = $state(DEFAULT_IDLE_SECONDS);

  running = $state(false);
  entries = $state.raw<readonly ReplySetEntry[]>([]);
  result = $state.raw<ToolCallResult | null>(null);
  error = $state<string | null>(null);
  /** The input does not fit the tool's schema: shown before sending, until it is fixed or sent anyway. */
  schemaIssues = $state.raw<readonly Issue[]>([]);

  #resultFor = $state.raw<CallKey | null>(null);
  #errorFor = $state.raw<CallKey | null>(null);
  #warnedFor = $state.raw<CallKey | null>(null);

  readonly key: CallKey = $derived({ agent: this.agent, tool: this.tool, input: this.input });
  /** The outcome in words, colour and evidence: one model for every headline. */
  readonly view: OutcomeView | null = $derived(this.result ? viewToolOutcome(this.result.set, this.result.outcome) : null);
  /** Why the shown result no longer matches the form, or null. */
  readonly stale: string | null = $derived(this.result && this.#resultFor ? staleness(this.#resultFor, this.key) : null);
  /** The last problem, while the form is still as it was when it was found. */
  readonly shownError: string | null = $derived(this.error && sameKey(this.#errorFor, this.key) ? this.error : null);
  readonly shownSchemaIssues: readonly Issue[] = $derived(sameKey(this.#warnedFor, this.key) ? this.schemaIssues : []);
  /** The latest progress the tool reported while it runs. */
  readonly progress: string | null = $derived(this.running ? (this.entries.map(progressOf).filter((p) => p !== null).at(-1) ?? null) : null);
  readonly shortIdle = $derived(Number(this.idleSeconds) < FISK_IDLE_FLOOR_SECONDS);

  /** Verdicts of the request sent and of every message of its reply set, from the validation worker. */
  readonly checks: MessageChecks;
  readonly agents: AgentsState;
  readonly #source: FiskSource;
  #abort: AbortController | null = null;

  constructor(source: FiskSource, agents: AgentsState) {
    this.#source = source;
    this.agents = agents;
    this.checks = new MessageChecks(source.validate);
    // Kept across a reload: what is being called and with what.
    keepFields(this, "fisk.call", ["agent", "tool", "input", "idleSeconds"]);
  }

  /** The verdict on the `tool.request` this console sent (known once the call ends). */
  get requestCheck(): Check | undefined {
    return this.result ? this.checks.get(this.result) : undefined;
  }

  /** The chosen agent's tools, from its latest card. */
  get tools(): ToolDescriptor[] {
    return toolsOf(cardOf(this.agents.agents.find((a) => a.identity === this.agent)));
  }

  get descriptor(): ToolDescriptor | undefined {
    return this.tools.find((t) => t.name === this.tool);
  }

  /** The tool's input schema, attached to the editor for completion and diagnostics. */
  get schema(): JsonObject {
    return inputSchemaOf(this.descriptor);
  }

  /** Why the chosen agent is taken to be gone, or null. */
  get gone(): string | null {
    return this.agents.gone[this.agent]?.reason ?? null;
  }

  /** Picks a tool and starts the input from its schema's required properties. */
  choose(agent: string, tool: string): void {
    this.agent = agent;
    this.tool = tool;
    this.input = inputSkeleton(this.schema);
  }

  chooseAgent(agent: string): void {
    this.agent = agent;
    if (!this.tools.some((t) => t.name === this.tool)) this.choose(agent, this.tools[0]?.name ?? "");
  }

  #problem(message: string | null): void {
    this.error = message;
    this.#errorFor = this.key;
  }

  /** Sends the input although it does not fit the tool's schema: the peer's answer to that is the point. */
  sendAnyway(): Promise<void> {
    return this.send(true);
  }

  async send(overrideSchema = false): Promise<void> {
    if (this.running) return;
    const client = this.#source.client();
    const parsed = parseToolInput(this.input);
    const idle = Number(this.idleSeconds);
    const problem = !client
      ? NOT_CONNECTED
      : this.agent === ""
        ? "choose an agent first (discover one in Agents)"
        : this.tool.trim() === ""
          ? "choose or type a tool name"
          : !parsed.ok
            ? parsed.error
            : !Number.isFinite(idle) || idle < MIN_IDLE_SECONDS || idle > 3600
              ? `the idle timeout must be between ${MIN_IDLE_SECONDS} and 3600 seconds`
              : null;
    this.#problem(problem);
    if (problem || !client || !parsed.ok) return;
    const key = this.key;
    const abort = new AbortController();
    this.#abort = abort;
    this.running = true;
    if (!overrideSchema && this.descriptor?.input_schema !== undefined) {
      const issues = await this.#schemaIssues(parsed.input ?? {});
      if (issues.length > 0 || abort.signal.aborted) {
        this.schemaIssues = issues;
        this.#warnedFor = key;
        this.#abort = null;
        this.running = false;
        return;
      }
    }
    this.schemaIssues = [];
    this.entries = [];
    this.result = null;
    this.checks.reset();
    const agent = this.agent;
    try {
      const result = await client.callTool(agent, this.tool.trim(), parsed.input, {
        idleMs: idle * 1000,
        allowShortIdle: true,
        signal: abort.signal,
        onEntry: (e) => {
          if (this.#abort !== abort) return;
          this.entries = [...this.entries, e];
          this.checks.entries([e]);
        },
      });
      this.result = result;
      this.#resultFor = key;
      this.entries = result.set.entries;
      this.checks.entries(this.entries);
      if (result.requestText !== "") this.checks.text(result, result.requestText);
      if (result.outcome.kind === "no-such-agent") this.agents.markGone(agent, `a tool call got no responders (${result.outcome.via ? result.outcome.via.subject : result.subject})`);
    } catch (err) {
      this.#problem(`The call failed before any reply: ${(err as Error).message}`);
    } finally {
      if (this.#abort === abort) this.#abort = null;
      this.running = false;
    }
  }

  async #schemaIssues(value: unknown): Promise<Issue[]> {
    try {
      return (await this.#source.checkInput(this.schema, value)).filter((i) => i.severity === "error");
    } catch {
      // The check is advice: a worker that cannot run it must not stop the call.
      return [];
    }
  }

  /** Stops reading the reply set; the peer is not told (tool calls have no cancel subject). */
  cancel(): void {
    this.#abort?.abort();
  }
}
