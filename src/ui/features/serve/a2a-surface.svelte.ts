import type { A2aServeConfirm, A2aServeStatus, ServeApi, ServedTool } from "../../../core/backend/serve-api.ts";
import { textArgument } from "../../../core/serving/a2a/message-call.ts";
import type { ServedEntry } from "../../../core/serving/index.ts";
import { toolkitForStart, wholeField } from "./start-fields.ts";
import { SurfaceActions } from "./surface-actions.svelte.ts";
import type { ToolkitState } from "./toolkit-state.svelte.ts";

export type A2aApi = Pick<ServeApi, "a2aStatus" | "a2aStart" | "a2aStop">;

/** The skill offered for text-only messages when the toolkit serves it (the demo's echo). */
export const PREFERRED_DEFAULT_SKILL = "echo";

/** The served skills a text-only message can run: one string argument, which the text becomes. */
export function textSkills(entries: readonly ServedEntry[]): string[] {
  return entries.filter((e) => e.served && textArgument(e.tool) !== undefined).map((e) => e.tool.name);
}

/** The A2A agent on its own port: start options, what the backend says about it, errors in words. */
export class A2aSurface extends SurfaceActions<A2aServeStatus> {
  port = $state("7422");
  confirm = $state<A2aServeConfirm>("omit");
  /** Empty: the limit the running surfaces share, else the backend's default of 2. */
  concurrency = $state("");
  timeoutMs = $state("");
  /** The tool a text-only message runs; empty for none. Used only when that tool can take text. */
  defaultSkill = $state(PREFERRED_DEFAULT_SKILL);
  status = $state<A2aServeStatus>({ running: false });
  issues = $state<readonly string[]>([]);

  readonly #api: A2aApi;
  readonly #onRunning: (running: boolean) => void;

  constructor(api: A2aApi, onRunning: (running: boolean) => void) {
    super();
    this.#api = api;
    this.#onRunning = onRunning;
  }

  /** The editor's served set under the chosen confirm mode. */
  localSet(kit: ToolkitState): readonly ServedEntry[] {
    return kit.a2aSet(this.confirm === "ask");
  }

  /** The default skill a start would ask for: the chosen one if the editor's toolkit lets it take text, else none. */
  chosenDefault(kit: ToolkitState): string {
    return textSkills(this.localSet(kit)).includes(this.defaultSkill) ? this.defaultSkill : "";
  }

  async refresh(): Promise<void> {
    await this.read("Could not read the A2A surface's status", () => this.#api.a2aStatus());
  }

  protected startFields(): unknown {
    return [this.port, this.confirm, this.concurrency, this.timeoutMs, this.defaultSkill];
  }

  async start(kit: ToolkitState): Promise<void> {
    this.asking(kit);
    const toolkit = toolkitForStart(kit);
    if ("problem" in toolkit) return void (this.error = toolkit.problem);
    const port = wholeField(this.port, "The port", 0, 65_535);
    const concurrency = wholeField(this.concurrency, "Concurrency", 1, 64);
    const timeout = wholeField(this.timeoutMs, "The timeout", 1, 3_600_000);
    const problem = port.problem ?? concurrency.problem ?? timeout.problem;
    if (problem) return void (this.error = `Not started: ${problem}`);
    const defaultSkill = this.chosenDefault(kit);
    await this.act("Could not start the A2A surface", async () => {
      const started = await this.#api.a2aStart({
        toolkit: toolkit.body,
        confirm: this.confirm,
        ...(port.value !== undefined ? { port: port.value } : {}),
        ...(concurrency.value !== undefined ? { concurrency: concurrency.value } : {}),
        ...(timeout.value !== undefined ? { timeoutMs: timeout.value } : {}),
        ...(defaultSkill !== "" ? { defaultSkill } : {}),
      });
      const { issues, ...status } = started;
      this.startedText = kit.text;
      this.issues = issues;
      return status;
    });
  }

  async stop(): Promise<void> {
    await this.act("Could not stop the A2A surface", () => this.#api.a2aStop());
  }

  /** The served set: exactly what the backend reports while running, else computed here from the editor. */
  rows(local: readonly ServedEntry[]): { readonly rows: readonly ServedTool[]; readonly fromBackend: boolean } {
    if (this.status.running) return { rows: this.status.tools, fromBackend: true };
    return { rows: local.map((e) => ({ name: e.tool.name, served: e.served, reason: e.reason })), fromBackend: false };
  }

  protected apply(status: A2aServeStatus): void {
    this.status = status;
    if (status.running && this.startedText === null) {
      // Started elsewhere or before a reload: the form shows what actually runs.
      this.port = String(status.port);
      this.confirm = status.confirm;
      this.concurrency = String(status.concurrency);
      this.timeoutMs = status.timeoutMs === undefined ? "" : String(status.timeoutMs);
      this.defaultSkill = status.defaultSkill ?? "";
    }
    if (!status.running) {
      this.issues = [];
      this.startedText = null;
    }
    this.#onRunning(status.running);
  }
}
