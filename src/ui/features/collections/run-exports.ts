import { type Collection, encodeCollectionFile, junitXml, type RunReport } from "../../../core/harness/index.ts";
import { fileTimestamp } from "../../lib/download.ts";

/** A file to offer for download. */
export interface ExportFile {
  readonly fileName: string;
  readonly type: string;
  readonly text: string;
}

/** A file-name-safe form of a collection's name. */
export function fileStem(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "").slice(0, 60);
  return s === "" ? "collection" : s;
}

/** The collection as its workspace file (canonical, in its envelope): what `patchbay run` reads. */
export function collectionFile(docName: string, collection: Collection, wallNow: number): ExportFile {
  return { fileName: `${fileStem(docName)}.json`, type: "application/json", text: encodeCollectionFile(collection, wallNow) };
}

/** When the run started, for its file names; the run's own start time when it reads as one. */
function stamp(report: RunReport): string {
  const at = Date.parse(report.startedAt);
  return Number.isFinite(at) ? fileTimestamp(at) : "run";
}

export function reportFile(report: RunReport): ExportFile {
  return { fileName: `${fileStem(report.collection)}-run-${stamp(report)}.json`, type: "application/json", text: `${JSON.stringify(report, null, 2)}\n` };
}

export function junitFile(report: RunReport): ExportFile {
  return { fileName: `${fileStem(report.collection)}-junit-${stamp(report)}.xml`, type: "application/xml", text: junitXml(report) };
}
