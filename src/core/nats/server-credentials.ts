import type { NatsAuth } from "./port.ts";

/** `nats://user:pass@host` → `nats://***@host`, for messages and logs. */
export function redactServers(servers: string): string {
  return servers.replace(/(\/\/)[^/@,]*@/g, "$1***@");
}

/**
 * Moves credentials written in server URLs (`nats://user:pass@host`, or `nats://token@host`) into
 * auth, as NATS clients conventionally read them, so the URLs handed on carry no secret. Explicit
 * auth wins; the first URL's credentials are used.
 */
export function splitServerCredentials(servers: string, auth: NatsAuth | undefined): { servers: string; auth: NatsAuth | undefined } {
  let found: NatsAuth | undefined;
  const clean = servers.split(",").map((part) => {
    const match = /^(\s*[a-z]+:\/\/)([^/@,]*)@(.*)$/i.exec(part);
    if (!match) return part;
    const [, scheme = "", userinfo = "", rest = ""] = match;
    if (found === undefined && userinfo !== "") {
      const at = userinfo.indexOf(":");
      const decode = (s: string) => {
        try {
          return decodeURIComponent(s);
        } catch {
          return s;
        }
      };
      found = at >= 0 ? { user: decode(userinfo.slice(0, at)), pass: decode(userinfo.slice(at + 1)) } : { token: decode(userinfo) };
    }
    return `${scheme}${rest}`;
  });
  const hasAuth = auth !== undefined && Object.values(auth).some((v) => v !== undefined && v !== "");
  return { servers: clean.join(","), auth: hasAuth ? auth : found };
}
