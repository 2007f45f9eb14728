// One parsed YAML document → the JSON value kubectl and the kubelet would see (sigs.k8s.io/yaml
// over go-yaml v2): scalars resolved by yaml-resolve.ts, `<<` merge keys applied, aliases
// copied, map keys written as go-yaml writes them. Only JSON comes out (objects, arrays,
// strings, finite numbers, booleans, null): no Date, Uint8Array, Set or Map reaches validation,
// and a value JSON cannot hold (.inf, .nan) is an error, as it is for kubectl.
//
// Linear and bounded: the document is walked once, each alias is looked up once, and the values
// copied for aliases and merges together may hold at most MAX_ALIAS_VALUES nodes (a
// "billion laughs" document stops there). Map keys must be scalars (Kubernetes objects are
// JSON) and unique once resolved: `y:` and `true:` are the same key, as are `1:` and `"1":`.
// kubectl --local keeps the last of two equal keys, but the API server's strict field validation
// (kubectl's default since 1.27) refuses them, and so does kube-node; a set per map keeps the
// check linear (the YAML library's own check is quadratic).
import {isAlias, isMap, isPair, isScalar, isSeq, type Alias, type Document, type Node, type Scalar} from 'yaml'
import {MAX_BLOCK_DEPTH, MAX_FLOW_DEPTH, MAX_TOKENS} from './limits.js'
import {jsonKey, resolveScalar} from './yaml-resolve.js'

/** Nodes that aliases and merge keys may copy in one location (all its documents), all together. */
export const MAX_ALIAS_VALUES = MAX_TOKENS

/** Nesting of the JSON value, aliases included; the text itself cannot nest deeper (prescan.ts). */
const MAX_DEPTH = MAX_BLOCK_DEPTH + MAX_FLOW_DEPTH

const BINARY_TAG = 'tag:yaml.org,2002:binary'
const MERGE_TAG = 'tag:yaml.org,2002:merge'
/** Go's base64.StdEncoding, which ignores line breaks. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export type YamlToJsonResult = {value: unknown} | {message: string; offset: number}

/** Thrown inside the walk only; yamlToJson turns it into a result. */
class YamlValueError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message)
  }
}

interface Walk {
  /** Anchors set so far, in document order: an alias means the latest one before it. */
  anchors: Map<string, Node>
  /** Each alias's node, fixed where the alias stands (a later anchor of the same name does not change it). */
  targets: Map<Alias, Node>
  /** Above 0 while copying an alias's node: no anchor is set then. */
  copying: number
  /** Nodes that aliases may still copy, shared by the documents of one location. */
  budget: AliasBudget
}

/** What aliases may still copy; one per location, so 1000 documents cannot copy 1000 times as much. */
export interface AliasBudget {
  left: number
}

export function yamlToJson(doc: Document.Parsed, budget: AliasBudget = {left: MAX_ALIAS_VALUES}): YamlToJsonResult {
  const walk: Walk = {anchors: new Map(), targets: new Map(), copying: 0, budget}
  try {
    return {value: toValue(doc.contents, walk, 0)}
  } catch (err) {
    if (err instanceof YamlValueError) return {message: err.message, offset: err.offset}
    throw err
  }
}

function toValue(node: unknown, walk: Walk, depth: number): unknown {
  if (node === null || node === undefined) return null
  const offset = offsetOf(node)
  if (depth > MAX_DEPTH) throw new YamlValueError(`values nest deeper than ${MAX_DEPTH} levels`, offset)
  if (walk.copying > 0 && --walk.budget.left < 0) {
    throw new YamlValueError(`aliases expand to more than ${MAX_ALIAS_VALUES} values in this location, which no manifest needs`, offset)
  }
  let value: unknown
  if (isAlias(node)) {
    walk.copying++
    try {
      value = toValue(aliasTarget(node, walk), walk, depth)
    } finally {
      walk.copying--
    }
    return value
  }
  if (isScalar(node)) value = scalarValue(node)
  else if (isSeq(node)) value = node.items.map((item) => toValue(item, walk, depth + 1))
  else if (isMap(node)) value = mapValue(node.items, walk, depth)
  else throw new YamlValueError('is not a YAML value', offset)
  // Set after the node's own content, so an alias inside it cannot refer to it (no cycles).
  const anchor = (node as Node).anchor
  if (anchor !== undefined && walk.copying === 0) walk.anchors.set(anchor, node as Node)
  return value
}

