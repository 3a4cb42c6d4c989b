import type { Tool, ToolAnnotations } from "@modelcontextprotocol/server";
import type { PlannedTool } from "../../fisk/codec/import-plan.ts";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { DYNAMIC_EXTRA_TOOL, type FixtureTool, type TaskSupport } from "./fixtures/index.ts";
import type { McpServingContext } from "./serving-context.ts";
import type { SessionState } from "./session-state.ts";

/** Annotations from the behaviour tags: the title, and only the hints a tag declared. */
export function toolAnnotations(tool: ToolDef): ToolAnnotations | undefined {
  const behaviour = readBehaviour(tool.tags);
  const annotations: ToolAnnotations = {
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(behaviour.readOnlyHint !== undefined ? { readOnlyHint: behaviour.readOnlyHint } : {}),
    ...(behaviour.destructiveHint !== undefined ? { destructiveHint: behaviour.destructiveHint } : {}),
    ...(behaviour.idempotentHint !== undefined ? { idempotentHint: behaviour.idempotentHint } : {}),
  };
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** Long tools may run as tasks: programs (up to their time limit) and the built-ins that wait. */
export function toolTaskSupport(tool: ToolDef): TaskSupport | undefined {
  if (tool.impl.kind === "command") return "optional";
  return tool.impl.builtin === "sleep" || tool.impl.builtin === "slow" ? "optional" : undefined;
}

/** A toolkit tool as tools/list shows it; the input schema is the toolkit's own object, verbatim. */
export function listedTool(tool: ToolDef): Tool {
  const annotations = toolAnnotations(tool);
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema as Tool["inputSchema"],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool["outputSchema"] } : {}),
    ...(annotations ? { annotations } : {}),
  };
}

/** A bridged fisk-ai tool as tools/list shows it: the peer's description and schema, and only the hints it declared. */
export function bridgedTool(tool: PlannedTool): Tool {
  const b = tool.behavior ?? {};
  const annotations: ToolAnnotations = {
    ...(b.read_only !== undefined ? { readOnlyHint: b.read_only } : {}),
    ...(b.destructive !== undefined ? { destructiveHint: b.destructive } : {}),
    ...(b.idempotent !== undefined ? { idempotentHint: b.idempotent } : {}),
    ...(b.open_world !== undefined ? { openWorldHint: b.open_world } : {}),
  };
  // MCP wants an object schema; fisk-ai peers send one, and one without a type is read as an object.
  const schema = tool.inputSchema.type === undefined ? { type: "object", ...tool.inputSchema } : tool.inputSchema;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: schema as Tool["inputSchema"],
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

/**
 * The fixture tools this session sees: those of its era that its version can answer, and the
 * dynamic extra only while test_dynamic_tool has it shown.
 */
export function sessionFixtures(ctx: McpServingContext, session: SessionState): readonly FixtureTool[] {
  const spoken = ctx.fixtureTools.filter((f) => (f.eras === undefined || f.eras.includes(session.era)) && (f.since === undefined || session.speaks(f.since)));
  if (!session.dynamicToolShown || ctx.tools.has(DYNAMIC_EXTRA_TOOL.tool.name)) return spoken;
  return [...spoken, DYNAMIC_EXTRA_TOOL];
}

/** The legacy era says which tools may run as tasks (the modern era leaves it to the server). */
function withTaskSupport(tool: Tool, support: TaskSupport | undefined, session: SessionState): Tool {
  return support && session.era === "legacy" && session.speaks("2025-11-25") ? { ...tool, execution: { taskSupport: support } } : tool;
}

/** Everything tools/list answers for one session: the served toolkit, the bridged tools, then the fixtures. */
export function listTools(ctx: McpServingContext, session: SessionState): Tool[] {
  return [
    ...[...ctx.tools.values()].map((tool) => withTaskSupport(listedTool(tool), toolTaskSupport(tool), session)),
    ...(ctx.bridge?.tools() ?? []).filter((tool) => tool.inputSchema.type === undefined || tool.inputSchema.type === "object").map(bridgedTool),
    ...sessionFixtures(ctx, session).map((f) => withTaskSupport(f.tool, f.task, session)),
  ];
}

/** Whether any tool this session sees may run as a task (the tasks capability is then declared). */
export function servesTasks(ctx: McpServingContext, session: SessionState): boolean {
  return [...ctx.tools.values()].some((tool) => toolTaskSupport(tool) !== undefined) || sessionFixtures(ctx, session).some((f) => f.task !== undefined);
}
