// Each metric family is defined once in src/: one `name: '…'` literal, in metrics/, so a family's
// help, labels and buckets cannot drift between two definitions.
import {describe, expect, it} from 'vitest'
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {createMetrics} from '../../../src/metrics/metrics.js'
import {createProbeMetrics} from '../../../src/metrics/probes.js'

const SRC = join(import.meta.dirname, '../../../src')
const FAMILY = /\bname: '((?:kubelet|kube_node|kubernetes|prober|node|container|pod|resource)_[a-z_]+)'/g

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
}

/** Every family name defined in src/, with the files that define it. */
function definitions(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(FAMILY)) {
      const name = m[1] ?? ''
      found.set(name, [...(found.get(name) ?? []), relative(SRC, file)])
    }
  }
  return found
}

describe('metric families', () => {
  it('are each defined in exactly one place, under metrics/', () => {
    const defs = definitions()
    expect(defs.size).toBeGreaterThan(30)
    for (const [name, files] of defs) {
      expect({name, files}).toEqual({name, files: [expect.stringMatching(/^metrics\//)]})
    }
  })

  it('cover every family /metrics and /metrics/probes expose', async () => {
    const defs = definitions()
    const text = (await createMetrics().text()) + (await createProbeMetrics().text())
    const exposed = [...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1] ?? '')
    expect(exposed.length).toBeGreaterThan(25)
    for (const name of exposed) expect(defs.has(name), name).toBe(true)
  })
})
