/**
 * The discovery and tool endpoints. Gen 2 answers a tool call with a reply set (ack, running-tool
 * keepalives, final `tool.reply`) and refuses past its concurrency; Gen 1 answers with one
 * `tool.reply` and queues past its concurrency (back-pressure, no refusal).
 */
import type { Msg } from "@nats-io/transport-node";
import { ackBody, cardBody, keepaliveBody, toolReplyBody } from "./bodies.ts";
import { expectWording, intake } from "./intake.ts";
import { ReplySet, type PeerRuntime } from "./runtime.ts";
import type { PeerGeneration, PeerTool, ToolOutcome, ToolScript } from "./types.ts";
import { id, ksuid, message, replyContextOf } from "./wire.ts";

const DISCOVERY_REQUEST = id("discovery.request");
const TOOL_REQUEST = id("tool.request");
const TOOL_REPLY = id("tool.reply");
const STATUS = id("event.status");

export interface ToolConfig {
  readonly identity: string;
  readonly generation: PeerGeneration;
  readonly version: string;
  readonly model?: string;
  readonly telemetry?: boolean;
  /** Only the served tools. */
  readonly tools: readonly PeerTool[];
  readonly concurrency: number;
  readonly keepaliveMs: number;
}

export function discoveryHandler(rt: PeerRuntime, cfg: ToolConfig): (msg: Msg) => void {
  const wording = expectWording(DISCOVERY_REQUEST);
  return (msg) => {
    const checked = intake(msg.data, cfg.generation, (p) => p === DISCOVERY_REQUEST, wording);
    if (!checked.ok) return rt.microError(msg, 400, checked.description, "discovery");
    if (!msg.reply) return;
    const card = cardBody({ name: cfg.identity, version: cfg.version, generation: cfg.generation, tools: cfg.tools, model: cfg.model, telemetry: cfg.telemetry });
    rt.send(msg.reply, message(id("discovery.reply"), replyContextOf(checked.value, rt.me), 0, card), "fisk-ai", false, msg);
  };
}

/** fisk's ArgsFromJSON refuses a property the command does not declare. */
function unknownProperty(tool: PeerTool, input: Record<string, unknown> | undefined): string | undefined {
  const declared = tool.input_schema?.properties;
  if (!input || typeof declared !== "object" || declared === null) return undefined;
  return Object.keys(input).find((k) => !(k in declared));
}

function outcomeOf(tool: PeerTool, input: Record<string, unknown> | undefined): ToolOutcome {
  const script: ToolScript = tool.script ?? {};
  const command = script.command ?? tool.name.replaceAll("_", " ");
  if (!script.run && !script.inProcess) {
    const unknown = unknownProperty(tool, input);
    if (unknown) return { isError: true, output: `building command line for "${command}": unknown property "${unknown}"` };
  }
  const fixed: ToolOutcome = {
    output: script.output ?? `${tool.name} ran\n`,
    exitCode: script.exitCode,
    command,
    inProcess: script.inProcess,
    truncated: script.truncated,
    isError: script.isError,
  };
  return script.run ? { ...fixed, ...script.run(input) } : fixed;
}

const inputOf = (req: Record<string, unknown>): Record<string, unknown> | undefined =>
  typeof req.input === "object" && req.input !== null && !Array.isArray(req.input) ? (req.input as Record<string, unknown>) : undefined;

const foreignReply = () => toolReplyBody({ output: "an answer to some other request\n", command: "other" });

