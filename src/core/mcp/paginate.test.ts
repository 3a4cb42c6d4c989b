import { describe, expect, it } from "vitest";
import { listAll, MAX_ITEMS, MAX_PAGES, type PageFetcher } from "./paginate.ts";

/** A fetcher that answers from `answer` and records the params of each request. */
function recording(answer: (params: { cursor?: string }, call: number) => unknown) {
  const asked: { method: string; params: { cursor?: string } }[] = [];
  const fetchPage: PageFetcher = async (method, params) => {
    asked.push({ method, params });
    return answer(params, asked.length);
  };
  return { asked, fetchPage };
}

describe("listAll", () => {
  it("follows nextCursor, sending each cursor back, and stops when none is given", async () => {
    const pages: Record<string, unknown> = {
      start: { prompts: [{ name: "a" }], nextCursor: "p2" },
      p2: { prompts: [{ name: "b" }, { name: "c" }], nextCursor: "p3" },
      p3: { prompts: [], nextCursor: null },
    };
    const { asked, fetchPage } = recording((params) => pages[params.cursor ?? "start"]);
    expect((await listAll("prompts", fetchPage)).map((p) => p.name)).toEqual(["a", "b", "c"]);
    expect(asked).toEqual([
      { method: "prompts/list", params: {} },
      { method: "prompts/list", params: { cursor: "p2" } },
      { method: "prompts/list", params: { cursor: "p3" } },
    ]);
  });

  it("uses each list's own method and member", async () => {
    const { asked, fetchPage } = recording(() => ({ resourceTemplates: [{ uriTemplate: "x://{id}" }] }));
    expect(await listAll("resourceTemplates", fetchPage)).toEqual([{ uriTemplate: "x://{id}" }]);
    expect(asked[0]?.method).toBe("resources/templates/list");
  });

  it("stops a server that hands back a cursor it gave before (not only the last one)", async () => {
    const cursors = ["c1", "c2", "c1"];
    const { asked, fetchPage } = recording((_params, call) => ({ tools: [{ name: `t${call}` }], nextCursor: cursors[call - 1] }));
    await expect(listAll("tools", fetchPage)).rejects.toThrow('tools/list page 3: the server repeated cursor "c1", which would loop forever');
    expect(asked).toHaveLength(3);
  });

  it("stops a server whose cursors never end, after MAX_PAGES pages, with a clear error", async () => {
    const { asked, fetchPage } = recording((_params, call) => ({ resources: [], nextCursor: `page-${call}` }));
    await expect(listAll("resources", fetchPage)).rejects.toThrow(`resources/list: stopped after ${MAX_PAGES} pages; the server keeps returning a nextCursor`);
    expect(asked).toHaveLength(MAX_PAGES);
  });

  it("stops a list that grows past MAX_ITEMS before holding it all", async () => {
    const page = Array.from({ length: 50_000 }, (_, i) => ({ name: `t${i}` }));
    const { asked, fetchPage } = recording((_params, call) => ({ tools: page, nextCursor: `n${call}` }));
    await expect(listAll("tools", fetchPage)).rejects.toThrow(`tools/list page 5: stopped at ${MAX_ITEMS} items`);
    expect(asked).toHaveLength(5);
  });

  it("names a malformed page: no list, an entry that is not an object, a cursor that is not a string", async () => {
    await expect(listAll("tools", async () => ({ items: [] }))).rejects.toThrow('tools/list page 1: the result has no "tools" array');
    await expect(listAll("tools", async () => "nope")).rejects.toThrow('tools/list page 1: the result has no "tools" array');
    await expect(listAll("prompts", async () => ({ prompts: [{ name: "a" }, 7] }))).rejects.toThrow('prompts/list page 1: an entry of "prompts" is not an object');
    await expect(listAll("tools", async () => ({ tools: [], nextCursor: 2 }))).rejects.toThrow("tools/list page 1: nextCursor is not a string");
  });

  it("passes a page's failure through unchanged", async () => {
    const failure = new Error("boom");
    await expect(
      listAll("tools", async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });
});
