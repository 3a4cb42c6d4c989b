/**
 * The workspace on disk: `<root>/<kind>/<name>.json`, one envelope per file. Writes are atomic
 * (temp file in the same folder, fsync, rename) and a file this version cannot read is moved
 * aside, never overwritten, so no user data is lost to a bug or a downgrade.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { DocumentError, type DocumentKind, type DocumentStore, type DocumentSummary } from "../document-store.ts";
import { decodeEnvelope, encodeEnvelope } from "../envelope.ts";
import { MIGRATIONS, type MigrationTable } from "../migrations.ts";
import { assertDocumentKind, assertDocumentName, documentNameProblem } from "../names.ts";

export interface FileStoreOptions {
  /** The workspace folder; created with mode 0700 on first write. */
  readonly root: string;
  /** Wall clock in ms, for `savedAt` and set-aside names. */
  readonly now?: () => number;
  readonly migrations?: MigrationTable;
}


const UNREADABLE = new Set(["corrupt", "unknown_version", "invalid_document"]);

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function ioError(action: string, rel: string, err: unknown): DocumentError {
  return new DocumentError("io", `could not ${action} ${rel}: ${(err as Error).message}`);
}

function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, "").replace(".", "");
}

/** Move `path` to an unused `<path>.set-aside-<stamp>[-n]` name; link+unlink never replaces a file. */
async function setAside(path: string, ms: number): Promise<string> {
  const base = `${path}.set-aside-${stamp(ms)}`;
  for (let n = 0; n < 1000; n++) {
    const target = n === 0 ? base : `${base}-${n}`;
    try {
      await link(path, target);
    } catch (err) {
      if (errno(err) === "EEXIST") continue;
      throw err;
    }
    await unlink(path).catch((err: unknown) => {
      if (errno(err) !== "ENOENT") throw err;
    });
    return target;
  }
  throw new Error(`no free set-aside name next to ${path}`);
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  }
}

/** Create the file-backed store. */
export function fileDocumentStore(options: FileStoreOptions): DocumentStore {
  const { root } = options;
  const now = options.now ?? (() => Date.now());
  const table = options.migrations ?? MIGRATIONS;

  const pathOf = (kind: DocumentKind, name: string): string => {
    assertDocumentKind(kind);
    assertDocumentName(name);
    return join(root, kind, `${name}.json`);
  };

  /** Decode the file at `path`; an unreadable one is set aside and the error says where. */
  async function load(kind: DocumentKind, name: string, path: string): Promise<unknown> {
    const rel = `${kind}/${name}.json`;
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (err) {
      if (errno(err) === "ENOENT") throw new DocumentError("not_found", `no ${kind} document named ${JSON.stringify(name)}`);
      throw ioError("read", rel, err);
    }
    try {
      return decodeEnvelope(kind, text, rel, table).data;
    } catch (err) {
      if (!(err instanceof DocumentError) || !UNREADABLE.has(err.code)) throw err;
      let aside: string;
      try {
        aside = await setAside(path, now());
      } catch (moveErr) {
        throw new DocumentError(err.code, `${err.message}; it could not be set aside: ${(moveErr as Error).message}`);
      }
      throw new DocumentError(err.code, `${err.message}; the file was moved to ${aside} and left untouched`, aside);
    }
  }

  async function writeAtomically(dir: string, name: string, target: string, body: string): Promise<void> {
    const tmp = join(dir, `.${name}.json.${randomBytes(6).toString("hex")}.tmp`);
    try {
      const handle = await open(tmp, "wx", 0o600);
      try {
        await handle.writeFile(body, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, target);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await syncDir(dir);
  }

  return {
    async list(kind) {
      assertDocumentKind(kind);
      const dir = join(root, kind);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (err) {
        if (errno(err) === "ENOENT") return [];
        throw ioError("list", kind, err);
      }
      const out: DocumentSummary[] = [];
      for (const file of names.sort()) {
        if (!file.endsWith(".json")) continue;
        const name = file.slice(0, -".json".length);
        if (documentNameProblem(name) !== null) continue;
        try {
          const info = await stat(join(dir, file));
          if (info.isFile()) out.push({ name, modifiedAt: info.mtimeMs });
        } catch (err) {
          if (errno(err) !== "ENOENT") throw ioError("list", kind, err);
        }
      }
      return out;
    },

    async read(kind, name) {
      return load(kind, name, pathOf(kind, name));
    },

    async write(kind, name, data) {
      const target = pathOf(kind, name);
      let body: string;
      try {
        body = encodeEnvelope(kind, data, now(), table);
      } catch (err) {
        if (err instanceof DocumentError) throw err;
        throw new DocumentError("invalid_document", `cannot save ${kind}/${name}: ${(err as Error).message}`);
      }
      const dir = join(root, kind);
      try {
        await mkdir(dir, { recursive: true, mode: 0o700 });
      } catch (err) {
        throw ioError("create", dir, err);
      }
      // A file we cannot read is somebody's data: move it aside rather than replace it.
      await load(kind, name, target).catch((err: unknown) => {
        if (err instanceof DocumentError && (err.code === "not_found" || err.setAsideTo !== undefined)) return;
        throw err;
      });
      try {
        await writeAtomically(dir, name, target, body);
      } catch (err) {
        throw ioError("write", `${kind}/${name}.json`, err);
      }
    },

    async remove(kind, name) {
      const path = pathOf(kind, name);
      try {
        await unlink(path);
      } catch (err) {
        if (errno(err) === "ENOENT") throw new DocumentError("not_found", `no ${kind} document named ${JSON.stringify(name)}`);
        throw ioError("remove", `${kind}/${name}.json`, err);
      }
    },
  };
}
