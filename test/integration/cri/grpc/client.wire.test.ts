// One real round trip: an in-process gRPC server on a unix socket, built from the same proto,
// plays a tiny runtime; the client must hand back exactly the plain values that went in.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {Server, ServerCredentials, status} from '@grpc/grpc-js'
import type {PodSandboxConfig} from '../../../../src/cri/api.js'
import type {Runtime} from '../../../../src/cri/port.js'
import {createGrpcRuntime} from '../../../../src/cri/grpc/client.js'
import {loadCriProto} from '../../../../src/cri/grpc/load.js'
import type {PodSandbox} from '../../../../src/cri/grpc/generated/runtime/v1/PodSandbox.js'
import type {ImageServiceHandlers} from '../../../../src/cri/grpc/generated/runtime/v1/ImageService.js'
import type {RuntimeServiceHandlers} from '../../../../src/cri/grpc/generated/runtime/v1/RuntimeService.js'
import {CriError} from '../../../../src/util/errors.js'

const CREATED_NS = '1700000000123456000'
/** Calls the client cancelled while the server held them, by RPC name. */
const cancelledOnServer: string[] = []

function startServer(socket: string): Promise<Server> {
  const sandboxes: PodSandbox[] = []
  const handlers: Partial<RuntimeServiceHandlers> = {
    Version: (_call, cb) =>
      cb(null, {version: '0.1.0', runtimeName: 'fake', runtimeVersion: 'v9.9.9', runtimeApiVersion: 'v1'}),
    RunPodSandbox: (call, cb) => {
      const config = call.request.config
      const id = `sb-${sandboxes.length + 1}`
      sandboxes.push({
        id,
        metadata: config?.metadata ?? null,
        state: 'SANDBOX_READY',
        createdAt: CREATED_NS,
        labels: config?.labels ?? {},
        annotations: config?.annotations ?? {},
        runtimeHandler: call.request.runtimeHandler,
      })
      cb(null, {podSandboxId: id})
    },
    ListPodSandbox: (call, cb) => {
      const selector = call.request.filter?.labelSelector ?? {}
      const items = sandboxes.filter((s) => Object.entries(selector).every(([k, v]) => s.labels?.[k] === v))
      cb(null, {items})
    },
    ContainerStatus: (call, cb) =>
      cb({code: status.NOT_FOUND, details: `an error occurred when try to find container "${call.request.containerId}": not found`}),
    // containerd's answer for a container removed already; the CRI makes removal idempotent.
    RemoveContainer: (call, cb) =>
      cb({code: status.NOT_FOUND, details: `an error occurred when try to find container "${call.request.containerId}": not found`}),
    StopPodSandbox: (_call, cb) => cb({code: status.UNAVAILABLE, details: 'shutting down'}),
    // Never answers: the client's deadline must end the call.
    PodSandboxStatus: () => {},
    // A hook's exec that never ends; only the caller's signal ends it.
    ExecSync: (call) => call.on('cancelled', () => cancelledOnServer.push('ExecSync')),
  }
  const imageHandlers: Partial<ImageServiceHandlers> = {
    ImageStatus: (call, cb) =>
      cb(null, {
        image:
          call.request.image?.image === 'busybox:latest'
            ? {id: 'sha256:b1', repoTags: ['localhost:5000/busybox:latest'], repoDigests: [], size: '4276160'}
            : null,
      }),
    // A pull of a huge image: no deadline, so only the caller's signal ends it.
    PullImage: (call) => call.on('cancelled', () => cancelledOnServer.push('PullImage')),
  }
  const server = new Server()
  server.addService(loadCriProto().runtime.v1.RuntimeService.service, handlers as RuntimeServiceHandlers)
  server.addService(loadCriProto().runtime.v1.ImageService.service, imageHandlers as ImageServiceHandlers)
  return new Promise((resolve, reject) =>
    server.bindAsync(`unix://${socket}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve(server))),
  )
}

describe('gRPC client against an in-process CRI server', () => {
  let dir: string
  let server: Server
  let client: Runtime
  const CALL_TIMEOUT_MS = 300

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-node-cri-'))
    server = await startServer(join(dir, 'cri.sock'))
    client = createGrpcRuntime({runtimeEndpoint: `unix://${join(dir, 'cri.sock')}`, callTimeoutMs: CALL_TIMEOUT_MS})
  })

  afterAll(async () => {
    client?.close()
    await new Promise<void>((resolve) => (server ? server.tryShutdown(() => resolve()) : resolve()))
    rmSync(dir, {recursive: true, force: true})
  })

  it('Version', async () => {
    expect(await client.runtime.version()).toEqual({
      version: '0.1.0',
      runtimeName: 'fake',
      runtimeVersion: 'v9.9.9',
      runtimeApiVersion: 'v1',
    })
  })

  it('RunPodSandbox then ListPodSandbox round-trips metadata, labels, annotations and the timestamp', async () => {
    const config: PodSandboxConfig = {
      metadata: {name: 'web-node1', uid: '6f2c…-uid', namespace: 'kube-system', attempt: 2},
      hostname: 'web-node1',
      logDirectory: '/var/log/pods/kube-system_web-node1_uid',
      portMappings: [],
      labels: {'io.kubernetes.pod.name': 'web-node1', 'io.kubernetes.pod.namespace': 'kube-system', 'kube-node': 'true'},
      annotations: {'kubernetes.io/config.hash': 'abc', 'with spaces': 'and ünïcode'},
      linux: {securityContext: {namespaceOptions: {network: 'POD', pid: 'CONTAINER', ipc: 'POD'}}},
    }
    const id = await client.runtime.runPodSandbox(config, 'runc')
    expect(id).toBe('sb-1')

    const all = await client.runtime.listPodSandbox()
    expect(all).toEqual([
      {
        id: 'sb-1',
        metadata: config.metadata,
        state: 'SANDBOX_READY',
        createdAt: Number(CREATED_NS),
        labels: config.labels,
        annotations: config.annotations,
        runtimeHandler: 'runc',
      },
    ])
    expect(await client.runtime.listPodSandbox({labelSelector: {'kube-node': 'true'}})).toHaveLength(1)
    expect(await client.runtime.listPodSandbox({labelSelector: {'kube-node': 'false'}})).toEqual([])
  })

  it('ImageStatus: a present image with its size, null for an absent one', async () => {
    expect(await client.images.imageStatus({image: 'busybox:latest'})).toEqual({
      id: 'sha256:b1',
      repoTags: ['localhost:5000/busybox:latest'],
      repoDigests: [],
      size: 4276160,
      username: '',
    })
    expect(await client.images.imageStatus({image: 'nope:1'})).toBeNull()
  })

  it('NOT_FOUND becomes CriError NotFound naming the call', async () => {
    const err = await client.runtime.containerStatus('c-missing').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(CriError)
    expect(err).toMatchObject({call: 'ContainerStatus', code: 'NotFound'})
    expect((err as CriError).detail).toContain('"c-missing"')
  })

  it('removing a container that is already gone succeeds; a stop the runtime could not do still fails', async () => {
    await expect(client.runtime.removeContainer('gone')).resolves.toBeUndefined()
    await expect(client.runtime.stopPodSandbox('sb-1')).rejects.toMatchObject({call: 'StopPodSandbox', code: 'Unavailable'})
  })

  it('an unimplemented RPC is Unknown, not a crash', async () => {
    await expect(client.runtime.startContainer('c1')).rejects.toMatchObject({call: 'StartContainer', code: 'Unknown'})
  })

  it('a server that never answers fails with DeadlineExceeded after callTimeoutMs', async () => {
    const started = Date.now()
    const err = await client.runtime.podSandboxStatus('sb-1').catch((e: unknown) => e)
    const elapsed = Date.now() - started
    expect(err).toMatchObject({call: 'PodSandboxStatus', code: 'DeadlineExceeded'})
    expect(elapsed).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 50)
    expect(elapsed).toBeLessThan(CALL_TIMEOUT_MS + 1500)
  })

  it.each([
    ['PullImage', (signal: AbortSignal) => client.images.pullImage({image: 'huge:1'}, undefined, {signal})],
    ['ExecSync', (signal: AbortSignal) => client.runtime.execSync('c1', ['sleep', '3600'], 0, {signal})],
  ] as const)('%s: an abort of its signal cancels the call on the wire (Cancelled)', async (name, call) => {
    const ctl = new AbortController()
    const pending = call(ctl.signal).catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 100))
    const started = Date.now()
    ctl.abort()
    expect(await pending).toMatchObject({call: name, code: 'Cancelled'})
    expect(Date.now() - started).toBeLessThan(1000)
    // The runtime hears of it too (RST_STREAM), so it stops pulling.
    await vi.waitFor(() => expect(cancelledOnServer).toContain(name))
  })

  it('a call whose signal already fired is never sent', async () => {
    const ctl = new AbortController()
    ctl.abort()
    await expect(client.images.pullImage({image: 'huge:1'}, undefined, {signal: ctl.signal})).rejects.toMatchObject({call: 'PullImage', code: 'Cancelled'})
  })

  it('a socket nobody listens on is Unavailable', async () => {
    const nobody = createGrpcRuntime({runtimeEndpoint: join(dir, 'nobody.sock'), callTimeoutMs: 2000})
    try {
      await expect(nobody.runtime.version()).rejects.toMatchObject({call: 'Version', code: 'Unavailable'})
    } finally {
      nobody.close()
    }
  })
})
