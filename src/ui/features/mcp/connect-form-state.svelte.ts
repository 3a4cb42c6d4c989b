import type { CreateSessionBody } from "../../../core/mcp/index.ts";
import { type McpTransportChoice, type NameValueRow, REQUESTABLE_VERSIONS, secondsToMs, sessionBody } from "./connect-form.ts";

const emptyRow = (): NameValueRow => ({ name: "", value: "" });

/** What the form asks for once it checks out: the relay session and the time limits. */
export interface ConnectRequest {
  readonly body: CreateSessionBody;
  readonly protocolVersion: string;
  readonly connectTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

/** The MCP connection form's fields; `build` turns them into a request or says what is wrong. */
export class ConnectFormState {
  transportChoice = $state<McpTransportChoice>("stdio");
  command = $state("");
  argsText = $state("");
  envRows = $state<NameValueRow[]>([emptyRow()]);
  url = $state("");
  headerRows = $state<NameValueRow[]>([emptyRow()]);
  requestedVersion = $state<string>(REQUESTABLE_VERSIONS[0]);
  connectTimeout = $state("30");
  requestTimeout = $state("60");

  addEnvRow(): void {
    this.envRows.push(emptyRow());
  }
  addHeaderRow(): void {
    this.headerRows.push(emptyRow());
  }

  build(): { ok: true; request: ConnectRequest } | { ok: false; error: string } {
    const form = sessionBody({
      transport: this.transportChoice,
      command: this.command,
      argsText: this.argsText,
      envRows: this.envRows,
      url: this.url,
      headerRows: this.headerRows,
    });
    if (!form.ok) return form;
    const connect = secondsToMs(this.connectTimeout, "The connect timeout");
    if ("error" in connect) return { ok: false, error: connect.error };
    const request = secondsToMs(this.requestTimeout, "The request timeout");
    if ("error" in request) return { ok: false, error: request.error };
    return {
      ok: true,
      request: { body: form.body, protocolVersion: this.requestedVersion, connectTimeoutMs: connect.ms, requestTimeoutMs: request.ms },
    };
  }
}
