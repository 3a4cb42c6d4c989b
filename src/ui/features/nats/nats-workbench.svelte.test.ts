import { describe, expect, it } from "vitest";
import type { RawExchange, RawInput } from "../../../core/a2a-nats/client/index.ts";
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
