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

/**
 * Narrower than this, a spinner's redraw cannot work out how many lines to erase (a terminal that
 * reports 0 columns made it erase forever): such a terminal gets plain lines.
 */
export const MIN_SPINNER_COLUMNS = 20

export interface ProgressOptions {
  tty: boolean
  quiet: boolean
  /** The terminal's width now (it may change while `run` waits). */
  columns?: () => number | undefined
}

function plainProgress(): Progress {
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

/** ora is loaded only for a terminal wide enough: piped runs (CI) do not pay for it at start-up. */
export async function createProgress(opts: ProgressOptions): Promise<Progress> {
  if (opts.quiet) return {onEvent: () => {}, stop: () => {}}
  const columns = opts.columns ?? ((): number | undefined => process.stderr.columns)
  const wide = (): boolean => (columns() ?? 0) >= MIN_SPINNER_COLUMNS
  if (!opts.tty || !wide()) return plainProgress()
  const states = new Map<string, string>()
  const done = new Set<string>()
  const {default: ora} = await import('ora')
  const spinner: Ora = ora({stream: process.stderr, text: 'starting'}).start()
  // A terminal that shrinks below the minimum while `run` waits: plain lines from then on.
  let plain: Progress | undefined
  const redraw = (): void => {
    const pending = [...states.entries()].filter(([p]) => !done.has(p))
    spinner.text = `${done.size}/${states.size} pods done` + pending.map(([p, s]) => `\n  ${chalk.bold(p)} ${chalk.dim(s)}`).join('')
  }
  return {
    onEvent(raw) {
      if (!plain && !wide()) {
        spinner.stop()
        plain = plainProgress()
      }
      if (plain) return plain.onEvent(raw)
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
      if (plain) plain.stop()
      else spinner.stop()
    },
  }
}
