// Every command's global flags (CLI.md), NodeConfig from flags + environment, and the single
// error handler: one sentence on stderr, the exit code from exit-codes.ts, a stack trace only at
// -v 4 or more.
import {Command, Flags, Interfaces} from '@oclif/core'
import {hostname} from 'node:os'
import {createLogger, type Logger} from '../util/logger.js'
import {parseDuration} from '../util/duration.js'
import {InvalidInputError} from '../util/errors.js'
import {createNode, type KubeNode} from '../node/create-node.js'
import {
  DEFAULT_POD_LOGS_DIR,
  DEFAULT_ROOT_DIR,
  DEFAULT_RUNTIME_ENDPOINT,
  DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS,
  type NodeConfig,
} from '../node/config.js'
import {describeError, exitCodeFor} from './exit-codes.js'

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
    'runtime-request-timeout': Flags.string({summary: 'Deadline of every CRI call except image pulls.', default: '2m', helpGroup: 'GLOBAL'}),
    verbosity: Flags.integer({char: 'v', summary: 'Log verbosity (0-10); logs go to stderr.', default: 0, min: 0, max: 10, helpGroup: 'GLOBAL'}),
    'log-format': Flags.option({options: ['text', 'json'] as const, summary: 'Log format.', default: 'text' as const, helpGroup: 'GLOBAL'})(),
  }

  protected flags!: GlobalFlags<T>
  protected logger!: Logger
  private node?: KubeNode

  public override async init(): Promise<void> {
    await super.init()
    const {flags} = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof BaseCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as GlobalFlags<T>
    this.logger = createLogger({
      verbosity: this.flags.verbosity,
      format: this.flags['log-format'],
      write: (line) => process.stderr.write(line),
    })
  }

  protected nodeConfig(): NodeConfig {
    const f = this.flags
    const timeout = parseDuration(f['runtime-request-timeout'])
    if (timeout === undefined || timeout <= 0) {
      throw new InvalidInputError(`--runtime-request-timeout: "${f['runtime-request-timeout']}" is not a duration such as 30s or 2m`)
    }
    return {
      nodeName: (f['node-name'] ?? hostname()).toLowerCase(),
      rootDir: f['root-dir'],
      podLogsDir: f['pod-logs-dir'],
      runtimeEndpoint: f['runtime-endpoint'],
      imageEndpoint: f['image-endpoint'] ?? f['runtime-endpoint'],
      runtimeRequestTimeoutMs: timeout ?? DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS,
      resolvConf: '/etc/resolv.conf',
      clusterDNS: [],
      clusterDomain: 'cluster.local',
      parallelism: 4,
    }
  }

  /** The wired node; created on first use so that commands without the runtime never dial it. */
  protected async kubeNode(): Promise<KubeNode> {
    this.node ??= await createNode(this.nodeConfig(), this.logger)
    return this.node
  }

  /** Results go to stdout, and only results. */
  protected out(text: string): void {
    process.stdout.write(text.endsWith('\n') ? text : text + '\n')
  }

  protected override async catch(err: Error & {exitCode?: number}): Promise<unknown> {
    // oclif's own exits (this.exit) pass through untouched.
    if (err.constructor?.name === 'ExitError') throw err
    const code = exitCodeFor(err)
    process.stderr.write(`error: ${describeError(err)}\n`)
    if ((this.flags?.verbosity ?? 0) >= 4 && err.stack) process.stderr.write(err.stack + '\n')
    this.exit(code)
  }

  protected override async finally(err: Error | undefined): Promise<unknown> {
    this.node?.close()
    return super.finally(err)
  }
}
