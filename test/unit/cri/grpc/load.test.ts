// The CRI clients are built from a descriptor generated out of proto/api.proto, without
// proto-loader: their messages must be the bytes and objects proto-loader would give.
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {loadSync} from '@grpc/proto-loader'
import {describe, expect, it} from 'vitest'
import {loadCriProto, PROTO_LOADER_OPTIONS} from '../../../../src/cri/grpc/load.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const reference = loadSync(`${root}proto/api.proto`, {...PROTO_LOADER_OPTIONS})

describe('loadCriProto', () => {
  it('uses the codecs generated from proto/api.proto as it is now', () => {
    const check = spawnSync(process.execPath, ['scripts/proto-codecs.mjs', '--check'], {cwd: root, encoding: 'utf8'})
    expect(check.stderr).toBe('')
    expect(check.status).toBe(0)
  })

  it('has every method of both services, on the same paths as proto-loader', () => {
    const v1 = loadCriProto().runtime.v1
    for (const service of ['RuntimeService', 'ImageService'] as const) {
      const ours = (v1[service] as unknown as {service: Record<string, {path: string}>}).service
      const theirs = reference[`runtime.v1.${service}`] as Record<string, {path: string}>
      expect(Object.fromEntries(Object.entries(ours).map(([k, m]) => [k, m.path]))).toEqual(Object.fromEntries(Object.entries(theirs).map(([k, m]) => [k, m.path])))
    }
  })

  it('serialises and deserialises exactly as proto-loader does (int64 as strings, enums as names, defaults, oneofs)', () => {
    const ours = (loadCriProto().runtime.v1.RuntimeService as unknown as {service: Record<string, {requestSerialize: (v: object) => Buffer; responseDeserialize: (b: Buffer) => unknown}>}).service
    const theirs = reference['runtime.v1.RuntimeService'] as Record<string, {requestSerialize: (v: object) => Buffer; responseDeserialize: (b: Buffer) => unknown; responseSerialize: (v: object) => Buffer}>
    const request = {filter: {state: {state: 'SANDBOX_READY'}, labelSelector: {'io.kubernetes.pod.uid': 'u1'}}}
    expect(ours['ListPodSandbox']!.requestSerialize(request)).toEqual(theirs['ListPodSandbox']!.requestSerialize(request))
    const response = theirs['ListContainers']!.responseSerialize({
      containers: [{id: 'c1', podSandboxId: 's1', state: 'CONTAINER_EXITED', createdAt: '1700000000000000000', labels: {a: 'b'}, metadata: {name: 'web', attempt: 2}}],
    })
    expect(ours['ListContainers']!.responseDeserialize(response)).toEqual(theirs['ListContainers']!.responseDeserialize(response))
  })
})
