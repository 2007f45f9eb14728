import {defineConfig} from 'vitest/config'

// End-to-end tests: a real containerd started by scripts/runtime.sh, the built CLI in bin/run.js.
// They share one runtime, so files run one after another. The packaging files (test/e2e/packaging)
// run last: their packages are built once, from the start of the run, beside the other files
// (test/e2e/packaging/build.ts).
export default defineConfig({
  test: {
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
    projects: [
      {extends: true, test: {name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: ['test/e2e/packaging/**']}},
      {
        extends: true,
        test: {
          name: 'packaging',
          include: ['test/e2e/packaging/*.test.ts'],
          globalSetup: ['test/e2e/packaging/build.ts'],
          sequence: {groupOrder: 1},
        },
      },
    ],
  },
})
