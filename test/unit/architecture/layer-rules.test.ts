// The import rules of ARCHITECTURE.md prove themselves: every rule of .dependency-cruiser.cjs and
// of scripts/check-globals.mjs reports a deliberate violation in a tiny tree of fixtures (one
// cruise of them all), lets what it allows pass, and finds nothing in the real src/.
import {execFile} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const repo = join(import.meta.dirname, '../../..')
const configPath = join(repo, '.dependency-cruiser.cjs')
const depcruise = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')
const ruleNames = (createRequire(import.meta.url)(configPath) as {forbidden: Array<{name: string}>}).forbidden.map((r) => r.name)

interface Violation {
  rule: string
  from: string
  to: string
}

/** What each rule must report: the file that breaks it and what that file holds. */
const IMPORT_VIOLATIONS: Record<string, [file: string, text: string]> = {
  'layer-api': ['src/api/bad.ts', `import {t} from '../decide/t.js'\nexport const b = t\n`],
  'layer-util': ['src/util/bad.ts', `import {t} from '../decide/t.js'\nexport const b = t\n`],
  'layer-cri-port': ['src/cri/port.ts', `import {t} from '../decide/t.js'\nexport const b = t\n`],
  'layer-cri-grpc': ['src/cri/grpc/bad.ts', `import {t} from '../../decide/t.js'\nexport const b = t\n`],
  'layer-host': ['src/host/bad.ts', `import {t} from '../decide/t.js'\nexport const b = t\n`],
  'host-implementation-only-in-composition-root': ['src/apply/host.ts', `import {t} from '../host/impl.js'\nexport const b = t\n`],
  'layer-manifest': ['src/manifest/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-store': ['src/store/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-volumes': ['src/volumes/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-kuberuntime': ['src/kuberuntime/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-pod': ['src/pod/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-images': ['src/images/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-decide': ['src/decide/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-status': ['src/status/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-prober': ['src/prober/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-pleg': ['src/pleg/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-apply': ['src/apply/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-loop': ['src/loop/bad.ts', `import {t} from '../server/t.js'\nexport const b = t\n`],
  'layer-sources': ['src/sources/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-server': ['src/server/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-node': ['src/node/cli.ts', `import {t} from '../cli/t.js'\nexport const b = t\n`],
  'layer-services': ['src/services/cli.ts', `import {t} from '../cli/t.js'\nexport const b = t\n`],
  'layer-metrics': ['src/metrics/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'entry-is-the-top': ['src/node/entry.ts', `import {t} from '../entry/t.js'\nexport const b = t\n`],
  'layer-entry': ['src/entry/bad.ts', `import {t} from '../node/t.js'\nexport const b = t\n`],
  'layer-cli': ['src/cli/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'layer-commands': ['src/commands/bad.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'ui-libraries-only-in-cli': ['src/node/ui.ts', `import chalk from 'chalk'\nexport const b = chalk\n`],
  'grpc-only-in-cri-grpc': ['src/node/grpc.ts', `import * as grpc from '@grpc/grpc-js'\nexport const b = grpc\n`],
  // A pure module importing a helper that does I/O (a host/ file), whatever the folder rules allow.
  'pure-modules-do-no-io': ['src/status/io.ts', `import {readBounded} from '../host/read-bounded.js'\nexport const b = readBounded\n`],
  // kuberuntime/logs.ts reading the disk itself, not through HostFs.
  'fs-only-in-host': ['src/kuberuntime/logs.ts', `import {open} from 'node:fs/promises'\nexport const b = open\n`],
  'layer-cri-instrumented': ['src/cri/instrumented.ts', `import {t} from '../loop/t.js'\nexport const b = t\n`],
  'no-tests-from-src': ['src/node/test.ts', `import {t} from '../../test/t.js'\nexport const b = t\n`],
}

/** More ways to break a rule than its first fixture shows: [rule, file, text]. */
const MORE_VIOLATIONS: Array<[rule: string, file: string, text: string]> = [
  // Any kind of dependency counts, a dynamic import too; node/ is no exception to HostFs.
  ['fs-only-in-host', 'src/sources/dynamic.ts', `export const f = () => import('node:fs')\n`],
  ['fs-only-in-host', 'src/node/fs.ts', `import {readFileSync} from 'fs'\nexport const b = readFileSync\n`],
  // A pure module may not import a value even from the host port.
  ['pure-modules-do-no-io', 'src/kuberuntime/port-value.ts', `import {PRIVATE_DIR_MODE} from '../host/port.js'\nexport const b = PRIVATE_DIR_MODE\n`],
  ['pure-modules-do-no-io', 'src/decide/os.ts', `import {cpus} from 'node:os'\nexport const b = cpus\n`],
  ['pure-modules-do-no-io', 'src/status/gather.ts', `import {GatheredWrites} from '../util/gathered-writes.js'\nexport const b = GatheredWrites\n`],
]

/** What the rules allow: these files must report nothing. */
const ALLOWED: Record<string, string> = {
  // Types of the host port are fine in a pure module (kuberuntime's builders); so is node:path.
  'src/kuberuntime/ok.ts': `import type {HostFs} from '../host/port.js'\nimport {join} from 'node:path'\nexport const ok = (fs: HostFs) => join(String(fs), 'x')\n`,
  // node/ picks host implementations; host/ may touch the disk.
  'src/node/ok.ts': `import {t} from '../host/impl.js'\nexport const ok = t\n`,
  'src/host/ok.ts': `import {readFile} from 'node:fs/promises'\nexport const ok = readFile\n`,
  // The core may use timers and randomness (injected defaults); only the pure modules may not.
  'src/loop/ok.ts': `export const ok = () => [setTimeout(() => {}, 1), Math.random()]\n`,
  // new Date(t) converts a time it was given; a property named process is no global.
  'src/status/ok.ts': `export const ok = (t: number, o: {process: number}) => [new Date(t).toISOString(), o.process]\ntype T = typeof setTimeout\nexport type U = T\n`,
}

/** What the global checker must report: rule → [file, text]. */
const GLOBAL_VIOLATIONS: Record<string, Array<[file: string, text: string]>> = {
  'pure-modules-read-no-globals': [
    ['src/decide/env.ts', `export const e = process.env.X\n`],
    ['src/pleg/events.ts', `export const now = () => Date.now()\n`],
    ['src/images/pull-policy.ts', `export const r = () => Math.random()\n`],
    ['src/manifest/defaults.ts', `export const d = () => new Date()\n`],
    ['src/kuberuntime/sandbox-config.ts', `export const s = (f: () => void) => setTimeout(f, 1)\n`],
  ],
  'core-reads-no-process': [
    ['src/loop/env.ts', `export const e = process.env.X\n`],
    ['src/store/argv.ts', `export const a = () => globalThis.process.argv\n`],
  ],
}

let fixtures: string

function write(rel: string, text: string): void {
  const path = join(fixtures, rel)
  mkdirSync(dirname(path), {recursive: true})
  writeFileSync(path, text)
}

function buildFixtures(): void {
  fixtures = mkdtempSync(join(tmpdir(), 'kn-layer-rules-'))
  for (const folder of ['decide', 'loop', 'server', 'cli', 'entry', 'node']) write(`src/${folder}/t.ts`, 'export const t = 1\n')
  write('src/host/impl.ts', 'export const t = 1\n')
  write('src/host/port.ts', 'export interface HostFs {x: number}\nexport const PRIVATE_DIR_MODE = 0o750\n')
  write('src/host/read-bounded.ts', 'export const readBounded = 1\n')
  write('src/util/gathered-writes.ts', 'export const GatheredWrites = 1\n')
  write('test/t.ts', 'export const t = 1\n')
  write('tsconfig.json', JSON.stringify({compilerOptions: {module: 'NodeNext', moduleResolution: 'NodeNext', strict: true}, include: ['src', 'test']}))
  // The UI and gRPC libraries resolve as in the repository.
  symlinkSync(join(repo, 'node_modules'), join(fixtures, 'node_modules'))
  for (const [file, text] of Object.values(IMPORT_VIOLATIONS)) write(file, text)
  for (const [, file, text] of MORE_VIOLATIONS) write(file, text)
  for (const [file, text] of Object.entries(ALLOWED)) write(file, text)
  for (const list of Object.values(GLOBAL_VIOLATIONS)) for (const [file, text] of list) write(file, text)
}

/** The import rules' violations in `cwd`/src, by one depcruise run (it exits non-zero when it finds any). */
function cruise(cwd: string): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [depcruise, 'src', '--config', configPath, '--output-type', 'json'], {cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024}, (_err, stdout, stderr) => {
      if (!stdout) return reject(new Error(`depcruise printed nothing: ${stderr}`))
      const out = JSON.parse(stdout) as {summary: {violations: Array<{rule: {name: string}; from: string; to: string}>}}
      resolve(out.summary.violations.map((v) => ({rule: v.rule.name, from: v.from, to: v.to})))
    })
  })
}

interface GlobalViolation {
  rule: string
  where: string
  what: string
}

async function checkGlobals(dir: string): Promise<GlobalViolation[]> {
  // @ts-expect-error: a plain .mjs script without types, run by `npm run layers`.
  const mod = (await import('../../../scripts/check-globals.mjs')) as {checkGlobals: (dir: string) => GlobalViolation[]}
  return mod.checkGlobals(dir)
}

let fixtureViolations: Violation[]
let fixtureGlobals: GlobalViolation[]
let realViolations: Violation[]

beforeAll(async () => {
  buildFixtures()
  // The two cruises at once: each is mostly a process starting up.
  ;[fixtureViolations, realViolations] = await Promise.all([cruise(fixtures), cruise(repo)])
  fixtureGlobals = await checkGlobals(fixtures)
}, 60_000)

afterAll(() => rmSync(fixtures, {recursive: true, force: true}))

describe('the import rules (.dependency-cruiser.cjs)', () => {
  it('has a fixture for every rule', () => {
    expect(Object.keys(IMPORT_VIOLATIONS).sort()).toEqual([...ruleNames].sort())
  })

  it.each(Object.entries(IMPORT_VIOLATIONS))('%s reports its deliberate violation', (rule, [file]) => {
    expect(fixtureViolations.filter((v) => v.from === file).map((v) => v.rule)).toContain(rule)
  })

  it.each(MORE_VIOLATIONS)('%s reports %s', (rule, file) => {
    expect(fixtureViolations.filter((v) => v.from === file).map((v) => v.rule)).toContain(rule)
  })

  it('lets what the rules allow pass', () => {
    expect(fixtureViolations.filter((v) => Object.hasOwn(ALLOWED, v.from))).toEqual([])
  })
})

describe('the global rules (scripts/check-globals.mjs)', () => {
  it.each(Object.entries(GLOBAL_VIOLATIONS).flatMap(([rule, list]) => list.map(([file]) => [rule, file] as const)))('%s reports %s', (rule, file) => {
    expect(fixtureGlobals.filter((v) => v.where.startsWith(`${file}:`)).map((v) => v.rule)).toEqual([rule])
  })

  it('lets what the rules allow pass', () => {
    expect(fixtureGlobals.filter((v) => Object.keys(ALLOWED).some((f) => v.where.startsWith(`${f}:`)))).toEqual([])
  })
})

describe('the real src/', () => {
  it('breaks no import rule', () => {
    expect(realViolations).toEqual([])
  })

  it('reads no forbidden global', async () => {
    expect(await checkGlobals(repo)).toEqual([])
  })
})
