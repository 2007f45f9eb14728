// What a YAML scalar means, decided the way kubectl and the kubelet decide it: both read
// manifests with sigs.k8s.io/yaml, which resolves scalars with go-yaml v2's YAML 1.1 rules, not
// the YAML 1.2 core schema. A manifest author sees the difference in real fields: `defaultMode:
// 0644` is octal 420 there (644 under YAML 1.2), `yes`/`on`/`y` are booleans, `1_000` is 1000,
// and a date stays a string. Checked value by value against the real kubectl
// (test/integration/manifest/yaml-kubectl.test.ts). Pure.

/** A scalar after resolution, before it becomes JSON (see yaml-to-json.ts). */
export type Resolved =
  | {kind: 'null'}
  | {kind: 'bool'; value: boolean}
  /** An integer that fits go-yaml's int64; kept exact (a map key prints every digit). */
  | {kind: 'int'; value: bigint}
  /** An integer between int64 and uint64 limits: a value, but never a map key in sigs.k8s.io/yaml. */
  | {kind: 'uint'; value: bigint}
  | {kind: 'float'; value: number}
  | {kind: 'str'; value: string}

/** Why a tagged scalar cannot be read (go-yaml's own wording), or the resolved value. */
export type ResolveResult = Resolved | {kind: 'error'; message: string}

const TAG_PREFIX = 'tag:yaml.org,2002:'

const WORDS: ReadonlyMap<string, Resolved> = new Map<string, Resolved>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'true', 'True', 'TRUE'].map((w): [string, Resolved] => [w, {kind: 'bool', value: true}]),
  ...['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'false', 'False', 'FALSE'].map((w): [string, Resolved] => [w, {kind: 'bool', value: false}]),
  ...['', '~', 'null', 'Null', 'NULL'].map((w): [string, Resolved] => [w, {kind: 'null'}]),
  ...['.nan', '.NaN', '.NAN'].map((w): [string, Resolved] => [w, {kind: 'float', value: Number.NaN}]),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((w): [string, Resolved] => [w, {kind: 'float', value: Number.POSITIVE_INFINITY}]),
  ...['-.inf', '-.Inf', '-.INF'].map((w): [string, Resolved] => [w, {kind: 'float', value: Number.NEGATIVE_INFINITY}]),
])

/** Tags go-yaml resolves; any other tag (`!foo`, `!`, `!!set`, `!!merge`) leaves the text a string. */
const RESOLVABLE = new Set(['', 'str', 'bool', 'int', 'float', 'null', 'timestamp'])

/** Go's strconv.ParseInt/ParseUint with base 0, on text whose underscores are already gone. */
const GO_INTEGER = /^([+-]?)(?:0[xX]([0-9a-fA-F]+)|0[oO]([0-7]+)|0[bB]([01]+)|0([0-7]*)|([1-9][0-9]*))$/
/** go-yaml's yamlStyleFloat, the only float texts it hands to strconv.ParseFloat. */
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/
/** What Go's ParseFloat accepts of a text that starts with '.' and is not one of WORDS. */
const DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/
/** go-yaml's timestamp layouts (2006-1-2, with an optional time): such text stays a string. */
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[-+][0-9]{2}:[0-9]{2})| [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?)?$/

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const UINT64_MAX = 2n ** 64n - 1n

/**
 * Resolves one scalar. `tag` is the explicit tag as the YAML library reports it (undefined when
 * none); `plain` says the scalar was written without quotes and is not a block scalar.
 */
export function resolveScalar(text: string, tag: string | undefined, plain: boolean): ResolveResult {
  // Quoted and block scalars are strings unless a tag says otherwise.
  if (tag === undefined && !plain) return {kind: 'str', value: text}
  const short = tag === undefined ? '' : tag.startsWith(TAG_PREFIX) ? tag.slice(TAG_PREFIX.length) : tag
  if (!RESOLVABLE.has(short)) return {kind: 'str', value: text}
  const found = short === 'str' ? ({kind: 'str', value: text} as const) : resolveText(text)
  if (short === '' || short === 'str') return found
  const foundTag = found.kind === 'uint' ? 'int' : found.kind
  if (foundTag === short) return found
  // A date-shaped text is a timestamp to go-yaml, which hands it back as the same string.
  if (short === 'timestamp' && found.kind === 'str' && TIMESTAMP.test(text)) return found
  if (short === 'float' && (found.kind === 'int' || found.kind === 'uint')) return {kind: 'float', value: Number(found.value)}
  return {kind: 'error', message: `cannot decode !!${foundTag} \`${text}\` as a !!${short}`}
}

