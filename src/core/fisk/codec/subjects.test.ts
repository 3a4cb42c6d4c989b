import { describe, expect, it } from "vitest";
import { cancelSubject, discoverySubject, elicitSubject, InvalidSubjectTokenError, taskSubject, toolSubject } from "./subjects.ts";

describe("subjects", () => {
  it("forms the served subjects", () => {
    expect(discoverySubject("nats")).toBe("choria.fisk-ai.discovery.nats");
    expect(toolSubject("nats-tools")).toBe("choria.fisk-ai.tool.nats-tools");
    expect(taskSubject("nats_worker")).toBe("choria.fisk-ai.task.nats_worker");
    expect(cancelSubject("orders-db", "2abc_1")).toBe("choria.fisk-ai.cancel.orders-db.2abc_1");
    expect(elicitSubject("orders-db", "2abc_1")).toBe("choria.fisk-ai.elicit.orders-db.2abc_1");
    expect(cancelSubject("a", "x".repeat(64))).toBe(`choria.fisk-ai.cancel.a.${"x".repeat(64)}`);
  });

  it.each(["task.other", "task>", "task*", "", "task with space", "x".repeat(65)])("refuses the request id %j on cancel and elicit", (request) => {
    expect(() => cancelSubject("orders-db", request)).toThrow(InvalidSubjectTokenError);
    expect(() => elicitSubject("orders-db", request)).toThrow(/request id .* is not valid/);
  });

  it.each(["", "svc.example", "with space", "sl/ash", "a>", "*"])("refuses the identity %j everywhere", (identity) => {
    for (const subject of [discoverySubject, toolSubject, taskSubject]) {
      expect(() => subject(identity)).toThrow(/agent identity .* is not valid/);
    }
    expect(() => cancelSubject(identity, "r")).toThrow(InvalidSubjectTokenError);
    expect(() => elicitSubject(identity, "r")).toThrow(InvalidSubjectTokenError);
  });
});
