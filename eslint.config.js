import js from "@eslint/js";
import svelte from "eslint-plugin-svelte";
import globals from "globals";
import ts from "typescript-eslint";
import { boundaryConfigs, fileNameRule, sizeConfigs } from "./tools/eslint/boundaries.js";

export default ts.config(
  { ignores: ["dist/**", "node_modules/**", "test-results/**", "playwright-report/**", ".reports/**"] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs["flat/recommended"],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { patchbay: { rules: { "file-name": fileNameRule } } },
    rules: {
      "patchbay/file-name": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    files: ["**/*.svelte", "**/*.svelte.ts"],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: [".svelte"] } },
  },
  {
    files: ["src/**/*.ts", "server/**/*.ts", "tests/**/*.ts", "bench/**/*.ts"],
    ignores: ["**/*.svelte.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { "@typescript-eslint/no-floating-promises": "error" },
  },
  ...boundaryConfigs,
  ...sizeConfigs,
);
