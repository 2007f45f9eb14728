import {defineConfig} from 'vitest/config'

// End-to-end tests: a real containerd started by scripts/runtime.sh, the built CLI in bin/run.js.
// They share one runtime, so files run one after another.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
