import {availableParallelism} from 'node:os'
import {defineConfig} from 'vitest/config'

// Unit tests (test/unit: no I/O, fake CRI, fake clock) and integration tests (test/integration:
// the core and the host adapters against temp dirs, loopback sockets and the fake CRI).
// vitest's default is one worker fewer than the cores (a core kept for its own process): one worker
// on a 2-core machine, so the files ran one at a time. Its own process mostly waits on the workers,
// so every core runs a worker.
const cores = availableParallelism()

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    clearMocks: true,
    restoreMocks: true,
    fileParallelism: true,
    maxWorkers: cores,
    minWorkers: cores,
    // vitest's 5 s per test is passed easily on an idle machine, but the files that parse many MiB
    // of YAML in process (test/unit/manifest) then took over 5 s with a worker per core on a 2-core
    // machine that other work also loads: a time-out there says nothing about kube-node.
    testTimeout: 30_000,
  },
})
