import { describeToolOutcome, type ToolCallResult } from "../../../core/a2a-nats/client/index.ts";
import type { ReplySetEntry } from "../../../core/a2a-nats/client/reply-set.ts";
import type { JsonObject, ToolDescriptor } from "../../../core/a2a-nats/codec/index.ts";
import { cardOf, type AgentsState } from "./agents-state.svelte.ts";
import { toolsOf } from "./card-view.ts";
import { NOT_CONNECTED, type FiskSource } from "./fisk-api.ts";
import { MessageChecks, type Check } from "./message-checks.svelte.ts";
import { inputSchemaOf, inputSkeleton, parseToolInput } from "./tool-input.ts";

/** The client refuses less: three keepalive intervals. */
export const MIN_IDLE_SECONDS = 30;
export const DEFAULT_IDLE_SECONDS = 120;

export type OutcomeTone = "ok" | "warn" | "bad";

/** How a call ended, for colour: a command that ran is a result whatever its exit code. */
export function outcomeTone(result: ToolCallResult): OutcomeTone {
  const o = result.outcome;
  if (o.kind === "ran") return o.exitCode === 0 ? "ok" : "warn";
  if (o.kind === "output") return "ok";
  if (o.kind === "cancelled" || o.kind === "capacity" || o.kind === "idle-timeout") return "warn";
  return "bad";
}

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

  readonly outcomeText = $derived(this.result ? describeToolOutcome(this.result.outcome) : "");
  readonly tone: OutcomeTone = $derived(this.result ? outcomeTone(this.result) : "ok");

  /** Verdicts of the request sent and of every message of its reply set, from the validation worker. */
  readonly checks: MessageChecks;
  readonly agents: AgentsState;
  readonly #source: FiskSource;
  #abort: AbortController | null = null;

  constructor(source: FiskSource, agents: AgentsState) {
    this.#source = source;
    this.agents = agents;
    this.checks = new MessageChecks(source.validate);
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

  /** Picks a tool and starts the input from its schema's required properties. */
  choose(agent: string, tool: string): void {
    this.agent = agent;
    this.tool = tool;
    this.input = inputSkeleton(this.schema);
    this.error = null;
  }

  chooseAgent(agent: string): void {
    this.agent = agent;
    if (!this.tools.some((t) => t.name === this.tool)) this.choose(agent, this.tools[0]?.name ?? "");
  }

  async send(): Promise<void> {
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
    this.error = problem;
    if (problem || !client || !parsed.ok) return;
    const abort = new AbortController();
    this.#abort = abort;
    this.running = true;
    this.entries = [];
    this.result = null;
    this.checks.reset();
    try {
      this.result = await client.callTool(this.agent, this.tool.trim(), parsed.input, {
        idleMs: idle * 1000,
        signal: abort.signal,
        onEntry: (e) => {
          if (this.#abort !== abort) return;
          this.entries = [...this.entries, e];
          this.checks.entries([e]);
        },
      });
      this.entries = this.result.set.entries;
      this.checks.entries(this.entries);
      if (this.result.requestText !== "") this.checks.text(this.result, this.result.requestText);
    } catch (err) {
      this.error = `The call failed before any reply: ${(err as Error).message}`;
    } finally {
      if (this.#abort === abort) this.#abort = null;
      this.running = false;
    }
  }

  /** Stops reading the reply set; the peer is not told (tool calls have no cancel subject). */
  cancel(): void {
    this.#abort?.abort();
  }
}
