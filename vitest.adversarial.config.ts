import {defineConfig} from 'vitest/config'

// The adversarial suite: one file per class of hostile or careless input (path escapes, parser
// bombs, malformed HTTP, credentials, locks, prototype keys, …), each asserting the safe outcome.
// Cases that need the real runtime use the private containerd of scripts/runtime.sh and their
// own node name, so files run one after another.
export default defineConfig({
  test: {
    include: ['test/adversarial/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
})
