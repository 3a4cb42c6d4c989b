/**
 * Raw HTTP against a backend under test, with full control over Host, Origin and body framing
 * (fetch would fill those in), plus a fixture that starts a real backend in-process.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sinkLogger } from "../../src/core/env/defaults.ts";
import { startBackend, type Backend, type BackendOptions } from "../../server/backend.ts";
import { main, type CliIo } from "../../server/cli.ts";
import { launchUrlIn } from "./launch-url.ts";

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly text: string;
  json<T = unknown>(): T;
}

export interface RawRequest {
  readonly port: number;
  readonly method?: string;
  readonly path?: string;
  /** Defaults to `127.0.0.1:<port>`; null sends no Host header at all. */
  readonly host?: string | null;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** One request over a fresh connection; resolves with the whole response. */
export function send(req: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.host !== null) headers.host = req.host ?? `127.0.0.1:${req.port}`;
  if (req.body !== undefined && headers["content-length"] === undefined) {
    headers["content-length"] = String(Buffer.byteLength(req.body));
  }
  return new Promise((resolve, reject) => {
    const r = httpRequest(
      { host: "127.0.0.1", port: req.port, method: req.method ?? "GET", path: req.path ?? "/", headers, setHost: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          const text = body.toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json: <T>() => JSON.parse(text) as T });
        });
      },
    );
    r.on("error", reject);
    r.end(req.body);
  });
}

/** The error body of a JSON error response. */
export function errorOf(res: RawResponse): { code: string; message: string } {
  return res.json<{ error: { code: string; message: string } }>().error;
}

/**
 * Stream a chunked body (no Content-Length) of `chunk` repeated up to `maxChunks` times, and
 * resolve as soon as a response arrives: proves the server answers without reading it all.
 */
export function streamUntilAnswered(
  req: Omit<RawRequest, "body">,
  chunk: Buffer,
  maxChunks: number,
): Promise<{ status: number; text: string; chunksSent: number }> {
  const headers: Record<string, string> = { host: `127.0.0.1:${req.port}`, ...req.headers, "transfer-encoding": "chunked" };
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const r = httpRequest(
      { host: "127.0.0.1", port: req.port, method: req.method ?? "PUT", path: req.path ?? "/", headers, setHost: false, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), chunksSent: sent }));
        res.on("error", reject);
      },
    );
    // The server may close the socket after answering; that is expected here.
    r.on("error", (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && sent < maxChunks) {
        sent++;
        if (!r.write(chunk)) {
          r.once("drain", pump);
          return;
        }
      }
      if (!answered) r.end();
    };
    pump();
  });
}

export interface TestBackend {
  readonly backend: Backend;
  readonly port: number;
  readonly token: string;
  readonly workspace: string;
  readonly distDir: string;
  /** Every log line the backend wrote, as `level message fields-json`. */
  readonly logs: string[];
  /** Authorization header for the API. */
  readonly auth: Record<string, string>;
  close(): Promise<void>;
}

export const TEST_INDEX_HTML = `<!doctype html><html><head><meta name="patchbay-token" content="%PATCHBAY_TOKEN%"><script type="module" src="/assets/app-abc123.js"></script></head><body></body></html>`;

/** A real backend on a free port over a temp workspace and a small fake dist folder. */
export async function startTestBackend(options: Partial<BackendOptions> = {}): Promise<TestBackend> {
  const root = await mkdtemp(join(tmpdir(), "patchbay-http-"));
  const distDir = join(root, "dist");
  const workspace = join(root, "workspace");
  await mkdir(join(distDir, "assets"), { recursive: true });
  await writeFile(join(distDir, "index.html"), TEST_INDEX_HTML);
  await writeFile(join(distDir, "assets", "app-abc123.js"), "export const answer = 42;\n");
  await writeFile(join(distDir, "assets", "validation-worker-Xy_9.js"), "postMessage(1);\n");
  await writeFile(join(distDir, "favicon.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(root, "secret.txt"), "outside the dist folder\n");
  const logs: string[] = [];
  const logger = sinkLogger((level, message, fields) => logs.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`));
  const backend = await startBackend({ workspace, distDir, logger, ...options });
  return {
    backend,
    port: backend.port,
    token: backend.token,
    workspace: options.workspace ?? workspace,
    distDir: options.distDir ?? distDir,
    logs,
    auth: { authorization: `Bearer ${backend.token}` },
    async close() {
      await backend.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface CliRun {
  readonly stdout: string[];
  readonly stderr: string[];
  /** Resolves with the exit code. */
  readonly done: Promise<number>;
  /** Like Ctrl-C: asks `start` to shut down. */
  stop(): void;
  /** The printed launch URL, once `start` is up; rejects if the CLI exits first. */
  launchUrl(): Promise<URL>;
}

/** Run the real CLI in-process with captured output and an abortable lifetime. */
export function runCli(args: readonly string[], env: Record<string, string> = {}, extra: Partial<CliIo> = {}): CliRun {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const controller = new AbortController();
  const done = main(args, {
    stdout: (s) => stdout.push(s),
    stderr: (s) => stderr.push(s),
    env,
    cwd: process.cwd(),
    home: tmpdir(),
    signal: controller.signal,
    ...extra,
  });
  let exited = false;
  void done.finally(() => (exited = true));
  return {
    stdout,
    stderr,
    done,
    stop: () => controller.abort(),
    // Output arrives through the injected io, not a child's pipe, so this polls the captured
    // lines and watches `done` instead of waiting on stream and exit events.
    async launchUrl() {
      for (let i = 0; i < 400; i++) {
        const url = launchUrlIn(stdout.join(""));
        if (url) return url;
        if (exited) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`CLI did not print its URL; stderr: ${stderr.join("")}`);
    },
  };
}
