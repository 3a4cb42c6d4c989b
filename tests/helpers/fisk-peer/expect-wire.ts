/**
 * Assertions on fisk-ai messages read off the wire: the project's validation engine accepts them,
 * and a reply set is stamped, numbered and terminated as fisk-ai does it.
 */
import { expect } from "vitest";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import type { Received } from "./raw-client.ts";

const engine = createValidationEngine();

/** A 27-character base62 KSUID. */
export const KSUID = /^[0-9A-Za-z]{27}$/;
/** RFC 3339 UTC as Go writes it: nanoseconds with trailing zeros (and a bare dot) trimmed. */
export const GO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$/;
/** The header fields every reply starts with, in Go struct order. */
export const HEADER_ORDER = ["protocol", "id", "request", "conversation", "sequence", "time", "sender", "recipient"];

/** The project's validator accepts the text as a fisk-ai message (under `packId` when given). */
export function expectFaithful(text: string, packId?: string): void {
  const verdict = engine.session().validateText(text, packId ? { packId } : undefined);
  expect(verdict.family, text).toBe("fisk-ai");
  expect(["valid", "error-response"], `${text}\n${JSON.stringify(verdict.issues)}`).toContain(verdict.status);
}

/**
 * No peer's handler failed, and every fisk-ai message the peers sent passes `expectFaithful`.
 * Returns how many were checked, so a test can insist the sweep was not empty.
 */
export function expectPeersFaithful(peers: readonly { readonly failures: readonly string[]; readonly sent: readonly { kind: string; text: string }[] }[], packId?: string): number {
  let checked = 0;
  for (const p of peers) {
    expect(p.failures).toEqual([]);
    for (const r of p.sent) {
      if (r.kind !== "fisk-ai") continue;
      expectFaithful(r.text, packId);
      checked++;
    }
  }
  return checked;
}

/**
 * Every message of one reply set is valid, starts with the header in order, echoes `request` and
 * `conversation`, comes from `identity` to `caller`, numbers from 1 without gaps, and only the
 * last carries the final header.
 */
export function expectReplySet(set: readonly Received[], request: string, identity: string, caller = "console-1"): void {
  expect(set.length).toBeGreaterThan(0);
  set.forEach((r, i) => {
    expectFaithful(r.text);
    expect(Object.keys(r.json ?? {}).slice(0, 8)).toEqual(HEADER_ORDER);
    expect(r.json).toMatchObject({ request, conversation: request, sequence: i + 1, sender: { name: identity }, recipient: { name: caller } });
    expect(r.json?.id).toMatch(KSUID);
    expect(r.json?.time).toMatch(GO_TIME);
    expect(r.final).toBe(i === set.length - 1);
  });
}
