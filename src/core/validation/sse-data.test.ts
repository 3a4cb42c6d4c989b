import { describe, expect, it } from "vitest";
import { sseData } from "./sse-data.ts";

describe("sseData", () => {
  it("gives each event's data", () => {
    expect(sseData('data: {"a":1}\n\ndata: {"b":2}\n\n')).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("joins an event's data lines with newlines", () => {
    expect(sseData('data: {"a":\ndata:  1}\n\n')).toEqual(['{"a":\n 1}']);
  });

  it("ignores comments and other fields", () => {
    const body = ': keep-alive\nevent: message\nid: 7\nretry: 1000\ndata: {"a":1}\nfoo: bar\n\n:\n\n';
    expect(sseData(body)).toEqual(['{"a":1}']);
  });

  it("takes the value after the colon with at most one space removed, and a bare field as empty", () => {
    expect(sseData('data:{"a":1}\n\n')).toEqual(['{"a":1}']);
    expect(sseData("data\ndata: x\n\n")).toEqual(["\nx"]);
  });

  it("drops events without data, blank data and the [DONE] sentinel", () => {
    expect(sseData("event: ping\n\ndata:\n\ndata: [DONE]\n\ndata:  [DONE] \n\n")).toEqual([]);
  });

  it("handles CRLF line ends and a last event without a blank line", () => {
    expect(sseData('data: {"a":1}\r\n\r\ndata: {"b":\r\ndata: 2}')).toEqual(['{"a":1}', '{"b":\n2}']);
  });

  it("gives nothing for an empty body", () => {
    expect(sseData("")).toEqual([]);
  });
});
