import { Role, type Message, type Part } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import type { ToolDef } from "../toolkit/toolkit-types.ts";
import { readApproval } from "./approval.ts";
import { defaultSkillOf, readCall, textArgument } from "./message-call.ts";

const tools = DEMO_TOOLKIT.tools.filter((t) => t.name !== "confirm");
const skills = new Map(tools.map((t) => [t.name, t]));
const echo = defaultSkillOf(tools, "echo");

const text = (value: string): Part => ({ content: { $case: "text", value }, mediaType: "text/plain", filename: "", metadata: undefined });
const data = (value: unknown): Part => ({ content: { $case: "data", value }, mediaType: "application/json", filename: "", metadata: undefined });
const file = (): Part => ({ content: { $case: "url", value: "https://example.com/a.txt" }, mediaType: "text/plain", filename: "a.txt", metadata: undefined });
const message = (...parts: Part[]): Message => ({ messageId: "m", contextId: "", taskId: "", role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] });

const SKILLS = "echo, add, sleep, fail, large-output, slow";

describe("readCall", () => {
  it("runs the skill a data part names, with its arguments", () => {
    const reading = readCall(message(data({ skill: "add", arguments: { a: 1, b: 2 } })), skills, echo);
    expect(reading).toMatchObject({ kind: "call", via: "data", args: { a: 1, b: 2 } });
    expect(reading.kind === "call" && reading.tool.name).toBe("add");
    expect(readCall(message(text("ignored beside a call"), data({ skill: "slow" })), skills, echo)).toMatchObject({ kind: "call", via: "data", args: {} });
  });

  it("runs the default skill for text, the text parts joined as its one argument", () => {
    expect(readCall(message(text("hello"), text("there")), skills, echo)).toMatchObject({ kind: "call", via: "text", args: { message: "hello\nthere" } });
    expect(readCall(message(text("with a file"), file()), skills, echo)).toMatchObject({ kind: "call", args: { message: "with a file" } });
    expect(readCall(message(text("and data"), data({ key: "value" })), skills, echo)).toMatchObject({ kind: "call", args: { message: "and data" } });
  });

  it("refuses what names no usable skill, listing the skills", () => {
    const refused = (m: Message, withDefault = true) => {
      const reading = readCall(m, skills, withDefault ? echo : undefined);
      expect(reading.kind).toBe("refused");
      return reading.kind === "refused" ? reading.text : "";
    };
    expect(refused(message(text("hi")), false)).toBe(
      `Not run: this agent has no default skill for a message with text only. Send a data part {"skill": "<id>", "arguments": {…}} naming one of this agent's skills: ${SKILLS}.`,
    );
    expect(refused(message(data({ skill: "confirm" })))).toContain(`this agent has no skill "confirm". Send a data part`);
    expect(refused(message(data({ skill: 7 })))).toContain('"skill" in the data part must be a skill id (a string)');
    expect(refused(message(data({ skill: "echo" }), data({ skill: "add" })))).toContain("the message names 2 skills, and a task runs one");
    expect(refused(message(data({ skill: "echo", arguments: [1] })))).toBe('Not run: "arguments" for echo must be a JSON object.');
    expect(refused(message(data({ key: "value" })))).toContain(`Not run: the message names no skill. Send a data part`);
    expect(refused(message(file()))).toContain(SKILLS);
    expect(readCall(message(data({})), new Map(), undefined)).toMatchObject({ text: expect.stringContaining("none (this agent serves no tools)") });
  });
});

describe("the default skill", () => {
  const tool = (properties: Record<string, unknown>): ToolDef => ({ name: "t", description: "", inputSchema: { type: "object", properties }, tags: [], impl: { kind: "builtin", builtin: "echo" } });

  it("takes one string argument", () => {
    expect(textArgument(tool({ who: { type: "string" } }))).toBe("who");
    expect(textArgument(tool({ n: { type: "number" } }))).toBeUndefined();
    expect(textArgument(tool({ a: { type: "string" }, b: { type: "string" } }))).toBeUndefined();
    expect(textArgument(tool({}))).toBeUndefined();
  });

  it("is the tool asked for, none when not asked, and refuses one that cannot take text", () => {
    expect(defaultSkillOf(tools, "echo")).toEqual({ tool: tools[0], argument: "message" });
    expect(defaultSkillOf(tools, undefined)).toBeUndefined();
    expect(() => defaultSkillOf(tools, "add")).toThrow('the default skill "add" cannot take a text message: its input is not one string argument');
    expect(() => defaultSkillOf(tools, "nope")).toThrow(`the default skill "nope" is not among the served skills (${SKILLS})`);
  });
});

describe("readApproval", () => {
  it.each<[Part[], boolean | undefined]>([
    [[text("yes")], true],
    [[text(" Approve. ")], true],
    [[text("ok")], true],
    [[text("no")], false],
    [[text("No, do not run it")], false],
    [[text("deny")], false],
    [[data({ approve: true })], true],
    [[text("yes"), data({ approve: false })], false],
    [[text("maybe later")], undefined],
    [[text("yesterday")], undefined],
    [[data({ approve: "yes" })], undefined],
  ])("reads %j as %s", (parts, verdict) => {
    expect(readApproval(message(...parts))).toBe(verdict);
  });
});
