import {Args, Flags} from '@oclif/core'
import {BaseCommand} from '../cli/base-command.js'
import {containerLog} from '../node/logs.js'

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
  ]
  static override args = {
    pod: Args.string({ignoreStdin: true, required: true, description: 'Pod name: manifest name or full static-pod name.'}),
  }
  static override flags = {
    container: Flags.string({char: 'c', summary: 'Container name (needed when the pod has several).'}),
    follow: Flags.boolean({char: 'f', summary: 'Keep printing as the log grows, across rotation.'}),
    previous: Flags.boolean({char: 'p', summary: 'The previous instance of the container (after a restart).'}),
    tail: Flags.integer({summary: 'Only the last N lines (-1: all).', default: -1}),
    timestamps: Flags.boolean({summary: 'Prefix each line with its timestamp.'}),
  }

  async run(): Promise<void> {
    const {args} = await this.parse(Logs)
    const f = this.flags
    const abort = new AbortController()
    const offSignals = this.onSignals(() => abort.abort())
    try {
      await containerLog(
        await this.kubeNode(),
        {pod: args.pod, ...(f.container ? {container: f.container} : {}), previous: f.previous, follow: f.follow, timestamps: f.timestamps, ...(f.tail >= 0 ? {tail: f.tail} : {}), signal: abort.signal},
        (piece) => writeToStdout(piece.last ? Buffer.concat([piece.data, NEWLINE]) : piece.data),
      )
    } finally {
      offSignals()
    }
  }
}
