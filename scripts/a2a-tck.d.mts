/** Types for scripts/a2a-tck.mjs, so its tests can import it. */

/** Where the TCK's runner is looked for: PATCHBAY_A2A_TCK, else ../shared/tools/a2a-tck beside the clone. */
export declare const TCK_HOME: string;

export interface JunitFigures {
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly passed: number;
  /** `classname::name` of every test that failed or erred. */
  readonly failing: readonly string[];
}

export declare function readJunit(xml: string): JunitFigures;
export declare function mandatoryBroken(mandatory: JunitFigures): boolean;
