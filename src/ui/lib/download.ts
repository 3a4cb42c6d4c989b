/** A file-name-safe UTC timestamp: 2025-01-02T03-04-05-678Z. */
export function fileTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replaceAll(":", "-").replace(".", "-");
}

/** Offer a blob to the user as a download with the given file name. */
export function downloadBlob(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  a.style.display = "none";
  doc.body.append(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled; revoking synchronously can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
