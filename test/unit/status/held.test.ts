import {describe, expect, it} from 'vitest'
import {heldWaiting, START_AFTER_REASON} from '../../../src/status/held.js'
import type {PodSpec} from '../../../src/api/types.js'

describe('heldWaiting: a pod held by start-after says so in every container', () => {
  it.each<[string, PodSpec, string[]]>([
    ['one container', {containers: [{name: 'app'}]} as PodSpec, ['app']],
    ['init containers too', {initContainers: [{name: 'migrate'}], containers: [{name: 'app'}, {name: 'log'}]} as PodSpec, ['migrate', 'app', 'log']],
  ])('%s', (_, spec, names) => {
    const why = 'waits for pod "db" to be Ready (start-after); pod is Pending'
    const held = heldWaiting(spec, why)
    expect([...held.keys()]).toEqual(names)
    for (const w of held.values()) expect(w).toEqual({reason: START_AFTER_REASON, message: why})
  })
})
