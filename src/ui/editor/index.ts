// Importing this barrel never loads Monaco: JsonEditor fetches it on mount.
export { default as JsonEditor } from "./JsonEditor.svelte";
export type { EditorMarker, Problem } from "./markers.ts";
