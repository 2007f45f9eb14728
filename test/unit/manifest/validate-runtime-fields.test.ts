// The shape of the runtime-dependent fields, as the API server validates them: valid pods pass
// `validate` (the runtime's support is checked by run/watch), bad values name their field.
import {describe, expect, it} from 'vitest'
import {validatePod} from '../../../src/manifest/validate.js'
import {basePod, withPath} from './pod-builder.js'

const where = {location: 'pods/web.yaml', document: 0}
const issues = (pod: Record<string, unknown>) => validatePod(pod, where).map((i) => ({field: i.field, message: i.message}))
const ANNOTATION = 'container.apparmor.security.beta.kubernetes.io'

/** The base pod with several paths set. */
function pod(...sets: [string, unknown][]): Record<string, unknown> {
  return sets.reduce((p, [path, value]) => withPath(p, path, value), basePod())
}

describe('valid: validate accepts them', () => {
  it.each<[string, [string, unknown][]]>([
    ['hostUsers: false', [['spec.hostUsers', false]]],
    ['supplementalGroupsPolicy Strict', [['spec.securityContext', {supplementalGroupsPolicy: 'Strict'}]]],
    ['a pod AppArmor profile', [['spec.securityContext', {appArmorProfile: {type: 'RuntimeDefault'}}]]],
    ['a container Localhost profile', [['spec.containers.0.securityContext', {appArmorProfile: {type: 'Localhost', localhostProfile: 'k8s-deny-write'}}]]],
    ['the annotation', [['metadata.annotations', {[`${ANNOTATION}/nginx`]: 'localhost/k8s-deny-write', [`${ANNOTATION}/sidecar`]: 'runtime/default'}]]],
    ['the annotation agreeing with the field', [
      ['metadata.annotations', {[`${ANNOTATION}/nginx`]: 'unconfined'}],
      ['spec.containers.0.securityContext', {appArmorProfile: {type: 'Unconfined'}}],
    ]],
    ['recursiveReadOnly Enabled on a read-only mount', [['spec.containers.0.volumeMounts.0', {name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'Enabled'}]]],
    ['recursiveReadOnly Disabled on a writable mount', [['spec.containers.0.volumeMounts.0', {name: 'data', mountPath: '/data', recursiveReadOnly: 'Disabled'}]]],
    ['an image volume', [['spec.volumes.0', {name: 'data', image: {reference: 'registry.example/model:1', pullPolicy: 'IfNotPresent'}}]]],
  ])('%s', (_name, sets) => {
    expect(issues(pod(...sets))).toEqual([])
  })
})

describe('invalid: one issue naming the field', () => {
  it.each<[string, [string, unknown][], string, string]>([
    ['hostUsers a string', [['spec.hostUsers', 'false']], 'spec.hostUsers', 'must be true or false, got "false"'],
    ['hostUsers false with hostNetwork', [['spec.hostUsers', false], ['spec.hostNetwork', true]], 'spec.hostNetwork', 'must be false when spec.hostUsers is false'],
    ['an unknown groups policy', [['spec.securityContext', {supplementalGroupsPolicy: 'Loose'}]], 'spec.securityContext.supplementalGroupsPolicy', 'must be one of Merge, Strict, got "Loose"'],
    ['an unknown AppArmor type', [['spec.securityContext', {appArmorProfile: {type: 'Strict'}}]], 'spec.securityContext.appArmorProfile.type', 'must be one of RuntimeDefault, Unconfined, Localhost, got "Strict"'],
    ['no AppArmor type', [['spec.containers.1.securityContext', {appArmorProfile: {}}]], 'spec.containers[1].securityContext.appArmorProfile.type', 'must be set, one of RuntimeDefault, Unconfined, Localhost'],
    ['Localhost without a name', [['spec.containers.0.securityContext', {appArmorProfile: {type: 'Localhost'}}]], 'spec.containers[0].securityContext.appArmorProfile.localhostProfile', 'must be set when type is Localhost'],
    ['a name for another type', [['spec.securityContext', {appArmorProfile: {type: 'RuntimeDefault', localhostProfile: 'x'}}]], 'spec.securityContext.appArmorProfile.localhostProfile', 'can only be set when type is Localhost'],
    ['a name with a newline', [['spec.securityContext', {appArmorProfile: {type: 'Localhost', localhostProfile: 'a\nb'}}]], 'spec.securityContext.appArmorProfile.localhostProfile', 'must not contain control characters, got "a\\nb"'],
    ['a name too long', [['spec.securityContext', {appArmorProfile: {type: 'Localhost', localhostProfile: 'x'.repeat(4096)}}]], 'spec.securityContext.appArmorProfile.localhostProfile', 'must be at most 4095 characters, got 4096'],
    ['the annotation for no container', [['metadata.annotations', {[`${ANNOTATION}/ghost`]: 'runtime/default'}]], `metadata.annotations["${ANNOTATION}/ghost"]`, 'names no container of the pod: there is no container or init container "ghost"'],
    ['the annotation with a bad value', [['metadata.annotations', {[`${ANNOTATION}/nginx`]: 'docker-default'}]], `metadata.annotations["${ANNOTATION}/nginx"]`, 'must be "runtime/default", "unconfined" or "localhost/<profile>", got "docker-default"'],
    ['the annotation localhost/ without a name', [['metadata.annotations', {[`${ANNOTATION}/nginx`]: 'localhost/'}]], `metadata.annotations["${ANNOTATION}/nginx"]`, 'the profile name after "localhost/" must be set'],
    ['the annotation disagreeing with the field', [
      ['metadata.annotations', {[`${ANNOTATION}/nginx`]: 'runtime/default'}],
      ['spec.securityContext', {appArmorProfile: {type: 'Unconfined'}}],
    ], `metadata.annotations["${ANNOTATION}/nginx"]`, 'must match spec.securityContext.appArmorProfile (unconfined), got "runtime/default"'],
    ['recursiveReadOnly on a writable mount', [['spec.containers.0.volumeMounts.0', {name: 'data', mountPath: '/data', recursiveReadOnly: 'Enabled'}]], 'spec.containers[0].volumeMounts[0].recursiveReadOnly', 'may only be specified when readOnly is true'],
    ['recursiveReadOnly with propagation', [['spec.containers.0.volumeMounts.0', {name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'IfPossible', mountPropagation: 'HostToContainer'}]], 'spec.containers[0].volumeMounts[0].recursiveReadOnly', 'may only be specified when mountPropagation is None or not specified'],
    ['recursiveReadOnly unknown', [['spec.containers.0.volumeMounts.0', {name: 'data', mountPath: '/data', readOnly: true, recursiveReadOnly: 'Always'}]], 'spec.containers[0].volumeMounts[0].recursiveReadOnly', 'must be one of Disabled, IfPossible, Enabled, got "Always"'],
    ['an image volume without a reference', [['spec.volumes.0', {name: 'data', image: {}}]], 'spec.volumes[0].image.reference', 'must be set'],
    ['an image volume with an unknown pull policy', [['spec.volumes.0', {name: 'data', image: {reference: 'r', pullPolicy: 'Sometimes'}}]], 'spec.volumes[0].image.pullPolicy', 'must be one of Always, Never, IfNotPresent, got "Sometimes"'],
  ])('%s', (_name, sets, field, message) => {
    const got = issues(pod(...sets)).filter((i) => i.field === field)
    expect(got.map((i) => i.message)).toEqual([message])
  })
})
