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

/**
 * Client snippets for the served agent. The stdio ones (Claude Desktop, `claude mcp add`) run
 * `patchbay serve --stdio` on a saved toolkit, so they need the backend's command for it.
 */
export class SnippetsState {
  info = $state<ServeInfo | null>(null);
  /** The saved toolkit the stdio command serves. */
  infoFor = $state<string | null>(null);
  error = $state<string | null>(null);

  readonly #api: Pick<ServeApi, "info">;

  constructor(api: Pick<ServeApi, "info">) {
    this.#api = api;
  }

  /** Reads the stdio command for a saved toolkit; null forgets it. */
  async load(saved: string | null): Promise<void> {
    if (saved === this.infoFor && (this.info !== null || this.error !== null)) return;
    this.infoFor = saved;
    this.info = null;
    this.error = null;
    if (saved === null) return;
    try {
      const info = await this.#api.info(saved);
      if (this.infoFor === saved) this.info = info;
    } catch (err) {
      if (this.infoFor === saved) this.error = failure(`No stdio snippets for "${saved}"`, err);
    }
  }

  list(subject: SnippetSubject): Snippet[] {
    return clientSnippets({ ...subject, ...(this.info ? { stdio: this.info.stdio } : {}) });
  }
}
