import {availableParallelism} from 'node:os'
import {defineConfig} from 'vitest/config'

// The adversarial suite: one file per class of hostile or careless input (path escapes, parser
// bombs, malformed HTTP, credentials, locks, prototype keys, …), each asserting the safe outcome.
// Cases that need the real runtime use the private containerd of scripts/runtime.sh and their
// own node name; those files run one after another (a fork each, one fork at a time). The files
// below never reach the runtime (in-process code, `validate`, commands refused before they dial)
// and run in worker threads on every core, alongside the runtime files, which mostly wait.
// A new file runs with the runtime files until it is listed here.
const RUNTIME_FREE = [
  'api-address',
  'bounded-reads',
  'credentials',
  'env-file',
  'kube-api',
  'logs',
  'manifest-bombs',
  'metrics',
  'notify',
  'path-escapes',
  'prototype-keys',
  'start-after-bombs',
  'terminal',
].map((name) => `test/adversarial/${name}.test.ts`)

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Per pool: the runtime files' forks one at a time, the runtime-free files' threads on every core.
    poolOptions: {
      forks: {maxForks: 1, minForks: 1},
      threads: {maxThreads: availableParallelism(), minThreads: 1},
    },
    projects: [
      {extends: true, test: {name: 'adversarial', include: ['test/adversarial/**/*.test.ts'], exclude: RUNTIME_FREE, pool: 'forks'}},
      {extends: true, test: {name: 'adversarial (no runtime)', include: RUNTIME_FREE, pool: 'threads'}},
    ],
  },
})
