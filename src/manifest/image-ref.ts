// Container image references (the distribution "reference" grammar): enough to reject a
// reference the runtime could never pull and to find the tag for the imagePullPolicy default.
// Pure.

export interface ImageRef {
  /** Registry host with optional port, if the reference names one. */
  domain?: string
  path: string
  tag?: string
  digest?: string
}

const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*'
const DOMAIN_PART = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])'
const DOMAIN = `(?:${DOMAIN_PART}(?:\\.${DOMAIN_PART})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]+)?`
const TAG = '[\\w][\\w.-]{0,127}'
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}'
const REFERENCE = new RegExp(
  `^(?:(${DOMAIN})/)?(${COMPONENT}(?:/${COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`,
)

/**
 * Parses `image`; undefined when it is not a valid reference. The first path element counts as a
 * registry only when it looks like one (has '.' or ':' or is `localhost`), as in Docker, so
 * `localhost:5000/busybox` has a port, not a tag.
 */
export function parseImageRef(image: string): ImageRef | undefined {
  if (image.length > 255 * 4) return undefined
  const m = REFERENCE.exec(image)
  if (!m) return undefined
  let domain: string | undefined = m[1]
  let path = m[2]!
  // The regex may take a plain first component (e.g. "library") as a domain; Docker treats it as
  // part of the path unless it looks like a host.
  if (domain !== undefined && !/[.:]/.test(domain) && domain !== 'localhost' && !domain.startsWith('[')) {
    if (!new RegExp(`^${COMPONENT}$`).test(domain)) return undefined
    path = `${domain}/${path}`
    domain = undefined
  }
  const ref: ImageRef = {path}
  if (domain !== undefined) ref.domain = domain
  if (m[3] !== undefined) ref.tag = m[3]
  if (m[4] !== undefined) ref.digest = m[4]
  return ref
}

/** The kubelet's default: `Always` for `:latest` or an untagged, undigested image, else `IfNotPresent`. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const ref = parseImageRef(image)
  if (!ref) return 'IfNotPresent'
  if (ref.tag === 'latest') return 'Always'
  return ref.tag === undefined && ref.digest === undefined ? 'Always' : 'IfNotPresent'
}
