/** `patchbay serve --a2a`: a toolkit (or the demo agent) served as an A2A agent over HTTP. */
import { streamingTimeoutS } from "../../src/core/serving/a2a/index.ts";
import type { Toolkit } from "../../src/core/serving/toolkit/toolkit-types.ts";
import { startA2aServing, type A2aServing } from "../serving/a2a-engine.ts";
import type { ServeArgs, ServeDeps } from "./serve.ts";

const stopped = (signal: AbortSignal) =>
  new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));

/** Serves until the signal aborts; resolves with the exit code. */
export async function runA2aServe(toolkit: Toolkit, args: ServeArgs, deps: ServeDeps): Promise<number> {
  let serving: A2aServing;
  try {
    serving = await startA2aServing({
      toolkit,
      port: args.port,
      logger: deps.logger,
      ...(args.a2aConfirm ? { confirm: args.a2aConfirm } : {}),
      ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
      ...(args.timeoutMs !== undefined ? { timeoutMs: args.timeoutMs } : {}),
      ...(args.defaultSkill !== undefined ? { defaultSkill: args.defaultSkill } : {}),
      ...(args.tck ? { tck: { streamingTimeoutS: streamingTimeoutS(process.env.TCK_STREAMING_TIMEOUT) } } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "EADDRINUSE" ? `port ${args.port} is already in use; choose another with --port <n> (0 picks a free one)` : (error as Error).message;
    deps.stderr(`patchbay serve: cannot serve over A2A on 127.0.0.1:${args.port}: ${why}\n`);
    return 1;
  }
  const skills = [...serving.agent.skills.keys()];
  deps.stdout(
    [
      `Serving ${toolkit.name} as an A2A agent (v1.0 and v0.3; JSON-RPC and HTTP+JSON) at ${serving.baseUrl}`,
      `  Agent Card: ${serving.cardUrl}`,
      `  JSON-RPC:   ${serving.jsonRpcUrl}`,
      `  HTTP+JSON:  ${serving.restUrl}`,
      `  Skills:     ${skills.join(", ") || "none"}${serving.agent.defaultSkill ? ` (text-only messages run ${serving.agent.defaultSkill.tool.name})` : ""}`,
      ...(args.tck ? ["  With the behaviours the A2A TCK documents for the agent it tests (--tck)."] : []),
      "",
    ].join("\n"),
  );
  await stopped(deps.signal);
  deps.logger.info("stopping");
  await serving.close();
  return 0;
}
