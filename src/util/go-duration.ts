// Durations as Go's time.Duration.String() prints them, which is how the kubelet writes them in
// messages people and tools match: `10s`, `1m20s`, `5m0s`, `1h0m0s`, `1.234s`, `523ms`. Pure.

/** `ms` in milliseconds (fractions allowed, down to nanoseconds). */
export function formatGoDuration(ms: number): string {
  const ns = Math.round(Math.abs(ms) * 1e6)
  const sign = ms < 0 && ns > 0 ? '-' : ''
  if (ns === 0) return '0s'
  if (ns < 1e3) return `${sign}${ns}ns`
  if (ns < 1e6) return `${sign}${decimal(ns, 1e3)}µs`
  if (ns < 1e9) return `${sign}${decimal(ns, 1e6)}ms`
  const seconds = Math.floor(ns / 1e9)
  const s = `${decimal((seconds % 60) * 1e9 + (ns % 1e9), 1e9)}s`
  const m = Math.floor(seconds / 60) % 60
  const h = Math.floor(seconds / 3600)
  if (h > 0) return `${sign}${h}h${m}m${s}`
  if (m > 0) return `${sign}${m}m${s}`
  return `${sign}${s}`
}

/** `value / unit` with the fraction's trailing zeros dropped, as Go's fmtFrac does. */
function decimal(value: number, unit: number): string {
  const whole = Math.floor(value / unit)
  const rest = value % unit
  if (rest === 0) return String(whole)
  const digits = String(unit).length - 1
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`
}
