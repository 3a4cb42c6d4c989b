import { describe, expect, it } from "vitest";
import { DOT_PNG } from "../../../core/mcp/test-inspect-server.ts";
import { base64Bytes, BLOB_PREVIEW_BYTES, decodeBase64, downloadName, MAX_TEXT_SHOWN, resourceParts } from "./resource-contents.ts";

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe("resourceParts", () => {
  it("shows text as text, and cuts very long text for display only", () => {
    expect(resourceParts({ contents: [{ uri: "a://1", mimeType: "text/plain", text: "hi" }] })).toEqual([{ kind: "text", uri: "a://1", mimeType: "text/plain", text: "hi", shown: "hi", truncated: false }]);
    const long = "x".repeat(MAX_TEXT_SHOWN + 5);
    const [part] = resourceParts({ contents: [{ uri: "a://2", text: long }] });
    expect(part).toMatchObject({ kind: "text", truncated: true, text: long });
    if (part?.kind === "text") expect(part.shown).toHaveLength(MAX_TEXT_SHOWN);
  });

  it("previews image and audio blobs from a safe data URL, with their size", () => {
    expect(resourceParts({ contents: [{ uri: "a://dot", mimeType: "image/png", blob: DOT_PNG }] })).toEqual([
      { kind: "image", uri: "a://dot", mimeType: "image/png", src: `data:image/png;base64,${DOT_PNG}`, bytes: 70, base64: DOT_PNG },
    ]);
    expect(resourceParts({ contents: [{ uri: "a://s", mimeType: "audio/wav", blob: "UklGRg==" }] })[0]).toMatchObject({ kind: "audio", bytes: 4 });
    // A type that could smuggle markup is not previewed as an image.
    expect(resourceParts({ contents: [{ uri: "a://x", mimeType: "image/png;x=<svg>", blob: DOT_PNG }] })[0]?.kind).toBe("binary");
  });

  it("shows other blobs as their size and first bytes: text when UTF-8, else a hex dump", () => {
    const [text] = resourceParts({ contents: [{ uri: "a://t", mimeType: "text/plain", blob: btoa("Resource 3: hello") }] });
    expect(text).toMatchObject({ kind: "binary", bytes: 17, preview: { kind: "text", body: "Resource 3: hello", truncated: null } });
    const [bin] = resourceParts({ contents: [{ uri: "a://b", blob: "/wABAgM=" }] });
    expect(bin).toMatchObject({ kind: "binary", mimeType: undefined, bytes: 5, preview: { kind: "hex", truncated: null } });
    if (bin?.kind === "binary") expect(bin.preview.body).toContain("ff 00 01 02 03");
  });

  it("decodes only the preview of a large blob, saying how much is not shown", () => {
    const bytes = new Uint8Array(BLOB_PREVIEW_BYTES + 1000).map((_, i) => 65 + (i % 26));
    const [part] = resourceParts({ contents: [{ uri: "a://big", mimeType: "application/octet-stream", blob: b64(bytes) }] });
    expect(part).toMatchObject({ kind: "binary", bytes: BLOB_PREVIEW_BYTES + 1000 });
    if (part?.kind !== "binary") return;
    expect(part.preview.body).toHaveLength(BLOB_PREVIEW_BYTES);
    expect(part.preview.truncated).toBe("… 1,000 more bytes not shown (kept whole in exports)");
  });

  it("names malformed contents instead of dropping them", () => {
    expect(resourceParts({})).toEqual([{ kind: "invalid", uri: "", reason: 'The result has no "contents" array.' }]);
    expect(resourceParts({ contents: [7, { uri: "a://n" }, { uri: "a://b", blob: "not base64!" }, { uri: "a://c", blob: "AAAAA" }] })).toEqual([
      { kind: "invalid", uri: "", reason: "Content #1 is not an object." },
      { kind: "invalid", uri: "a://n", reason: 'Content #2 has neither "text" nor "blob".' },
      { kind: "invalid", uri: "a://b", reason: "The blob is not valid base64, so its bytes cannot be shown." },
      { kind: "invalid", uri: "a://c", reason: "The blob is not valid base64, so its bytes cannot be shown." },
    ]);
  });
});

describe("blob helpers", () => {
  it("sizes and decodes base64", () => {
    expect([base64Bytes(""), base64Bytes("AA=="), base64Bytes("AAA="), base64Bytes("AAAA")]).toEqual([0, 1, 2, 3]);
    expect([...decodeBase64("AAECAwQ=")]).toEqual([0, 1, 2, 3, 4]);
  });

  it("names a download after the URI's last segment, else after the type", () => {
    expect(downloadName("demo://resource/static/document/architecture.md", "text/markdown")).toBe("architecture.md");
    expect(downloadName("demo://resource/session/README.md.gz", "application/gzip")).toBe("README.md.gz");
    expect(downloadName("demo://resource/dynamic/blob/3", "text/plain")).toBe("3.txt");
    expect(downloadName("x://a/%2e%2e%2Fetc%2Fpasswd", undefined)).toBe(".._etc_passwd");
    expect(downloadName("", "application/octet-stream")).toBe("resource");
    expect(downloadName("x://h/file?x=1#y", "image/png")).toBe("file.png");
  });
});
