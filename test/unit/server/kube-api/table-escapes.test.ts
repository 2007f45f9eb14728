// kubectl prints Table cells as the server sends them: a runtime reason or an event message that
// carries escape sequences or a bidi override reaches the cells escaped, as kube-node's own tables.
import {describe, expect, it} from 'vitest'
import type {Pod} from '../../../../src/api/types.js'
import {eventRow, podRow} from '../../../../src/server/kube-api/table.js'

const NOW = Date.parse('2026-01-01T01:00:00Z')
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('Table cells are escaped', () => {
  it('a pod whose waiting reason holds a clear-screen sequence and a bidi override', () => {
    const pod: Pod = {
      metadata: {name: 'web\u202Eevil-n1', namespace: 'default', creationTimestamp: new Date(NOW).toISOString()},
      spec: {nodeName: 'n1', containers: [{name: 'c'}]},
      status: {phase: 'Pending', containerStatuses: [{name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: 'Bad\u001b[2J\u009b31m'}}}]},
    }
    const row = podRow(pod, NOW, 'Object')
    expect(JSON.stringify(row.cells)).not.toMatch(/\\u001b|\\u009b|\u202e/)
    expect(row.cells.slice(0, 3)).toEqual(['web\\u202eevil-n1', '0/1', 'Bad\\x1b[2J\\x9b31m'])
    // The object itself is the API's data, not a cell: left as it is.
    expect(row.object).toBe(pod)
  })

  it('an event whose message quotes an annotation with control characters', () => {
    const row = eventRow({involvedObject: {kind: 'Pod', name: 'web-n1'}, metadata: {name: 'e1'}, type: 'Warning', reason: 'Failed\u0007', message: 'note "\u001b]8;;http://evil/\u0007x\u202E"', count: 1, lastTimestamp: new Date(NOW).toISOString()}, NOW, 'None')
    for (const cell of row.cells) if (typeof cell === 'string') expect(cell).not.toMatch(RAW)
    expect(row.cells[2]).toBe('Failed\\x07')
    expect(row.cells[6]).toBe('note "\\x1b]8;;http://evil/\\x07x\\u202e"')
  })
})
