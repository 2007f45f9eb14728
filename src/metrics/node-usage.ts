// The node's own CPU time and working-set memory for /metrics/resource, from /proc as the kernel
// reports them (the kubelet takes the root cgroup's through cAdvisor; these are the same figures
// for the whole machine). The parsers are pure; the reader is injected so tests can fake /proc.

/** Reads one file as text (node:fs in production, a table in tests). */
export type ReadText = (path: string) => Promise<string>

export interface NodeUsage {
  /** CPU time all cores spent not idle, in seconds since boot. */
  cpuSeconds?: number | undefined
  /** Memory in use minus the page cache the kernel can drop first (cAdvisor's working set), in bytes. */
  workingSetBytes?: number | undefined
}

/** Linux's USER_HZ: /proc/stat counts in these ticks on every architecture Node runs on. */
export const USER_HZ = 100

/**
 * Busy CPU seconds from /proc/stat's `cpu` line: user, nice, system, irq, softirq and steal
 * (guest time is already inside user and nice; idle and iowait are not busy).
 */
export function parseProcStat(text: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith('cpu '))
  if (line === undefined) return undefined
  const f = line.trim().split(/\s+/).slice(1).map(Number)
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) return undefined
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f
  return (user + nice + system + irq + softirq + steal) / USER_HZ
}

/** MemTotal − MemFree − Inactive(file), in bytes, from /proc/meminfo (values in kB). */
export function parseMeminfo(text: string): number | undefined {
  const kb = new Map<string, number>()
  for (const line of text.split('\n')) {
    const m = /^([^:]+):\s+(\d+)/.exec(line)
    if (m?.[1] !== undefined && m[2] !== undefined) kb.set(m[1], Number(m[2]))
  }
  const total = kb.get('MemTotal')
  const free = kb.get('MemFree')
  if (total === undefined || free === undefined) return undefined
  return Math.max(0, total - free - (kb.get('Inactive(file)') ?? 0)) * 1024
}

/** Both figures; a file that cannot be read or parsed leaves its figure out. */
export async function readNodeUsage(read: ReadText): Promise<NodeUsage> {
  const [stat, meminfo] = await Promise.all([read('/proc/stat').catch(() => ''), read('/proc/meminfo').catch(() => '')])
  return {cpuSeconds: parseProcStat(stat), workingSetBytes: parseMeminfo(meminfo)}
}
