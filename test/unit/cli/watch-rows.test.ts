// `get pods -w`: which rows a watcher prints after the first table.
import {describe, expect, it} from 'vitest'
import {diffPods} from '../../../src/cli/watch-rows.js'
import type {Pod} from '../../../src/api/types.js'

const pod = (ns: string, name: string, phase: string): Pod => ({metadata: {name, namespace: ns}, spec: {containers: []}, status: {phase}})

describe('get pods -w rows', () => {
  const before = new Map([
    ['default/a', pod('default', 'a', 'Running')],
    ['prod/a', pod('prod', 'a', 'Pending')],
    ['default/gone', pod('default', 'gone', 'Running')],
  ])

  it('prints a row for a new pod, a changed pod and a pod that went away; none for the unchanged', () => {
    const next = [pod('default', 'a', 'Running'), pod('prod', 'a', 'Running'), pod('default', 'new', 'Pending')]
    expect(diffPods(before, next).map((p) => `${p.metadata?.namespace}/${p.metadata?.name}:${p.status?.phase}`)).toEqual(['prod/a:Running', 'default/new:Pending', 'default/gone:Running'])
  })

  it('prints nothing when nothing changed', () => {
    expect(diffPods(before, [...before.values()])).toEqual([])
  })
})
