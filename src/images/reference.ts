// Docker-style image references: the short names people write (`busybox`, `foo/bar:1`) and the
// fully qualified names a runtime reports (`docker.io/library/busybox:latest`) are compared in
// one normalised form. Pure.

const DEFAULT_DOMAIN = 'docker.io'
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io'
const OFFICIAL_REPO_PREFIX = 'library/'
const DEFAULT_TAG = 'latest'

// The grammar of github.com/distribution/reference, reduced to what validation needs.
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*'
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])'
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`
const PATH_RE = new RegExp(`^${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`)
const DOMAIN_RE = new RegExp(`^${DOMAIN}$`)
const TAG_RE = /^[\w][\w.-]{0,127}$/
const DIGEST_RE = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/
const IMAGE_ID_RE = /^sha256:[0-9a-f]{64}$/
const NAME_TOTAL_LENGTH_MAX = 255

/** The parts of an image reference; `domain` and `path` are already defaulted. */
export interface ImageReference {
  domain: string
  path: string
  tag?: string
  digest?: string
}

/** Splits a reference into its parts, applying docker's defaults for the domain and path. */
export function parseImageRef(ref: string): ImageReference {
  let name = ref
  let digest: string | undefined
  const at = name.indexOf('@')
  if (at >= 0) {
    digest = name.slice(at + 1)
    name = name.slice(0, at)
  }
  let tag: string | undefined
  const colon = name.lastIndexOf(':')
  if (colon > name.lastIndexOf('/')) {
    tag = name.slice(colon + 1)
    name = name.slice(0, colon)
  }
  let domain = DEFAULT_DOMAIN
  let path = name
  const slash = name.indexOf('/')
  if (slash >= 0) {
    const first = name.slice(0, slash)
    // As docker: a first component with `.` or `:`, `localhost`, or an upper-case letter is a registry.
    if (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first) {
      domain = first
      path = name.slice(slash + 1)
    }
  }
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN
  if (domain === DEFAULT_DOMAIN && !path.includes('/')) path = OFFICIAL_REPO_PREFIX + path
  const out: ImageReference = {domain, path}
  if (tag !== undefined) out.tag = tag
  if (digest !== undefined) out.digest = digest
  return out
}

/** True when `ref` is a reference a runtime can pull (docker reference grammar). */
export function isValidImageRef(ref: string): boolean {
  if (ref.length === 0 || ref.trim() !== ref || /\s/.test(ref)) return false
  if (IMAGE_ID_RE.test(ref)) return true
  const at = ref.indexOf('@')
  const namePart = at >= 0 ? ref.slice(0, at) : ref
  const colon = namePart.lastIndexOf(':')
  const bareName = colon > namePart.lastIndexOf('/') ? namePart.slice(0, colon) : namePart
  if (bareName.length === 0 || bareName.length > NAME_TOTAL_LENGTH_MAX) return false
  const parsed = parseImageRef(ref)
  if (!DOMAIN_RE.test(parsed.domain) || !PATH_RE.test(parsed.path)) return false
  if (parsed.tag !== undefined && !TAG_RE.test(parsed.tag)) return false
  if (parsed.digest !== undefined && !DIGEST_RE.test(parsed.digest)) return false
  return true
}

/**
 * The fully qualified form: `busybox` → `docker.io/library/busybox:latest`. A reference with a
 * digest gets no default tag; one with both tag and digest keeps both. A bare image ID
 * (`sha256:<64 hex>`) is returned unchanged.
 */
export function normalizeImageRef(ref: string): string {
  const trimmed = ref.trim()
  if (IMAGE_ID_RE.test(trimmed)) return trimmed
  const p = parseImageRef(trimmed)
  return formatRef(p.domain, p.path, p.digest === undefined ? (p.tag ?? DEFAULT_TAG) : p.tag, p.digest)
}

/**
 * Every normalised form under which a runtime may list the image: the full reference and, for a
 * reference with tag and digest, the `repo@digest` form (repo digests carry no tag).
 */
export function imageRefCandidates(ref: string): string[] {
  const trimmed = ref.trim()
  if (IMAGE_ID_RE.test(trimmed)) return [trimmed]
  const p = parseImageRef(trimmed)
  const full = normalizeImageRef(trimmed)
  if (p.digest !== undefined && p.tag !== undefined) return [full, formatRef(p.domain, p.path, undefined, p.digest)]
  return [full]
}

function formatRef(domain: string, path: string, tag: string | undefined, digest: string | undefined): string {
  return `${domain}/${path}${tag !== undefined ? `:${tag}` : ''}${digest !== undefined ? `@${digest}` : ''}`
}
