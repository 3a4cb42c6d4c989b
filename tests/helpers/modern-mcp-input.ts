/**
 * The modern test server's tools that need input from the client through input_required:
 * an elicited confirmation, a sampled answer, the client's roots, and a two-step flow whose
 * second round carries a signed requestState (tampered or expired, it is refused with -32602).
 */
import { acceptedContent, type createRequestStateCodec, inputRequired, inputResponse, type McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const text = (t: string, isError = false) => ({ content: [{ type: "text" as const, text: t }], ...(isError ? { isError } : {}) });

export function registerInputTools(server: McpServer, stateCodec: ReturnType<typeof createRequestStateCodec<{ step: string }>>): void {
  server.registerTool("confirm-delete", { description: "Deletes a file after the user confirms", inputSchema: z.object({ filename: z.string() }) }, async ({ filename }, ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "confirm");
    if (view.kind === "elicit" && view.action !== "accept") return text(`${filename} was not deleted: the user chose ${view.action}`, true);
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, "confirm", z.object({ confirm: z.boolean() }));
    if (confirmed?.confirm === true) return text(`deleted ${filename}`);
    if (confirmed?.confirm === false) return text(`${filename} was kept`);
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: `Delete ${filename}?`,
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean", title: "Delete it" } }, required: ["confirm"] },
        }),
      },
    });
  });

  server.registerTool("ask-model", { description: "Asks the client's model a question (sampling)", inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "answer");
    if (view.kind === "sampling") {
      const content = view.result.content;
      const said = Array.isArray(content) ? content.map((c) => ("text" in c ? c.text : c.type)).join(" ") : "text" in content ? content.text : content.type;
      return text(`the model (${view.result.model}) said: ${said}`);
    }
    return inputRequired({ inputRequests: { answer: inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens: 50 }) } });
  });

  server.registerTool("list-roots", { description: "Lists the client's roots" }, async (ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "roots");
    if (view.kind === "roots") return text(JSON.stringify(view.roots));
    return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
  });

  server.registerTool("wipe-cache", { description: "Confirm, then pick a scope (the second round carries a signed requestState)" }, async (ctx) => {
    const state = ctx.mcpReq.requestState<{ step: string }>();
    if (state?.step !== "confirmed") {
      const confirmed = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, "confirm");
      if (confirmed?.confirm !== true) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: "Really wipe the cache?", requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } }) },
        });
      }
      return inputRequired({
        inputRequests: { scope: inputRequired.elicit({ message: "Which scope?", requestedSchema: { type: "object", properties: { scope: { type: "string" } }, required: ["scope"] } }) },
        requestState: await stateCodec.mint({ step: "confirmed" }),
      });
    }
    const scope = acceptedContent<{ scope: string }>(ctx.mcpReq.inputResponses, "scope");
    return text(`wiped ${scope?.scope ?? "everything"}`);
  });
}
