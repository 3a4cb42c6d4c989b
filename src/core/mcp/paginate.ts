import { isJsonObject } from "../json/index.ts";
import type { ListName } from "./connection-types.ts";

/** The request method and result member of each paginated list. */
export const LISTS: Readonly<Record<ListName, { readonly method: string; readonly key: string }>> = {
  tools: { method: "tools/list", key: "tools" },
  resources: { method: "resources/list", key: "resources" },
  resourceTemplates: { method: "resources/templates/list", key: "resourceTemplates" },
  prompts: { method: "prompts/list", key: "prompts" },
};

/** Far beyond any real server; stops a server that hands out cursors forever. */
export const MAX_PAGES = 1000;

/** Far beyond the 10,000-tool servers people run; stops a server whose pages never end from filling memory. */
export const MAX_ITEMS = 200_000;

/** Fetches one page: the request's params and what came back. */
export type PageFetcher = (method: string, params: { cursor?: string }) => Promise<unknown>;

/** Every item of a list, following `nextCursor` until the server stops giving one. */
export async function listAll(list: ListName, fetchPage: PageFetcher): Promise<Record<string, unknown>[]> {
  const { method, key } = LISTS[list];
  const items: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(method, cursor === undefined ? {} : { cursor });
    if (!isJsonObject(result) || !Array.isArray(result[key])) {
      throw new Error(`${method} page ${page}: the result has no "${key}" array`);
    }
    const entries = result[key] as unknown[];
    if (items.length + entries.length > MAX_ITEMS) {
      throw new Error(`${method} page ${page}: stopped at ${MAX_ITEMS} items; the list is larger than any this console will hold`);
    }
    for (const item of entries) {
      if (!isJsonObject(item)) throw new Error(`${method} page ${page}: an entry of "${key}" is not an object`);
      items.push(item);
    }
    const next = result.nextCursor;
    if (next === undefined || next === null) return items;
    if (typeof next !== "string") throw new Error(`${method} page ${page}: nextCursor is not a string`);
    if (seen.has(next)) throw new Error(`${method} page ${page}: the server repeated cursor ${JSON.stringify(next)}, which would loop forever`);
    if (page >= MAX_PAGES) throw new Error(`${method}: stopped after ${MAX_PAGES} pages; the server keeps returning a nextCursor`);
    seen.add(next);
    cursor = next;
  }
}
