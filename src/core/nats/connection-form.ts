/** How the console authenticates to a NATS server. */
export type AuthMode = "none" | "userpass" | "token";
