/**
 * The vocabulary of validation, shared by the engine, the schema packs and the family modules.
 * Pure types: nothing here imports ajv, so the UI and packs can depend on it freely.
 */

export type Family = "mcp" | "a2a" | "fisk-ai";

/** Every protocol family, in the order the UI lists them. */
export const FAMILIES: readonly Family[] = ["mcp", "a2a", "fisk-ai"];

/** The JSON Schema dialects the compiler knows; a pack's `$schema` must name one of them. */
export type SchemaDraft = "draft-07" | "2020-12";

/** Where a pack's facts come from: a specification, a tagged source file, a note. */
export interface PackSource {
  readonly title: string;
  readonly url: string;
  /** A tag or commit, when the source is versioned. */
  readonly revision?: string;
}

/** What part a message plays in its protocol. */
export type MessageRole = "request" | "notification" | "result" | "error" | "event" | "card" | "payload";

/** Which way a message travels; MCP checks a message against the definitions for its direction. */
export type Direction = "client-to-server" | "server-to-client" | "either";

/** One message kind a pack can validate: a definition in its schema document plus what it means. */
export interface MessageKind {
  /** Stable within the pack, e.g. `tools/call:request`, `CallToolResult`, `tool.reply`. */
  readonly id: string;
  /** Shown to people, e.g. "tools/call request". */
  readonly label: string;
  /** Name of the definition under the document's `definitions` or `$defs`. */
  readonly definition: string;
  readonly role: MessageRole;
  readonly direction: Direction;
  /**
   * A catch-all (any JSON-RPC request, a bare name-and-version object): it may describe a message
   * that no specific kind fits, but never makes valid one that a specific kind claimed and failed.
   */
  readonly generic?: boolean;
  /**
   * Top-level members of another version this kind may carry on purpose, with the reason: a
   * v0.3 card listing v1.0's supportedInterfaces for the v1.0 clients of a dual-version agent.
   * The era check warns of them instead of calling the message invalid.
   */
  readonly eraBridges?: Readonly<Record<string, string>>;
}

/**
 * A family's schema for one protocol version, authored by this project. `document` is a complete
 * JSON Schema resource: `$schema`, a unique `$id`, and the definitions container for its draft
 * (`definitions` for draft-07, `$defs` for 2020-12).
 */
export interface SchemaPack {
  /** `<family>/<version>`, e.g. `mcp/2025-06-18`, `a2a/v0.3.0`, `fisk-ai/gen2`. */
  readonly id: string;
  readonly family: Family;
  readonly version: string;
  readonly label: string;
  /** Higher is newer within the family; ties are not allowed. */
  readonly order: number;
  readonly draft: SchemaDraft;
  /** Whether `format` keywords are assertions; off where the protocol does not assert them. */
  readonly assertFormats: boolean;
  readonly document: Readonly<Record<string, unknown>>;
  readonly sources: readonly PackSource[];
  /** Deliberate differences from upstream schemas, each with its reason. */
  readonly notes: readonly string[];
  readonly kinds: readonly MessageKind[];
}

export type IssueSeverity = "error" | "warning";

/** Where a problem was found: the pack's schema, a protocol rule, a peer-supplied schema, or the text. */
export type IssueSource = "schema" | "rule" | "tool-schema" | "syntax";

