import { describe, expect, it } from "vitest";
import { readBehaviour } from "./behaviour-tags.ts";

describe("readBehaviour", () => {
  it("declares only the hints the tags name", () => {
    expect(readBehaviour([])).toEqual({ deny: false, confirm: false, warnings: [] });
    expect(readBehaviour(["ai:read_only", "ai:idempotent"])).toEqual({ deny: false, confirm: false, readOnlyHint: true, idempotentHint: true, warnings: [] });
    expect(readBehaviour(["ai:additive"])).toEqual({ deny: false, confirm: false, destructiveHint: false, warnings: [] });
    expect(readBehaviour(["ai:confirm", "ai:read_only"])).toMatchObject({ confirm: true, readOnlyHint: true });
    expect(readBehaviour(["ai:deny"])).toMatchObject({ deny: true });
  });

  it("resolves contradictions to the more dangerous reading, with a warning", () => {
    const b = readBehaviour(["ai:read_only", "ai:destructive"]);
    expect(b).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(b.warnings).toEqual(['"ai:read_only" contradicts "ai:destructive": the tool is treated as writing']);
    const c = readBehaviour(["ai:destructive", "ai:additive"]);
    expect(c).toMatchObject({ destructiveHint: true });
    expect(c.warnings).toEqual(['"ai:destructive" and "ai:additive" contradict: the tool is treated as destructive']);
  });

  it("warns about unknown ai: tags and ignores other tags", () => {
    expect(readBehaviour(["ai:explode", "team:ops"]).warnings).toEqual(['unknown behaviour tag "ai:explode" is ignored']);
  });
});
