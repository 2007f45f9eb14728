// Structured logs for stderr, klog-style verbosity: info(level 0) is always shown, debug(v) when
// the configured verbosity is at least v. Results never go through the logger.
import {escapeControls, hasControls} from './terminal-text.js'
export type LogFields = Record<string, unknown>

export interface Logger {
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  /** Shown only when verbosity >= v. */
  debug(v: number, msg: string, fields?: LogFields): void
  enabled(v: number): boolean
}

export interface LoggerOptions {
  verbosity: number
  format: 'text' | 'json'
  write: (line: string) => void
  now?: () => Date
}

function formatValue(v: unknown): string {
  // Quoted (JSON escapes C0 controls) and then escaped: values quote manifests and labels.
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' || hasControls(v) ? escapeControls(JSON.stringify(v)) : v
  if (v instanceof Error) return escapeControls(JSON.stringify(v.message))
  return escapeControls(JSON.stringify(v) ?? 'undefined')
}

export function createLogger(opts: LoggerOptions): Logger {
  const now = opts.now ?? (() => new Date())
  const emit = (level: string, v: number, msg: string, fields: LogFields = {}): void => {
    if (opts.format === 'json') {
      const clean: LogFields = {}
      for (const [k, val] of Object.entries(fields)) clean[k] = val instanceof Error ? val.message : val
      opts.write(JSON.stringify({ts: now().toISOString(), level, v, msg, ...clean}) + '\n')
      return
    }
    const kv = Object.entries(fields)
      .filter(([, val]) => val !== undefined)
      .map(([k, val]) => `${k}=${formatValue(val)}`)
      .join(' ')
    opts.write(`${level[0]!.toUpperCase()} ${now().toISOString()} ${escapeControls(JSON.stringify(msg))}${kv ? ' ' + kv : ''}\n`)
  }
  return {
    info: (msg, f) => emit('info', 0, msg, f),
    warn: (msg, f) => emit('warning', 0, msg, f),
    error: (msg, f) => emit('error', 0, msg, f),
    debug: (v, msg, f) => {
      if (opts.verbosity >= v) emit('info', v, msg, f)
    },
    enabled: (v) => opts.verbosity >= v,
  }
}

/** A logger that drops everything; for tests and library use. */
export const silentLogger: Logger = {
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
  enabled: () => false,
}
