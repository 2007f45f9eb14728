// The three packages (single executable, npm tarball, .deb) are built once per run of the
// packaging tests, not once per file: the vitest global setup of the packaging project
// (vitest.e2e.config.ts) starts the builds when the run begins, in the background and at low
// priority, so that they overlap the end-to-end files that mostly wait on containerd; the packaging
// files run last and each waits for its package with packageBuilt() (./support.ts).
// It runs in vitest's main process, where the test API ('vitest') cannot be imported.
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdtempSync, openSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import type {TestProject} from 'vitest/node'

const ROOT = resolve(import.meta.dirname, '../../..')

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the packaging builds write their logs and, once each ends, its exit code. */
    packagingBuild: string
  }
}

/** The npm scripts, in order: build:deb reuses a single executable newer than the bundle. */
const PACKAGES = ['sea', 'npm', 'deb'] as const
export type Package = (typeof PACKAGES)[number]

/** The global setup: starts the builds and, at the end of the run, stops one that still runs. */
export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kn-packaging-build-'))
  let current: ChildProcess | undefined
  let stopped = false
  const buildOne = (pkg: Package): Promise<number> =>
    new Promise((resolve) => {
      const log = openSync(join(dir, `${pkg}.log`), 'w')
      current = spawn('nice', ['-n', '10', 'npm', 'run', '--silent', `build:${pkg}`], {cwd: ROOT, stdio: ['ignore', log, log]})
      current.on('error', () => resolve(-1))
      current.on('close', (code) => resolve(code ?? -1))
    })
  const all = (async () => {
    for (const pkg of PACKAGES) {
      if (stopped) return
      const code = await buildOne(pkg)
      // Renamed into place: a reader never sees half of it.
      writeFileSync(join(dir, `${pkg}.tmp`), String(code))
      renameSync(join(dir, `${pkg}.tmp`), join(dir, `${pkg}.status`))
    }
  })()
  project.provide('packagingBuild', dir)
  return async () => {
    stopped = true
    current?.kill('SIGTERM')
    await all
    rmSync(dir, {recursive: true, force: true})
  }
}
