import { describe, expect, it } from "vitest";
import { annotationBadges, contentParts, mediaUrl, rawOf, summarize } from "./result-view.ts";

describe("contentParts", () => {
  it("renders each content type, then structuredContent", () => {
    const parts = contentParts({
      content: [
        { type: "text", text: "hello" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "resource_link", uri: "file:///a.txt", name: "a" },
        { type: "resource", resource: { uri: "file:///b.txt", text: "inside" } },
        { type: "resource", resource: { uri: "file:///c.bin", blob: "AAAA" } },
        { type: "mystery", x: 1 },
      ],
      structuredContent: { sum: 3 },
    });
    expect(parts).toEqual([
      { kind: "text", label: "#1 text", text: "hello" },
      { kind: "image", label: "#2 image (image/png)", src: "data:image/png;base64,iVBORw0KGgo=" },
      { kind: "text", label: "#3 resource link", text: "file:///a.txt\na" },
      { kind: "text", label: "#4 embedded resource file:///b.txt", text: "inside" },
      { kind: "text", label: "#5 embedded resource file:///c.bin", text: "(binary, 4 base64 characters)" },
      { kind: "json", label: "#6 mystery", text: '{\n  "type": "mystery",\n  "x": 1\n}' },
      { kind: "json", label: "structuredContent", text: '{\n  "sum": 3\n}' },
    ]);
    expect(contentParts("nope")).toEqual([]);
  });

  it("refuses media whose type or data could smuggle another kind of URL", () => {
    expect(mediaUrl("image", "text/html", "AAAA")).toBeUndefined();
    expect(mediaUrl("image", "image/svg+xml;charset=x", "AAAA")).toBeUndefined();
    expect(mediaUrl("image", "image/png", "AA,<script>")).toBeUndefined();
    expect(contentParts({ content: [{ type: "image", mimeType: "text/html", data: "AAAA" }] })[0]?.kind).toBe("json");
  });
});

describe("summarize", () => {
  it("names JSON-RPC error, tool error and success apart", () => {
    expect(summarize({ kind: "json-rpc-error", code: -32602, message: "bad", data: undefined }).title).toBe("JSON-RPC error");
    expect(summarize({ kind: "tool-error", result: { isError: true, content: [] } }).title).toBe("Tool error (isError: true)");
    expect(summarize({ kind: "success", result: {}, structuredContentIssues: [] })).toMatchObject({ title: "Success", tone: "good" });
    expect(summarize({ kind: "timeout", timeoutMs: 5 }).detail).toBe("No answer within 5 ms.");
    expect(rawOf({ kind: "json-rpc-error", code: -32601, message: "nope", data: undefined })).toBe('{\n  "code": -32601,\n  "message": "nope"\n}');
  });
});

describe("annotationBadges", () => {
  it("shows the hints a tool declares true", () => {
    expect(annotationBadges({ annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true } }).map((b) => b.word)).toEqual(["read-only", "open world"]);
    expect(annotationBadges({})).toEqual([]);
  });
});
