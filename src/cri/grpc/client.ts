// The CRI port over gRPC (containerd, CRI-O, …): the only adapter that talks to a real runtime.
// Like the kubelet's remote runtime: a 16 MiB receive limit, one deadline for every call except
// PullImage, ExecSync given its own timeout plus that margin, and every failure as a CriError.
import {Channel, credentials, type CallOptions, type ServiceError} from '@grpc/grpc-js'
import type {AuthConfig, ContainerConfig, ContainerFilter, ContainerStatsFilter, ImageSpec, PodSandboxConfig, PodSandboxFilter} from '../api.js'
import type {CriCallOptions, ImageService, Runtime, RuntimeService} from '../port.js'
import {CriError} from '../../util/errors.js'
import {
  conditionsFromWire,
  containerConfigToWire,
  containerFilterToWire,
  containerFromWire,
  containerStatsFilterToWire,
  containerStatsFromWire,
  containerStatusFromWire,
  execSyncFromWire,
  imageFromWire,
  imageSpecToWire,
  authConfigToWire,
  podSandboxConfigToWire,
  podSandboxFilterToWire,
  podSandboxFromWire,
  podSandboxStatusFromWire,
  versionFromWire,
  runtimeFeaturesFromWire,
} from './convert.js'
import {parseEndpoint} from './endpoint.js'
import {toCriError} from './errors.js'
import {ignoreNotFound} from '../errors.js'
import {explainUnreachable} from './unreachable.js'
import {loadCriProto} from './load.js'
import type * as W from './wire.js'
import type {ImageServiceClient} from './generated/runtime/v1/ImageService.js'
import type {RuntimeServiceClient} from './generated/runtime/v1/RuntimeService.js'

export interface GrpcRuntimeOptions {
  /** `unix:///run/containerd/containerd.sock`, `/path`, or `tcp://host:port`. */
  runtimeEndpoint: string
  /** Defaults (also when empty) to the runtime endpoint; equal endpoints share one channel. */
  imageEndpoint?: string
  /**
   * Deadline of every call except PullImage (kubelet `--runtime-request-timeout`, default 2m).
   * 0 disables deadlines.
   */
  callTimeoutMs?: number
}

export const DEFAULT_CALL_TIMEOUT_MS = 2 * 60 * 1000
/** The kubelet's limit for CRI responses (e.g. ListContainers on a busy node). */
export const MAX_RECEIVE_MESSAGE_BYTES = 16 * 1024 * 1024
/** Sent in VersionRequest, as the kubelet does. */
const KUBE_RUNTIME_API_VERSION = '0.1.0'

type Callback<T> = (err: ServiceError | null, value?: T) => void
/** What grpc-js hands back for a unary call: enough to cancel it on the wire. */
interface PendingCall {
  cancel(): void
}

/**
 * Runs one unary call; `timeoutMs` 0 means no deadline. An abort of `signal` cancels the call
 * (grpc-js sends RST_STREAM, so the runtime stops too). Rejects only with CriError.
 */
function unary<T>(call: string, timeoutMs: number, start: (opts: CallOptions, cb: Callback<T>) => PendingCall, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CriError(call, 'Cancelled', 'cancelled before it was sent'))
      return
    }
    const opts: CallOptions = timeoutMs > 0 ? {deadline: Date.now() + timeoutMs} : {}
    let pending: PendingCall | undefined
    const onAbort = (): void => pending?.cancel()
    try {
      pending = start(opts, (err, value) => {
        signal?.removeEventListener('abort', onAbort)
        if (err) reject(toCriError(call, err))
        else if (value === undefined) reject(new CriError(call, 'Unknown', 'empty response'))
        else resolve(value)
      })
      signal?.addEventListener('abort', onAbort, {once: true})
    } catch (err) {
      // grpc-js throws synchronously for local problems such as a message that fails to serialise.
      reject(toCriError(call, err))
    }
  })
}

function missing(call: string, what: string): CriError {
  return new CriError(call, 'Unknown', `the runtime answered without ${what}`)
}