/** One problem with a message, placed by JSON pointer (and, once located, line and column). */
export interface Issue {
  /** JSON pointer into the message; "" is the whole message. */
  readonly pointer: string;
  /** Plain language, naming the property or value at fault. */
  readonly message: string;
  readonly severity: IssueSeverity;
  readonly source: IssueSource;
  /** The failing schema location, `<pack id>#<pointer into the document>`, for schema issues. */
  readonly schemaPath?: string;
  /** The JSON Schema keyword that failed, for schema issues. */
  readonly keyword?: string;
  /** A stable rule id for rule issues, e.g. `jsonrpc.id`, `fisk-ai.body-size`. */
  readonly rule?: string;
  /** 1-based position in the message text, when the text is known. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * How the version a message is judged by was settled: the message names it (an initialize's or a
 * card's protocolVersion, a fisk-ai protocol id), earlier messages of the batch agreed it, only
 * the message's shape points at it, or the user chose it.
 */
export type VersionBasis = "declared" | "negotiated" | "evidence" | "chosen";

/** A guess at what a value is, before validation confirms or refutes it. */
export interface Candidate {
  readonly pack: SchemaPack;
  readonly kind: MessageKind;
  /** 0 to 1: how strongly the structure points at this kind. */
  readonly score: number;
  /** Why, in plain words: `method is "tools/call"`, `has structuredContent (2025-06-18 and later)`. */
  readonly evidence: readonly string[];
  /** Absent means "evidence": nothing declared or negotiated the version. */
  readonly basis?: VersionBasis;
}

/** A family's answer to "is this one of yours?". */
export interface Recognition {
  /** Best first. Empty when the value shows no sign of the family. */
  readonly candidates: readonly Candidate[];
  /** Why nothing matched, when `candidates` is empty: "not JSON-RPC and no fisk-ai protocol field". */
  readonly reason?: string;
}

/** What a family session sees of the message besides its value. */
export interface RawMessage {
  /** The message's own text, when it came as text; rules on raw size need it. */
  readonly text?: string;
}

/** Services a family's checks may use: validating against a schema that arrived in the traffic. */
export interface CheckTools {
  /**
   * Validates `value` against a peer-supplied schema (a tool's inputSchema, say). Issues are
   * placed under `pointer` and marked `tool-schema`. `draft` applies when the schema names none.
   */
  validateWithSchema(schema: unknown, value: unknown, pointer: string, draft: SchemaDraft): Issue[];
}

/** The verdict's status: a valid protocol error response is not an invalid message. */
export type VerdictStatus = "valid" | "error-response" | "invalid" | "unrecognised" | "unparseable";

/** The outcome of checking one candidate, kept to explain a choice or a miss. */
export interface CandidateOutcome {
  readonly packId: string;
  readonly kindId: string;
  readonly label: string;
  readonly valid: boolean;
  readonly firstIssue?: Issue;
}

/**
 * Per-batch state of one family: what earlier messages taught (the negotiated version, the
 * methods of pending request ids, the tools listed), used to classify and check later ones.
 */
export interface FamilySession {
  recognise(value: unknown, raw: RawMessage): Recognition;
  /** Protocol rules outside JSON Schema, and contextual checks, for a message classified as `chosen`. */
  check(value: unknown, chosen: Candidate, raw: RawMessage, tools: CheckTools): Issue[];
  /** Plain notes that are not problems, e.g. "the tool reported isError: a result, not a protocol failure". */
  notes?(value: unknown, chosen: Candidate): readonly string[];
  /** Learn from a message once its verdict is known. */
  observe(value: unknown, chosen: Candidate, valid: boolean): void;
}

/** What the user allows beyond the protocols' own definitions, for one batch. */
export interface SessionOptions {
  /**
   * Methods that are deliberate extensions, exact or as a prefix ending in `*` (`acme/*`). Any
   * other method a protocol does not define is an error, never a valid message.
   */
  readonly extensionMethods?: readonly string[];
}

/** A protocol family: its packs, and sessions that recognise and check its messages. */
export interface FamilyModule {
  readonly family: Family;
  readonly label: string;
  /** Oldest first. */
  readonly packs: readonly SchemaPack[];
  createSession(options?: SessionOptions): FamilySession;
}

/** What one message is and what, if anything, is wrong with it. */
export interface Verdict {
  readonly status: VerdictStatus;
  readonly family?: Family;
  readonly packId?: string;
  readonly packLabel?: string;
  readonly version?: string;
  readonly kindId?: string;
  readonly kindLabel?: string;
  readonly role?: MessageRole;
  readonly direction?: Direction;
  /** 0 to 1: the classification's strength; 1 when the user chose the kind. */
  readonly confidence: number;
  /** How the version judged by was settled; absent when nothing was recognised. */
  readonly versionBasis?: VersionBasis;
  /**
   * The family's versions whose definition of this kind the message passes: every such version
   * when nothing declared or negotiated one, else the judged version alone (or none).
   */
  readonly validIn?: readonly string[];
  readonly evidence: readonly string[];
  /** Errors first, then warnings; empty for a valid message. */
  readonly issues: readonly Issue[];
  readonly notes: readonly string[];
  /** Other candidates considered, with why each failed: the "nearest candidates" of a miss. */
  readonly candidates: readonly CandidateOutcome[];
  /** True when the user's choice, not the classifier, picked the kind. */
  readonly overridden: boolean;
}

/** The user's classification: a pack, and optionally one kind in it. */
export interface Override {
  readonly packId: string;
  readonly kindId?: string;
}
