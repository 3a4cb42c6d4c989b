import type { Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { readBehaviour } from "../toolkit/behaviour-tags.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { DYNAMIC_EXTRA_TOOL, type FixtureTool } from "./fixtures/index.ts";
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

/**
 * The fixture tools this session sees: those its version can answer, and the dynamic extra only
 * while test_dynamic_tool has it shown.
 */
export function sessionFixtures(ctx: McpServingContext, session: SessionState): readonly FixtureTool[] {
  const spoken = ctx.fixtureTools.filter((f) => f.since === undefined || session.speaks(f.since));
  if (!session.dynamicToolShown || ctx.tools.has(DYNAMIC_EXTRA_TOOL.tool.name)) return spoken;
  return [...spoken, DYNAMIC_EXTRA_TOOL];
}

/** Everything tools/list answers for one session: the served toolkit, then the fixtures. */
export function listTools(ctx: McpServingContext, session: SessionState): Tool[] {
  return [...[...ctx.tools.values()].map(listedTool), ...sessionFixtures(ctx, session).map((f) => f.tool)];
}
