import { describe, expect, it } from "vitest";
import { ConversationStore, conversationFrom, conversationWire, newConversation } from "./conversations.ts";
import { readScript } from "./task-script.ts";

const block = (text: string) => ({ event: "text", block: { text } });

describe("ConversationStore", () => {
  it("keeps every conversation with a turn running plus the last N others, the least recently used dropped first", () => {
    const store = new ConversationStore(3);
    const release = store.hold("busy");
    store.put(newConversation("busy"));
    for (const t of ["a", "b", "c"]) store.put(newConversation(t));
    store.get("a");
    store.put(newConversation("d"));
    expect(["busy", "a", "b", "c", "d"].filter((t) => store.get(t) !== undefined)).toEqual(["busy", "a", "c", "d"]);
    expect(store.take("busy")).toBe("busy");
    release();
    store.put(newConversation("e"));
    expect(store.size).toBe(3);
  });

  it("bounds the blocks a conversation keeps, by whole turns, and a replay of what is left says it is truncated", () => {
    const store = new ConversationStore();
    const conv = store.put(newConversation("t"));
    for (let turn = 0; turn < 30; turn++) store.record(conv, Array.from({ length: 20 }, (_, i) => block(`${turn}.${i}`)), 1);
    expect(conv.turns.reduce((n, t) => n + t.length, 0)).toBeLessThanOrEqual(420);
    expect(conv.toolCalls).toBe(30);
    const replay = store.replay(conv, 30);
    // 30 blocks asked: the last turn (20) is not enough, so the one before it comes whole too.
    expect(replay.blocks.length).toBe(40);
    expect(replay.blocks[0]).toEqual(block("28.0"));
    expect(replay.truncated).toBe(true);
    expect(store.replay(conv, 10_000).blocks.length).toBe(200);
  });

  it("reads a handed-over conversation back exactly, and refuses anything else", () => {
    const conv = newConversation("tok_1");
    conv.turns.push([block("hi")]);
    conv.pending = { toolUseId: "toolu_1", steps: [{ tool: "confirm", input: { action: "x" } }], outputs: [] };
    const wire = JSON.parse(JSON.stringify(conversationWire(conv))) as unknown;
    expect(conversationFrom(wire)).toEqual(conv);
    for (const bad of [null, [], {}, { conversation_token: "a.b" }, { ...(wire as object), turns: [[{ event: 1 }]] }, { ...(wire as object), pending: { toolUseId: 3 } }]) {
      expect(conversationFrom(bad)).toBeNull();
    }
  });
});

describe("readScript", () => {
  it("reads run lines, a hinted JSON prompt, and echoes anything else", () => {
    expect(readScript('run add {"a":2,"b":3}', undefined)).toEqual({ kind: "steps", steps: [{ tool: "add", input: { a: 2, b: 3 } }] });
    expect(readScript("run echo\n\nrun add {}", undefined)).toEqual({ kind: "steps", steps: [{ tool: "echo", input: {} }, { tool: "add", input: {} }] });
    expect(readScript('{"message":"x"}', ["echo"])).toEqual({ kind: "steps", steps: [{ tool: "echo", input: { message: "x" } }] });
    expect(readScript('{"message":"x"}', ["echo", "add"])).toEqual({ kind: "echo", text: '{"message":"x"}' });
    expect(readScript("please run the tests", undefined)).toEqual({ kind: "echo", text: "please run the tests" });
    expect(readScript("run add [1]", undefined)).toEqual({ kind: "bad", reason: "run: the input must be a JSON object" });
    expect(readScript("run a {}\nrun b {", undefined)).toMatchObject({ kind: "bad", reason: expect.stringMatching(/^line 2: the input is not JSON/) });
  });
});
