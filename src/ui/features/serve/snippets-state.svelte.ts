import type { ServeApi, ServeInfo } from "../../../core/backend/serve-api.ts";
import type { A2aSnippetInput } from "../../../core/serving/client-snippets.ts";
import { clientSnippets, type Snippet } from "../../../core/serving/index.ts";
import { failure } from "./start-fields.ts";

/** What the snippets describe: the agent's name and whichever surfaces run. */
export interface SnippetSubject {
  readonly name: string;
  readonly mcpUrl?: string;
  readonly identity?: string;
  readonly a2a?: A2aSnippetInput;
}

/** The words that run Patchbay's command line: the backend's stdio command up to `serve`. */
function commandOf(info: ServeInfo): readonly string[] | null {
  const at = info.stdio.args.indexOf("serve");
  return at >= 0 ? [info.stdio.command, ...info.stdio.args.slice(0, at)] : null;
}

/**
 * Client snippets for the served agent. The stdio ones (Claude Desktop, `claude mcp add`) run
 * `patchbay serve --stdio` on a saved toolkit, so they need the backend's command for it; the ones
 * that run Patchbay's command line need that command even with nothing saved.
 */
export class SnippetsState {
  info = $state<ServeInfo | null>(null);
  /** How this machine runs Patchbay (node and bin/patchbay.mjs), as the backend says; null until known. */
  command = $state.raw<readonly string[] | null>(null);
  /** The saved toolkit the stdio command serves. */
  infoFor = $state<string | null>(null);
  error = $state<string | null>(null);

  readonly #api: Pick<ServeApi, "info">;

  constructor(api: Pick<ServeApi, "info">) {
    this.#api = api;
  }

  /** Reads the stdio command for a saved toolkit; null forgets it (and reads only how Patchbay runs, once). */
  async load(saved: string | null): Promise<void> {
    if (saved === this.infoFor && (this.info !== null || this.error !== null || (saved === null && this.command !== null))) return;
    this.infoFor = saved;
    this.info = null;
    this.error = null;
    if (saved === null) return this.#loadCommand();
    try {
      const info = await this.#api.info(saved);
      if (this.infoFor === saved) this.info = info;
      this.command ??= commandOf(info);
    } catch (err) {
      if (this.infoFor === saved) this.error = failure(`No stdio snippets for "${saved}"`, err);
    }
  }

  async #loadCommand(): Promise<void> {
    if (this.command !== null) return;
    try {
      this.command = commandOf(await this.#api.info());
    } catch {
      // Snippets that run Patchbay are left out until the backend answers; the others do not need it.
    }
  }

  list(subject: SnippetSubject): Snippet[] {
    return clientSnippets({ ...subject, ...(this.info ? { stdio: this.info.stdio } : {}), ...(this.command ? { patchbay: this.command } : {}) });
  }
}
