import { describe, expect, it } from "vitest";
import { endWords } from "./frame-words.ts";

describe("endWords", () => {
  it("names each dialect's stream end, and a stream that closed early by the dialect's rule", () => {
    expect(endWords("final", "0.2")).toBe("the stream ended at final: true");
    expect(endWords("terminal", "1.0")).toBe("the stream ended at a terminal state");
    expect(endWords("open", "0.1")).toBe("the stream closed before final: true");
    expect(endWords("open", "1.0")).toBe("the stream closed before a terminal or interrupted state");
  });

  it("says when a stream request was answered with a plain JSON body, as OpenFang's send route does", () => {
    expect(endWords(undefined, "0.1")).toBe("the agent answered with one JSON body, not an event stream");
  });
});