function aliasTarget(alias: Alias, walk: Walk): Node {
  const known = walk.targets.get(alias)
  if (known !== undefined) return known
  const target = walk.anchors.get(alias.source)
  if (target === undefined) {
    throw new YamlValueError(`unresolved alias (the anchor must be set before the alias): ${alias.source}`, offsetOf(alias))
  }
  walk.targets.set(alias, target)
  return target
}

function scalarValue(node: Scalar): unknown {
  const text = node.source ?? String(node.value)
  const plain = node.type === 'PLAIN'
  if (node.tag === BINARY_TAG) return binaryValue(text, offsetOf(node))
  const resolved = resolveScalar(text, node.tag, plain)
  switch (resolved.kind) {
    case 'error': throw new YamlValueError(resolved.message, offsetOf(node))
    case 'null': return null
    case 'bool': return resolved.value
    case 'str': return resolved.value
    case 'int':
    case 'uint': return Number(resolved.value)
    case 'float':
      if (!Number.isFinite(resolved.value)) throw new YamlValueError(`${text} is not a number JSON can hold`, offsetOf(node))
      // JSON has no negative zero.
      return resolved.value === 0 ? 0 : resolved.value
  }
}

function binaryValue(text: string, offset: number): string {
  const base64 = text.replace(/[\r\n]/g, '')
  if (!BASE64.test(base64)) throw new YamlValueError('!!binary value contains invalid base64 data', offset)
  // Bytes that are not UTF-8 become U+FFFD, as Go's JSON encoder writes them.
  return Buffer.from(base64, 'base64').toString('utf8')
}

function mapValue(items: readonly unknown[], walk: Walk, depth: number): Record<string, unknown> {
  const entries = new Map<string, unknown>()
  const written = new Set<string>()
  for (const item of items) {
    if (!isPair(item)) continue
    const key = item.key as Node | null
    if (isMergeKey(key)) {
      mergeInto(entries, item.value as Node | null, walk, depth, offsetOf(key))
      continue
    }
    const name = keyName(key, walk, offsetOf(item.key ?? item.value))
    if (written.has(name)) throw new YamlValueError('map keys must be unique', offsetOf(key))
    written.add(name)
    // go-yaml writes keys in document order, a merge included: a later key wins.
    entries.set(name, toValue(item.value, walk, depth + 1))
  }
  // fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(entries)
}

/** `<<` written plain (or tagged !!merge): go-yaml's merge key. Quoted, it is an ordinary key. */
function isMergeKey(key: Node | null): key is Scalar {
  if (!isScalar(key) || key.source !== '<<') return false
  return key.tag === MERGE_TAG || (key.type === 'PLAIN' && (key.tag === undefined || key.tag === '!'))
}

/**
 * Applies a merge key's value: a map, an alias of a map, or a list of those, where earlier maps
 * of the list win. Merged keys overwrite the keys written before the `<<` and lose to those after.
 */
function mergeInto(entries: Map<string, unknown>, value: Node | null, walk: Walk, depth: number, keyOffset: number): void {
  const sources = isSeq(value) ? (value.items as unknown[]) : [value]
  const maps = sources.map((source) => {
    const map = isAlias(source) ? aliasTarget(source, walk) : source
    if (!isMap(map)) throw new YamlValueError('map merge requires map or sequence of maps as the value', source === null ? keyOffset : offsetOf(source))
    // Read in document order, so the anchors inside are set in order; applied last to first.
    return toValue(source, walk, depth + 1) as Record<string, unknown>
  })
  if (isSeq(value) && value.anchor !== undefined && walk.copying === 0) walk.anchors.set(value.anchor, value)
  for (const merged of maps.reverse()) for (const [k, v] of Object.entries(merged)) entries.set(k, v)
}

function keyName(key: unknown, walk: Walk, offset: number): string {
  const node = isAlias(key) ? aliasTarget(key, walk) : key
  if (node === null || node === undefined) throw new YamlValueError('a map key may not be null or empty', offset)
  if (!isScalar(node)) throw new YamlValueError('a mapping key must be a plain value, not a list or a map', offset)
  if (node === key && node.anchor !== undefined && walk.copying === 0) walk.anchors.set(node.anchor, node)
  const text = node.source ?? String(node.value)
  const resolved = node.tag === BINARY_TAG ? {kind: 'str' as const, value: binaryValue(text, offset)} : resolveScalar(text, node.tag, node.type === 'PLAIN')
  if (resolved.kind === 'error') throw new YamlValueError(resolved.message, offset)
  const name = jsonKey(resolved)
  if ('error' in name) throw new YamlValueError(name.error, offset)
  return name.key
}

function offsetOf(node: unknown): number {
  const range = (node as {range?: readonly number[] | null} | null)?.range
  return range?.[0] ?? 0
}
