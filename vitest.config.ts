import { availableParallelism } from "node:os";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Vitest's default, one worker fewer than the cores, is a single worker on a two-core machine.
 * Unit tests keep every core busy, in threads (they start faster than processes); integration
 * tests mostly wait on their peers, so one more file than cores runs at once.
 *
 * A unit worker keeps the modules it loaded from one test file to the next (`isolate: false`):
 * loading them afresh for every file was half of the run. No unit test may rely on state another
 * file left or on a module loaded fresh; they pass in shuffled order (`--sequence.shuffle`).
 * Integration files stay isolated: they start servers and clients whose module state is theirs.
 */
const CORES = availableParallelism();

/**
 * Integration tests that stop and restart nats-servers on the ports they chose, or judge how
 * calls spread and how fast clients come back: they run one at a time, after the others, so no
 * neighbour takes a port between a stop and a restart or skews a timing.
 */
const ALONE = ["tests/integration/serve-nats-faults.test.ts", "tests/integration/nats-restart.test.ts", "tests/integration/serve-nats-instances.test.ts"];
const INTEGRATION = {
  environment: "node" as const,
  globalSetup: ["tests/integration/global-setup.ts"],
  testTimeout: 30_000,
  hookTimeout: 30_000,
};

/**
 * Integration files that take several times as long as the rest, longest first. A clean clone
 * has no durations cached, so vitest would start them by file size, and the longest could be
 * left running alone at the end while the other workers idle.
 */
const LONG_FIRST = [
  "tests/integration/cli-oauth-conformance.test.ts",
  "tests/integration/conformance-routes.test.ts",
  "tests/integration/serve-bridge.test.ts",
  "tests/integration/serve-conformance.test.ts",
  "tests/integration/serve-bridge-conformance.test.ts",
];

/** Vitest's order (projects one after another), with each project's LONG_FIRST files moved to its front. */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Projects keep vitest's order; toSorted is stable, so ties keep it too.
    const projects = new Map([...new Set(sorted.map((f) => f.project.name))].map((name, i) => [name, i]));
    const rank = (f: TestSpecification) => {
      const at = LONG_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return at < 0 ? LONG_FIRST.length : at;
    };
    return sorted.toSorted((a, b) => projects.get(a.project.name)! - projects.get(b.project.name)! || rank(a) - rank(b));
  }
}

/** The folder decides the tier: colocated *.test.ts are unit tests, tests/integration needs real peers. */
export default defineConfig({
  plugins: [svelte()],
  test: {
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          pool: "threads",
          maxWorkers: CORES,
          isolate: false,
          include: ["src/**/*.test.ts", "server/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/agreement/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          ...INTEGRATION,
          name: "integration",
          maxWorkers: CORES + 1,
          include: ["tests/integration/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...ALONE],
        },
      },
      {
        extends: true,
        test: { ...INTEGRATION, name: "integration-alone", maxWorkers: 1, include: ALONE },
      },
    ],
  },
});
