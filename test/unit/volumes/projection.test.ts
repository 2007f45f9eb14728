import {describe, expect, it} from 'vitest'
import type {ConfigMap, Secret, Volume} from '../../../src/api/types.js'
import {
  filePathError,
  projectConfigMapVolume,
  projectSecretVolume,
  type Projection,
} from '../../../src/volumes/projection.js'
import {projectVolume, projectVolumeOrThrow, volumeHostPath} from '../../../src/volumes/registry.js'
import {ConfigError} from '../../../src/kuberuntime/errors.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {makeContainer, podOf, UID} from '../../support/pods.js'

const b64 = (s: string) => Buffer.from(s).toString('base64')

const configMaps: ConfigMap[] = [
  {metadata: {name: 'app-config', namespace: 'default'}, data: {'app.conf': 'port=80', 'log.level': 'debug'}, binaryData: {'logo.bin': b64('\x00\x01PNG')}},
  {metadata: {name: 'other-ns', namespace: 'kube-system'}, data: {a: '1'}},
]
const secrets: Secret[] = [
  {metadata: {name: 'creds', namespace: 'default'}, data: {password: b64('s3cr3t'), user: b64('admin')}, stringData: {user: 'root'}},
]
const store = createObjectStore(configMaps, secrets)

/** The projection as {path: [text, mode]} for compact expectations. */
function summary(p: Projection | undefined): Record<string, [string, string]> | string {
  if (!p) return 'none'
  if ('error' in p) return p.error
  return Object.fromEntries(p.files.map((f) => [f.path, [f.data.toString('latin1'), f.mode.toString(8)]]))
}

describe('projectConfigMapVolume', () => {
  it.each<[string, NonNullable<Volume['configMap']>, ReturnType<typeof summary>]>([
    [
      'every key of data and binaryData with the default mode 0644',
      {name: 'app-config'},
      {'app.conf': ['port=80', '644'], 'log.level': ['debug', '644'], 'logo.bin': ['\x00\x01PNG', '644']},
    ],
    ['defaultMode for every file', {name: 'app-config', defaultMode: 0o400, items: [{key: 'app.conf', path: 'a'}]}, {a: ['port=80', '400']}],
    [
      'items pick keys, map them to paths and may set a mode',
      {name: 'app-config', items: [{key: 'app.conf', path: 'conf/app.conf', mode: 0o600}, {key: 'logo.bin', path: 'logo'}]},
      {'conf/app.conf': ['port=80', '600'], logo: ['\x00\x01PNG', '644']},
    ],
    ['a missing object is an error naming it', {name: 'nope'}, 'configmap "nope" not found'],
    ['a missing optional object is an empty volume', {name: 'nope', optional: true}, {}],
    ['a missing key is an error', {name: 'app-config', items: [{key: 'x', path: 'x'}]}, 'configmap "app-config" has no key "x"'],
    ['a missing optional key is skipped', {name: 'app-config', optional: true, items: [{key: 'x', path: 'x'}, {key: 'app.conf', path: 'y'}]}, {y: ['port=80', '644']}],
    ['objects are looked up in the pod namespace only', {name: 'other-ns'}, 'configmap "other-ns" not found'],
    ['a path with .. is refused', {name: 'app-config', items: [{key: 'app.conf', path: '../etc/passwd'}]}, expect.stringContaining('invalid file path "../etc/passwd"')],
    ['an absolute path is refused', {name: 'app-config', items: [{key: 'app.conf', path: '/etc/passwd'}]}, expect.stringContaining('must be a relative path')],
  ])('%s', (_name, src, expected) => {
    expect(summary(projectConfigMapVolume(src, store, 'default'))).toEqual(expected)
  })
})

describe('projectSecretVolume', () => {
  it.each<[string, NonNullable<Volume['secret']>, ReturnType<typeof summary>]>([
    ['decodes base64 data; stringData overrides data', {secretName: 'creds'}, {password: ['s3cr3t', '644'], user: ['root', '644']}],
    ['items and modes', {secretName: 'creds', defaultMode: 0o440, items: [{key: 'password', path: 'pw'}]}, {pw: ['s3cr3t', '440']}],
    ['a missing secret is an error naming it', {secretName: 'gone'}, 'secret "gone" not found'],
    ['a missing optional secret is an empty volume', {secretName: 'gone', optional: true}, {}],
    ['a missing key is an error', {secretName: 'creds', items: [{key: 'token', path: 't'}]}, 'secret "creds" has no key "token"'],
  ])('%s', (_name, src, expected) => {
    expect(summary(projectSecretVolume(src, store, 'default'))).toEqual(expected)
  })
})

