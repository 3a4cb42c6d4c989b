import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { nodeBuiltinGate } from "../../tools/vite/node-builtin-gate.ts";

const eslint = new ESLint({ cwd: process.cwd() });

/** Lint `code` as if it lived at `filePath` and return the rule ids that fired. */
async function rulesFiring(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

/** The first lint builds the type-aware program: seconds on a busy 2-core machine, not a hang. */
const LINT_TIMEOUT = { timeout: 30_000 };

// Existing files are used as lint targets so type-aware rules find them in a tsconfig.
const CORE_FILE = "src/core/wire/decode.ts";
const CORE_NODE_FILE = "src/core/nats/node/tcp-connector.ts";
const UI_FILE = "src/ui/app/theme.ts";

describe("import boundaries are enforced by lint", LINT_TIMEOUT, () => {
  it.each([
    ["Svelte in core", `import { mount } from "svelte";\nexport const m = mount;\n`, CORE_FILE],
    ["Monaco in core", `import * as monaco from "monaco-editor";\nexport const m = monaco;\n`, CORE_FILE],
    ["a Node built-in in core", `import { readFile } from "node:fs/promises";\nexport const r = readFile;\n`, CORE_FILE],
    ["bare fs in core", `import { readFileSync } from "fs";\nexport const r = readFileSync;\n`, CORE_FILE],
    ["the UI from core", `import { nextIndex } from "../../ui/lib/roving-focus.ts";\nexport const n = nextIndex;\n`, CORE_FILE],
    ["the MCP SDK outside core/mcp", `import { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport const c = Client;\n`, CORE_FILE],
    ["the v2 MCP client package outside core/mcp", `import { Client } from "@modelcontextprotocol/client";\nexport const c = Client;\n`, CORE_FILE],
    ["nats-core outside core/nats", `import { headers } from "@nats-io/nats-core";\nexport const h = headers;\n`, UI_FILE],
    ["Monaco outside ui/editor", `import * as monaco from "monaco-editor";\nexport const m = monaco;\n`, UI_FILE],
    ["the backend from the UI", `import { main } from "../../../server/cli.ts";\nexport const m = main;\n`, UI_FILE],
    ["the backend from core", `import { main } from "../../../server/cli.ts";\nexport const m = main;\n`, CORE_FILE],
    ["the A2A SDK outside the served agent", `import { AgentCard } from "@a2a-js/sdk";\nexport const a = AgentCard;\n`, CORE_FILE],
    ["the A2A SDK in the backend", `import { restHandler } from "@a2a-js/sdk/server/express";\nexport const r = restHandler;\n`, "server/serving/a2a-listener.ts"],
    ["the A2A SDK in the UI", `import { ClientFactory } from "@a2a-js/sdk/client";\nexport const c = ClientFactory;\n`, UI_FILE],
    ["a Node built-in in the served agent outside its node/ folder", `import { createServer } from "node:http";\nexport const c = createServer;\n`, "src/core/serving/a2a/a2a-agent.ts"],
  ])("catches %s", async (_name, code, file) => {
    expect(await rulesFiring(code, file)).toContain("no-restricted-imports");
  });

  it("allows Node built-ins inside a core node/ folder", async () => {
    const code = `import { readFile } from "node:fs/promises";\nexport const r = readFile;\n`;
    expect(await rulesFiring(code, CORE_NODE_FILE)).not.toContain("no-restricted-imports");
  });

  it("lets core/mcp use the MCP SDK's own server entry points, which are not the backend", async () => {
    const code = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport const s = McpServer;\n`;
    expect(await rulesFiring(code, "src/core/mcp/connection.ts")).not.toContain("no-restricted-imports");
  });

  it("lets the served A2A agent use the A2A SDK, and Node built-ins in its node/ folder", async () => {
    const sdk = `import { AgentCard } from "@a2a-js/sdk";\nexport const a = AgentCard;\n`;
    expect(await rulesFiring(sdk, "src/core/serving/a2a/a2a-card.ts")).not.toContain("no-restricted-imports");
    const node = `import { createServer } from "node:http";\nimport { restHandler } from "@a2a-js/sdk/server/express";\nexport const c = [createServer, restHandler];\n`;
    expect(await rulesFiring(node, "src/core/serving/a2a/node/rest-app.ts")).not.toContain("no-restricted-imports");
  });

  it("allows core to import core", async () => {
    const code = `import { utf8Text } from "./decode.ts";\nexport const u = utf8Text;\n`;
    expect(await rulesFiring(code, CORE_FILE)).toEqual([]);
  });
});

describe("one naming scheme is enforced by lint", LINT_TIMEOUT, () => {
  it.each([
    ["tools/eslint/CamelCase.ts", true],
    ["tools/eslint/snake_case.ts", true],
    ["tools/eslint/kebab-case.ts", false],
    ["src/ui/components/lower-case.svelte", true],
    ["src/ui/components/PascalCase.svelte", false],
  ])("%s flagged: %s", async (file, flagged) => {
    const code = file.endsWith(".svelte") ? `<p>x</p>\n` : `export const x = 1;\n`;
    expect((await rulesFiring(code, file)).includes("patchbay/file-name")).toBe(flagged);
  });
});

describe("the build gate refuses Node built-ins in the browser bundle", () => {
  const gate = nodeBuiltinGate();
  const resolveId = gate.resolveId as (this: unknown, source: string, importer?: string) => unknown;
  const ctx = {
    error(message: string): never {
      throw new Error(message);
    },
  };

  it.each(["node:fs", "fs", "child_process", "node:worker_threads"])("fails on %s", (source) => {
    expect(() => resolveId.call(ctx, source, "/src/core/x.ts")).toThrow(/cannot ship to the browser.*|Node built-in/);
  });

  it("leaves a known guarded probe to Vite's browser stub", () => {
    expect(resolveId.call(ctx, "crypto", "/work/node_modules/tweetnacl/nacl-fast.js")).toBeNull();
  });

  it("still fails on any other dependency's built-in import", () => {
    expect(() => resolveId.call(ctx, "fs", "/work/node_modules/tweetnacl/nacl-fast.js")).toThrow(/Node built-in "fs"/);
    expect(() => resolveId.call(ctx, "crypto", "/work/node_modules/some-lib/index.js")).toThrow(/Node built-in "crypto"/);
  });

  it("passes ordinary modules through", () => {
    expect(resolveId.call(ctx, "svelte", "/src/main.ts")).toBeNull();
  });
});
