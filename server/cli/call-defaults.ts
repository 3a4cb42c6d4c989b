/** Defaults of the `call` commands, apart from their clients so the help text loads none of them. */
export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
