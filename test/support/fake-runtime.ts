// An in-memory CRI for unit and integration tests of the core, in the spirit of cri-api's
// fake_runtime_service.go: it keeps sandboxes, containers and images, records every call, and
// lets a test inject errors per call, make containers exit, or hold calls that never end (a huge
// pull, a hanging hook) until released or until the caller's signal cancels them.
import type {
  AuthConfig,
  Container,
  ContainerConfig,
  ContainerFilter,
  ContainerStats,
  ContainerStatsFilter,
  ContainerStatus,
  ExecSyncResult,
  Image,
  ImageSpec,
  PodSandbox,
  PodSandboxConfig,
  PodSandboxFilter,
  PodSandboxStatus,
  RuntimeCondition,
  RuntimeFeatures,
  VersionInfo,
} from '../../src/cri/api.js'
import type {CriCallOptions, ImageService, Runtime, RuntimeService} from '../../src/cri/port.js'
import {CriError, type CriErrorCode} from '../../src/util/errors.js'

interface FakeSandbox {
  sandbox: PodSandbox
  config: PodSandboxConfig
  ip: string
}

interface FakeContainer {
  status: ContainerStatus
  sandboxId: string
}

export interface FakeCall {
  call: string
  args: unknown[]
}

const NS_PER_MS = 1_000_000

function matchLabels(labels: Record<string, string>, selector?: Record<string, string>): boolean {
  return Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v)
}

function normalize(ref: string): string {
  // Enough normalisation for tests: a bare name gets docker.io/library and :latest.
  let name = ref
  const firstSlash = name.indexOf('/')
  const first = firstSlash === -1 ? '' : name.slice(0, firstSlash)
  if (firstSlash === -1) name = `docker.io/library/${name}`
  else if (!first.includes('.') && !first.includes(':') && first !== 'localhost') name = `docker.io/${name}`
  const lastPart = name.slice(name.lastIndexOf('/') + 1)
  if (!lastPart.includes(':') && !lastPart.includes('@')) name += ':latest'
  return name
}

export class FakeRuntime implements RuntimeService, ImageService, Runtime {
  readonly runtime: RuntimeService = this
  readonly images: ImageService = this
  readonly calls: FakeCall[] = []
  readonly sandboxes = new Map<string, FakeSandbox>()
  readonly containers = new Map<string, FakeContainer>()
  readonly imageStore = new Map<string, Image>()
  /** Images that exist "in a registry" and can be pulled. */
  readonly pullable = new Set<string>()
  /** Images whose registry accepts only these credentials (username:password). */
  readonly registryLogins = new Map<string, string>()
  private readonly errors = new Map<string, {code: CriErrorCode; detail: string; times: number}>()
  /** Calls (by name) held without an answer from now on, and each call held so far with its release. */
  private readonly stalling = new Set<string>()
  private held: {call: string; release: () => void}[] = []
  private stallWaiters: {call: string; notify: () => void}[] = []
  /** What Status reports beyond conditions; like containerd 1.6 by default: nothing. */
  features: RuntimeFeatures = {handlers: [], supplementalGroupsPolicy: false}
  /** Calls whose caller cancelled them while they were held, in order. */
  readonly cancelled: string[] = []
  private nextId = 1
  // Creation times must be strictly ordered, as a real runtime's are, even when the test clock
  // does not move; a microsecond apiece survives the float precision of nanosecond numbers.
  private seq = 0
  private stamp(): number {
    return this.nowMs * NS_PER_MS + ++this.seq * 1000
  }
  /** Milliseconds; tests advance it to control timestamps. */
  nowMs = 1_700_000_000_000

  constructor(opts: {images?: string[]; pullable?: string[]} = {}) {
    for (const i of opts.images ?? []) this.addImage(i)
    for (const p of opts.pullable ?? []) this.pullable.add(normalize(p))
  }

  addImage(ref: string): void {
    const n = normalize(ref)
    this.imageStore.set(n, {id: `sha256:${this.id()}`, repoTags: [n], repoDigests: [], size: 1000})
  }

  /** The next `times` calls of `call` fail with `code`. */
  failNext(call: string, code: CriErrorCode = 'Unknown', detail = 'injected failure', times = 1): void {
    this.errors.set(call, {code, detail, times})
  }

