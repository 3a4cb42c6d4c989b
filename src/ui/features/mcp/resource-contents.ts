import { isJsonObject } from "../../../core/json/index.ts";
import { payloadView, type PayloadView, truncationMarker } from "../../lib/payload-view.ts";
import { mediaUrl } from "./result-view.ts";

/** Text past this many characters is cut on screen (the whole stays downloadable); the DOM slows down beyond. */
export const MAX_TEXT_SHOWN = 200_000;
/** Bytes of a blob shown as text or a hex dump. */
export const BLOB_PREVIEW_BYTES = 4 * 1024;

/** One item of a resources/read result, ready to render by what it holds. */
export type ResourcePart =
  | { readonly kind: "text"; readonly uri: string; readonly mimeType: string | undefined; readonly text: string; readonly shown: string; readonly truncated: boolean }
  | { readonly kind: "image" | "audio"; readonly uri: string; readonly mimeType: string; readonly src: string; readonly bytes: number; readonly base64: string }
  | {
      readonly kind: "binary";
      readonly uri: string;
      readonly mimeType: string | undefined;
      readonly bytes: number;
      readonly base64: string;
      /** The first bytes, as text when they are UTF-8, else as a hex dump. */
      readonly preview: PayloadView;
    }
  | { readonly kind: "invalid"; readonly uri: string; readonly reason: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** How many bytes a base64 string decodes to. */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function blobPart(uri: string, mimeType: string | undefined, blob: string): ResourcePart {
  if (!BASE64.test(blob) || blob.length % 4 === 1) return { kind: "invalid", uri, reason: "The blob is not valid base64, so its bytes cannot be shown." };
  const bytes = base64Bytes(blob);
  for (const kind of ["image", "audio"] as const) {
    const src = mediaUrl(kind, mimeType, blob);
    if (src && mimeType) return { kind, uri, mimeType, src, bytes, base64: blob };
  }
  // Only the previewed prefix is decoded; a multi-megabyte blob stays base64 until it is saved.
  const head = decodeBase64(blob.slice(0, Math.ceil(BLOB_PREVIEW_BYTES / 3) * 4)).subarray(0, BLOB_PREVIEW_BYTES);
  const view = payloadView(head);
  const preview = bytes > head.length ? { ...view, truncated: truncationMarker(bytes - head.length) } : view;
  return { kind: "binary", uri, mimeType, bytes, base64: blob, preview };
}

/** The result's contents, each as text, an image or audio to preview, or bytes to download. */
export function resourceParts(result: unknown): ResourcePart[] {
  if (!isJsonObject(result) || !Array.isArray(result.contents)) return [{ kind: "invalid", uri: "", reason: 'The result has no "contents" array.' }];
  return result.contents.map((item: unknown, i): ResourcePart => {
    if (!isJsonObject(item)) return { kind: "invalid", uri: "", reason: `Content #${i + 1} is not an object.` };
    const uri = typeof item.uri === "string" ? item.uri : "";
    const mimeType = typeof item.mimeType === "string" ? item.mimeType : undefined;
    if (typeof item.text === "string") {
      const truncated = item.text.length > MAX_TEXT_SHOWN;
      return { kind: "text", uri, mimeType, text: item.text, shown: truncated ? item.text.slice(0, MAX_TEXT_SHOWN) : item.text, truncated };
    }
    if (typeof item.blob === "string") return blobPart(uri, mimeType, item.blob);
    return { kind: "invalid", uri, reason: `Content #${i + 1} has neither "text" nor "blob".` };
  });
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  "application/json": "json",
  "application/gzip": "gz",
  "application/pdf": "pdf",
  "application/zip": "zip",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/html": "html",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/svg+xml": "svg",
  "image/webp": "webp",
};

/** A file name for saving a resource: its URI's last segment, else "resource" with an extension for its type. */
export function downloadName(uri: string, mimeType: string | undefined): string {
  const last = uri.split(/[?#]/)[0]?.split("/").filter((s) => s !== "").pop() ?? "";
  let name = "";
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  name = name.replace(/[^\w.\- ]+/g, "_").slice(0, 100);
  if (name !== "" && name.includes(".")) return name;
  const ext = mimeType ? EXTENSIONS[mimeType.split(";")[0]?.trim() ?? ""] : undefined;
  return `${name || "resource"}${ext ? `.${ext}` : ""}`;
}
