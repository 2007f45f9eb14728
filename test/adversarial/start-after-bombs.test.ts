// `kube-node.io/start-after` bombs through `validate` (no runtime needed): long chains, long
// cycles, dense graphs, annotations of 100 000 names or 10 MiB, control characters, repeats.
// Each is answered in bounded time within a capped heap: accepted, or exit 2 with sentences that
// stay short and escaped; never a stack overflow or a hang.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {StaticPod} from '../../src/api/types.js'
import {startAfterIssues} from '../../src/manifest/start-after.js'
import {startOrder} from '../../src/loop/start-order.js'

const ROOT = join(import.meta.dirname, '../..')
const HEAP_MIB = 256 + 32

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kn-adv-start-after-'))))
afterEach(() => rmSync(dir, {recursive: true, force: true}))

/** A minimal pod; `after` goes in as a YAML block scalar, so any size and any byte fits. */
function pod(name: string, after?: string): string {
  const annotation = after === undefined ? '' : `  annotations:\n    kube-node.io/start-after: |-\n      ${after.replace(/\n/g, ' ')}\n`
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n${annotation}spec:\n  containers:\n  - name: c\n    image: busybox\n`
}

/** Writes the pods in files of at most 500 documents. */
function write(pods: string[]): void {
  for (let f = 0; f * 500 < pods.length; f++) writeFileSync(join(dir, `f${f}.yaml`), pods.slice(f * 500, (f + 1) * 500).join('---\n'))
}

function validate(): {status: number | null; stdout: string; stderr: string; ms: number} {
  const started = performance.now()
  // Each file its own location, and room for every pod: the graphs, not the per-directory and
  // maxPods bounds (manifest-bombs and source-limits test those), are what is tried here.
  const files = readdirSync(dir).sort().flatMap((f) => ['-f', join(dir, f)])
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, join(ROOT, 'bin/run.js'), 'validate', ...files, '--max-pods', '1000000', '--node-name', 'adv'], {
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
    env: {...process.env, NO_COLOR: '1'},
  })
  return {status: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started}
}

/** Every error line is one bounded sentence. */
function expectBoundedErrors(stderr: string, maxLine = 1000): void {
  for (const line of stderr.split('\n')) expect(line.length, line.slice(0, 200)).toBeLessThanOrEqual(maxLine)
  expect(stderr).not.toMatch(/RangeError|Maximum call stack|heap out of memory|at .*\.js:\d+/)
}

describe('start-after graphs', () => {
  it('a chain of 2000 pods, each after the previous, is valid and checked quickly', () => {
    write(Array.from({length: 2000}, (_, i) => pod(`p${i}`, i === 0 ? undefined : `p${i - 1}`)))
    const r = validate()
    expect(r.status, r.stderr.slice(0, 500)).toBe(0)
    expect(r.stdout.match(/ valid /g)).toHaveLength(2000)
    // It took half a minute when the cycle search copied its path at every step; now ~2 s.
    expect(r.ms).toBeLessThan(30_000)
  })

  it('a cycle across 1000 pods is refused (exit 2), each pod with one short sentence', () => {
    write(Array.from({length: 1000}, (_, i) => pod(`p${i}`, `p${(i + 1) % 1000}`)))
    const r = validate()
    expect(r.status).toBe(2)
    const cycles = r.stderr.split('\n').filter((l) => l.includes('forms a cycle'))
    expect(cycles).toHaveLength(1000)
    expect(cycles[0]).toMatch(/forms a cycle: p0 → p1 → .* → … → p0 \(1000 pods\); none of these pods could ever start/)
    expectBoundedErrors(r.stderr, 400)
    // It printed 9 MB when each pod's sentence held the whole cycle.
    expect(r.stderr.length).toBeLessThan(1024 * 1024)
  })

  it('300 pods each naming every other (one dense cycle) are refused in bounded time', () => {
    const names = Array.from({length: 300}, (_, i) => `p${i}`)
    write(names.map((n) => pod(n, names.filter((m) => m !== n).join(','))))
    const r = validate()
    expect(r.status).toBe(2)
    expect(r.stderr.split('\n').filter((l) => l.includes('forms a cycle'))).toHaveLength(300)
    expectBoundedErrors(r.stderr)
    expect(r.ms).toBeLessThan(30_000)
  })
})

describe('start-after values', () => {
  it('100 000 unknown names: one sentence naming ten of them', () => {
    write([pod('x', Array.from({length: 100_000}, (_, i) => `n${i}`).join(','))])
    const r = validate()
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/names "n0", "n1", .*"n9" and 99990 more, which no manifest defines \(known pods: x\)/)
    expectBoundedErrors(r.stderr)
  })

  it('an unknown name among 2000 known pods lists ten of the known ones, not all', () => {
    write([...Array.from({length: 2000}, (_, i) => pod(`p${i}`)), pod('x', 'nobody')])
    const r = validate()
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/names "nobody", which no manifest defines \(known pods: .* and 1991 more\)/)
    expectBoundedErrors(r.stderr)
  })

  it('a 10 MiB value holding one name is refused with a sentence that quotes 64 characters of it', () => {
    write([pod('x', 'a'.repeat(10 * 1024 * 1024 - 200))])
    const r = validate()
    expect(r.status).toBe(2)
    expectBoundedErrors(r.stderr)
    expect(r.stderr.length).toBeLessThan(4096)
  })

  it('a 10 MiB value of commas names no pod', () => {
    write([pod('x', ','.repeat(10 * 1024 * 1024 - 200))])
    const r = validate()
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/must name at least one pod/)
    expectBoundedErrors(r.stderr)
  })

  it('a 10 MiB value repeating one good name is the one name', () => {
    write([pod('etcd'), pod('api', Array.from({length: 2_000_000}, () => 'etcd').join(','))])
    const r = validate()
    expect(r.status, r.stderr.slice(0, 500)).toBe(0)
  })

  it('repeats and blanks among the names are harmless', () => {
    write([pod('etcd'), pod('api', 'etcd, etcd ,,etcd')])
    expect(validate().status).toBe(0)
  })

  it('control characters and terminal escapes in a name are escaped in the error', () => {
    write([pod('x', '\u001b[31mred\u001b]0;title\u0007, \u202eevil, ok')])
    const r = validate()
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/which is not a valid pod name/)
    // Nothing reaches the terminal raw: ESC, BEL and the bidi override are shown escaped.
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/)
    expectBoundedErrors(r.stderr)
  })

  it('a pod naming itself among thousands of names is refused once', () => {
    write([pod('etcd'), pod('x', [...Array.from({length: 5000}, () => 'etcd'), 'x'].join(','))])
    const r = validate()
    expect(r.status).toBe(2)
    expect(r.stderr.match(/names itself/g)).toHaveLength(1)
    expectBoundedErrors(r.stderr)
  })
})

describe('far beyond what a directory holds, in process', () => {
  const N = 100_000
  const source = {location: 'x.yaml', document: 0}

  it('a chain of 100 000 pods: checked and ordered without recursion', () => {
    const pods = Array.from({length: N}, (_, i) => ({manifestName: `p${i}`, annotations: i === 0 ? {} : {'kube-node.io/start-after': `p${i - 1}`}, source}))
    const started = performance.now()
    expect(startAfterIssues(pods)).toEqual([])
    // Listed backwards, so that ordering must walk the whole chain from its last pod.
    const items = pods.map((p, i) => ({sp: {manifestName: p.manifestName, ...(i > 0 ? {startAfter: [`p${i - 1}`]} : {})} as unknown as StaticPod})).reverse()
    const order = startOrder(items).map((t) => t.sp.manifestName)
    expect(order[0]).toBe('p0')
    expect(order.at(-1)).toBe(`p${N - 1}`)
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  it('a cycle through 100 000 pods: one short sentence each', () => {
    const pods = Array.from({length: N}, (_, i) => ({manifestName: `p${i}`, annotations: {'kube-node.io/start-after': `p${(i + 1) % N}`}, source}))
    const issues = startAfterIssues(pods)
    expect(issues).toHaveLength(N)
    for (const i of [issues[0]!, issues.at(-1)!]) expect(i.message.length).toBeLessThan(300)
    expect(issues[0]!.message).toMatch(/forms a cycle: p0 → p1 → .* → … → p0 \(100000 pods\)/)
  })
})
