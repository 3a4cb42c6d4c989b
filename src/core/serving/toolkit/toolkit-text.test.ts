import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { DEMO_TOOLKIT } from "../demo-toolkit.ts";
import { guessSyntax, MAX_TOOLKIT_CHARS, parseToolkitText, toolkitToFile } from "./toolkit-text.ts";

describe("toolkit text", () => {
  it("round-trips the demo toolkit through JSON and YAML", () => {
    const file = toolkitToFile(DEMO_TOOLKIT);
    expect(parseToolkitText(JSON.stringify(file, null, 2))).toEqual({ toolkit: DEMO_TOOLKIT, issues: [] });
    expect(parseToolkitText(stringify(file), "yaml")).toEqual({ toolkit: DEMO_TOOLKIT, issues: [] });
  });

  it("reads a hand-written YAML toolkit with a command tool", () => {
    const text = `format: patchbay.toolkit
version: 1
name: git-tools
tools:
  - name: git_log
    description: Recent commits
    tags: [ai:read_only]
    inputSchema:
      type: object
      properties:
        max: { type: integer }
    run:
      command: [git, log, --oneline]
`;
    expect(guessSyntax(text)).toBe("yaml");
    const r = parseToolkitText(text);
    expect(r.issues).toEqual([]);
    expect(r.toolkit?.tools[0]?.impl).toEqual({ kind: "command", argv: ["git", "log", "--oneline"], positionals: [], timeoutMs: 30_000, env: {} });
  });

  it("reports syntax errors, duplicate keys, alias bombs and oversize files without throwing", () => {
    expect(parseToolkitText('{"format": ', "json").issues[0]?.message).toMatch(/^not valid JSON: /);
    expect(parseToolkitText("a: [1, 2", "yaml").issues[0]?.message).toMatch(/^not valid YAML: /);
    expect(parseToolkitText("name: a\nname: b\n", "yaml").issues[0]?.message).toMatch(/^not valid YAML: .*[Uu]nique|duplicate/i);
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join("\n");
    expect(parseToolkitText(bomb, "yaml").issues[0]?.message).toMatch(/^not valid YAML: .*alias/i);
    expect(parseToolkitText(" ".repeat(MAX_TOOLKIT_CHARS + 1)).issues[0]?.message).toContain("at most 1000000");
    // Text that is neither JSON nor a YAML mapping says so, not that "a toolkit must be a JSON object".
    expect(parseToolkitText("just a string").issues).toEqual([
      { pointer: "", message: "not JSON, and not a YAML mapping either (as YAML it is a plain string)", severity: "error", syntax: true },
    ]);
    expect(parseToolkitText("- a\n- b\n").issues[0]?.message).toBe("not JSON, and not a YAML mapping either (as YAML it is a list)");
    expect(parseToolkitText("[1]", "json").issues[0]?.message).toBe("a toolkit must be a JSON object, not an array");
  });
});
