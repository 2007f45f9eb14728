// kubectl's human duration (apimachinery's duration.HumanDuration): `45s`, `5m49s`, `47m`,
// `3h10m`, `9d`, `2y31d`. Pure.
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`
  if (minutes < 180) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8) return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`
  const days = Math.floor(hours / 24)
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${Math.floor(days / 365)}y` : `${Math.floor(days / 365)}y${days % 365}d`
  return `${Math.floor(days / 365)}y`
}

/** The age of an RFC 3339 time as kubectl prints it (`<unknown>` without one). */
export function timestampSince(time: string | undefined, now: number): string {
  const t = time ? Date.parse(time) : NaN
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t)
}
