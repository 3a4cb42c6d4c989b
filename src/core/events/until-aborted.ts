/**
 * The promise, or the error `stopped` makes as soon as `signal` aborts (at once when it has
 * already). The promise is left to settle alone; what it brings after that is dropped.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, stopped: () => Error): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(stopped());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(stopped());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