export function toolHandler(rt: PeerRuntime, cfg: ToolConfig): { handle: (msg: Msg) => void; inFlight: () => number } {
  const byName = new Map(cfg.tools.map((t) => [t.name, t]));
  const wording = expectWording(TOOL_REQUEST);
  let inFlight = 0;
  const queue: (() => void)[] = [];

  /** Gen 1's blocking slot: waits for a free one, in arrival order. */
  const acquire = (): Promise<void> => {
    if (inFlight < cfg.concurrency) {
      inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else inFlight--;
  };

  async function runGen2(set: ReplySet, tool: PeerTool, input: Record<string, unknown> | undefined): Promise<void> {
    const script = tool.script ?? {};
    const start = performance.now();
    const delay = script.delayMs ?? 0;
    const elapsed = () => performance.now() - start;
    if (script.keepalives !== undefined) {
      for (let i = 0; i < script.keepalives; i++) {
        if ((await rt.sleep(cfg.keepaliveMs)) === "stopped") return;
        set.publish(STATUS, keepaliveBody());
      }
      if (delay > elapsed() && (await rt.sleep(delay - elapsed())) === "stopped") return;
    } else {
      // A keepalive at every whole interval while the run lasts, as fisk-ai's ticker does.
      let next = cfg.keepaliveMs;
      while (elapsed() < delay) {
        if (next <= elapsed()) {
          set.publish(STATUS, keepaliveBody());
          next += cfg.keepaliveMs;
          continue;
        }
        if ((await rt.sleep(Math.min(next, delay) - elapsed())) === "stopped") return;
      }
    }
    if (script.silent) {
      await rt.sleep(Infinity);
      return;
    }
    if (script.foreign === "before-reply") set.foreign(TOOL_REPLY, foreignReply());
    set.end(TOOL_REPLY, toolReplyBody(outcomeOf(tool, input)));
  }

  function gen2(msg: Msg, req: Record<string, unknown>): void {
    const name = String(req.name);
    const tool = byName.get(name);
    const script = tool?.script ?? {};
    if (tool && script.microError) return rt.microError(msg, script.microError.code, script.microError.description, "tool");
    const set = new ReplySet(rt, msg, replyContextOf(req, rt.me));
    if (script.foreign === "before-ack") set.foreign(TOOL_REPLY, foreignReply());
    if (!tool) {
      const reason = `tool ${JSON.stringify(name)} is not available`;
      set.ack(ackBody(false, reason));
      set.end(TOOL_REPLY, toolReplyBody({ isError: true, output: reason }));
      return;
    }
    if (script.forceCapacity || inFlight >= cfg.concurrency) {
      const reason = `tool ${JSON.stringify(name)} on agent ${JSON.stringify(cfg.identity)} did not run: the agent is already running its maximum of ${cfg.concurrency} concurrent tool calls`;
      set.ack(ackBody(false, reason));
      set.end(TOOL_REPLY, toolReplyBody({ isError: true, output: reason }, "capacity"));
      return;
    }
    inFlight++;
    set.ack(ackBody(true));
    rt.track(runGen2(set, tool, inputOf(req)).finally(() => inFlight--));
  }

  async function gen1(msg: Msg, req: Record<string, unknown>): Promise<void> {
    const name = String(req.name);
    const tool = byName.get(name);
    const ctx = replyContextOf(req, rt.me);
    const reply = (body: Record<string, unknown>) => rt.send(msg.reply ?? "", message(TOOL_REPLY, ctx, 0, body), "fisk-ai", false, msg);
    if (!tool) return reply(toolReplyBody({ isError: true, output: `tool ${JSON.stringify(name)} is not available` }));
    const script = tool.script ?? {};
    if (script.microError) return rt.microError(msg, script.microError.code, script.microError.description, "tool");
    await acquire();
    try {
      if ((await rt.sleep(script.delayMs ?? 0)) === "stopped") return;
      if (script.silent) return void (await rt.sleep(Infinity));
      if (script.foreign) {
        const other = ksuid();
        rt.send(msg.reply ?? "", message(TOOL_REPLY, { ...ctx, request: other, conversation: other }, 0, foreignReply()), "fisk-ai");
      }
      reply(toolReplyBody(outcomeOf(tool, inputOf(req))));
    } finally {
      release();
    }
  }

  const handle = (msg: Msg): void => {
    const checked = intake(msg.data, cfg.generation, (p) => p === TOOL_REQUEST, wording);
    if (!checked.ok) return rt.microError(msg, 400, checked.description, "tool");
    // A request without a reply inbox cannot be answered: fisk-ai's first send fails ("no reply subject").
    if (!msg.reply) return;
    if (cfg.generation === "gen2") return gen2(msg, checked.value);
    rt.track(gen1(msg, checked.value));
  };
  return { handle, inFlight: () => inFlight };
}
