// The Prometheus text exposition format (version 0.0.4) for metrics that prom-client cannot
// express: samples that carry the time they were measured, as the kubelet's resource metrics
// do. Pure.

export type MetricType = 'counter' | 'gauge'

export interface Sample {
  labels?: Readonly<Record<string, string>>
  value: number
  /** When the value was measured, ms since the epoch; omitted means "at the scrape". */
  timestampMs?: number | undefined
}

export interface Family {
  name: string
  help: string
  type: MetricType
  samples: readonly Sample[]
}

/** A label value: backslash, double quote and line feed escaped. */
export function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

/** HELP text: backslash and line feed escaped. */
function escapeHelp(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
}

export function formatValue(n: number): string {
  if (Number.isNaN(n)) return 'NaN'
  if (n === Infinity) return '+Inf'
  if (n === -Infinity) return '-Inf'
  return String(n)
}

function formatSample(name: string, s: Sample): string {
  const labels = Object.entries(s.labels ?? {})
  const set = labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`
  // A timestamp that is no integer of milliseconds (NaN or 1e+300 from a runtime sending garbage)
  // is left out: there, it would make the whole exposition unparseable.
  const ms = s.timestampMs === undefined ? undefined : Math.round(s.timestampMs)
  const ts = ms === undefined || !Number.isSafeInteger(ms) ? '' : ` ${ms}`
  return `${name}${set} ${formatValue(s.value)}${ts}\n`
}

/** Families without samples are left out, as client_golang leaves them out. */
export function formatFamilies(families: readonly Family[]): string {
  let out = ''
  for (const f of families) {
    if (f.samples.length === 0) continue
    out += `# HELP ${f.name} ${escapeHelp(f.help)}\n# TYPE ${f.name} ${f.type}\n`
    for (const s of f.samples) out += formatSample(f.name, s)
  }
  return out
}
