/**
 * The import matrix between src/core, src/ui and server, and the file naming scheme, as lint
 * rules. tests/unit/boundaries.test.ts proves each rule fires on a forbidden import.
 */
const nodeBuiltins = ["node:*", "fs", "fs/*", "path", "os", "child_process", "net", "http", "https", "crypto", "stream", "url", "util", "worker_threads"];

const pattern = (group, message) => ({ group, message });

const frameworks = [
  pattern(["svelte", "svelte/*", "*.svelte"], "core is framework-free: Svelte belongs in src/ui."),
  pattern(["monaco-editor", "monaco-editor/*"], "core is framework-free: Monaco belongs in src/ui/editor."),
];
const nodeOnly = [
  pattern(nodeBuiltins, "Node built-ins are allowed in core only inside a node/ folder."),
  pattern(["@nats-io/transport-node"], "The TCP NATS transport is Node-only: use it from a core node/ folder."),
];
const layerEscapes = {
  core: [
    pattern(["**/ui/**", "**/ui"], "core must not import the UI layer."),
    // Relative paths only: the MCP SDK's own `server/` entry points are a package path, not the backend.
    { regex: "^(\\.{1,2}/)+(.*/)?server(/|$)", message: "core must not import the backend." },
  ],
  ui: [pattern(["**/server/**", "../../server*"], "The UI must not import the backend; use the HTTP API.")],
  server: [pattern(["**/src/ui/**", "**/ui/**"], "The backend must not import the UI layer.")],
};
const sdkOutsideMcp = pattern(
  [
    "@modelcontextprotocol/sdk",
    "@modelcontextprotocol/sdk/*",
    "@modelcontextprotocol/client",
    "@modelcontextprotocol/client/*",
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/server/*",
    "@modelcontextprotocol/core",
    "@modelcontextprotocol/core/*",
  ],
  "The MCP SDK is used only in src/core/mcp and src/core/serving.",
);
const natsLibOutsideNats = pattern(
  ["@nats-io/nats-core", "@nats-io/nats-core/*", "@nats-io/transport-node"],
  "NATS libraries are used only in src/core/nats; elsewhere depend on the NatsPort interface.",
);
const ajvOutsideSchema = pattern(["ajv", "ajv/*", "ajv-formats"], "ajv is used only in src/core/schema.");
const a2aSdkOutsideServing = pattern(
  ["@a2a-js/sdk", "@a2a-js/sdk/*"],
  "The A2A SDK is used only by the served agent, in src/core/serving/a2a; Patchbay's own A2A client is src/core/a2a.",
);
const uiLibraries = [
  pattern(["@nats-io/*"], "The UI reaches NATS through core."),
  pattern(["@modelcontextprotocol/*"], "The UI reaches MCP through core."),
  pattern(["ajv", "ajv/*", "ajv-formats"], "The UI validates through core."),
];
const monacoOutsideEditor = pattern(["monaco-editor", "monaco-editor/*"], "Monaco is loaded only by src/ui/editor.");

const restrict = (...patterns) => ({
  "no-restricted-imports": ["error", { patterns: patterns.flat() }],
});

export const boundaryConfigs = [
  {
    files: ["src/core/**/*.ts"],
    rules: restrict(frameworks, nodeOnly, layerEscapes.core, sdkOutsideMcp, natsLibOutsideNats, ajvOutsideSchema, a2aSdkOutsideServing),
  },
  {
    files: ["src/core/**/node/**/*.ts"],
    rules: restrict(frameworks, layerEscapes.core, sdkOutsideMcp, natsLibOutsideNats, ajvOutsideSchema, a2aSdkOutsideServing),
  },
  {
    files: ["src/core/nats/**/*.ts"],
    rules: restrict(frameworks, nodeOnly, layerEscapes.core, sdkOutsideMcp, ajvOutsideSchema, a2aSdkOutsideServing),
  },
  {
    files: ["src/core/nats/node/**/*.ts"],
    rules: restrict(frameworks, layerEscapes.core, sdkOutsideMcp, ajvOutsideSchema, a2aSdkOutsideServing),
  },
  {
    files: ["src/core/mcp/**/*.ts", "src/core/serving/**/*.ts"],
    rules: restrict(frameworks, nodeOnly, layerEscapes.core, natsLibOutsideNats, ajvOutsideSchema, a2aSdkOutsideServing),
  },
  {
    files: ["src/core/serving/**/node/**/*.ts"],
    rules: restrict(frameworks, layerEscapes.core, natsLibOutsideNats, ajvOutsideSchema, a2aSdkOutsideServing),
  },
  {
    files: ["src/core/serving/a2a/**/*.ts"],
    rules: restrict(frameworks, nodeOnly, layerEscapes.core, natsLibOutsideNats, ajvOutsideSchema),
  },
  {
    files: ["src/core/serving/a2a/node/**/*.ts"],
    rules: restrict(frameworks, layerEscapes.core, natsLibOutsideNats, ajvOutsideSchema),
  },
  {
    files: ["src/core/schema/**/*.ts"],
    rules: restrict(frameworks, nodeOnly, layerEscapes.core, sdkOutsideMcp, natsLibOutsideNats, a2aSdkOutsideServing),
  },
  {
    files: ["src/ui/**/*.ts", "src/ui/**/*.svelte", "src/main.ts"],
    rules: restrict(nodeOnly, layerEscapes.ui, uiLibraries, monacoOutsideEditor, a2aSdkOutsideServing),
  },
  {
    files: ["src/ui/editor/**/*.ts", "src/ui/editor/**/*.svelte"],
    rules: restrict(nodeOnly, layerEscapes.ui, uiLibraries, a2aSdkOutsideServing),
  },
  {
    files: ["server/**/*.ts"],
    rules: restrict(
      layerEscapes.server,
      pattern(["svelte", "svelte/*", "monaco-editor", "monaco-editor/*"], "The backend has no UI framework."),
      sdkOutsideMcp,
      natsLibOutsideNats,
      a2aSdkOutsideServing,
    ),
  },
];

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.(?:svelte|test|spec|bench|d|config|node|browser|server))*\.(?:ts|js|mjs|mts)$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*\.svelte$/;

/** One naming scheme: kebab-case modules, PascalCase components. */
export const fileNameRule = {
  meta: { type: "suggestion", schema: [], messages: { bad: "File name '{{name}}' breaks the naming scheme: {{want}}." } },
  create(context) {
    const path = context.filename.replaceAll("\\", "/");
    const name = path.slice(path.lastIndexOf("/") + 1);
    const want = name.endsWith(".svelte") && !name.endsWith(".svelte.ts") ? "PascalCase.svelte" : "kebab-case.ts";
    const ok = name.endsWith(".svelte") && !name.endsWith(".svelte.ts") ? PASCAL.test(name) : KEBAB.test(name);
    return {
      Program(node) {
        if (!ok) context.report({ node, messageId: "bad", data: { name, want } });
      },
    };
  },
};

const MAX_LINES = { module: 400, component: 200 };

/** Soft size cap: modules past 400 lines and components past 200 should be split by responsibility. */
export const sizeConfigs = [
  { files: ["src/**/*.ts", "server/**/*.ts"], ignores: ["**/*.test.ts"], rules: { "max-lines": ["error", { max: MAX_LINES.module, skipBlankLines: true, skipComments: true }] } },
  { files: ["src/**/*.svelte"], rules: { "max-lines": ["error", { max: MAX_LINES.component, skipBlankLines: true, skipComments: true }] } },
];
