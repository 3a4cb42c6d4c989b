// Loaded only through a dynamic import from JsonEditor, so Monaco and its workers stay out of
// the first-paint bundle. The editor API plus every editor feature (the JSON mode loads them
// all anyway, and contributions must exist before an editor is created), and the JSON language.
import * as monaco from "monaco-editor/editor";
import "monaco-editor/features/register.all";
import { jsonDefaults } from "monaco-editor/languages/features/json/register";
import EditorWorker from "monaco-editor/editor/editor.worker.js?worker";
import JsonWorker from "monaco-editor/languages/features/json/json.worker.js?worker";
import { schemaRegistry } from "./schema-registry.ts";

self.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string): Worker {
    return label === "json" ? new JsonWorker() : new EditorWorker();
  },
};

schemaRegistry.attach((schemas) =>
  jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    comments: "error",
    trailingCommas: "error",
    // Schemas come inline from the app; the editor never fetches one over the network.
    enableSchemaRequest: false,
    schemaRequest: "ignore",
    schemaValidation: "error",
    schemas,
  }),
);

export { monaco };
export type Monaco = typeof monaco;
