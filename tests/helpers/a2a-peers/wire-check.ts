/**
 * Test-side checks of what the peers put on the wire, with the project's own schema packs: each
 * text is validated in one session, in wire order, so responses are judged by their requests.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { expect } from "vitest";
import { createValidationEngine } from "../../../src/core/packs/index.ts";
import type { Override, Verdict } from "../../../src/core/validation/types.ts";
import { closeServer, listenLocal, readBody } from "./request-log.ts";
import type { Exchange } from "./wire-client.ts";

const engine = createValidationEngine();

type Expected = "valid" | "error-response";

function explain(verdict: Verdict, text: string): string {
  const issues = verdict.issues.map((i) => `${i.pointer || "/"}: ${i.message}`).join("; ");
  return `${verdict.status} as ${verdict.kindId ?? "?"} (${verdict.packId ?? "no pack"}) ${issues} ${verdict.notes.join(" ")}\n  in ${text.slice(0, 400)}`;
}

export interface WireCheck {
  /** Validates one text and expects it `want` (default "valid") in this check's version. */
  text(text: string, want?: Expected, override?: Override): Verdict;
  /** The request (when it had a body), then each SSE frame or else the body. */
  exchange(exchange: Exchange, want?: Expected): void;
}

/** A fresh validation session expecting every verdict in `version` (e.g. "0.1.0", "0.2.6", "0.3.0", "1.0"). */
export function wireCheck(version: string): WireCheck {
  const session = engine.session();
  const check: WireCheck = {
    text(text, want = "valid", override) {
      const verdict = session.validateText(text, override);
      expect(verdict.status, explain(verdict, text)).toBe(want);
      expect(verdict.version, explain(verdict, text)).toBe(version);
      return verdict;
    },
    exchange(exchange, want = "valid") {
      if (exchange.request !== "") check.text(exchange.request);
      if (exchange.frames.length > 0) for (const frame of exchange.frames) check.text(frame, want);
      else check.text(exchange.body, want);
    },
  };
  return check;
}

/** A verdict in a session of its own, for texts that are meant to fail. */
export function verdictOf(text: string): Verdict {
  return engine.session().validateText(text);
}

export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook that keeps what is POSTed to it, for push notification tests. */
export interface Webhook {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** Resolves once a delivery satisfies `probe` (rejects after `ms`). */
  waitFor(probe: (d: Delivery) => boolean, ms?: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startWebhook(): Promise<Webhook> {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      deliveries.push({ headers: req.headers, body: body.toString("utf8") });
      res.writeHead(204).end();
    });
  });
  const port = await listenLocal(server);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    async waitFor(probe, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = deliveries.find(probe);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching push delivery in ${ms} ms; got ${deliveries.map((d) => d.body).join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => closeServer(server),
  };
}
