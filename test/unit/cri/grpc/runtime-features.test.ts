// The Status fields that say what a runtime can do, and the request fields that use them, on the
// wire: upstream's field numbers (a runtime only understands those), and a runtime that predates
// them (containerd 1.6) reading as "nothing supported".
import {describe, expect, it} from 'vitest'
import {loadCriProto} from '../../../../src/cri/grpc/load.js'
import {containerConfigToWire, podSandboxConfigToWire, runtimeFeaturesFromWire} from '../../../../src/cri/grpc/convert.js'
import type {StatusResponse__Output} from '../../../../src/cri/grpc/generated/runtime/v1/StatusResponse.js'

type Codec = {requestSerialize: (v: object) => Buffer; responseSerialize: (v: object) => Buffer; responseDeserialize: (b: Buffer) => unknown}
const service = (): Record<string, Codec> => (loadCriProto().runtime.v1.RuntimeService as unknown as {service: Record<string, Codec>}).service

/** The (field number, wire type) tags of a protobuf message's top level, in order. */
function tags(buf: Buffer): number[] {
  const out: number[] = []
  let i = 0
  const varint = (): number => {
    let v = 0
    let shift = 0
    for (;;) {
      const b = buf[i++]!
      v += (b & 0x7f) * 2 ** shift
      if (b < 0x80) return v
      shift += 7
    }
  }
  while (i < buf.length) {
    const key = varint()
    out.push(key >>> 3)
    const type = key & 7
    if (type === 0) varint()
    else if (type === 2) {
      const length = varint()
      i += length
    }
    else throw new Error(`unexpected wire type ${type}`)
  }
  return out
}

describe('runtime features from Status', () => {
  it('a runtime that reports none supports none', () => {
    const s = service()['Status']!
    const wire = s.responseDeserialize(s.responseSerialize({status: {conditions: []}})) as StatusResponse__Output
    expect(runtimeFeaturesFromWire(wire)).toEqual({handlers: [], supplementalGroupsPolicy: false})
  })

  it('reads handlers (fields 3) and features (field 4)', () => {
    const s = service()['Status']!
    const bytes = s.responseSerialize({
      runtimeHandlers: [{name: '', features: {recursiveReadOnlyMounts: true, userNamespaces: true}}, {name: 'kata', features: null}],
      features: {supplementalGroupsPolicy: true},
    })
    expect(tags(bytes)).toEqual([3, 3, 4])
    expect(runtimeFeaturesFromWire(s.responseDeserialize(bytes) as StatusResponse__Output)).toEqual({
      handlers: [
        {name: '', recursiveReadOnlyMounts: true, userNamespaces: true},
        {name: 'kata', recursiveReadOnlyMounts: false, userNamespaces: false},
      ],
      supplementalGroupsPolicy: true,
    })
  })
})

describe('request fields on the wire', () => {
  it('a container sends AppArmor in both forms, the groups policy and a recursive read-only mount', () => {
    const wire = containerConfigToWire({
      metadata: {name: 'app', attempt: 0},
      image: {image: 'busybox'},
      command: [], args: [], workingDir: '', envs: [], labels: {}, annotations: {}, logPath: 'app/0.log', stdin: false, stdinOnce: false, tty: false,
      mounts: [{containerPath: '/d', hostPath: '/h', readonly: true, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE', recursiveReadOnly: true}],
      linux: {securityContext: {apparmor: {profileType: 'Localhost', localhostRef: 'k8s-x'}, apparmorProfile: 'localhost/k8s-x', supplementalGroupsPolicy: 'Strict', selinuxOptions: {user: 'u', role: 'r', type: 't', level: 's0'}}},
    } as Parameters<typeof containerConfigToWire>[0])
    const c = service()['CreateContainer']!
    const bytes = c.requestSerialize({podSandboxId: 's', config: wire, sandboxConfig: null})
    const decoded = loadedRequest('CreateContainer', bytes) as {config: {linux: {securityContext: Record<string, unknown>}; mounts: {recursiveReadOnly: boolean}[]}}
    expect(decoded.config.linux.securityContext).toMatchObject({
      apparmor: {profileType: 'Localhost', localhostRef: 'k8s-x'},
      apparmorProfile: 'localhost/k8s-x',
      supplementalGroupsPolicy: 'Strict',
      selinuxOptions: {user: 'u', role: 'r', type: 't', level: 's0'},
    })
    expect(decoded.config.mounts[0]?.recursiveReadOnly).toBe(true)
  })

  it('a sandbox sends the groups policy', () => {
    const wire = podSandboxConfigToWire({
      metadata: {name: 'p', uid: 'u', namespace: 'default', attempt: 0},
      hostname: '', logDirectory: '/l', labels: {}, annotations: {},
      linux: {securityContext: {supplementalGroupsPolicy: 'Strict'}},
    } as Parameters<typeof podSandboxConfigToWire>[0])
    const bytes = service()['RunPodSandbox']!.requestSerialize({config: wire, runtimeHandler: ''})
    const decoded = loadedRequest('RunPodSandbox', bytes) as {config: {linux: {securityContext: {supplementalGroupsPolicy: string}}}}
    expect(decoded.config.linux.securityContext.supplementalGroupsPolicy).toBe('Strict')
  })
})

/** Decodes a request with the server side of the same codecs. */
function loadedRequest(method: string, bytes: Buffer): unknown {
  const m = (loadCriProto().runtime.v1.RuntimeService as unknown as {service: Record<string, {requestDeserialize: (b: Buffer) => unknown}>}).service[method]!
  return m.requestDeserialize(bytes)
}