  /** Makes a running container exit, as if its process ended. */
  exitContainer(id: string, exitCode: number, reason = exitCode === 0 ? 'Completed' : 'Error'): void {
    const c = this.mustContainer('test', id)
    c.status = {...c.status, state: 'CONTAINER_EXITED', exitCode, reason, finishedAt: this.nowMs * NS_PER_MS}
  }

  /** From now on, calls of `call` (PullImage, ExecSync) never answer until released or cancelled. */
  stall(call: string): void {
    this.stalling.add(call)
  }

  /** Stops stalling `call` and lets its held calls go on as usual. */
  release(call: string): void {
    this.stalling.delete(call)
    const go = this.held.filter((h) => h.call === call)
    this.held = this.held.filter((h) => h.call !== call)
    for (const h of go) h.release()
  }

  /** Resolves once a call of `call` is being held (the code under test is waiting on it). */
  whenStalled(call: string): Promise<void> {
    if (this.held.some((h) => h.call === call)) return Promise.resolve()
    return new Promise((notify) => this.stallWaiters.push({call, notify}))
  }

  /** Holds the call while it is stalled; honours the signal as a remote runtime does (code Cancelled). */
  private async hold(call: string, opts: CriCallOptions | undefined): Promise<void> {
    const signal = opts?.signal
    if (signal?.aborted) throw new CriError(call, 'Cancelled', 'context canceled')
    if (!this.stalling.has(call)) return
    await new Promise<void>((resolve, reject) => {
      const entry = {
        call,
        release: (): void => {
          signal?.removeEventListener('abort', onAbort)
          resolve()
        },
      }
      const onAbort = (): void => {
        this.held = this.held.filter((h) => h !== entry)
        this.cancelled.push(call)
        reject(new CriError(call, 'Cancelled', 'context canceled'))
      }
      signal?.addEventListener('abort', onAbort, {once: true})
      this.held.push(entry)
      const waiters = this.stallWaiters.filter((w) => w.call === call)
      this.stallWaiters = this.stallWaiters.filter((w) => w.call !== call)
      for (const w of waiters) w.notify()
    })
  }

  callsOf(name: string): FakeCall[] {
    return this.calls.filter((c) => c.call === name)
  }

  callNames(): string[] {
    return this.calls.map((c) => c.call)
  }

  /** Calls that change the runtime (everything but reads). */
  mutatingCalls(): string[] {
    const reads = new Set(['Version', 'Status', 'PodSandboxStatus', 'ListPodSandbox', 'ListContainers', 'ContainerStatus', 'ListImages', 'ImageStatus'])
    return this.callNames().filter((c) => !reads.has(c))
  }

  close(): void {}

  private id(): string {
    return (this.nextId++).toString(16).padStart(12, '0')
  }

  private record(call: string, ...args: unknown[]): void {
    this.calls.push({call, args})
    const e = this.errors.get(call)
    if (e && e.times > 0) {
      e.times--
      if (e.times === 0) this.errors.delete(call)
      throw new CriError(call, e.code, e.detail)
    }
  }

  private mustSandbox(call: string, id: string): FakeSandbox {
    const s = this.sandboxes.get(id)
    if (!s) throw new CriError(call, 'NotFound', `sandbox ${id} not found`)
    return s
  }

  private mustContainer(call: string, id: string): FakeContainer {
    const c = this.containers.get(id)
    if (!c) throw new CriError(call, 'NotFound', `container ${id} not found`)
    return c
  }

