import { describe, expect, it } from "vitest";
import { parseCallA2aArgs } from "../../server/cli/call-a2a.ts";
import { clientSnippets } from "../../src/core/serving/client-snippets.ts";
import { shellWords } from "../helpers/shell-words.ts";

const a2a = { cardUrl: "http://127.0.0.1:7422/.well-known/agent-card.json", jsonRpcUrl: "http://127.0.0.1:7422/a2a/jsonrpc", echoArgument: "message" };

/** The snippet's words after `call a2a`, as the CLI's own argument parser reads them. */
function callArgs(snippets: ReturnType<typeof clientSnippets>): ReturnType<typeof parseCallA2aArgs> {
  const words = shellWords(snippets.find((s) => s.title === "Patchbay, call a2a")?.text ?? "");
  const at = words.indexOf("call");
  expect(words.slice(at, at + 2)).toEqual(["call", "a2a"]);
  return parseCallA2aArgs(words.slice(at + 2));
}

describe("the A2A snippet's patchbay command", () => {
  it("is one the real `call a2a` parser takes: the card URL and the text", () => {
    const patchbay = ["/usr/bin/node", "/opt/patchbay/bin/patchbay.mjs"];
    expect(callArgs(clientSnippets({ name: "demo", patchbay, a2a }))).toMatchObject({ card: a2a.cardUrl, text: "hello", stream: false, json: false });
  });

  it("still parses when it runs the clone's bin/patchbay.mjs from a path with a space", () => {
    const stdio = { command: "/usr/bin/node", args: ["/opt/patch bay/bin/patchbay.mjs", "serve", "--stdio", "/ws/kit.json"] };
    const snippets = clientSnippets({ name: "demo", stdio, a2a });
    expect(shellWords(snippets.find((s) => s.title === "Patchbay, call a2a")?.text ?? "").slice(0, 2)).toEqual(["/usr/bin/node", "/opt/patch bay/bin/patchbay.mjs"]);
    expect(callArgs(snippets)).toMatchObject({ card: a2a.cardUrl, text: "hello" });
  });
});
