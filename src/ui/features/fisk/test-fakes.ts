import type {
  AgentInfo,
  AgentListing,
  AnswerOutcome,
  CancelOutcome,
  DiscoveryResult,
  InstanceListing,
  RawExchange,
  RawInput,
  TapFrame,
  TaskEvent,
  TaskHandle,
  TaskOptions,
  TaskRequestInput,
  TaskResult,
  ToolCallResult,
  UnsentAnswer,
} from "../../../core/fisk/client/index.ts";
import type { ReplySetEntry } from "../../../core/fisk/client/reply-set.ts";
import type { AgentCard, ElicitAnswerInput, ElicitRequest } from "../../../core/fisk/codec/index.ts";
import type { Issue, Verdict } from "../../../core/validation/types.ts";
import type { FiskApi, FiskSource, TapStarter } from "./fisk-api.ts";

/** Fakes of the client for the panels' unit tests: scripted answers, every call recorded. */

const NS = "io.choria.fisk-ai.v1";
const enc = new TextEncoder();

export function entry(kind: string, value: Record<string, unknown>, disposition: ReplySetEntry["disposition"], at = 1, final = false): ReplySetEntry {
  const body = { protocol: `${NS}.${kind}`, request: "req1", ...value };
  const sequence = typeof value.sequence === "number" ? value.sequence : undefined;
  return {
    at,
    message: { subject: "_INBOX.a", data: enc.encode(JSON.stringify(body)) },
    disposition,
    protocol: body.protocol,
    value: body,
    final,
    ...(sequence !== undefined ? { sequence } : {}),
  };
}

export function cardResult(identity: string, card: Partial<AgentCard> = {}, replyText = '{"protocol":"x"}'): DiscoveryResult {
  const full: AgentCard = { name: identity, version: "0.0.5", ...card };
  return {
    identity,
    subject: `choria.fisk-ai.discovery.${identity}`,
    requestText: "{}",
    rttMs: 2.5,
    replyText,
    outcome: { kind: "card", card: full, generation: "gen2", evidence: ["the card names a model (Gen 2 only)"] },
  };
}

export const VALID: Verdict = { status: "valid", confidence: 1, evidence: ["protocol is discovery.reply"], issues: [], notes: [], candidates: [], overridden: false, packLabel: "fisk-ai Gen 2" };

