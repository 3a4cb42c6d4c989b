import type { Root } from "../../../core/mcp/connection-types.ts";

export interface RootRow {
  uri: string;
  name: string;
}

export const FILE_ONLY = "MCP allows only file:// URIs as roots.";

/** Rows to roots, or an error per bad row (keyed by row index). Rows left entirely blank are skipped. */
export function rootsFromRows(rows: readonly RootRow[]): { ok: true; roots: Root[] } | { ok: false; errors: Record<number, string> } {
  const roots: Root[] = [];
  const errors: Record<number, string> = {};
  for (const [i, row] of rows.entries()) {
    const uri = row.uri.trim();
    const name = row.name.trim();
    if (uri === "" && name === "") continue;
    if (uri === "") errors[i] = `Root ${i + 1} has a name but no URI.`;
    else if (!uri.startsWith("file://")) errors[i] = `Root ${i + 1}: "${uri}" is not a file:// URI. ${FILE_ONLY}`;
    else if (!URL.canParse(uri)) errors[i] = `Root ${i + 1}: "${uri}" is not a valid URI.`;
    else if (roots.some((r) => r.uri === uri)) errors[i] = `Root ${i + 1} repeats ${uri}.`;
    else roots.push(name === "" ? { uri } : { uri, name });
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, roots };
}

const same = (a: readonly Root[], b: readonly Root[]) => a.length === b.length && a.every((r, i) => r.uri === b[i]?.uri && r.name === b[i]?.name);

/**
 * The roots the client offers. The user edits rows and applies them; `roots/list` is answered
 * with the applied list, and a change applied while connected is announced with
 * notifications/roots/list_changed.
 */
export class RootsState {
  rows = $state<RootRow[]>([{ uri: "", name: "" }]);
  /** What roots/list answers. */
  applied = $state.raw<readonly Root[]>([]);
  errors = $state.raw<Readonly<Record<number, string>>>({});
  /** What the last apply did, in words. */
  status = $state<string | null>(null);
  #notify: (() => Promise<void>) | undefined;

  readonly handle = (): Promise<Root[]> => Promise.resolve(this.applied.map((r) => ({ ...r })));

  addRow(): void {
    this.rows.push({ uri: "", name: "" });
  }

  removeRow(index: number): void {
    this.rows.splice(index, 1);
    this.errors = {};
  }

  /** While connected with roots declared: how to tell the server the list changed. */
  attach(notify: () => Promise<void>): void {
    this.#notify = notify;
  }

  detach(): void {
    this.#notify = undefined;
  }

  /** Checks the rows; a valid, different list becomes the answer and, when connected, is announced. */
  async apply(): Promise<void> {
    const built = rootsFromRows(this.rows);
    if (!built.ok) {
      this.errors = built.errors;
      this.status = null;
      return;
    }
    this.errors = {};
    if (same(built.roots, this.applied)) {
      this.status = "No change to the roots.";
      return;
    }
    this.applied = built.roots;
    const notify = this.#notify;
    if (!notify) {
      this.status = `${built.roots.length} root(s) saved; they are offered when you connect.`;
      return;
    }
    try {
      await notify();
      this.status = `${built.roots.length} root(s) applied; sent notifications/roots/list_changed.`;
    } catch (error) {
      this.status = `${built.roots.length} root(s) applied, but notifications/roots/list_changed could not be sent: ${(error as Error).message}`;
    }
  }
}
