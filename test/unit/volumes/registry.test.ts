// The volume-kind registry: every kind is found by its own field, owns its host directory, and
// containers may write exactly the node-local kinds.
import {describe, expect, it} from 'vitest'
import type {Volume} from '../../../src/api/types.js'
import {VOLUME_KINDS, volumeKind, volumeKindNamed, volumeSources} from '../../../src/volumes/registry.js'
import {SUPPORTED_SOURCES} from '../../../src/manifest/volume-sources.js'

const ROOT = '/var/lib/kube-node'
const UID = 'uid-1'

describe('volume kinds', () => {
  it.each<[string, Volume, string | undefined, boolean | undefined]>([
    ['hostPath', {name: 'v', hostPath: {path: '/srv/data'}}, '/srv/data', false],
    ['emptyDir', {name: 'v', emptyDir: {}}, `${ROOT}/pods/${UID}/volumes/kubernetes.io~empty-dir/v`, false],
    ['no source (an emptyDir, as the API defaults it)', {name: 'v'}, `${ROOT}/pods/${UID}/volumes/kubernetes.io~empty-dir/v`, false],
    ['configMap', {name: 'v', configMap: {name: 'c'}}, `${ROOT}/pods/${UID}/volumes/kubernetes.io~configmap/v`, true],
    ['secret', {name: 'v', secret: {secretName: 's'}}, `${ROOT}/pods/${UID}/volumes/kubernetes.io~secret/v`, true],
    ['downwardAPI', {name: 'v', downwardAPI: {}}, `${ROOT}/pods/${UID}/volumes/kubernetes.io~downward-api/v`, true],
    ['projected', {name: 'v', projected: {sources: []}}, `${ROOT}/pods/${UID}/volumes/kubernetes.io~projected/v`, true],
    ['a kind kube-node does not provide', {name: 'v', nfs: {server: 's', path: '/'}} as Volume, undefined, undefined],
  ])('%s', (_name, volume, hostPath, readOnly) => {
    expect(volumeSources(ROOT, UID)(volume)).toEqual(hostPath === undefined ? undefined : {hostPath, readOnly})
  })

  it('each kind is found by the field that names it, and validation knows every kind', () => {
    for (const kind of VOLUME_KINDS) {
      expect(volumeKindNamed(kind.name)).toBe(kind)
      expect(volumeKind({name: 'v', [kind.name]: {path: '/x'}} as Volume)).toBe(kind)
    }
    expect([...SUPPORTED_SOURCES].sort()).toEqual(VOLUME_KINDS.map((k) => k.name).sort())
  })
})