export class FakeHandle implements TaskHandle {
  readonly request = "req1";
  readonly entries: ReplySetEntry[] = [];
  readonly openQuestions: ElicitRequest[] = [];
  readonly unsent: UnsentAnswer[] = [];
  readonly calls: string[] = [];
  answerOutcome: AnswerOutcome = { kind: "accepted" };
  cancelOutcome: CancelOutcome = { kind: "accepted" };
  next: FakeHandle | null = null;
  readonly #listeners = new Set<(e: TaskEvent) => void>();
  #resolve!: (r: TaskResult) => void;
  readonly done = new Promise<TaskResult>((resolve) => (this.#resolve = resolve));

  subscribe(listener: (e: TaskEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  emit(e: TaskEvent): void {
    if (e.type === "entry") this.entries.push(e.entry);
    for (const l of this.#listeners) l(e);
  }
  end(result: TaskResult): void {
    this.emit({ type: "done", result });
    this.#resolve(result);
  }
  cancel(reason?: string): Promise<CancelOutcome> {
    this.calls.push(`cancel ${reason ?? ""}`);
    return Promise.resolve(this.cancelOutcome);
  }
  answer(questionId: string, answer: ElicitAnswerInput): Promise<AnswerOutcome> {
    this.calls.push(`answer ${questionId} ${JSON.stringify(answer)}`);
    const q = this.openQuestions.find((x) => x.question_id === questionId);
    if (this.answerOutcome.kind === "kept" && q) this.unsent.push({ question: q, answer, reason: this.answerOutcome.reason });
    return Promise.resolve(this.answerOutcome);
  }
  dismiss(questionId: string): Promise<AnswerOutcome> {
    this.calls.push(`dismiss ${questionId}`);
    return Promise.resolve({ kind: "accepted" });
  }
  followUp(prompt: string, _opts?: TaskOptions): TaskHandle {
    this.calls.push(`followUp ${prompt}`);
    return (this.next ??= new FakeHandle());
  }
  sendUnsent(index: number, _opts?: TaskOptions): TaskHandle {
    this.calls.push(`sendUnsent ${index}`);
    return (this.next ??= new FakeHandle());
  }
  redactToken(text: string): string {
    return text.split("SECRET").join("•••");
  }
}

/** A client whose answers the test sets; `calls` records what the panels asked for. */
export class FakeClient implements FiskApi {
  readonly calls: unknown[][] = [];
  listing: AgentListing = { agents: [], otherServices: 0, elapsedMs: 1 };
  discoveries = new Map<string, DiscoveryResult>();
  toolResult: ((onEntry?: (e: ReplySetEntry) => void, signal?: AbortSignal) => Promise<ToolCallResult>) | null = null;
  handle = new FakeHandle();
  raw: RawExchange = { entries: [], end: "silence", elapsedMs: 1, inbox: "_INBOX.raw" };
  infos = new Map<string, AgentInfo>();
  instances = new Map<string, InstanceListing>();

  listAgents(): Promise<AgentListing> {
    this.calls.push(["listAgents"]);
    return Promise.resolve(this.listing);
  }
  agentInfo(identity: string): Promise<AgentInfo> {
    this.calls.push(["agentInfo", identity]);
    return Promise.resolve(this.infos.get(identity) ?? { kind: "timeout", subject: `$SRV.INFO.${identity}` });
  }
  listInstances(identity: string): Promise<InstanceListing> {
    this.calls.push(["listInstances", identity]);
    return Promise.resolve(this.instances.get(identity) ?? { kind: "no-responders", identity });
  }
  discover(identity: string): Promise<DiscoveryResult> {
    this.calls.push(["discover", identity]);
    return Promise.resolve(this.discoveries.get(identity) ?? { identity, subject: "", requestText: "", rttMs: 1, outcome: { kind: "no-such-agent" } });
  }
  callTool(identity: string, tool: string, input: Record<string, unknown> | null, opts?: { idleMs?: number; signal?: AbortSignal; onEntry?: (e: ReplySetEntry) => void; allowShortIdle?: boolean }): Promise<ToolCallResult> {
    this.calls.push(["callTool", identity, tool, input, opts?.idleMs]);
    if (!this.toolResult) throw new Error("no tool script");
    return this.toolResult(opts?.onEntry, opts?.signal);
  }
  sendRaw(input: RawInput): Promise<RawExchange> {
    this.calls.push(["sendRaw", input.subject, new TextDecoder().decode(input.body), input.idleMs]);
    for (const e of this.raw.entries) input.onEntry?.(e);
    return Promise.resolve(this.raw);
  }
  startTask(identity: string, request: TaskRequestInput, opts?: TaskOptions): TaskHandle {
    this.calls.push(["startTask", identity, request, opts?.idleMs]);
    return this.handle;
  }
}

export interface FakeSource extends FiskSource {
  connected: boolean;
  readonly checked: string[];
  /** What checkInput answers; every value it was asked about is kept in `inputs`. */
  inputIssues: Issue[];
  readonly inputs: unknown[];
  frames: ((f: TapFrame) => void) | null;
  stopped: number;
}

export function fakeSource(client: FakeClient, validate: (text: string) => Promise<Verdict> = () => Promise.resolve(VALID)): FakeSource {
  const source: FakeSource = {
    connected: true,
    checked: [],
    inputIssues: [],
    inputs: [],
    frames: null,
    stopped: 0,
    client: () => (source.connected ? client : null),
    tap: (): TapStarter | null =>
      source.connected
        ? (_subjects, onFrame) => {
            source.frames = onFrame;
            return { failures: [], stop: () => void source.stopped++ };
          }
        : null,
    validate: (text) => {
      source.checked.push(text);
      return validate(text);
    },
    checkInput: (_schema, value) => {
      source.inputs.push(value);
      return Promise.resolve(source.inputIssues);
    },
  };
  return source;
}
