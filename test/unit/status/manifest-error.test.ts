import {describe, expect, it} from 'vitest'
import type {Pod, StaticPod} from '../../../src/api/types.js'
import {podStatusText} from '../../../src/cli/render/pod-row.js'
import {withLiveFacts} from '../../support/pods.js'
import {MANIFEST_ERROR_ANNOTATION, MANIFEST_VALID_CONDITION, manifestErrorsByPod, withManifestError} from '../../../src/status/manifest-error.js'

const sp = (name: string, location: string): StaticPod =>
  withLiveFacts({
    manifestName: name,
    source: {kind: 'file', location, document: 0},
    pod: {apiVersion: 'v1', kind: 'Pod', metadata: {name: `${name}-n1`, namespace: 'default', uid: `uid-${name}`}, spec: {containers: [{name: 'main', image: 'busybox'}]}},
  })

describe('manifestErrorsByPod', () => {
  it('names the problems of each pod whose manifest location is broken, and only those', () => {
    const issues = [
      {location: '/m/api.yaml', document: 0, field: 'spec.containers[0].image', message: 'Required value'},
      {location: '/m/api.yaml', document: 0, field: 'spec.containers[0].image', message: 'Required value'},
      {location: '/m/gone.yaml', document: 1, field: '', message: 'not YAML'},
    ]
    const got = manifestErrorsByPod([sp('api', '/m/api.yaml'), sp('web', '/m/web.yaml')], issues)
    expect([...got.keys()]).toEqual(['uid-api'])
    expect(got.get('uid-api')?.message).toBe('/m/api.yaml, document 0, field spec.containers[0].image: Required value')
  })
})

describe('withManifestError: nothing looks green that is not', () => {
  const running: Pod = {
    metadata: {name: 'api-n1', annotations: {a: 'b'}},
    spec: {containers: [{name: 'main', image: 'busybox'}]},
    status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}], containerStatuses: [{name: 'main', ready: true, restartCount: 0, image: 'busybox', imageID: '', state: {running: {}}}]},
  }
  const note = {message: '/m/api.yaml, document 0, field spec.containers[0].image: Required value', at: Date.UTC(2026, 10, 27, 1, 0, 0)}

  it('a running pod shows STATUS ManifestError, a False condition with the problem, and the annotation', () => {
    const pod = withManifestError(running, note)
    expect(podStatusText(pod)).toBe('ManifestError')
    expect(pod.status?.phase).toBe('Running')
    expect(pod.status?.message).toBe(`the manifest is invalid; the last good version keeps running: ${note.message}`)
    expect(pod.status?.conditions).toContainEqual({type: MANIFEST_VALID_CONDITION, status: 'False', reason: 'ManifestError', message: pod.status?.message, lastTransitionTime: '2026-11-27T01:00:00Z'})
    expect(pod.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True')
    expect(pod.metadata?.annotations).toEqual({a: 'b', [MANIFEST_ERROR_ANNOTATION]: note.message})
  })

  it.each([
    ['a crash loop still shows first', {waiting: {reason: 'CrashLoopBackOff'}}, undefined, 'CrashLoopBackOff'],
    ['a reason the pod already has stays', {running: {}}, 'DeadlineExceeded', 'DeadlineExceeded'],
  ])('%s', (_, state, reason, want) => {
    const pod = withManifestError({...running, status: {...running.status, ...(reason ? {reason} : {}), containerStatuses: [{...running.status!.containerStatuses![0]!, ready: false, state}]}}, note)
    expect(podStatusText(pod)).toBe(want)
    expect(pod.status?.conditions?.some((c) => c.type === MANIFEST_VALID_CONDITION)).toBe(true)
  })

  it('does not change the pod it is given', () => {
    const before = structuredClone(running)
    withManifestError(running, note)
    expect(running).toEqual(before)
  })
})
