import { isTerminal, TaskError, type CallOutcome, type McpConnection, type TaskSupport, type TaskView } from "../../../core/mcp/index.ts";

/** One task as the Tasks tab shows it. */
export interface TaskRow {
  readonly task: TaskView;
  /** The tool it runs, when it was started here. */
  readonly tool: string | undefined;
  /** True while its status is being polled. */
  readonly following: boolean;
  readonly error: string | null;
  readonly outcome: CallOutcome | null;
  /** What the console did last, in words ("polled 3 times", "cancel sent"). */
  readonly note: string;
}

const MAX_ROWS = 200;

/**
 * Tasks of the open connection: the ones started here (followed at the server's poll interval
 * until they end), and, on a legacy server that offers tasks/list, the ones it lists. Each can
 * be read again, have its result fetched, or be cancelled; every failure names the task.
 */
export class TasksState {
  rows = $state.raw<readonly TaskRow[]>([]);
  support = $state.raw<TaskSupport | null>(null);
  listing = $state(false);
  listError = $state<string | null>(null);
  #connection: McpConnection | undefined;
  #timeoutMs = 60_000;
  #stop = new AbortController();

  attach(connection: McpConnection, timeoutMs: number): void {
    this.detach();
    this.#connection = connection;
    this.#timeoutMs = timeoutMs;
    this.support = connection.tasks.support();
  }

  detach(): void {
    this.#stop.abort("the connection ended");
    this.#stop = new AbortController();
    this.#connection = undefined;
    this.support = null;
    this.rows = this.rows.map((r) => (r.following ? { ...r, following: false, note: "stopped following: the connection ended" } : r));
  }

  clear(): void {
    this.rows = [];
    this.listError = null;
  }

  /** A task a call just started: shown, and followed until it ends. */
  add(task: TaskView, tool: string): void {
    this.#put({ task, tool, following: false, error: null, outcome: null, note: "started here" });
    void this.follow(task.taskId);
  }

  /** Polls the task at the server's interval until it ends (input a modern task asks for is answered by the page). */
  async follow(taskId: string): Promise<void> {
    const connection = this.#connection;
    const row = this.#row(taskId);
    if (!connection || !row || row.following) return;
    let polls = 0;
    this.#patch(taskId, { following: true, error: null, note: "following" });
    try {
      const end = await connection.tasks.follow(row.task, {
        signal: this.#stop.signal,
        requestTimeoutMs: this.#timeoutMs,
        answer: (round) => connection.answerInput(round),
        onUpdate: (task) => this.#patch(taskId, { task, note: `polled ${++polls} time${polls === 1 ? "" : "s"}` }),
      });
      this.#patch(taskId, { task: end, following: false, note: `${end.status} after ${polls} poll${polls === 1 ? "" : "s"}` });
      if (end.status === "completed" || end.status === "failed") await this.result(taskId);
      else if (end.status === "input_required" && connection.info?.era === "legacy") {
        // A legacy server sends what it needs while tasks/result waits; the page answers it.
        this.#patch(taskId, { note: "waiting for input: tasks/result carries the server's requests" });
        await this.result(taskId);
        await this.refresh(taskId);
      }
    } catch (error) {
      this.#patch(taskId, { following: false, error: this.#why(error) });
    }
  }

  async refresh(taskId: string): Promise<void> {
    const connection = this.#connection;
    if (!connection) return;
    try {
      this.#patch(taskId, { task: await connection.tasks.get(taskId, { timeoutMs: this.#timeoutMs }), error: null, note: "read with tasks/get" });
    } catch (error) {
      this.#patch(taskId, { error: this.#why(error) });
    }
  }

  /** The task's result as the call's outcome (a legacy tasks/result waits for the task to end). */
  async result(taskId: string): Promise<void> {
    const connection = this.#connection;
    const row = this.#row(taskId);
    if (!connection || !row) return;
    try {
      const outcome = await connection.tasks.result(taskId, row.tool ?? "the task's tool", { timeoutMs: this.#timeoutMs });
      this.#patch(taskId, { outcome, error: null });
    } catch (error) {
      this.#patch(taskId, { error: this.#why(error) });
    }
  }

  async cancel(taskId: string): Promise<void> {
    const connection = this.#connection;
    if (!connection) return;
    try {
      const task = await connection.tasks.cancel(taskId, { timeoutMs: this.#timeoutMs });
      this.#patch(taskId, { ...(task ? { task } : {}), error: null, note: "cancel sent with tasks/cancel" });
      if (!task) await this.refresh(taskId);
    } catch (error) {
      this.#patch(taskId, { error: this.#why(error) });
    }
  }

  /** tasks/list (legacy): every task the server lists, merged with those started here. */
  async list(): Promise<void> {
    const connection = this.#connection;
    if (!connection || this.listing) return;
    this.listing = true;
    try {
      const { tasks, problems } = await connection.tasks.list({ timeoutMs: this.#timeoutMs });
      for (const task of tasks) {
        if (this.#row(task.taskId)) this.#patch(task.taskId, { task });
        else this.#put({ task, tool: undefined, following: false, error: null, outcome: null, note: "listed by the server" });
      }
      this.listError = problems.length > 0 ? `Some listed tasks are not tasks: ${problems.join("; ")}` : null;
    } catch (error) {
      this.listError = this.#why(error);
    } finally {
      this.listing = false;
    }
  }

  /** True when the task's state can still change. */
  live(row: TaskRow): boolean {
    return !isTerminal(row.task.status);
  }

  #why(error: unknown): string {
    return error instanceof TaskError || error instanceof Error ? error.message : String(error);
  }

  #row(taskId: string): TaskRow | undefined {
    return this.rows.find((r) => r.task.taskId === taskId);
  }

  #put(row: TaskRow): void {
    this.rows = [row, ...this.rows.filter((r) => r.task.taskId !== row.task.taskId)].slice(0, MAX_ROWS);
  }

  #patch(taskId: string, change: Partial<TaskRow>): void {
    this.rows = this.rows.map((r) => (r.task.taskId === taskId ? { ...r, ...change } : r));
  }
}
