import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {watchPods} from '../services/watch/watch.js'
import {createMetrics} from '../metrics/metrics.js'
import {createProbeMetrics} from '../metrics/probes.js'
import {mergeHeaders, parseHeaderFlags} from '../sources/header.js'
import {readHeaderFile} from '../sources/header-file.js'
import {hostFs} from '../node/host-fs.js'
import {manifestUrlError} from '../manifest/fetch-url.js'
import {redactUrl} from '../manifest/redact-url.js'
import {InvalidInputError} from '../util/errors.js'
import {createNode} from '../node/create-node.js'
import {durationFlag, validateFlag} from '../cli/flags.js'
import {READY_WAIT_LIMIT_MS, notifySettings} from '../node/systemd-notify.js'
import {warnReadableCredentialFiles} from '../node/credential-files.js'

export default class Watch extends BaseCommand<typeof Watch> {
  static override summary = 'Keep static pods converged, as a daemon (the kubelet\'s static-pod path).'
  static override description =
    'Watches a manifest directory and/or URLs; starts, updates, restarts (with back-off) and removes pods as manifests and containers change. A broken manifest keeps its last good version running. SIGINT/SIGTERM stop kube-node and leave the pods running. Serves /healthz, /pods, /metrics and, read-only, the Kubernetes API subset kubectl needs (see `kube-node kubeconfig`).'
  static override examples = [
    '<%= config.bin %> watch /etc/kubernetes/manifests',
    '<%= config.bin %> watch --manifest-url https://config.example/pods.yaml --manifest-url-header "Authorization:Bearer TOKEN"',
    '<%= config.bin %> watch ./manifests --port 0 --log-format json',
  ]
  static override args = {
    dir: Args.string({ignoreStdin: true, description: 'Manifest directory (or a single manifest file).'}),
  }
  static override flags = {
    'manifest-url': Flags.string({summary: 'URL to poll for pod manifests (repeatable).', multiple: true, default: []}),
    'manifest-url-header': Flags.string({summary: "HTTP header for --manifest-url requests, as 'Key:Value' (repeatable). Visible to local users in the process list: prefer --manifest-url-header-file.", multiple: true, default: []}),
    'manifest-url-header-file': Flags.string({summary: "File of HTTP headers for --manifest-url requests, one 'Key: Value' per line (# comments allowed)."}),
    'file-check-frequency': durationFlag({summary: 'How often to re-list the manifest directory.', default: '20s', positive: true}),
    'http-check-frequency': durationFlag({summary: 'How often to poll --manifest-url.', default: '20s', positive: true}),
    'sync-frequency': durationFlag({summary: 'How often every pod is re-synced.', default: '1m', positive: true}),
    address: Flags.string({summary: 'Address of the /healthz, /pods and /metrics server.', default: '127.0.0.1'}),
    port: Flags.integer({summary: 'Port of /healthz, /pods and /metrics (0 disables).', default: 10255, min: 0, max: 65535}),
    'healthz-port': Flags.integer({summary: 'Port of a /healthz-only server (0 disables).', default: 10248, min: 0, max: 65535}),
    'healthz-bind-address': Flags.string({summary: "Address of the /healthz-only server (the kubelet's healthzBindAddress); default: the --address value."}),
    'allow-remote-api': Flags.boolean({summary: 'Serve the read-only Kubernetes API on a non-loopback --address too (pods have no authentication: anyone who reaches the address reads every pod; logs and events need the kubeconfig credential).'}),
    'notify-ready': Flags.string({summary: 'With NOTIFY_SOCKET set (systemd Type=notify): send READY=1 once every pod is at its goal (all: Running and Ready, or finished) or started (started).', options: ['all', 'started'], default: 'all'}),
    'notify-ready-timeout': durationFlag({
      summary: `With NOTIFY_SOCKET set: send READY=1 after this long even if not every pod is at its goal (at most ${READY_WAIT_LIMIT_MS / 1000}s, well under the unit's TimeoutStartSec; STATUS= keeps the counts).`,
      default: `${READY_WAIT_LIMIT_MS / 1000}s`,
      maxMs: READY_WAIT_LIMIT_MS,
    }),
    validate: validateFlag(),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(Watch)
    const f = this.flags
    const kc = this.kubeletConfig
    const fromFlags = f['manifest-url-header'].length > 0 ? parseHeaderFlags(f['manifest-url-header']) : (kc.staticPodURLHeader ?? {})
    const headers = f['manifest-url-header-file'] ? mergeHeaders(fromFlags, await readHeaderFile(f['manifest-url-header-file'], hostFs)) : fromFlags
    if (f['manifest-url-header'].length > 0) {
      this.logger.warn('--manifest-url-header values are visible to every local user in the process list; use --manifest-url-header-file or staticPodURLHeader in --config for credentials')
    }
    const opts = {
      fileCheckFrequencyMs: this.pick('file-check-frequency', kc.fileCheckFrequencyMs, f['file-check-frequency']),
      httpCheckFrequencyMs: this.pick('http-check-frequency', kc.httpCheckFrequencyMs, f['http-check-frequency']),
      resyncIntervalMs: this.pick('sync-frequency', kc.syncFrequencyMs, f['sync-frequency']),
    }
    const dir = args.dir ?? kc.staticPodPath
    const urls = f['manifest-url'].length > 0 ? f['manifest-url'] : kc.staticPodURL ? [kc.staticPodURL] : []
    for (const url of urls) {
      const problem = manifestUrlError(url)
      // The URL itself is not echoed: it may carry credentials.
      if (problem) throw new InvalidInputError(`--manifest-url ${redactUrl(url)} ${problem}`)
    }
    const metrics = createMetrics({version: this.config.version})
    const probeMetrics = createProbeMetrics()
    const node = await createNode(this.nodeConfig(), this.logger, {criMetrics: metrics.cri, syncMetrics: metrics.sync, probeMetrics})
    await warnReadableCredentialFiles(node.fs, this.logger, [
      ...(this.flags.config && Object.keys(kc.staticPodURLHeader ?? {}).length > 0 ? [{path: this.flags.config, source: '--config (staticPodURLHeader)'}] : []),
      ...(f['manifest-url-header-file'] ? [{path: f['manifest-url-header-file'], source: '--manifest-url-header-file'}] : []),
    ])
    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    try {
      await watchPods(node, {
        ...opts,
        ...(dir ? {manifestDir: dir} : {}),
        manifestUrls: urls,
        manifestUrlHeaders: headers,
        address: this.pick('address', kc.address, f.address),
        port: this.pick('port', kc.readOnlyPort, f.port),
        healthzPort: this.pick('healthz-port', kc.healthzPort, f['healthz-port']),
        healthzAddress: f['healthz-bind-address'] ?? kc.healthzBindAddress,
        signal: abort.signal,
        metrics,
        probeMetrics,
        logRotation: {maxSizeBytes: kc.containerLogMaxSizeBytes, maxFiles: kc.containerLogMaxFiles},
        version: this.config.version,
        allowRemoteApi: f['allow-remote-api'],
        notify: notifySettings(process.env, process.pid, f['notify-ready'] === 'started' ? 'started' : 'all', f['notify-ready-timeout']),
      })
    } finally {
      offSignals()
      node.close()
    }
  }
}
