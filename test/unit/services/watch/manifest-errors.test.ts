import {afterEach, describe, expect, it} from 'vitest'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {EventObject, EventType} from '../../../../src/api/events.js'
import type {StaticPod} from '../../../../src/api/types.js'
import {ManifestErrors} from '../../../../src/services/watch/manifest-errors.js'
import {readManifestError} from '../../../../src/services/pods/manifest-error-file.js'
import {silentLogger} from '../../../../src/util/logger.js'
import {FakeClock} from '../../../support/fake-clock.js'
import {withLiveFacts} from '../../../support/pods.js'

const api: StaticPod = withLiveFacts({
  manifestName: 'api',
  source: {kind: 'file', location: '/m/api.yaml', document: 0},
  pod: {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'api-n1', namespace: 'default', uid: 'uid-api'}, spec: {containers: [{name: 'main', image: 'busybox'}]}},
})
const issue = {location: '/m/api.yaml', document: 0, field: 'spec.containers[0].image', message: 'Required value'}

describe('ManifestErrors under watch', () => {
  const root = mkdtempSync(join(tmpdir(), 'kn-manifest-errors-'))
  afterEach(() => rmSync(root, {recursive: true, force: true}))

  it('a broken manifest: one Warning event naming file, document and field, and a record; fixed: a Normal event and no record', async () => {
    const events: Array<[string, EventType, string, string]> = []
    const sink = {emit: (o: EventObject, type: EventType, reason: string, message: string) => void events.push([o.name, type, reason, message])}
    const writer = {command: 'watch' as const, pid: process.pid, startedAt: 0, processStart: 'x'}
    const errors = new ManifestErrors({rootDir: root, events: sink, clock: new FakeClock({nowMs: 1000}), logger: silentLogger, writer})

    errors.update([api], [issue])
    errors.update([api], [issue]) // every re-list: no new event
    await errors.flush()
    expect(events).toEqual([['api-n1', 'Warning', 'ManifestError', 'the manifest is invalid; the last good version keeps running: /m/api.yaml, document 0, field spec.containers[0].image: Required value']])
    expect(readManifestError(root, 'uid-api')).toMatchObject({message: '/m/api.yaml, document 0, field spec.containers[0].image: Required value', at: 1000, writer})

    errors.update([api], [])
    await errors.flush()
    expect(events[1]).toEqual(['api-n1', 'Normal', 'ManifestValid', 'the manifest is valid again: /m/api.yaml'])
    expect(readManifestError(root, 'uid-api')).toBeUndefined()
  })

  it('a pod whose manifest is gone gets no event', async () => {
    const events: string[] = []
    const errors = new ManifestErrors({rootDir: root, events: {emit: (_o, _t, reason) => void events.push(reason)}, clock: new FakeClock(), logger: silentLogger, writer: {command: 'watch', pid: 1, startedAt: 0, processStart: ''}})
    errors.update([api], [issue])
    errors.update([], [])
    await errors.flush()
    expect(events).toEqual(['ManifestError'])
  })
})
