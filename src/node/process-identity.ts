// Who this process is, for the status records it writes, and whether the writer of a record is
// still running: the PID and the process's start time (field 22 of /proc/<pid>/stat, in clock
// ticks since boot), so a PID reused by another process is never taken for the writer.
import {readBoundedSync} from '../host/read-bounded.js'
import type {StatusWriter} from '../api/status-record.js'

const PROC_STAT_MAX_BYTES = 64 * 1024

function startTicks(pid: number | 'self'): string | undefined {
  try {
    // A few hundred bytes; the bound only guards against a surprise.
    const stat = readBoundedSync(`/proc/${pid}/stat`, PROC_STAT_MAX_BYTES)
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

export function currentWriter(command: StatusWriter['command']): StatusWriter {
  return {command, pid: process.pid, startedAt: Math.round(Date.now() - process.uptime() * 1000), processStart: startTicks('self') ?? ''}
}

/** True when the process that wrote a record still runs. */
export function writerRunning(w: StatusWriter): boolean {
  if (!Number.isInteger(w.pid) || w.pid <= 0) return false
  const ticks = startTicks(w.pid)
  return ticks !== undefined && ticks === w.processStart
}