export function createGrpcRuntime(opts: GrpcRuntimeOptions): Runtime {
  const proto = loadCriProto().runtime.v1
  const runtimeEp = parseEndpoint(opts.runtimeEndpoint)
  // Empty means "same as the runtime", as for the kubelet's --image-service-endpoint.
  const imageEp = parseEndpoint(opts.imageEndpoint || opts.runtimeEndpoint)
  const timeout = opts.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS

  const creds = credentials.createInsecure()
  const channelOptions = {'grpc.max_receive_message_length': MAX_RECEIVE_MESSAGE_BYTES}
  const runtimeChannel = new Channel(runtimeEp.target, creds, channelOptions)
  const imageChannel =
    imageEp.target === runtimeEp.target ? runtimeChannel : new Channel(imageEp.target, creds, channelOptions)
  // Connect now, not at the first call: the handshake then overlaps what the command does before
  // it (reading manifests), which a short command would otherwise wait for. Connecting changes
  // nothing in the runtime.
  for (const channel of new Set([runtimeChannel, imageChannel])) channel.getConnectivityState(true)
  const rt: RuntimeServiceClient = new proto.RuntimeService(runtimeEp.target, creds, {channelOverride: runtimeChannel})
  const im: ImageServiceClient = new proto.ImageService(imageEp.target, creds, {channelOverride: imageChannel})

  const runtime = runtimeService(rt, timeout)
  const images = imageService(im, timeout)

  let closed = false
  return {
    runtime: explainUnreachable(runtime, runtimeEp, '--runtime-endpoint'),
    images: explainUnreachable(images, imageEp, imageEp.target === runtimeEp.target ? '--runtime-endpoint' : '--image-endpoint'),
    close: () => {
      if (closed) return
      closed = true
      runtimeChannel.close()
      if (imageChannel !== runtimeChannel) imageChannel.close()
    },
  }
}

/** The RuntimeService calls on the wire, each with its deadline. */
function runtimeService(rt: RuntimeServiceClient, timeout: number): RuntimeService {
  return {
    version: async () =>
      versionFromWire(await unary<W.VersionResponse__Output>('Version', timeout, (o, cb) => rt.Version({version: KUBE_RUNTIME_API_VERSION}, o, cb))),

    status: async () => conditionsFromWire(await unary<W.StatusResponse__Output>('Status', timeout, (o, cb) => rt.Status({verbose: false}, o, cb))),
    runtimeFeatures: async () => runtimeFeaturesFromWire(await unary<W.StatusResponse__Output>('Status', timeout, (o, cb) => rt.Status({verbose: false}, o, cb))),

    runPodSandbox: async (config: PodSandboxConfig, runtimeHandler?: string) => {
      const req = {config: podSandboxConfigToWire(config), runtimeHandler: runtimeHandler ?? ''}
      return (await unary<W.RunPodSandboxResponse__Output>('RunPodSandbox', timeout, (o, cb) => rt.RunPodSandbox(req, o, cb))).podSandboxId
    },

    // Stop and remove are idempotent in the CRI: something already gone has nothing left to do,
    // though containerd still answers NotFound for some of them (a removed container).
    stopPodSandbox: async (podSandboxId: string) => {
      await ignoreNotFound(unary<W.StopPodSandboxResponse__Output>('StopPodSandbox', timeout, (o, cb) => rt.StopPodSandbox({podSandboxId}, o, cb)))
    },

    removePodSandbox: async (podSandboxId: string) => {
      await ignoreNotFound(unary<W.RemovePodSandboxResponse__Output>('RemovePodSandbox', timeout, (o, cb) => rt.RemovePodSandbox({podSandboxId}, o, cb)))
    },

    podSandboxStatus: async (podSandboxId: string) => {
      const res = await unary<W.PodSandboxStatusResponse__Output>('PodSandboxStatus', timeout, (o, cb) => rt.PodSandboxStatus({podSandboxId}, o, cb))
      if (!res.status) throw missing('PodSandboxStatus', 'a status')
      return podSandboxStatusFromWire(res.status)
    },

    listPodSandbox: async (filter?: PodSandboxFilter) => {
      const req = {filter: filter ? podSandboxFilterToWire(filter) : null}
      const res = await unary<W.ListPodSandboxResponse__Output>('ListPodSandbox', timeout, (o, cb) => rt.ListPodSandbox(req, o, cb))
      return res.items.map(podSandboxFromWire)
    },

    createContainer: async (podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig) => {
      const req = {
        podSandboxId,
        config: containerConfigToWire(config),
        sandboxConfig: podSandboxConfigToWire(sandboxConfig),
      }
      return (await unary<W.CreateContainerResponse__Output>('CreateContainer', timeout, (o, cb) => rt.CreateContainer(req, o, cb))).containerId
    },

    startContainer: async (containerId: string) => {
      await unary<W.StartContainerResponse__Output>('StartContainer', timeout, (o, cb) => rt.StartContainer({containerId}, o, cb))
    },

    stopContainer: async (containerId: string, timeoutSeconds: number) => {
      // The runtime may wait the whole grace period before SIGKILL: give the call that much more.
      const deadline = timeout > 0 ? timeout + Math.max(0, timeoutSeconds) * 1000 : 0
      await ignoreNotFound(
        unary<W.StopContainerResponse__Output>('StopContainer', deadline, (o, cb) =>
          rt.StopContainer({containerId, timeout: Math.max(0, Math.trunc(timeoutSeconds))}, o, cb),
        ),
      )
    },

    removeContainer: async (containerId: string) => {
      await ignoreNotFound(unary<W.RemoveContainerResponse__Output>('RemoveContainer', timeout, (o, cb) => rt.RemoveContainer({containerId}, o, cb)))
    },

    listContainers: async (filter?: ContainerFilter) => {
      const req = {filter: filter ? containerFilterToWire(filter) : null}
      const res = await unary<W.ListContainersResponse__Output>('ListContainers', timeout, (o, cb) => rt.ListContainers(req, o, cb))
      return res.containers.map(containerFromWire)
    },

    containerStatus: async (containerId: string) => {
      const res = await unary<W.ContainerStatusResponse__Output>('ContainerStatus', timeout, (o, cb) => rt.ContainerStatus({containerId}, o, cb))
      if (!res.status) throw missing('ContainerStatus', 'a status')
      return containerStatusFromWire(res.status)
    },

    execSync: async (containerId: string, cmd: string[], timeoutSeconds: number, callOpts?: CriCallOptions) => {
      // As the kubelet: the command's own timeout plus the call timeout as a margin for cleanup;
      // no timeout at all when the command has none.
      const secs = Math.max(0, Math.trunc(timeoutSeconds))
      const deadline = secs > 0 && timeout > 0 ? secs * 1000 + timeout : 0
      const res = await unary<W.ExecSyncResponse__Output>('ExecSync', deadline, (o, cb) => rt.ExecSync({containerId, cmd, timeout: secs}, o, cb), callOpts?.signal)
      return execSyncFromWire(res)
    },

    reopenContainerLog: async (containerId: string) => {
      await unary<W.ReopenContainerLogResponse__Output>('ReopenContainerLog', timeout, (o, cb) => rt.ReopenContainerLog({containerId}, o, cb))
    },

    listContainerStats: async (filter?: ContainerStatsFilter) => {
      const req = {filter: filter ? containerStatsFilterToWire(filter) : null}
      const res = await unary<W.ListContainerStatsResponse__Output>('ListContainerStats', timeout, (o, cb) => rt.ListContainerStats(req, o, cb))
      return res.stats.map(containerStatsFromWire)
    },
  }
}

