import { freshInbox, type FiskClientDeps } from "./deps.ts";
import type { LivenessAnswer, ReplySetRequest } from "./reply-set.ts";

/** A Gen 2 ack comes at once; a set silent this long asks whether the agent still exists. */
export const LIVENESS_AFTER_MS = 1500;
export const PING_TIMEOUT_MS = 2000;

/** The micro PING subject every fisk-ai agent answers, as a micro service named after its identity. */
export const pingSubject = (identity: string): string => `$SRV.PING.${identity}`;

/**
 * A probe for `readReplySet`: `$SRV.PING.<identity>`. No responders there means no process runs
 * the agent's micro service, so nothing will answer the request; a reply or a timeout says nothing
 * either way and the read goes on. It reads its own inbox (not a multiplexed request), so a status
 * another subscription caught still reaches it through `statusFanout`.
 */
export function microPingProbe(deps: FiskClientDeps, identity: string, timeoutMs = PING_TIMEOUT_MS): (silentMs: number) => Promise<LivenessAnswer> {
  const subject = pingSubject(identity);
  return (silentMs) =>
    new Promise<LivenessAnswer>((resolve) => {
      const inbox = freshInbox(deps.random);
      let cancel: () => void = () => undefined;
      const done = (answer: LivenessAnswer): void => {
        cancel();
        sub.unsubscribe();
        resolve(answer);
      };
      const sub = deps.port.subscribe(inbox, (m) => done(m.status?.code === 503 ? { gone: true, via: { subject, silentMs } } : { gone: false }));
      cancel = deps.scheduler.after(timeoutMs, () => done({ gone: false }));
      try {
        deps.port.publish(subject, new Uint8Array(0), { reply: inbox });
      } catch {
        done({ gone: false });
      }
    });
}

/** The probe options a call or a task passes on: on by default, off with `false`. */
export type LivenessOption = false | { readonly afterMs?: number };

/** The `liveness` part of a reply-set request, spread into it. */
export function livenessFor(deps: FiskClientDeps, identity: string, option: LivenessOption | undefined): Pick<ReplySetRequest, "liveness"> {
  if (option === false) return {};
  return { liveness: { afterMs: option?.afterMs ?? LIVENESS_AFTER_MS, probe: microPingProbe(deps, identity) } };
}
