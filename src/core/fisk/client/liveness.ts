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

/** How long an answering instance may stay silent before it is asked whether it still runs. */
export const INSTANCE_SILENCE_MS = 5000;
/** Gathering PING answers stops once none came for this long. */
const PING_STALL_MS = 250;

/**
 * A probe for the one instance answering a request: every instance of the identity answers
 * `$SRV.PING.<identity>`, Patchbay's with their fisk-ai instance name in `metadata.instance`.
 * Gone when nothing answers at all (503), or when instances that name themselves answer and this
 * one is not among them. Instances that do not name themselves (other fisk-ai builds) prove
 * nothing either way, so the read goes on to its idle limit.
 */
export function instancePingProbe(deps: FiskClientDeps, identity: string, timeoutMs = PING_TIMEOUT_MS): (instance: string, silentMs: number) => Promise<LivenessAnswer> {
  const subject = pingSubject(identity);
  return (instance, silentMs) =>
    new Promise<LivenessAnswer>((resolve) => {
      const inbox = freshInbox(deps.random);
      const named: string[] = [];
      let answers = 0;
      let cancelAll: () => void = () => undefined;
      let cancelStall: () => void = () => undefined;
      const gone: LivenessAnswer = { gone: true, via: { subject, silentMs } };
      const done = (answer?: LivenessAnswer): void => {
        cancelAll();
        cancelStall();
        sub.unsubscribe();
        resolve(answer ?? (named.length > 0 && !named.includes(instance) ? gone : { gone: false }));
      };
      const sub = deps.port.subscribe(inbox, (m) => {
        if (m.status?.code === 503) return done(answers === 0 ? gone : undefined);
        answers++;
        try {
          const meta = (JSON.parse(new TextDecoder().decode(m.data)) as { metadata?: { instance?: unknown } }).metadata;
          if (typeof meta?.instance === "string") named.push(meta.instance);
        } catch {
          // Not a PING answer: it says nothing about the instance.
        }
        if (named.includes(instance)) return done({ gone: false });
        cancelStall();
        cancelStall = deps.scheduler.after(PING_STALL_MS, () => done());
      });
      cancelAll = deps.scheduler.after(timeoutMs, () => done(answers === 0 ? { gone: false } : undefined));
      try {
        deps.port.publish(subject, new Uint8Array(0), { reply: inbox });
      } catch {
        done({ gone: false });
      }
    });
}

/** The probe options a call or a task passes on: on by default, off with `false`. */
export type LivenessOption = false | { readonly afterMs?: number; readonly instanceSilenceMs?: number };

/** The `liveness` part of a reply-set request, spread into it. */
export function livenessFor(deps: FiskClientDeps, identity: string, option: LivenessOption | undefined): Pick<ReplySetRequest, "liveness"> {
  if (option === false) return {};
  return {
    liveness: {
      afterMs: option?.afterMs ?? LIVENESS_AFTER_MS,
      probe: microPingProbe(deps, identity),
      instance: { everyMs: option?.instanceSilenceMs ?? INSTANCE_SILENCE_MS, probe: instancePingProbe(deps, identity) },
    },
  };
}