/** go-yaml v2's resolve() for a text with no tag. */
function resolveText(text: string): Resolved {
  const first = text.charAt(0)
  const word = WORDS.get(text)
  if (word !== undefined) return word
  if (first === '.') return DOT_FLOAT.test(text) ? floatOrString(text) : {kind: 'str', value: text}
  if (!/^[-+0-9]/.test(first)) return {kind: 'str', value: text}
  // A date (2001-12-14) is a timestamp to go-yaml, handed back as the same string; no number
  // has a '-' after four digits, so the number rules below already leave it a string.
  // go-yaml drops every underscore before parsing a number: `1_000`, `0x_1F` and `1__0` all count.
  const bare = text.replaceAll('_', '')
  const integer = parseGoInteger(bare)
  if (integer !== undefined) return integer
  if (YAML_FLOAT.test(bare)) return floatOrString(bare, text)
  return {kind: 'str', value: text}
}

function parseGoInteger(text: string): Resolved | undefined {
  const m = GO_INTEGER.exec(text)
  if (m === null) return undefined
  const [, sign, hex, octal, binary, leadingZero, decimal] = m
  const magnitude = hex !== undefined ? BigInt(`0x${hex}`)
    : octal !== undefined ? BigInt(`0o${octal}`)
    : binary !== undefined ? BigInt(`0b${binary}`)
    // Go reads a leading 0 as octal: `0644` is 420, and `08` is no integer (it becomes the float 8).
    : leadingZero !== undefined ? (leadingZero === '' ? 0n : BigInt(`0o${leadingZero}`))
    : BigInt(decimal ?? '0')
  const value = sign === '-' ? -magnitude : magnitude
  if (value >= INT64_MIN && value <= INT64_MAX) return {kind: 'int', value}
  // ParseUint takes no sign; a signed text past int64 falls through to the float rules.
  if (sign === '' && value <= UINT64_MAX) return {kind: 'uint', value}
  return undefined
}

/** Go's ParseFloat refuses an out-of-range text (1e400), which then stays a string. */
function floatOrString(number: string, original = number): Resolved {
  const value = Number(number)
  return Number.isFinite(value) ? {kind: 'float', value} : {kind: 'str', value: original}
}

/**
 * A resolved map key as sigs.k8s.io/yaml writes it into JSON, or why it cannot be a key:
 * `yes:` is the key "true", `0x1F:` is "31", `1e6:` is "1e+06" (Go's %g of a float32).
 */
export function jsonKey(key: Resolved): {key: string} | {error: string} {
  switch (key.kind) {
    case 'str': return {key: key.value}
    case 'bool': return {key: String(key.value)}
    case 'int': return {key: key.value.toString()}
    case 'float': return {key: goFloat32Key(key.value)}
    case 'uint': return {error: `the key ${key.value.toString()} is too large for a map key`}
    case 'null': return {error: 'a map key may not be null or empty'}
  }
}

/** strconv.FormatFloat(f, 'g', -1, 32) with sigs.k8s.io/yaml's names for the special values. */
function goFloat32Key(value: number): string {
  if (Number.isNaN(value)) return '.nan'
  if (value === Number.POSITIVE_INFINITY) return '.inf'
  if (value === Number.NEGATIVE_INFINITY) return '-.inf'
  const f = Math.fround(value)
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  // The shortest decimal that reads back as the same float32 (Go's shortest formatting).
  let digits = 1
  while (digits < 9 && Math.fround(Number(f.toPrecision(digits))) !== f) digits++
  const [mantissa = '', exponentText = '0'] = f.toExponential(digits - 1).split('e')
  const exponent = Number(exponentText)
  if (exponent < -4 || exponent >= 6) {
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`
  }
  return String(Number(f.toPrecision(digits)))
}
