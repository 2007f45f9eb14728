import {describe, expect, it} from 'vitest'
import {parseEndpoint} from '../../../../src/cri/grpc/endpoint.js'
import {explainUnreachable, unreachableDetail} from '../../../../src/cri/grpc/unreachable.js'
import {CriError} from '../../../../src/util/errors.js'

const SOCK = parseEndpoint('unix:///run/containerd/containerd.sock')
const TCP = parseEndpoint('tcp://10.0.0.5:3000')

describe('unreachableDetail: where kube-node looked and how to point it elsewhere', () => {
  it.each([
    ['no socket file', 'No connection established. Last error: Error: connect ENOENT /run/containerd/containerd.sock. Resolution note: ', SOCK, 'there is no socket at /run/containerd/containerd.sock'],
    ['a socket nobody listens on', 'No connection established. Last error: Error: connect ECONNREFUSED /run/containerd/containerd.sock. Resolution note: ', SOCK, 'nothing listens on /run/containerd/containerd.sock'],
    ['a socket this user may not use', 'No connection established. Last error: Error: connect EACCES /run/containerd/containerd.sock', SOCK, 'permission denied on /run/containerd/containerd.sock'],
    ['a tcp port with nothing behind it', 'No connection established. Last error: connect ECONNREFUSED 10.0.0.5:3000 (2026-11-27T00:00:00.000Z)', TCP, 'nothing listens at 10.0.0.5:3000'],
    ['an unknown cause is quoted, without an empty note', 'No connection established. Last error: something odd. Resolution note: ', SOCK, 'the connection failed (something odd)'],
  ])('%s', (_, detail, ep, what) => {
    const text = unreachableDetail(detail, ep, '--runtime-endpoint')!
    expect(text).toContain(`cannot reach the container runtime at ${ep.protocol}://${ep.address}: ${what}`)
    expect(text).toMatch(/point kube-node at it with --runtime-endpoint or CONTAINER_RUNTIME_ENDPOINT$/)
    expect(text).not.toMatch(/Resolution note/)
  })

  it('names --image-endpoint for a separate image service', () => {
    expect(unreachableDetail('No connection established. Last error: Error: connect ENOENT /x.sock', parseEndpoint('/x.sock'), '--image-endpoint')).toMatch(/with --image-endpoint$/)
  })

  it('leaves other failures alone', () => {
    expect(unreachableDetail('Connection dropped', SOCK, '--runtime-endpoint')).toBeUndefined()
  })
})

describe('explainUnreachable', () => {
  it('rewrites a connect failure and keeps the call and code the core acts on', async () => {
    const svc = explainUnreachable({version: async (): Promise<string> => Promise.reject(new CriError('Version', 'Unavailable', 'No connection established. Last error: Error: connect ENOENT /run/containerd/containerd.sock'))}, SOCK, '--runtime-endpoint')
    const err = await svc.version().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CriError)
    expect((err as CriError).code).toBe('Unavailable')
    expect((err as CriError).message).toBe('CRI Version failed (Unavailable): cannot reach the container runtime at unix:///run/containerd/containerd.sock: there is no socket at /run/containerd/containerd.sock; start the runtime (containerd), or point kube-node at it with --runtime-endpoint or CONTAINER_RUNTIME_ENDPOINT')
  })

  it('passes answers and other errors through', async () => {
    const other = new CriError('Version', 'NotFound', 'gone')
    const svc = explainUnreachable({ok: async (): Promise<number> => 1, bad: async (): Promise<number> => Promise.reject(other)}, SOCK, '--runtime-endpoint')
    expect(await svc.ok()).toBe(1)
    await expect(svc.bad()).rejects.toBe(other)
  })
})