  async version(): Promise<VersionInfo> {
    this.record('Version')
    return {version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.0.0', runtimeApiVersion: 'v1'}
  }

  async runtimeFeatures(): Promise<RuntimeFeatures> {
    this.record('Status')
    return structuredClone(this.features)
  }

  async status(): Promise<RuntimeCondition[]> {
    this.record('Status')
    return [
      {type: 'RuntimeReady', status: true, reason: '', message: ''},
      {type: 'NetworkReady', status: true, reason: '', message: ''},
    ]
  }

  async runPodSandbox(config: PodSandboxConfig): Promise<string> {
    this.record('RunPodSandbox', config)
    const id = `sb${this.id()}`
    const hostNetwork = config.linux?.securityContext?.namespaceOptions?.network === 'NODE'
    this.sandboxes.set(id, {
      config,
      ip: hostNetwork ? '' : `10.88.0.${this.sandboxes.size + 2}`,
      sandbox: {
        id,
        metadata: config.metadata,
        state: 'SANDBOX_READY',
        createdAt: this.stamp(),
        labels: {...config.labels},
        annotations: {...config.annotations},
        runtimeHandler: '',
      },
    })
    return id
  }

  async stopPodSandbox(id: string): Promise<void> {
    this.record('StopPodSandbox', id)
    const s = this.sandboxes.get(id)
    if (!s) return
    s.sandbox = {...s.sandbox, state: 'SANDBOX_NOTREADY'}
    for (const c of this.containers.values()) {
      if (c.sandboxId === id && c.status.state === 'CONTAINER_RUNNING') {
        c.status = {...c.status, state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error', finishedAt: this.nowMs * NS_PER_MS}
      }
    }
  }

  async removePodSandbox(id: string): Promise<void> {
    this.record('RemovePodSandbox', id)
    this.sandboxes.delete(id)
    for (const [cid, c] of this.containers) if (c.sandboxId === id) this.containers.delete(cid)
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus> {
    this.record('PodSandboxStatus', id)
    const s = this.mustSandbox('PodSandboxStatus', id)
    return {...s.sandbox, network: {ip: s.ip, additionalIps: []}}
  }

  async listPodSandbox(filter?: PodSandboxFilter): Promise<PodSandbox[]> {
    this.record('ListPodSandbox', filter)
    return [...this.sandboxes.values()]
      .map((s) => s.sandbox)
      .filter((s) => (!filter?.id || s.id === filter.id) && (!filter?.state || s.state === filter.state))
      .filter((s) => matchLabels(s.labels, filter?.labelSelector))
  }

  async createContainer(podSandboxId: string, config: ContainerConfig, _sandboxConfig: PodSandboxConfig): Promise<string> {
    this.record('CreateContainer', podSandboxId, config)
    const sb = this.mustSandbox('CreateContainer', podSandboxId)
    if (sb.sandbox.state !== 'SANDBOX_READY') throw new CriError('CreateContainer', 'Unknown', `sandbox ${podSandboxId} is not ready`)
    const image = normalize(config.image.image)
    const img = this.imageStore.get(image)
    if (!img) throw new CriError('CreateContainer', 'NotFound', `image ${config.image.image} not found`)
    const id = `c${this.id()}`
    this.containers.set(id, {
      sandboxId: podSandboxId,
      status: {
        id,
        metadata: config.metadata,
        state: 'CONTAINER_CREATED',
        createdAt: this.stamp(),
        startedAt: 0,
        finishedAt: 0,
        exitCode: 0,
        image: config.image,
        imageRef: img.id,
        reason: '',
        message: '',
        labels: {...config.labels},
        annotations: {...config.annotations},
        mounts: config.mounts,
        logPath: `${sb.config.logDirectory}/${config.logPath}`,
      },
    })
    return id
  }

  async startContainer(id: string): Promise<void> {
    this.record('StartContainer', id)
    const c = this.mustContainer('StartContainer', id)
    if (this.startFailures > 0) {
      // containerd leaves a container whose process could not start exited, code 128, StartError.
      this.startFailures--
      c.status = {...c.status, state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError', message: this.startFailureMessage, finishedAt: this.nowMs * NS_PER_MS}
      throw new CriError('StartContainer', 'Unknown', this.startFailureMessage)
    }
    c.status = {...c.status, state: 'CONTAINER_RUNNING', startedAt: this.nowMs * NS_PER_MS}
  }

  private startFailures = 0
  private startFailureMessage = ''

  /** The next `times` starts fail as containerd's do for a missing command (exited, 128, StartError). */
  failStarts(times = Number.POSITIVE_INFINITY, message = 'failed to create containerd task: exec: "slep": executable file not found in $PATH'): void {
    this.startFailures = times
    this.startFailureMessage = message
  }

  async stopContainer(id: string, timeoutSeconds: number): Promise<void> {
    this.record('StopContainer', id, timeoutSeconds)
    const c = this.containers.get(id)
    if (!c || c.status.state !== 'CONTAINER_RUNNING') return
    c.status = {...c.status, state: 'CONTAINER_EXITED', exitCode: 137, reason: 'Error', finishedAt: this.nowMs * NS_PER_MS}
  }

  async removeContainer(id: string): Promise<void> {
    this.record('RemoveContainer', id)
    this.containers.delete(id)
  }

  async listContainers(filter?: ContainerFilter): Promise<Container[]> {
    this.record('ListContainers', filter)
    return [...this.containers.entries()]
      .filter(([id, c]) => (!filter?.id || id === filter.id) && (!filter?.podSandboxId || c.sandboxId === filter.podSandboxId))
      .filter(([, c]) => (!filter?.state || c.status.state === filter.state) && matchLabels(c.status.labels, filter?.labelSelector))
      .map(([id, c]) => ({
        id,
        podSandboxId: c.sandboxId,
        metadata: c.status.metadata,
        image: c.status.image,
        imageRef: c.status.imageRef,
        state: c.status.state,
        createdAt: c.status.createdAt,
        labels: c.status.labels,
        annotations: c.status.annotations,
      }))
  }

  async containerStatus(id: string): Promise<ContainerStatus> {
    this.record('ContainerStatus', id)
    return {...this.mustContainer('ContainerStatus', id).status}
  }

  async execSync(id: string, cmd: string[], timeoutSeconds: number, opts?: CriCallOptions): Promise<ExecSyncResult> {
    this.record('ExecSync', id, cmd, timeoutSeconds)
    this.mustContainer('ExecSync', id)
    await this.hold('ExecSync', opts)
    return {stdout: Buffer.from(''), stderr: Buffer.from(''), exitCode: 0}
  }

  async reopenContainerLog(id: string): Promise<void> {
    this.record('ReopenContainerLog', id)
  }

  /** Usage a test gives a container (CPU core-nanoseconds, working-set bytes), sampled at nowMs. */
  readonly usage = new Map<string, {cpuCoreNanoSeconds: number; workingSetBytes: number}>()

  async listContainerStats(filter?: ContainerStatsFilter): Promise<ContainerStats[]> {
    this.record('ListContainerStats', filter)
    // As containerd: running containers only, a usage sample each.
    return [...this.containers.entries()]
      .filter(([id, c]) => c.status.state === 'CONTAINER_RUNNING' && (!filter?.id || id === filter.id) && (!filter?.podSandboxId || c.sandboxId === filter.podSandboxId))
      .filter(([, c]) => matchLabels(c.status.labels, filter?.labelSelector))
      .map(([id, c]) => {
        const u = this.usage.get(id)
        const out: ContainerStats = {id, metadata: c.status.metadata, labels: c.status.labels}
        if (u) {
          out.cpuUsageCoreNanoSeconds = {timestampMs: this.nowMs, value: u.cpuCoreNanoSeconds}
          out.memoryWorkingSetBytes = {timestampMs: this.nowMs, value: u.workingSetBytes}
        }
        return out
      })
  }

  async listImages(): Promise<Image[]> {
    this.record('ListImages')
    return [...this.imageStore.values()]
  }

  async imageStatus(image: ImageSpec): Promise<Image | null> {
    this.record('ImageStatus', image)
    return this.imageStore.get(normalize(image.image)) ?? null
  }

  async pullImage(image: ImageSpec, _sandboxConfig?: PodSandboxConfig, opts?: CriCallOptions, auth?: AuthConfig): Promise<string> {
    this.record('PullImage', image, ...(auth ? [auth] : []))
    await this.hold('PullImage', opts)
    const n = normalize(image.image)
    const login = this.registryLogins.get(n)
    if (login !== undefined && !this.imageStore.has(n) && `${auth?.username}:${auth?.password}` !== login) {
      throw new CriError('PullImage', 'Unknown', `failed to pull and unpack image "${image.image}": 401 Unauthorized`)
    }
    if (!this.imageStore.has(n)) {
      if (!this.pullable.has(n)) throw new CriError('PullImage', 'NotFound', `failed to resolve reference "${image.image}": not found`)
      this.addImage(n)
    }
    return this.imageStore.get(n)!.id
  }

  async removeImage(image: ImageSpec): Promise<void> {
    this.record('RemoveImage', image)
    this.imageStore.delete(normalize(image.image))
  }
}
