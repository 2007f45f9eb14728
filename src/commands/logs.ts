import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {containerLog} from '../services/logs.js'
import {selectOnly} from '../services/query/select-pods.js'
import {namespaceFlags, podQuery, podRefs, selectorFlags} from '../cli/pod-flags.js'
import {InvalidInputError} from '../util/errors.js'
import {GatheredWrites} from '../util/gathered-writes.js'

const NEWLINE = Buffer.from('\n')

/** Writes at the pace the reader of stdout takes it (a pager, a pipe), never queueing the log. */
function writeToStdout(chunk: Buffer): Promise<void> | undefined {
  if (process.stdout.write(chunk)) return undefined
  return new Promise((resolve) => {
    const done = (): void => {
      process.stdout.off('drain', done)
      process.stdout.off('close', done)
      resolve()
    }
    process.stdout.once('drain', done)
    process.stdout.once('close', done)
  })
}

export default class Logs extends BaseCommand<typeof Logs> {
  static override summary = "Print a container's log from its CRI log file."
  static override examples = [
    '<%= config.bin %> logs hello',
    '<%= config.bin %> logs web -c nginx --tail 20 --timestamps',
    '<%= config.bin %> logs etcd -f',
    '<%= config.bin %> logs web --previous',
    '<%= config.bin %> logs -n kube-system etcd',
    '<%= config.bin %> logs -l app=web',
  ]
  static override args = {
    pod: Args.string({ignoreStdin: true, description: 'Pod name: web, web-<node>, NAMESPACE/web or pod/web (or choose it with -l).'}),
  }
  static override flags = {
    container: Flags.string({char: 'c', summary: 'Container name (needed when the pod has several).'}),
    follow: Flags.boolean({char: 'f', summary: 'Keep printing as the log grows, across rotation.'}),
    previous: Flags.boolean({char: 'p', summary: 'The previous instance of the container (after a restart).'}),
    tail: Flags.integer({summary: 'Only the last N lines (-1: all).', default: -1}),
    timestamps: Flags.boolean({summary: 'Prefix each line with its timestamp.'}),
    ...namespaceFlags,
    ...selectorFlags,
  }

  async run(): Promise<void> {
    const {args} = await this.parse(Logs)
    const f = this.flags
    const [ref] = podRefs(args.pod === undefined ? [] : [args.pod], f)
    const hasSelector = f.selector !== undefined || f['field-selector'] !== undefined
    if (!ref && !hasSelector) throw new InvalidInputError('logs needs a pod name, e.g. kube-node logs web (or a selector: -l app=web)')
    const node = await this.kubeNode()
    const target = ref ?? (await selectOnly(node, podQuery(f)))
    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    // Lines go to stdout in 64 KiB writes: a write per line costs more than the line.
    const out = new GatheredWrites(writeToStdout, () => abort.abort())
    try {
      await containerLog(
        node,
        {pod: target.name, namespace: target.namespace, ...(f.container ? {container: f.container} : {}), previous: f.previous, follow: f.follow, timestamps: f.timestamps, ...(f.tail >= 0 ? {tail: f.tail} : {}), signal: abort.signal},
        (piece) => out.write(piece.last ? [piece.data, NEWLINE] : [piece.data]),
      )
    } finally {
      // What was gathered before an error or an interrupt is still printed.
      await out.flush().catch(() => undefined)
      offSignals()
    }
  }
}
