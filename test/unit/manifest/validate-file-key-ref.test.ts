// Validation of env[].valueFrom.fileKeyRef: every part that later becomes a file kube-node opens
// as root, or a key looked up in a container's file, is a field error in `validate`.
import {describe, expect, it} from 'vitest'
import {emptyDirVolumeNames, validateContainer} from '../../../src/manifest/validate-container.js'
import {validatePod} from '../../../src/manifest/validate.js'
import {nested, type Report} from '../../../src/util/check.js'
import {podWith} from './pod-builder.js'

const FIELD = 'spec.containers[1].env[0].valueFrom.fileKeyRef'
const ok = {volumeName: 'data', path: 'config.env', key: 'DB_ADDRESS'}
const where = {location: 'pods/web.yaml', document: 0}

function issuesOf(fileKeyRef: unknown): {field: string; message: string}[] {
  const pod = podWith('spec.containers.1.env', [{name: 'DB', valueFrom: {fileKeyRef}}])
  return validatePod(pod, where).map((i) => ({field: i.field, message: i.message}))
}

describe('validate fileKeyRef', () => {
  it('accepts a reference to a file of an emptyDir volume', () => {
    expect(issuesOf(ok)).toEqual([])
    expect(issuesOf({...ok, optional: true, path: 'dir/./app.env'})).toEqual([])
  })

  it.each<[string, Record<string, unknown>, string, string]>([
    ['volumeName missing', {path: 'a.env', key: 'K'}, 'volumeName', 'must be set'],
    ['volumeName unknown', {...ok, volumeName: 'cache'}, 'volumeName', 'volume "cache" is not defined in spec.volumes'],
    ['volumeName a number', {...ok, volumeName: 7}, 'volumeName', 'must be a string, got integer'],
    ['path missing', {...ok, path: undefined}, 'path', 'must be set'],
    ['path empty', {...ok, path: ''}, 'path', 'must be set'],
    ['path absolute', {...ok, path: '/etc/shadow'}, 'path', 'must be a relative path, got "/etc/shadow"'],
    ['path with ..', {...ok, path: 'a/../../etc/shadow'}, 'path', 'must not contain \'..\', got "a/../../etc/shadow"'],
    ['path starting with ..', {...ok, path: '..data/x'}, 'path', 'must not start with \'..\', got "..data/x"'],
    ['path with NUL', {...ok, path: 'a\0b'}, 'path', 'must not contain a NUL character, got "a\\u0000b"'],
    ['path naming no file', {...ok, path: '.'}, 'path', 'must name a file, got "."'],
    ['key missing', {...ok, key: undefined}, 'key', 'must be set'],
    ['key with =', {...ok, key: 'A=B'}, 'key', 'must not contain \'=\', got "A=B"'],
    ['key too long', {...ok, key: 'K'.repeat(129)}, 'key', 'must be no more than 128 characters, got 129'],
    ['key not ASCII', {...ok, key: 'schlüssel'}, 'key', 'must consist of printable ASCII characters, got "schlüssel"'],
    ['optional a string', {...ok, optional: 'yes'}, 'optional', 'must be true or false, got "yes"'],
  ])('%s', (_name, ref, field, message) => {
    expect(issuesOf(ref)).toContainEqual({field: `${FIELD}.${field}`, message})
  })

  it('fileKeyRef together with another source', () => {
    const pod = podWith('spec.containers.1.env', [{name: 'DB', valueFrom: {fileKeyRef: ok, fieldRef: {fieldPath: 'spec.nodeName'}}}])
    expect(validatePod(pod, where).map((i) => i.field)).toContain('spec.containers[1].env[0].valueFrom')
  })
})

describe('emptyDir volumes only', () => {
  const volumes = [{name: 'data', emptyDir: {}}, {name: 'plain'}, {name: 'host', hostPath: {path: '/etc'}}, {name: 'cm', configMap: {name: 'x'}}, 'junk', {emptyDir: {}}]

  it('emptyDirVolumeNames finds emptyDir volumes and volumes without a source', () => {
    expect([...emptyDirVolumeNames(volumes)]).toEqual(['data', 'plain'])
    expect([...emptyDirVolumeNames(undefined)]).toEqual([])
  })

  it.each<[string, string[]]>([
    ['data', []],
    ['plain', []],
    ['host', ['env[0].valueFrom.fileKeyRef.volumeName: volume "host" must be an emptyDir volume (env files are read only from emptyDir)']],
    ['cm', ['env[0].valueFrom.fileKeyRef.volumeName: volume "cm" must be an emptyDir volume (env files are read only from emptyDir)']],
  ])('volume %s', (volumeName, expected) => {
    const issues: string[] = []
    const report: Report = (field, message) => issues.push(`${field}: ${message}`)
    const container = {name: 'app', image: 'busybox:1.36', env: [{name: 'V', valueFrom: {fileKeyRef: {...ok, volumeName}}}]}
    validateContainer(nested(report, ''), container, {kind: 'container', volumeNames: new Set(['data', 'plain', 'host', 'cm']), hostNetwork: false, emptyDirNames: emptyDirVolumeNames(volumes)})
    expect(issues).toEqual(expected)
  })
})
