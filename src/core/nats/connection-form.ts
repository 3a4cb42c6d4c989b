/** How the console authenticates to a NATS server. */
export type AuthMode = "none" | "userpass" | "token" | "nkey" | "creds";

/** Every mode, in the order the connection form offers them. */
export const AUTH_MODES: readonly AuthMode[] = ["none", "userpass", "token", "nkey", "creds"];
