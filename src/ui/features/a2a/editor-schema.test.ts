import { describe, expect, it } from "vitest";
import { bindingsOf, DIALECTS, operationsOf } from "../../../core/a2a/index.ts";
import { requestSchema } from "./editor-schema.ts";

describe("editor schemas", () => {
  it("gives every JSON-RPC operation of every dialect a schema whose reference resolves", () => {
    for (const dialect of DIALECTS) {
      for (const op of operationsOf(dialect, "jsonrpc")) {
        const schema = requestSchema(dialect, "jsonrpc", op) as { $ref: string } & Record<string, Record<string, unknown>>;
        expect(schema, `${dialect} ${op}`).toBeDefined();
        const [, container, name] = schema.$ref.split("/");
        expect(schema[container!]![name!], `${dialect} ${op}`).toBeDefined();
        expect(schema).not.toHaveProperty("$id");
      }
    }
  });

  it("gives REST bodies theirs: v1.0 request messages, v0.3 message sends only", () => {
    expect(bindingsOf("0.3")).toContain("rest");
    expect(requestSchema("1.0", "rest", "send")).toMatchObject({ $ref: "#/$defs/SendMessageRequest" });
    expect(requestSchema("0.3", "rest", "stream")).toMatchObject({ $ref: "#/definitions/MessageSendParams" });
    expect(requestSchema("0.3", "rest", "get")).toBeUndefined();
  });
});
