// watch's serving half: /healthz, /pods, /metrics (and /metrics/probes, /metrics/resource) and the
// read-only Kubernetes API, on plain HTTP and, for kubectl's token, on TLS; the files that tell
// `kubeconfig` where the API is and which credential it takes.
import type {KubeNode} from '../../node/create-node.js'
import type {Pod} from '../../api/types.js'
import {MANIFEST_ERROR_ANNOTATION} from '../../status/manifest-error.js'
import {isLoopback, startServer, type ServerHandlers} from '../../server/server.js'
import {createKubeApi, type KubeApi} from '../../server/kube-api/handler.js'
import {startApiTls} from '../../server/api-tls.js'
import {kubeApiData} from './kube-api-data.js'
import {localServerUrl, writeApiAddress} from '../../node/api-address.js'
import {newApiCertificate, newApiToken, writeApiCredential} from '../../node/api-credential.js'
import {toPodList} from '../get.js'
import {generatePodStatus} from '../../status/generate.js'
import {formatIssue} from '../../util/errors.js'
import {resourceMetrics} from '../../metrics/resource-collector.js'
import type {Converging} from './converge.js'
import type {WatchOptions} from './options.js'

/** The ports actually bound (0 = disabled); close() stops serving and removes the API's files. */
export interface Serving {
  readonly port: number
  readonly healthzPort: number
  readonly apiTlsPort: number | undefined
  close(): Promise<void>
}

/** /pods: every desired pod with the status the loop computed, and its manifest's problems. */
function podsView(node: KubeNode, {loop, podConfig}: Converging): () => unknown {
  return () => {
    const issues = podConfig.issues()
    const items: Pod[] = loop.statuses().map(({sp, status}) => {
      const broken = issues.filter((i) => i.location === sp.source.location)
      const annotations = {...(sp.pod.metadata.annotations ?? {})}
      if (broken.length > 0) annotations[MANIFEST_ERROR_ANNOTATION] = broken.map(formatIssue).join('; ')
      return {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {...sp.pod.metadata, annotations},
        spec: sp.pod.spec,
        status: status ?? generatePodStatus({sp, runtime: node.cache.get(sp.pod.metadata.uid), probes: new Map(), waiting: new Map()}),
      }
    })
    return toPodList(items)
  }
}

function handlers(node: KubeNode, opts: WatchOptions, converging: Converging, kubeApi: KubeApi): ServerHandlers {
  const {logger, clock} = node
  const {pleg, loop} = converging
  return {
    pods: podsView(node, converging),
    healthz: () => {
      const now = clock.now()
      const p = pleg.healthy(now)
      if (!p.ok) return p
      return loop.healthy(now)
    },
    metrics: () => opts.metrics.text(),
    metricsProbes: opts.probeMetrics && (() => opts.probeMetrics?.text() ?? Promise.resolve('')),
    metricsResource: resourceMetrics({runtime: node.runtime, pods: () => node.cache.all(), readText: (path) => node.fs.readText(path), clock, logger}),
    kubeApi,
  }
}

export async function startServing(node: KubeNode, opts: WatchOptions, converging: Converging): Promise<Serving> {
  const {logger, clock} = node
  const remote = !isLoopback(opts.address)
  if (remote && opts.allowRemoteApi) logger.warn('Serving the Kubernetes API on a non-loopback address (--allow-remote-api): anyone who can reach this address can read every pod and its environment; logs and events need the kubeconfig credential, which crosses the network in clear text', {address: opts.address})
  const apiToken = newApiToken()
  const kubeApi = createKubeApi({
    data: kubeApiData(node, opts.version ?? '0.0.0'),
    logger,
    now: () => clock.now(),
    sleep: (ms) => clock.sleep(ms),
    refusal: remote && !opts.allowRemoteApi ? `kube-node serves its Kubernetes API on a loopback --address only; this watch listens on ${opts.address}: start it with --allow-remote-api to serve the API there (pods have no authentication there)` : undefined,
    // Without --allow-remote-api, only loopback Host names are served (no DNS rebinding).
    anyHost: opts.allowRemoteApi,
    credential: apiToken,
  })
  const server = await startServer({
    address: opts.address,
    port: opts.port,
    healthzPort: opts.healthzPort,
    healthzAddress: opts.healthzAddress,
    logger,
    handlers: handlers(node, opts, converging, kubeApi),
  })
  // kubectl sends the token only over TLS: the API also listens there, and kubeconfig points at it.
  const servesApi = server.port !== 0 && (!remote || opts.allowRemoteApi)
  const certificate = servesApi ? newApiCertificate(opts.address, new Date()) : undefined
  const apiTls = certificate && (await startApiTls({address: opts.address, certificate, api: kubeApi, logger}))
  // The credential first: kubeconfig trusts the address file, then reads the credential beside it.
  const forgetApiCredential = certificate ? await writeApiCredential(node.config.rootDir, {token: apiToken, certificate: certificate.certPem}) : async () => {}
  const forgetApiAddress = apiTls ? await writeApiAddress(node.config.rootDir, localServerUrl(opts.address, apiTls.port, 'https')) : async () => {}
  const close = async (): Promise<void> => {
    await forgetApiAddress()
    await forgetApiCredential()
    kubeApi.close()
    await apiTls?.close()
    await server.close()
  }
  return {port: server.port, healthzPort: server.healthzPort, apiTlsPort: apiTls?.port, close}
}
