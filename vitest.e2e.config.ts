import {basename} from 'node:path'
import {defineConfig} from 'vitest/config'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

// End-to-end tests: a real containerd started by scripts/runtime.sh, the built CLI in bin/run.js.
// Each file runs as a node of its own (test/e2e/support.ts) with its own root and log dirs, so
// files run side by side against the one runtime: they mostly wait on containerd and on the pods'
// own timers, so more files than cores run at once. Two groups follow the parallel one, in order:
// the packaging files (test/e2e/packaging), whose packages are built once, from the start of the
// run, beside the other files (test/e2e/packaging/build.ts); and runtime-restart.test.ts, which
// kills the runtime everyone shares and so runs alone, last (scripts/test.sh also runs it only
// after the adversarial suite).
const E2E_WORKERS = Number(process.env['KUBE_NODE_E2E_WORKERS'] ?? 4)

/**
 * The files that take longest (a minute or more on an idle machine), longest first: started first,
 * so that the run does not wait on one of them at its end. vitest knows durations only from an
 * earlier run's cache, which a fresh clone has not.
 */
const SLOW_FIRST = ['faults', 'spec', 'verdict', 'one-truth', 'cli-entry', 'kubelet-semantics', 'run', 'kubelet-timing', 'watch', 'upgrades', 'kubectl-habits', 'fields-report']
const rank = (spec: TestSpecification): number => {
  const i = SLOW_FIRST.indexOf(basename(spec.moduleId, '.test.ts'))
  return i === -1 ? SLOW_FIRST.length : i
}
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    sequence: {sequencer: SlowFirst},
    fileParallelism: true,
    maxWorkers: E2E_WORKERS,
    minWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects: [
      {extends: true, test: {name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: ['test/e2e/packaging/**', 'test/e2e/runtime-restart.test.ts']}},
      {
        extends: true,
        test: {
          name: 'packaging',
          include: ['test/e2e/packaging/*.test.ts'],
          globalSetup: ['test/e2e/packaging/build.ts'],
          sequence: {groupOrder: 1},
        },
      },
      {extends: true, test: {name: 'runtime-restart', include: ['test/e2e/runtime-restart.test.ts'], sequence: {groupOrder: 2}}},
    ],
  },
})