describe('projectVolume', () => {
  const pod = podOf((p) => {
    p.metadata.labels = {app: 'web', tier: 'front'}
    p.spec.containers = [makeContainer({resources: {limits: {memory: '64Mi'}}})]
  })
  const ctx = {pod, objects: store, podIP: '', hostIP: '192.168.1.5'}

  it('writes downward API fields, label maps and resource values', () => {
    const vol: Volume = {
      name: 'info',
      downwardAPI: {
        items: [
          {path: 'name', fieldRef: {fieldPath: 'metadata.name'}},
          {path: 'labels', fieldRef: {fieldPath: 'metadata.labels'}, mode: 0o600},
          {path: 'mem', resourceFieldRef: {containerName: 'app', resource: 'limits.memory', divisor: '1Mi'}},
        ],
      },
    }
    expect(summary(projectVolume(vol, ctx))).toEqual({name: ['web-node1', '644'], labels: ['app="web"\ntier="front"', '600'], mem: ['64', '644']})
  })

  it('merges the sources of a projected volume with its defaultMode', () => {
    const vol: Volume = {
      name: 'all',
      projected: {
        defaultMode: 0o444,
        sources: [
          {configMap: {name: 'app-config', items: [{key: 'app.conf', path: 'app.conf'}]}},
          {secret: {name: 'creds', items: [{key: 'password', path: 'secret/pw', mode: 0o400}]}},
          {secret: {name: 'gone', optional: true}},
          {downwardAPI: {items: [{path: 'ns', fieldRef: {fieldPath: 'metadata.namespace'}}]}},
        ],
      },
    }
    expect(summary(projectVolume(vol, ctx))).toEqual({'app.conf': ['port=80', '444'], 'secret/pw': ['s3cr3t', '400'], ns: ['default', '444']})
  })

  it('fails a projected volume on its first missing required source', () => {
    expect(summary(projectVolume({name: 'p', projected: {sources: [{configMap: {name: 'missing'}}]}}, ctx))).toBe('configmap "missing" not found')
  })

  it('has nothing to project for hostPath and emptyDir', () => {
    expect(projectVolume({name: 'h', hostPath: {path: '/srv'}}, ctx)).toBeUndefined()
    expect(projectVolume({name: 'e', emptyDir: {}}, ctx)).toBeUndefined()
  })

  it('throws a ConfigError naming the volume', () => {
    const run = () => projectVolumeOrThrow({name: 'conf', configMap: {name: 'app-cfg'}}, ctx)
    expect(run).toThrow(ConfigError)
    expect(run).toThrow('volume "conf": configmap "app-cfg" not found')
  })
})

describe('filePathError', () => {
  it.each([
    ['a', undefined],
    ['dir/file.txt', undefined],
    ['..hidden', "must not start with '..'"],
    ['a/../b', "must not contain '..'"],
    ['/abs', 'must be a relative path'],
    ['', 'must not be empty'],
    ['a//b', 'must not contain empty or "." segments'],
  ])('%j → %j', (path, expected) => {
    expect(filePathError(path)).toBe(expected)
  })
})

describe('volumeHostPath', () => {
  const root = '/var/lib/kube-node'
  it.each<[Volume, string | undefined]>([
    [{name: 'h', hostPath: {path: '/srv/data'}}, '/srv/data'],
    [{name: 'e', emptyDir: {medium: 'Memory'}}, `${root}/pods/${UID}/volumes/kubernetes.io~empty-dir/e`],
    [{name: 'n'}, `${root}/pods/${UID}/volumes/kubernetes.io~empty-dir/n`],
    [{name: 'c', configMap: {name: 'x'}}, `${root}/pods/${UID}/volumes/kubernetes.io~configmap/c`],
    [{name: 's', secret: {secretName: 'x'}}, `${root}/pods/${UID}/volumes/kubernetes.io~secret/s`],
    [{name: 'd', downwardAPI: {}}, `${root}/pods/${UID}/volumes/kubernetes.io~downward-api/d`],
    [{name: 'p', projected: {}}, `${root}/pods/${UID}/volumes/kubernetes.io~projected/p`],
    [{name: 'pvc', persistentVolumeClaim: {claimName: 'x'}}, undefined],
  ])('%j → %s', (vol, expected) => {
    expect(volumeHostPath(root, UID, vol)).toBe(expected)
  })
})