/** The ImageService calls on the wire. */
function imageService(im: ImageServiceClient, timeout: number): ImageService {
  return {
    listImages: async (filter?: ImageSpec) => {
      const req = {filter: filter ? {image: imageSpecToWire(filter)} : null}
      const res = await unary<W.ListImagesResponse__Output>('ListImages', timeout, (o, cb) => im.ListImages(req, o, cb))
      return res.images.map(imageFromWire)
    },

    imageStatus: async (image: ImageSpec) => {
      const req = {image: imageSpecToWire(image), verbose: false}
      const res = await unary<W.ImageStatusResponse__Output>('ImageStatus', timeout, (o, cb) => im.ImageStatus(req, o, cb))
      return res.image && res.image.id !== '' ? imageFromWire(res.image) : null
    },

    pullImage: async (image: ImageSpec, sandboxConfig?: PodSandboxConfig, callOpts?: CriCallOptions, auth?: AuthConfig) => {
      const req = {
        image: imageSpecToWire(image),
        auth: auth ? authConfigToWire(auth) : null,
        sandboxConfig: sandboxConfig ? podSandboxConfigToWire(sandboxConfig) : null,
      }
      // No deadline: a pull takes as long as the image is large (the kubelet does the same); only
      // the caller's signal (a kill of the pod) ends it early.
      return (await unary<W.PullImageResponse__Output>('PullImage', 0, (o, cb) => im.PullImage(req, o, cb), callOpts?.signal)).imageRef
    },

    removeImage: async (image: ImageSpec) => {
      await unary<W.RemoveImageResponse__Output>('RemoveImage', timeout, (o, cb) => im.RemoveImage({image: imageSpecToWire(image)}, o, cb))
    },
  }
}
