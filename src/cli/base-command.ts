// Every command's global flags (CLI.md), NodeConfig from flags + environment, and the single
// error handler: one sentence on stderr, the exit code from exit-codes.ts, a stack trace only at
// -v 4 or more.
import {Command, Errors, Flags, Interfaces} from '@oclif/core'
import {hostname} from 'node:os'
import {resolve} from 'node:path'
import {escapeControls} from '../util/terminal-text.js'
import {nodeNameError} from '../manifest/names.js'
import {createLogger, type Logger} from '../util/logger.js'
import {InvalidInputError} from '../util/errors.js'
import type {KubeNode} from '../node/create-node.js'
import type {Runtime} from '../cri/port.js'
import {
  DEFAULT_POD_LOGS_DIR,
  DEFAULT_ROOT_DIR,
  DEFAULT_RUNTIME_ENDPOINT,
  type NodeConfig,
} from '../node/config.js'
import {describeError, exitCodeFor} from './exit-codes.js'
import {durationFlag} from './flags.js'
import {givenGlobalArgs} from './given-globals.js'
import {usageSentence} from './usage-errors.js'
import type {KubeletConfigValues} from '../node/kubelet-config.js'
import type {ValidationMode} from '../manifest/unknown-fields.js'

export type GlobalFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>

export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    'runtime-endpoint': Flags.string({
      summary: 'CRI runtime service endpoint.',
      env: 'CONTAINER_RUNTIME_ENDPOINT',
      default: DEFAULT_RUNTIME_ENDPOINT,
      helpGroup: 'GLOBAL',
    }),
    'image-endpoint': Flags.string({summary: 'CRI image service endpoint (default: the runtime endpoint).', helpGroup: 'GLOBAL'}),
    'root-dir': Flags.string({summary: 'Directory for pod data, state and the lock file.', default: DEFAULT_ROOT_DIR, helpGroup: 'GLOBAL'}),
    'pod-logs-dir': Flags.string({summary: 'Directory for container logs (kubelet podLogsDir).', default: DEFAULT_POD_LOGS_DIR, helpGroup: 'GLOBAL'}),
    'node-name': Flags.string({summary: 'Node name: suffix of static pod names and spec.nodeName (default: the host name).', helpGroup: 'GLOBAL'}),
    config: Flags.string({summary: 'A KubeletConfiguration file; flags override it.', helpGroup: 'GLOBAL'}),
    'runtime-request-timeout': durationFlag({summary: 'Deadline of every CRI call except image pulls.', default: '2m', positive: true, examples: '30s or 2m', helpGroup: 'GLOBAL'}),
    'cluster-dns': Flags.string({summary: 'DNS server IP for pods with dnsPolicy ClusterFirst (repeatable).', multiple: true, helpGroup: 'GLOBAL'}),
    'cluster-domain': Flags.string({summary: 'Cluster DNS domain for search paths.', default: 'cluster.local', helpGroup: 'GLOBAL'}),
    'resolv-conf': Flags.string({summary: 'Host resolver configuration for dnsPolicy Default pods.', default: '/etc/resolv.conf', helpGroup: 'GLOBAL'}),
    'max-pods': Flags.integer({summary: 'Most pods this node admits.', default: 110, min: 1, helpGroup: 'GLOBAL'}),
    verbosity: Flags.integer({char: 'v', summary: 'Log verbosity (0-10); logs go to stderr.', default: 0, min: 0, max: 10, helpGroup: 'GLOBAL'}),
    'log-format': Flags.option({options: ['text', 'json'] as const, summary: 'Log format.', default: 'text' as const, helpGroup: 'GLOBAL'})(),
  }

  protected flags!: GlobalFlags<T>
  protected logger!: Logger
  /** Values from --config (a KubeletConfiguration); flags given on the command line win. */
  protected kubeletConfig: KubeletConfigValues = {}
  private explicitFlags = new Set<string>()
  private node?: KubeNode
  private client?: Runtime

  public override async init(): Promise<void> {
    await super.init()
    const {flags, metadata} = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as GlobalFlags<T>
    // oclif's metadata lists only the flags it filled from their defaults: every other flag with a
    // value was given (on the command line, or by its environment variable).
    for (const name of Object.keys(flags)) if (!metadata.flags[name]?.setFromDefault) this.explicitFlags.add(name)
    this.logger = createLogger({
      verbosity: this.flags.verbosity,
      format: this.flags['log-format'],
      write: (line) => process.stderr.write(line),
    })
    if (this.flags.config) {
      // Loaded only when asked for: a start without --config never reads YAML.
      const {loadKubeletConfig} = await import('../node/kubelet-config.js')
      const parsed = await loadKubeletConfig(this.flags.config)
      this.kubeletConfig = parsed.values
      if (parsed.unknown.length > 0) this.logger.warn('Ignoring KubeletConfiguration fields kube-node does not use', {config: this.flags.config, fields: parsed.unknown.join(',')})
    }
  }

  /** A flag given on the command line beats the config file, which beats the flag's default. */
  protected pick<V>(flag: string, fromConfig: V | undefined, flagValue: V): V {
    return this.explicitFlags.has(flag) || fromConfig === undefined ? flagValue : fromConfig
  }

  /** The locating global flags the user gave, to repeat in printed commands (given-globals.ts). */
  protected givenGlobals(): string[] {
    return givenGlobalArgs(this.explicitFlags, this.nodeConfig(), this.flags.config === undefined ? undefined : resolve(this.flags.config))
  }

  protected nodeConfig(): NodeConfig {
    const f = this.flags
    const kc = this.kubeletConfig
    // CONTAINER_RUNTIME_ENDPOINT counts as given, like the flag itself.
    const endpointGiven = this.explicitFlags.has('runtime-endpoint') || process.env['CONTAINER_RUNTIME_ENDPOINT'] !== undefined
    const runtimeEndpoint = endpointGiven ? f['runtime-endpoint'] : (kc.containerRuntimeEndpoint ?? f['runtime-endpoint'])
    const nodeName = (f['node-name'] ?? hostname()).toLowerCase()
    // It is part of every pod's name, and so of log paths: a DNS subdomain, never '/' or '..'.
    const nodeNameProblem = nodeNameError(nodeName)
    if (nodeNameProblem) throw new InvalidInputError(`--node-name${f['node-name'] === undefined ? ' (the host name)' : ''}: ${nodeNameProblem}`)
    return {
      nodeName,
      // Absolute from here on: every path kube-node builds is checked against these roots.
      rootDir: resolve(f['root-dir']),
      podLogsDir: resolve(this.pick('pod-logs-dir', kc.podLogsDir, f['pod-logs-dir'])),
      runtimeEndpoint,
      imageEndpoint: f['image-endpoint'] ?? kc.imageServiceEndpoint ?? runtimeEndpoint,
      runtimeRequestTimeoutMs: this.pick('runtime-request-timeout', kc.runtimeRequestTimeoutMs, f['runtime-request-timeout']),
      resolvConf: this.pick('resolv-conf', kc.resolvConf, f['resolv-conf']),
      clusterDNS: this.pick('cluster-dns', kc.clusterDNS, f['cluster-dns'] ?? []),
      clusterDomain: this.pick('cluster-domain', kc.clusterDomain, f['cluster-domain']),
      maxPods: this.pick('max-pods', kc.maxPods, f['max-pods']),
      serializeImagePulls: kc.serializeImagePulls ?? true,
      seccompDefault: kc.seccompDefault ?? true,
      maxContainerRestartPeriodMs: kc.maxContainerRestartPeriodMs,
      // Measured (README, Performance): 8 and 16 tie on a quiet node, and 16 converges 110 pods
      // 20% sooner than 8 on a loaded one, where more calls in flight keep containerd busy.
      parallelism: 16,
      // Only run, plan, validate and watch have the flag, which has no default: unset, the file decides.
      validate: (f as {validate?: ValidationMode}).validate ?? kc.staticPodValidation ?? 'strict',
    }
  }

  /** Calls `handler` on the first SIGINT and the first SIGTERM; the returned disposer removes both. */
  protected onSignals(handler: (signal: NodeJS.Signals) => void): () => void {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']
    for (const s of signals) process.once(s, handler)
    return () => {
      for (const s of signals) process.off(s, handler)
    }
  }

  /** The wired node; created on first use so that commands without the runtime never dial it. */
  protected async kubeNode(): Promise<KubeNode> {
    // Imported here, not at the top: commands that never need the node do not load it at start.
    const {createNode} = await import('../node/create-node.js')
    this.node ??= await createNode(this.nodeConfig(), this.logger)
    return this.node
  }

  /** The CRI client alone, for commands that only ask the runtime. */
  protected async runtimeClient(): Promise<Runtime> {
    const {createRuntimeClient} = await import('../node/runtime-client.js')
    this.client ??= createRuntimeClient(this.nodeConfig())
    return this.client
  }

  /** Results go to stdout, and only results. */
  /** A line of plain text built from input values: escaped for the terminal. */
  protected outLine(text: string): void {
    this.out(escapeControls(text))
  }

  protected out(text: string): void {
    process.stdout.write(text.endsWith('\n') ? text : text + '\n')
  }

  protected override async catch(err: Error & {exitCode?: number}): Promise<unknown> {
    // oclif's own exits (this.exit) pass through untouched.
    if (err.constructor?.name === 'ExitError') throw err
    const code = exitCodeFor(err)
    // One line per problem; each line escaped (messages quote manifests).
    const usage = err instanceof Errors.CLIError ? usageSentence(err.message, {command: `${this.config.bin} ${(this.id ?? '').replaceAll(':', ' ')}`, flags: Object.keys({...this.ctor.flags, ...this.ctor.baseFlags})}) : undefined
    process.stderr.write(`error: ${(usage ?? describeError(err)).split('\n').map(escapeControls).join('\n')}\n`)
    if ((this.flags?.verbosity ?? 0) >= 4 && err.stack) process.stderr.write(err.stack + '\n')
    // this.exit ends the process at once: on a pipe that is full (more than 64 KiB of problems,
    // read by a slower reader), what is not yet written would be lost mid-line. Wait for both.
    await Promise.all([process.stdout, process.stderr].map(flushed))
    this.exit(code)
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    this.node?.close()
    this.client?.close()
    return super.finally(err)
  }
}

/** Resolves once what was written to `s` reached the kernel (or after 5 s: a reader that never reads). */
function flushed(s: NodeJS.WriteStream): Promise<void> {
  if (s.writableLength === 0) return Promise.resolve()
  return new Promise<void>((resolve) => {
    setTimeout(resolve, 5000).unref()
    s.write('', () => resolve())
  })
}
