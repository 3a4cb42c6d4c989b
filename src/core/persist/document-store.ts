/**
 * Saved things (connections, servers, toolkits, collections) are versioned JSON documents in a
 * workspace. In Node the store is a folder of files; in the browser it is the backend's API.
 */
export const DOCUMENT_KINDS = ["connections", "servers", "toolkits", "collections", "settings"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export interface DocumentSummary {
  readonly name: string;
  /** Milliseconds since the epoch of the last write, when known. */
  readonly modifiedAt?: number;
}

export interface DocumentStore {
  list(kind: DocumentKind): Promise<DocumentSummary[]>;
  /** The current-version payload; throws a DocumentError when missing, corrupt or unknown. */
  read(kind: DocumentKind, name: string): Promise<unknown>;
  write(kind: DocumentKind, name: string, data: unknown): Promise<void>;
  remove(kind: DocumentKind, name: string): Promise<void>;
}

export type DocumentErrorCode =
  | "not_found"
  | "invalid_name"
  | "corrupt"
  | "unknown_version"
  | "invalid_document"
  | "io";

export class DocumentError extends Error {
  override readonly name = "DocumentError";
  readonly code: DocumentErrorCode;
  /** Where a bad file was moved so it is never overwritten. */
  readonly setAsideTo?: string;
  constructor(code: DocumentErrorCode, message: string, setAsideTo?: string) {
    super(message);
    this.code = code;
    if (setAsideTo !== undefined) this.setAsideTo = setAsideTo;
  }
}
