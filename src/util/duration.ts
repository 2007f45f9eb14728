// Go-style durations as the kubelet's flags and config take them: "300ms", "20s", "2m", "1h30m".
const UNITS: Record<string, number> = {ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000}

/** Milliseconds, or undefined when `text` is not a duration. A bare number means seconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim()
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000
  const re = /(\d+(?:\.\d+)?)(ns|us|\u00b5s|ms|s|m|h)/gy
  let total = 0
  let matched = 0
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total += Number(m[1]) * UNITS[m[2]!]!
    matched = re.lastIndex
  }
  return matched === t.length && t.length > 0 ? total : undefined
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  const s = Math.floor(ms / 1000)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return s % 60 ? `${m}m${s % 60}s` : `${m}m`
  const h = Math.floor(m / 60)
  return m % 60 ? `${h}h${m % 60}m` : `${h}h`
}
