/**
 * A stdio MCP server as a relay peer: spawned with an argv (never a shell), frames written to its
 * stdin one per line, stdout lines become `message` events and stderr lines `stderr` events.
 * The child leads its own process group so closing it also ends anything it started.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { stat } from "node:fs/promises";
import { HttpError } from "../http/errors.ts";
import { createLineSplitter } from "./line-splitter.ts";
import { SessionClosedError, type Peer, type PeerSink } from "./relay-peer.ts";
import type { StdioSpec } from "./session-spec.ts";

export const KILL_GRACE_MS = 2000;
const GROUPS = process.platform !== "win32";

const spawnFailed = (message: string) => new HttpError(502, "spawn_failed", message);

function spawnMessage(err: NodeJS.ErrnoException, spec: StdioSpec): string {
  const cmd = JSON.stringify(spec.command);
  if (err.code === "ENOENT") return `command ${cmd} was not found (ENOENT); give a path or a command on the backend's PATH`;
  if (err.code === "EACCES") return `command ${cmd} is not executable (EACCES)`;
  return `command ${cmd} could not be started (${err.code ?? "error"}: ${err.message})`;
}

async function checkCwd(cwd: string): Promise<void> {
  try {
    if ((await stat(cwd)).isDirectory()) return;
  } catch (err) {
    throw spawnFailed(`working directory ${JSON.stringify(cwd)} is not accessible (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
  throw spawnFailed(`working directory ${JSON.stringify(cwd)} is not a directory`);
}

function signalChild(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (GROUPS) process.kill(-pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

/** Spawn the server; rejects with a 502 `spawn_failed` HttpError (the code names the step; the message, the command). */
export async function startStdio(spec: StdioSpec, sink: PeerSink): Promise<Peer> {
  if (spec.cwd !== undefined) await checkCwd(spec.cwd);
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      detached: GROUPS,
      windowsHide: true,
    });
  } catch (err) {
    throw spawnFailed(spawnMessage(err as NodeJS.ErrnoException, spec));
  }
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (err) => reject(spawnFailed(spawnMessage(err, spec))));
  });

  let exited = false;
  const gone = new Promise<void>((resolve) => {
    child.once("close", (code, signal) => {
      exited = true;
      if (code !== null) sink.closed(`process exited with code ${code}`, code);
      else sink.closed(`process was ended by ${signal ?? "a signal"}`);
      resolve();
    });
  });
  child.on("error", (err) => sink.emit({ type: "error", step: "spawn", message: `process error: ${err.message}` }));

  const overflow = (what: string) => (chars: number) =>
    sink.emit({ type: "error", step: "protocol", message: `a ${what} line of over ${chars} characters was discarded` });
  const stdout = createLineSplitter((text) => sink.emit({ type: "message", text }), overflow("stdout"));
  const stderr = createLineSplitter((text) => sink.emit({ type: "stderr", text }), overflow("stderr"));
  child.stdout.on("data", (chunk: Buffer) => stdout.write(chunk));
  child.stdout.on("end", () => stdout.end());
  child.stderr.on("data", (chunk: Buffer) => stderr.write(chunk));
  child.stderr.on("end", () => stderr.end());
  child.stdin.on("error", (err: NodeJS.ErrnoException) => {
    if (!exited) sink.emit({ type: "error", step: "protocol", message: `writing to the server's stdin failed (${err.code ?? err.message})` });
  });

  return {
    pid: child.pid,
    async send(bytes) {
      if (exited || !child.stdin.writable) throw new SessionClosedError("the server process has exited");
      const ok = child.stdin.write(Buffer.concat([bytes, Buffer.from("\n")]));
      if (!ok) await new Promise<void>((resolve) => {
        child.stdin.once("drain", resolve);
        child.once("close", resolve);
      });
    },
    async close() {
      if (exited) return;
      child.stdin.end();
      signalChild(child, "SIGTERM");
      const timer = setTimeout(() => signalChild(child, "SIGKILL"), KILL_GRACE_MS);
      timer.unref();
      await gone;
      clearTimeout(timer);
    },
    killNow() {
      if (!exited) signalChild(child, "SIGKILL");
    },
  };
}
