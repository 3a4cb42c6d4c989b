import { describe, expect, it } from "vitest";
import type { RawExchange, RawInput } from "../../../core/fisk/client/index.ts";
import { manualClock, sequentialIds, silentLogger } from "../../../core/env/index.ts";
import { NatsSession } from "../../../core/nats/index.ts";
import { WireLog } from "../../../core/wire/index.ts";
import { entry } from "../fisk/test-fakes.ts";
import { NatsWorkbenchState } from "./nats-workbench.svelte.ts";

function session(): NatsSession {
  const clock = manualClock();
  return new NatsSession({ connector: { connect: () => Promise.reject(new Error("offline")) }, clock, ids: sequentialIds(), wireLog: new WireLog(clock), logger: silentLogger });
}

describe("NatsWorkbenchState raw mode", () => {
  it("sends the typed bytes and headers and keeps every reply, live and at the end", async () => {
    const seen: RawInput[] = [];
    const replies = [entry("ack", { sequence: 1 }, "ack"), entry("tool.reply", { sequence: 2 }, "terminal", 4, true)];
    const bench = new NatsWorkbenchState(session(), (input) => {
      seen.push(input);
      for (const e of replies) input.onEntry?.(e);
      return Promise.resolve<RawExchange>({ entries: replies, end: "final", elapsedMs: 4, inbox: "_INBOX.z" });
    });
    bench.readAll = true;
    bench.subject = " choria.fisk-ai.tool.alpha ";
    bench.payloadMode = "text";
    bench.payload = "not json at all";
    bench.timeoutMs = 250;
    bench.headerRows = [{ name: "X-Trace", value: "t1" }];
    await bench.send();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ subject: "choria.fisk-ai.tool.alpha", idleMs: 250, headers: { "X-Trace": ["t1"] } });
    expect(new TextDecoder().decode(seen[0]!.body)).toBe("not json at all");
    expect(bench.liveEntries).toHaveLength(2);
    expect(bench.exchange?.end).toBe("final");
    expect(bench.outcome).toBeNull();
    expect(bench.sending).toBe(false);
  });

  it("refuses a wildcard subject, and says so when raw mode is not wired", async () => {
    const bench = new NatsWorkbenchState(session(), () => Promise.reject(new Error("unreachable")));
    bench.readAll = true;
    bench.subject = "a.>";
    await bench.send();
    expect(bench.formError).toBe("a request subject cannot contain spaces or the wildcards * and >");
    const bare = new NatsWorkbenchState(session());
    bare.readAll = true;
    bare.subject = "a.b";
    await bare.send();
    expect(bare.formError).toBe("reading every reply is not available here");
    const failing = new NatsWorkbenchState(session(), () => Promise.reject(new Error("port closed")));
    failing.readAll = true;
    failing.subject = "a.b";
    await failing.send();
    expect(failing.formError).toBe("sending failed: port closed");
  });
});

describe("NatsWorkbenchState context import", () => {
  const file = (name: string, body: unknown) => new File([typeof body === "string" ? body : JSON.stringify(body)], name);

  it("fills the form from a nats CLI context and lists what it could not use", async () => {
    const bench = new NatsWorkbenchState(session(), () => Promise.reject(new Error("unused")));
    await bench.importContext(file("dev.json", { description: "Dev", url: "nats://d:4222,ws://d:8080", user: "me", password: "pw", ca: "ca.pem" }));
    expect(bench.servers).toBe("ws://d:8080");
    expect([bench.authMode, bench.user, bench.pass]).toEqual(["userpass", "me", "pw"]);
    expect(bench.connectError).toBeNull();
    expect(bench.contextNotes[0]).toBe('Imported context "dev" (Dev).');
    expect(bench.contextNotes.join(" ")).toMatch(/"ca" is not used/);
  });

  it("keeps the typed URL when the context has only a TCP URL, and asks for the creds file", async () => {
    const bench = new NatsWorkbenchState(session(), () => Promise.reject(new Error("unused")));
    bench.servers = "ws://typed:8080";
    await bench.importContext(file("prod.json", { url: "nats://p:4222", creds: "/home/me/p.creds" }));
    expect(bench.servers).toBe("ws://typed:8080");
    expect(bench.authMode).toBe("creds");
    expect(bench.contextNotes.join(" ")).toMatch(/not a WebSocket URL.*pick that file|pick that file/s);
  });

  it("reports a file that is not a context, naming it", async () => {
    const bench = new NatsWorkbenchState(session(), () => Promise.reject(new Error("unused")));
    await bench.importContext(file("broken.json", "{nope"));
    expect(bench.connectError).toMatch(/^broken\.json: not a nats context: not JSON/);
  });

  it("reads an NKey seed file, trimmed", async () => {
    const bench = new NatsWorkbenchState(session(), () => Promise.reject(new Error("unused")));
    await bench.loadSeed(file("user.nk", `SU${"B".repeat(56)}\n`));
    expect(bench.nkeySeed).toBe(`SU${"B".repeat(56)}`);
  });
});

describe("NatsWorkbenchState form problems", () => {
  it("says a bad subject beside the form, before sending, and stops saying it once the subject is fixed", async () => {
    const bench = new NatsWorkbenchState(session());
    bench.subject = "choria fisk";
    await bench.send();
    expect(bench.shownFormError).toBe("a request subject cannot contain spaces or the wildcards * and >");
    expect(bench.outcome).toBeNull();
    bench.subject = "choria.fisk";
    expect(bench.shownFormError).toBeNull();
    bench.subject = "choria fisk";
    expect(bench.shownFormError).toBe("a request subject cannot contain spaces or the wildcards * and >");
  });

  it("marks the reply stale once the subject, the headers or the payload differ from the request it answers", async () => {
    const bench = new NatsWorkbenchState(session());
    bench.subject = "svc.a";
    bench.payload = '{"n": 1}';
    await bench.send();
    expect(bench.outcome).not.toBeNull();
    expect(bench.replyStale).toBeNull();
    bench.subject = "svc.b";
    expect(bench.replyStale).toBe("the subject changed");
    bench.payload = '{"n": 2}';
    expect(bench.replyStale).toBe("the subject and the payload changed");
    bench.subject = " svc.a ";
    bench.payload = '{"n": 1}';
    expect(bench.replyStale).toBeNull();
    bench.headerRows = [{ name: "X-Trace", value: "t1" }];
    expect(bench.replyStale).toBe("the headers changed");
    // A new request answers the form as it is now.
    await bench.send();
    expect(bench.replyStale).toBeNull();
  });

  it("marks every reply of a raw read stale once its subject changes", async () => {
    const bench = new NatsWorkbenchState(session(), () => Promise.resolve<RawExchange>({ entries: [], end: "silence", elapsedMs: 4, inbox: "_INBOX.z" }));
    bench.readAll = true;
    bench.subject = "svc.a";
    await bench.send();
    expect(bench.replyStale).toBeNull();
    bench.subject = "svc.c";
    expect(bench.replyStale).toBe("the subject changed");
  });
});
