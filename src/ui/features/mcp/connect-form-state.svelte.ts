import type { CreateSessionBody, EraSetting, ServerEntry } from "../../../core/mcp/index.ts";
import {
  type ConnectFormValues,
  type ConnectionMode,
  entryFromForm,
  formFromEntry,
  type McpTransportChoice,
  type NameValueRow,
  REQUESTABLE_VERSIONS,
  relayLimitsFor,
  secondsToMs,
  sessionBody,
} from "./connect-form.ts";
import { fieldsOf, keepDraft, restoreFields } from "../../state/drafts.svelte.ts";

const emptyRow = (): NameValueRow => ({ name: "", value: "" });
const atLeastOneRow = (rows: NameValueRow[]): NameValueRow[] => (rows.length > 0 ? rows : [emptyRow()]);

/** What the form asks for once it checks out: the session, how to reach it, and the time limits. */
export interface ConnectRequest {
  readonly body: CreateSessionBody;
  /** Always "relay" for stdio; the backend is the only one that can spawn a process. */
  readonly mode: ConnectionMode;
  readonly era: EraSetting;
  /** What initialize asks for (legacy, and auto's fallback). */
  readonly protocolVersion: string;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/** The MCP connection form's fields; `build` turns them into a request or says what is wrong. */
export class ConnectFormState {
  transportChoice = $state<McpTransportChoice>("stdio");
  connectionMode = $state<ConnectionMode>("relay");
  command = $state("");
  argsText = $state("");
  cwd = $state("");
  envRows = $state<NameValueRow[]>([emptyRow()]);
  url = $state("");
  headerRows = $state<NameValueRow[]>([emptyRow()]);
  /** Sent as `Authorization: Bearer …`; never saved, never logged. */
  bearerToken = $state("");
  requestedVersion = $state<string>(REQUESTABLE_VERSIONS[0]);
  /** New servers probe; a saved server says what it was saved with. */
  era = $state<EraSetting>("auto");
  connectTimeout = $state("30");
  requestTimeout = $state("60");
  /** The saved or imported entry the fields came from, so fields the form does not show are kept. */
  loadedFrom = $state.raw<ServerEntry | undefined>(undefined);

  constructor() {
    // Kept across a reload; the bearer token and environment and header values (secrets) are asked again.
    const names = (rows: NameValueRow[]) => rows.map((r) => ({ name: r.name, value: "" }));
    const fields = ["transportChoice", "connectionMode", "command", "argsText", "cwd", "url", "requestedVersion", "era", "connectTimeout", "requestTimeout", "envRows", "headerRows"] as const;
    keepDraft("mcp.form", () => ({ ...fieldsOf(this, fields), envRows: names(this.envRows), headerRows: names(this.headerRows) }), (d) => restoreFields(this, fields, d));
  }

  addEnvRow(): void {
    this.envRows.push(emptyRow());
  }
  addHeaderRow(): void {
    this.headerRows.push(emptyRow());
  }

  get values(): ConnectFormValues {
    return {
      transport: this.transportChoice,
      command: this.command,
      argsText: this.argsText,
      cwd: this.cwd,
      envRows: this.envRows,
      url: this.url,
      headerRows: this.headerRows,
      bearerToken: this.bearerToken,
    };
  }

  /** Fills the fields from a saved or imported server, with the era and initialize version it was saved with. */
  load(entry: ServerEntry, mode: ConnectionMode = "relay", protocol: { readonly era?: EraSetting; readonly version?: string } = {}): void {
    if (protocol.era) this.era = protocol.era;
    if (protocol.version) this.requestedVersion = protocol.version;
    const v = formFromEntry(entry);
    this.transportChoice = v.transport;
    this.command = v.command;
    this.argsText = v.argsText;
    this.cwd = v.cwd;
    this.envRows = atLeastOneRow(v.envRows.map((r) => ({ ...r })));
    this.url = v.url;
    this.headerRows = atLeastOneRow(v.headerRows.map((r) => ({ ...r })));
    this.bearerToken = v.bearerToken;
    this.connectionMode = mode;
    this.loadedFrom = entry;
  }

  /** The fields as a server entry named `name`, or why they cannot be one. */
  entry(name: string): { ok: true; entry: ServerEntry } | { ok: false; error: string } {
    return entryFromForm(this.values, name, this.loadedFrom);
  }

  build(): { ok: true; request: ConnectRequest } | { ok: false; error: string } {
    const form = sessionBody(this.values);
    if (!form.ok) return form;
    const connect = secondsToMs(this.connectTimeout, "The connect timeout");
    if ("error" in connect) return { ok: false, error: connect.error };
    const request = secondsToMs(this.requestTimeout, "The request timeout");
    if ("error" in request) return { ok: false, error: request.error };
    return {
      ok: true,
      request: {
        body: form.body.transport === "stdio" ? form.body : { ...form.body, limits: relayLimitsFor(request.ms) },
        mode: form.body.transport === "stdio" ? "relay" : this.connectionMode,
        era: this.era,
        protocolVersion: this.requestedVersion,
        connectTimeoutMs: connect.ms,
        requestTimeoutMs: request.ms,
      },
    };
  }
}
