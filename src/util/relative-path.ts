// Rules for relative paths that come from manifests and end up below a volume directory on the
// host: projected file paths (`items[].path`) and `subPath`/`subPathExpr`. One rule for
// validation and for the code that writes or mounts, so `validate` refuses what `run` would.
// Pure.

/** Longer than any real file path inside a volume; keeps one field from carrying megabytes. */
export const MAX_RELATIVE_PATH = 4096

function sizeOrNulError(path: string): string | undefined {
  if (path.length > MAX_RELATIVE_PATH) return `must be no more than ${MAX_RELATIVE_PATH} characters, got ${path.length}`
  if (path.includes('\0')) return 'must not contain a NUL character'
  return undefined
}

/** Why a file path cannot be written inside a projected volume, or undefined when it can. */
export function filePathError(path: string): string | undefined {
  if (path === '') return 'must not be empty'
  const early = sizeOrNulError(path)
  if (early) return early
  if (path.startsWith('/')) return 'must be a relative path'
  const parts = path.split('/')
  if (parts.includes('..')) return "must not contain '..'"
  // The atomic writer keeps its own entries (`..data`, `..<timestamp>`) beside the files.
  if (parts[0]?.startsWith('..')) return "must not start with '..'"
  if (parts.some((p) => p === '' || p === '.')) return 'must not contain empty or "." segments'
  return undefined
}

/** Why a `subPath` (or an expanded `subPathExpr`) cannot name a place inside its volume. */
export function subPathError(path: string): string | undefined {
  const early = sizeOrNulError(path)
  if (early) return early
  if (path.startsWith('/') || path.split('/').includes('..')) return 'must be a relative path without ".."'
  return undefined
}
