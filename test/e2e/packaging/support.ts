// Helpers for the tests of the three ways to install kube-node (npm tarball, single executable,
// Debian package): run a tool or an installed kube-node, with the private dirs and runtime of the
// end-to-end tests, and clean up the pods afterwards with the repository's bin/run.js.
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {inject} from 'vitest'
import {ENDPOINT, ROOT, eventually, type Result} from '../support.js'
import type {Package} from './build.js'

export interface RunOptions {
  env?: Record<string, string | undefined>
  /** Replaces the environment instead of adding to it. */
  cleanEnv?: boolean
  cwd?: string
}

/** Runs a program to completion. Asynchronous so that vitest's timeouts still work. */
export function run(file: string, args: readonly string[], opts: RunOptions = {}): Promise<Result> {
  return new Promise((resolvePromise, reject) => {
    const env = opts.cleanEnv ? opts.env : {...process.env, NO_COLOR: '1', OCLIF_COLUMNS: '80', ...opts.env}
    // Standard input is /dev/null, as for a command run from a script.
    const child = spawn(file, args, {env: env as NodeJS.ProcessEnv, cwd: opts.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({code: code ?? -1, stdout, stderr}))
  })
}

/** Like run(), but a non-zero exit fails the test with the program's output. */
export async function must(file: string, args: readonly string[], opts: RunOptions = {}): Promise<Result> {
  const r = await run(file, args, opts)
  if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${r.code}:\n${r.stdout}${r.stderr}`)
  return r
}

/** A test file's own node name and dirs, so that its pods never meet another file's. */
export interface Place {
  node: string
  rootDir: string
  logsDir: string
}

/** The global flags that put kube-node on the e2e runtime and a test file's place. */
export function globals(place: Place): string[] {
  return ['--runtime-endpoint', ENDPOINT, '--root-dir', place.rootDir, '--pod-logs-dir', place.logsDir, '--node-name', place.node]
}

/** Stops and removes every pod of the place, with the repository's own build. */
export async function downAll(place: Place): Promise<void> {
  await must(process.execPath, [join(ROOT, 'bin/run.js'), 'down', '--all', ...globals(place)])
}

/** The quickstart pod's row in `run`/`get pods` output: Running and ready. */
export function helloRunning(place: Place): RegExp {
  return new RegExp(`^hello-${place.node}\\s+1/1\\s+Running\\b`, 'm')
}

export const MANIFESTS = '/etc/kubernetes/manifests'

/**
 * `kube-node watch /etc/kubernetes/manifests …` as the README has it (`command`: the executable
 * and any arguments before `watch`'s own), on the e2e runtime: the quickstart pod put in that
 * directory comes up, and SIGTERM stops kube-node with exit 0 and leaves the pod running. The
 * manifest, and the directories if this made them, are removed again.
 */
export async function watchManifests(command: string[], place: Place, env: Record<string, string> = {}): Promise<void> {
  const helloUp = async () => helloRunning(place).test((await run(process.execPath, [join(ROOT, 'bin/run.js'), 'get', 'pods', ...globals(place)])).stdout)
  if (await helloUp()) throw new Error(`hello-${place.node} runs already: take it down first`)
  const made = ['/etc/kubernetes', MANIFESTS].filter((d) => !existsSync(d))
  mkdirSync(MANIFESTS, {recursive: true})
  const manifest = join(MANIFESTS, `kube-node-test-${place.node}.yaml`)
  writeFileSync(manifest, readFileSync(join(ROOT, 'manifests/hello.yaml')))
  const [file, ...args] = command
  // No ports: the host's 10255 and 10248 may be taken.
  const watch = spawn(file!, [...args, ...globals(place), '--port', '0', '--healthz-port', '0'], {env: {...process.env, ...env}, stdio: ['ignore', 'ignore', 'pipe']})
  let log = ''
  watch.stderr.on('data', (d: Buffer) => (log += d.toString()))
  const exited = new Promise<number | null>((r) => watch.on('exit', (code) => r(code)))
  const up = await eventually(async () => ((await helloUp()) ? true : undefined), 60_000, 'the quickstart pod Running under watch').catch((error: unknown) => error)
  watch.kill('SIGTERM')
  // Only once it has stopped: a manifest removed under a running watch takes its pod down.
  const code = await exited
  rmSync(manifest, {force: true})
  for (const dir of made.reverse()) rmdirSync(dir)
  if (up !== true) throw up
  if (code !== 0) throw new Error(`watch exited ${code}:\n${log}`)
}

/**
 * Waits for this run's build of `pkg` (started by the global setup, ./build.ts); a failed build
 * fails the caller with the build's output.
 */
export async function packageBuilt(pkg: Package): Promise<void> {
  const dir = inject('packagingBuild')
  const status = join(dir, `${pkg}.status`)
  while (!existsSync(status)) await new Promise((r) => setTimeout(r, 500))
  const code = readFileSync(status, 'utf8')
  if (code !== '0') throw new Error(`npm run build:${pkg} exited ${code}:\n${readFileSync(join(dir, `${pkg}.log`), 'utf8')}`)
}
