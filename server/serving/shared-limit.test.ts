import { describe, expect, it } from "vitest";
import { HttpError } from "../http/errors.ts";
import { SharedLimit } from "./shared-limit.ts";

describe("SharedLimit", () => {
  it("gives every running surface the same slots, sized by the first", () => {
    const limit = new SharedLimit();
    const mcp = limit.join("MCP", 1, 2);
    const a2a = limit.join("A2A", undefined, 4);
    expect(a2a).toBe(mcp);
    expect(a2a.limit).toBe(1);
    const release = mcp.tryAcquire();
    expect(release).toBeDefined();
    expect(a2a.tryAcquire()).toBeUndefined();
    release!();
    expect(limit.sharedWith("A2A")).toEqual(["MCP"]);
  });

  it("refuses a different number while another surface holds the limit, naming it and what to do", () => {
    const limit = new SharedLimit();
    limit.join("NATS", 3, 2);
    let error: unknown;
    try {
      limit.join("A2A", 5, 2);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(409);
    expect((error as HttpError).code).toBe("concurrency_shared");
    expect((error as HttpError).message).toContain("the NATS surface shares a limit of 3");
    expect(limit.join("A2A", 3, 2).limit).toBe(3);
  });

  it("drops the limit when the last surface leaves, so the next start sizes a new one", () => {
    const limit = new SharedLimit();
    const first = limit.join("MCP", 2, 2);
    limit.join("A2A", undefined, 2);
    limit.leave("MCP");
    expect(limit.join("NATS", undefined, 8)).toBe(first);
    limit.leave("A2A");
    limit.leave("NATS");
    const next = limit.join("MCP", 6, 2);
    expect(next).not.toBe(first);
    expect(next.limit).toBe(6);
  });

  it("lets a surface that restarts alone choose again", () => {
    const limit = new SharedLimit();
    limit.join("A2A", 2, 2);
    expect(limit.join("A2A", 5, 2).limit).toBe(5);
  });
});
