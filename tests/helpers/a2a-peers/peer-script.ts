/**
 * What every A2A test peer does with a user message, whatever its dialect: the first word of the
 * first text part picks a behaviour, so a test can ask for each lifecycle by text alone. The
 * dialects only differ in how they put these steps on the wire.
 */

export type PeerState = "submitted" | "working" | "input-required" | "auth-required" | "completed" | "canceled" | "failed" | "rejected";

export type Command =
  | { readonly kind: "echo"; readonly text: string }
  | { readonly kind: "message"; readonly text: string }
  | { readonly kind: "chunks"; readonly count: number }
  | { readonly kind: "slow"; readonly ms: number }
  | { readonly kind: "ask" }
  | { readonly kind: "fail" }
  | { readonly kind: "reject" }
  | { readonly kind: "auth" };

export type CommandKind = Command["kind"];

export const TERMINAL_STATES: ReadonlySet<PeerState> = new Set(["completed", "canceled", "failed", "rejected"]);
export const INTERRUPTED_STATES: ReadonlySet<PeerState> = new Set(["input-required", "auth-required"]);

/** The fixed texts the peers answer with, so tests can assert them without copying strings. */
export const PEER_TEXT = {
  question: "What should I say?",
  failed: "failed on request",
  rejected: "rejected on request",
  authRequired: "authentication required: send any message to continue",
} as const;

/** Pause between two chunks of a `chunks` artifact, long enough to arrive as separate frames. */
export const CHUNK_GAP_MS = 20;
/** How often a `slow` task reports that it is still working. */
export const SLOW_TICK_MS = 200;
const MAX_CHUNKS = 1000;
const MAX_SLOW_MS = 600_000;

/** The text of chunk `index` (1-based) of `count`; the whole artifact is their concatenation. */
export function chunkText(index: number, count: number): string {
  return `chunk ${index}/${count}\n`;
}

/** The reply to a follow-up message on an input-required or auth-required task. */
export function followUpText(text: string): string {
  return `you said ${text}`;
}

export const ALL_COMMANDS: ReadonlySet<CommandKind> = new Set(["echo", "message", "chunks", "slow", "ask", "fail", "reject", "auth"]);

function count(raw: string | undefined, max: number, min: number): number | null {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  const n = Number(raw.trim());
  return n >= min && n <= max ? n : null;
}

/**
 * The behaviour a text asks for. Anything unknown, malformed (`chunks x`) or not offered by the
 * dialect (`supported`) echoes the whole text back, so every text gets an answer.
 */
export function parseCommand(text: string, supported: ReadonlySet<CommandKind> = ALL_COMMANDS): Command {
  const match = /^\s*(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  const word = match?.[1]?.toLowerCase() ?? "";
  const rest = match?.[2];
  const fallback: Command = { kind: "echo", text };
  if (!supported.has(word as CommandKind)) return fallback;
  switch (word) {
    case "echo":
      return { kind: "echo", text: rest ?? "" };
    case "message":
      return { kind: "message", text: rest ?? "" };
    case "chunks": {
      const n = count(rest, MAX_CHUNKS, 1);
      return n === null ? fallback : { kind: "chunks", count: n };
    }
    case "slow": {
      const ms = count(rest, MAX_SLOW_MS, 0);
      return ms === null ? fallback : { kind: "slow", ms };
    }
    case "ask":
    case "fail":
    case "reject":
    case "auth":
      return { kind: word };
    default:
      return fallback;
  }
}

/** One artifact piece as the neutral script emits it; `index` is the artifact's position in the task. */
export interface ArtifactChunk {
  readonly artifactId: string;
  readonly name: string;
  readonly index: number;
  readonly text: string;
  readonly append: boolean;
  readonly lastChunk: boolean;
}

/** Where a script puts its steps: each dialect turns them into its own events. */
export interface ScriptSink {
  status(state: PeerState, text?: string): void;
  artifact(chunk: ArtifactChunk): void;
  /** True once the task was canceled (or the peer closed): the script stops publishing. */
  readonly stopped: boolean;
}

export type Wait = (ms: number) => Promise<void>;

export const wait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function whole(name: string, text: string): ArtifactChunk {
  return { artifactId: name, name, index: 0, text, append: false, lastChunk: true };
}

/**
 * Runs a task's behaviour from `working` on; the caller has created the task (submitted). A
 * `message` command makes no task and is the caller's to answer.
 */
export async function runTask(command: Exclude<Command, { kind: "message" }>, sink: ScriptSink, pause: Wait = wait): Promise<void> {
  switch (command.kind) {
    case "echo":
      sink.status("working");
      sink.artifact(whole("echo", command.text));
      sink.status("completed");
      return;
    case "chunks":
      sink.status("working");
      for (let i = 1; i <= command.count; i++) {
        if (i > 1) {
          await pause(CHUNK_GAP_MS);
          if (sink.stopped) return;
          sink.status("working");
        }
        sink.artifact({ artifactId: "chunks", name: "chunks", index: 0, text: chunkText(i, command.count), append: i > 1, lastChunk: i === command.count });
      }
      sink.status("completed");
      return;
    case "slow": {
      sink.status("working");
      const started = Date.now();
      for (;;) {
        const left = command.ms - (Date.now() - started);
        if (left <= 0) break;
        await pause(Math.min(SLOW_TICK_MS, left));
        if (sink.stopped) return;
        if (Date.now() - started < command.ms) sink.status("working", `still working after ${Date.now() - started} ms`);
      }
      sink.artifact(whole("slow", `done after ${command.ms} ms`));
      sink.status("completed");
      return;
    }
    case "ask":
      sink.status("input-required", PEER_TEXT.question);
      return;
    case "auth":
      sink.status("auth-required", PEER_TEXT.authRequired);
      return;
    case "fail":
      sink.status("working");
      sink.status("failed", PEER_TEXT.failed);
      return;
    case "reject":
      sink.status("rejected", PEER_TEXT.rejected);
      return;
  }
}

/** A follow-up on an interrupted task: any text completes it, quoting the text back. */
export function runFollowUp(text: string, sink: ScriptSink): void {
  sink.status("working");
  sink.artifact(whole("answer", followUpText(text)));
  sink.status("completed", followUpText(text));
}
