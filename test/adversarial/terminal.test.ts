// Names and values printed to a terminal are escaped: a manifest, a file name or an error that
// quotes input can never send raw control sequences (clear screen, cursor moves, OSC 8
// hyperlinks, bidi overrides) to the person reading kube-node's output.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {escapeControls} from '../../src/util/terminal-text.js'
import {createLogger} from '../../src/util/logger.js'
import {renderTable} from '../../src/cli/render/table.js'
import {kn, makeDirs} from '../e2e/support.js'

const HOSTILE = ['\x1b[2J\x1b[H', '\x1b]8;;http://evil/\x07click\x1b]8;;\x07', 'a\rb', '\u202eevil', '\x9b31m', 'del\x7f', 'tab\there']
// Raw control bytes (except the newline that ends lines) and bidi overrides.
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('escapeControls', () => {
  it.each(HOSTILE)('%j becomes visible text', (s) => {
    const out = escapeControls(s)
    expect(out).not.toMatch(RAW)
    expect(out.length).toBeGreaterThan(0)
  })

  it('leaves ordinary text, unicode included, as it is', () => {
    expect(escapeControls('web-node1 Running ✓ ключ 値')).toBe('web-node1 Running ✓ ключ 値')
  })
})

describe('what kube-node prints', () => {
  const dirs = makeDirs()
  afterAll(() => dirs.cleanup())

  it('a table cell with control characters is escaped', () => {
    expect(renderTable(['NAME'], HOSTILE.map((h) => [h]), {color: false})).not.toMatch(RAW)
  })

  it('a log line of the text format is escaped', () => {
    const lines: string[] = []
    const logger = createLogger({format: 'text', verbosity: 0, write: (l) => void lines.push(l)})
    for (const h of HOSTILE) logger.warn(h, {pod: h, err: new Error(h)})
    expect(lines.join('').replace(/\n/g, '')).not.toMatch(RAW)
  })

  it('validate: an error quoting a hostile image and label reaches stderr escaped', async () => {
    const file = join(dirs.work, 'evil.yaml')
    writeFileSync(file, `apiVersion: v1\nkind: Pod\nmetadata:\n  name: evil\n  labels: {"\\e[2J": "\\u202ex"}\nspec:\n  containers: [{name: c, image: "\\e]8;;http://evil/\\aX"}]\n`)
    const r = await kn(dirs, ['validate', '-f', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/\\x1b/)
    expect(r.stderr.replace(/\n/g, '')).not.toMatch(RAW)
  })

  it('several problems stay one per line, each escaped', async () => {
    const file = join(dirs.work, 'two.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: "A\\e[2J"}\nspec: {containers: [{name: c}]}\n')
    const r = await kn(dirs, ['validate', '-f', file])
    expect(r.code).toBe(2)
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines[0]).toBe('error: 2 problems in the manifests:')
    expect(lines.slice(1)).toEqual([expect.stringContaining('field metadata.name: "A\\x1b[2J"'), expect.stringContaining('field spec.containers[0].image: must be set')])
  })

  it('validate: a file name with control characters is printed escaped', async () => {
    const file = join(dirs.work, 'x\x1b[2Jy.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec: {containers: [{name: c, image: busybox}]}\n')
    const r = await kn(dirs, ['validate', '-f', file])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('x\\x1b[2Jy.yaml')
    expect(r.stdout.replace(/\n/g, '')).not.toMatch(RAW)
  })
})
