// A stand-in CRI runtime for the code-cache build step (scripts/code-cache.mjs), on a unix socket
// in a temporary directory: just enough state for `run` to create a pod and see it Running, `get`
// and `describe` to list it and `down` to remove it, so that the cache holds the code of a real
// conversation (HTTP/2 set-up, every message codec, the sync path) and not only of its failure.
// It never runs anything.
import {Server, ServerCredentials} from '@grpc/grpc-js'
import {loadSync} from '@grpc/proto-loader'

const NS = 1_000_000n

export async function startBuildRuntime(proto, socket) {
  const api = loadSync(proto, {keepCase: false, longs: String, enums: String, defaults: true, oneofs: true})
  const sandboxes = new Map()
  const containers = new Map()
  let next = 0
  const id = () => `${(++next).toString(16).padStart(8, '0')}`.repeat(8)
  const now = () => String(BigInt(Date.now()) * NS)
  const image = {id: 'sha256:'.concat('0'.repeat(64)), repoTags: [], repoDigests: [], size: '1'}
  const ok = (fn) => (call, done) => {
    try {
      done(null, fn(call.request))
    } catch (err) {
      done(err)
    }
  }
  const matches = (labels, selector = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v)
  const runtimeService = {
    Version: ok(() => ({version: '0.1.0', runtimeName: 'kube-node-build', runtimeVersion: '0', runtimeApiVersion: 'v1'})),
    Status: ok(() => ({status: {conditions: [{type: 'RuntimeReady', status: true}, {type: 'NetworkReady', status: true}]}})),
    RunPodSandbox: ok(({config}) => {
      const s = {id: id(), metadata: config.metadata, state: 'SANDBOX_READY', createdAt: now(), labels: config.labels, annotations: config.annotations, runtimeHandler: ''}
      sandboxes.set(s.id, s)
      return {podSandboxId: s.id}
    }),
    StopPodSandbox: ok(({podSandboxId}) => {
      const s = sandboxes.get(podSandboxId)
      if (s) s.state = 'SANDBOX_NOTREADY'
      return {}
    }),
    RemovePodSandbox: ok(({podSandboxId}) => (sandboxes.delete(podSandboxId), {})),
    PodSandboxStatus: ok(({podSandboxId}) => {
      const s = sandboxes.get(podSandboxId)
      if (!s) throw Object.assign(new Error('not found'), {code: 5})
      return {status: {...s, network: {ip: '10.88.0.2', additionalIps: []}}, info: {}}
    }),
    ListPodSandbox: ok(({filter}) => ({items: [...sandboxes.values()].filter((s) => matches(s.labels, filter?.labelSelector))})),
    CreateContainer: ok(({podSandboxId, config, sandboxConfig}) => {
      const c = {
        id: id(), podSandboxId, metadata: config.metadata, image: config.image, imageRef: image.id, state: 'CONTAINER_CREATED',
        createdAt: now(), startedAt: '0', finishedAt: '0', exitCode: 0, labels: config.labels, annotations: config.annotations,
        logPath: `${sandboxConfig?.logDirectory ?? ''}/${config.logPath}`, mounts: [], reason: '', message: '',
      }
      containers.set(c.id, c)
      return {containerId: c.id}
    }),
    StartContainer: ok(({containerId}) => {
      const c = containers.get(containerId)
      if (c) Object.assign(c, {state: 'CONTAINER_RUNNING', startedAt: now()})
      return {}
    }),
    StopContainer: ok(({containerId}) => {
      const c = containers.get(containerId)
      if (c) Object.assign(c, {state: 'CONTAINER_EXITED', finishedAt: now(), reason: 'Completed'})
      return {}
    }),
    RemoveContainer: ok(({containerId}) => (containers.delete(containerId), {})),
    ListContainers: ok(({filter}) => ({containers: [...containers.values()].filter((c) => matches(c.labels, filter?.labelSelector))})),
    ContainerStatus: ok(({containerId}) => {
      const c = containers.get(containerId)
      if (!c) throw Object.assign(new Error('not found'), {code: 5})
      return {status: c, info: {}}
    }),
    ReopenContainerLog: ok(() => ({})),
    ExecSync: ok(() => ({stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0})),
  }
  const imageService = {
    ListImages: ok(() => ({images: [image]})),
    ImageStatus: ok(() => ({image, info: {}})),
    PullImage: ok(() => ({imageRef: image.id})),
    RemoveImage: ok(() => ({})),
  }
  const server = new Server()
  server.addService(api['runtime.v1.RuntimeService'], runtimeService)
  server.addService(api['runtime.v1.ImageService'], imageService)
  await new Promise((resolve, reject) => server.bindAsync(`unix://${socket}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())))
  return {endpoint: `unix://${socket}`, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve()))}
}
