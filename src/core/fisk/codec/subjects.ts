import { isValidIdentityName, isValidRequestId } from "./ids.ts";

/**
 * The NATS subjects fisk-ai serves (§2.1). Identities and request tags become subject tokens, so
 * both are checked before any subject is formed: a dot, `*`, `>` or space would address someone
 * else's traffic.
 */

export const SUBJECT_PREFIX = "choria.fisk-ai";

export class InvalidSubjectTokenError extends Error {
  override readonly name = "InvalidSubjectTokenError";
}

function identityToken(identity: string): string {
  if (!isValidIdentityName(identity)) {
    throw new InvalidSubjectTokenError(
      `agent identity ${JSON.stringify(identity)} is not valid: it must be letters, digits, '-' or '_' and not empty`,
    );
  }
  return identity;
}

function requestToken(request: string): string {
  if (!isValidRequestId(request)) {
    throw new InvalidSubjectTokenError(
      `request id ${JSON.stringify(request)} is not valid: it must be 1 to 64 letters, digits, '-' or '_'`,
    );
  }
  return request;
}

/** `choria.fisk-ai.discovery.<identity>`: one `discovery.request`, one reply. */
export function discoverySubject(identity: string): string {
  return `${SUBJECT_PREFIX}.discovery.${identityToken(identity)}`;
}

/** `choria.fisk-ai.tool.<identity>`: a `tool.request`, answered by a reply set (Gen 2) or one reply (Gen 1). */
export function toolSubject(identity: string): string {
  return `${SUBJECT_PREFIX}.tool.${identityToken(identity)}`;
}

/** `choria.fisk-ai.task.<identity>`: `request.*`, answered by a reply set (Gen 2 only). */
export function taskSubject(identity: string): string {
  return `${SUBJECT_PREFIX}.task.${identityToken(identity)}`;
}

/** `choria.fisk-ai.cancel.<identity>.<request>`: held only by the process running that task. */
export function cancelSubject(identity: string, request: string): string {
  return `${SUBJECT_PREFIX}.cancel.${identityToken(identity)}.${requestToken(request)}`;
}

/** `choria.fisk-ai.elicit.<identity>.<request>`: answers and waitings for that task's questions. */
export function elicitSubject(identity: string, request: string): string {
  return `${SUBJECT_PREFIX}.elicit.${identityToken(identity)}.${requestToken(request)}`;
}
