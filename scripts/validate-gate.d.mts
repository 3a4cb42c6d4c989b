/** Types for scripts/validate-gate.mjs, so the unit tests can import it. */

export interface RunRatio {
  readonly ratio: number;
  readonly goal: number;
}

export interface GateVerdict {
  readonly ok: boolean;
  readonly best?: number;
  readonly median?: number;
  readonly message: string;
}

export interface GateOptions {
  readonly runs: number;
  readonly goal: number | undefined;
}

export declare function ratioOf(output: string): RunRatio | null;
export declare function judge(ratios: readonly number[], goal: number): GateVerdict;
export declare function gateOptions(argv: readonly string[]): GateOptions | string;
