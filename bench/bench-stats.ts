/** Command-line options and summary statistics shared by the benchmarks. */

/** A positive whole-number option such as `--rounds 5`, or the fallback when absent. */
export function option(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** A ratio option such as `--ceiling 2.6`, at least `min`; undefined when absent. */
export function ratioOption(args: readonly string[], name: string, min: number): number | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a ratio of at least ${min}`);
  return value;
}

export const sorted = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
export const median = (xs: readonly number[]): number => sorted(xs)[Math.floor(xs.length / 2)]!;
export const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
export const percentile = (xs: readonly number[], p: number): number => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
