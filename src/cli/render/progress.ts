// `run`'s progress on stderr: a spinner with every pod's latest state on a terminal, plain
// timestamped lines when piped or with NO_COLOR. Never writes to stdout.
import type {Ora} from 'ora'
import chalk from 'chalk'
import {escapeControls} from '../../util/terminal-text.js'
import type {ProgressEvent} from '../../loop/run-once.js'

export interface Progress {
  onEvent(e: ProgressEvent): void
  stop(): void
}

/** ora is loaded only for a terminal: piped runs (CI) do not pay for it at start-up. */
export async function createProgress(opts: {tty: boolean; quiet: boolean}): Promise<Progress> {
  if (opts.quiet) return {onEvent: () => {}, stop: () => {}}
  if (!opts.tty) {
    let last = new Map<string, string>()
    return {
      onEvent(e) {
        const line = escapeControls(`${e.pod || 'kube-node'}: ${e.text}`)
        // Waiting lines repeat every poll; print them only when they change.
        if (e.kind === 'waiting' && last.get(e.pod) === line) return
        last.set(e.pod, line)
        process.stderr.write(`${new Date().toISOString()} ${line}\n`)
      },
      stop() {
        last = new Map()
      },
    }
  }
  const states = new Map<string, string>()
  const done = new Set<string>()
  const {default: ora} = await import('ora')
  const spinner: Ora = ora({stream: process.stderr, text: 'starting'}).start()
  const redraw = (): void => {
    const pending = [...states.entries()].filter(([p]) => !done.has(p))
    spinner.text = `${done.size}/${states.size} pods done` + pending.map(([p, s]) => `\n  ${chalk.bold(p)} ${chalk.dim(s)}`).join('')
  }
  return {
    onEvent(raw) {
      const e = {...raw, pod: escapeControls(raw.pod), text: escapeControls(raw.text)}
      if (e.kind === 'result') {
        done.add(e.pod)
        const mark = e.outcome === 'done' ? chalk.green('✓') : chalk.red('✗')
        spinner.stopAndPersist({symbol: mark, text: `${chalk.bold(e.pod)} ${e.text}`})
        states.set(e.pod, e.text)
        if (done.size < states.size) spinner.start()
      } else states.set(e.pod, e.text)
      redraw()
    },
    stop() {
      spinner.stop()
    },
  }
}
