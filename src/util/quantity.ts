// Kubernetes resource quantities (`250m`, `1`, `128Mi`, `1G`, `1e3`), as in
// k8s.io/apimachinery/pkg/api/resource. Values are kept as exact fractions of BigInts so that
// `0.1` CPU is exactly 100 milli-CPU; results round up, as the apimachinery's Value() and
// MilliValue() do.
import {InvalidInputError} from './errors.js'

const BINARY = new Map<string, bigint>([['Ki', 1n], ['Mi', 2n], ['Gi', 3n], ['Ti', 4n], ['Pi', 5n], ['Ei', 6n]])
const DECIMAL = new Map<string, bigint>([['n', -9n], ['u', -6n], ['m', -3n], ['', 0n], ['k', 3n], ['M', 6n], ['G', 9n], ['T', 12n], ['P', 15n], ['E', 18n]])

/**
 * Bounds checked before any arithmetic, so that `1e999999999` costs nothing: no quantity a
 * node can honour needs more digits or a larger exponent (2^53 has 16 digits).
 */
export const MAX_QUANTITY_DIGITS = 64
export const MAX_QUANTITY_EXPONENT = 30

// sign, digits with an optional fraction, then a suffix (binary, decimal SI, or an exponent).
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/

interface Fraction {
  num: bigint
  den: bigint
}

function parse(q: string | number): Fraction {
  const text = String(q).trim()
  const m = QUANTITY.exec(text)
  if (!m) throw new InvalidInputError(`invalid quantity ${JSON.stringify(String(q))}`)
  const [, sign = '', digits = '', suffix = ''] = m
  if (digits.length > MAX_QUANTITY_DIGITS) throw new InvalidInputError(`quantity ${JSON.stringify(String(q))} has more than ${MAX_QUANTITY_DIGITS} digits`)
  const [whole = '', frac = ''] = digits.split('.')
  let num = BigInt((whole || '0') + frac)
  let den = 10n ** BigInt(frac.length)
  if (sign === '-') num = -num
  const binary = BINARY.get(suffix)
  if (binary !== undefined) {
    num *= 1024n ** binary
  } else {
    const exp = DECIMAL.get(suffix) ?? exponent(suffix, q)
    if (exp >= 0n) num *= 10n ** exp
    else den *= 10n ** -exp
  }
  return {num, den}
}

/** `e12` → 12n; the digits are bounded by length first, so BigInt never sees a huge number. */
function exponent(suffix: string, q: string | number): bigint {
  const digits = suffix.slice(1).replace(/^[+-]?0*/, '')
  const negative = suffix[1] === '-'
  if (digits.length > 3 || Number(digits) > MAX_QUANTITY_EXPONENT) {
    throw new InvalidInputError(`quantity ${JSON.stringify(String(q))} has an exponent beyond ±${MAX_QUANTITY_EXPONENT}`)
  }
  const n = BigInt(digits || '0')
  return negative ? -n : n
}

function ceilDiv(num: bigint, den: bigint): bigint {
  const q = num / den
  return num % den > 0n ? q + 1n : q
}

function toNumber(v: bigint, q: string | number): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new InvalidInputError(`quantity ${JSON.stringify(String(q))} is too large`)
  }
  return Number(v)
}

/** The quantity in thousandths, rounded up: `250m` → 250, `1` → 1000, `0.1` → 100. */
export function quantityMilliValue(q: string | number): number {
  const {num, den} = parse(q)
  return toNumber(ceilDiv(num * 1000n, den), q)
}

/**
 * Why `q` is not a quantity kube-node can use (its value and its thousandths must fit a safe
 * integer, as every consumer converts them to numbers), or undefined when it is one.
 */
export function quantityError(q: unknown): string | undefined {
  if (typeof q === 'number') {
    if (!Number.isFinite(q)) return 'must be a finite number'
  } else if (typeof q !== 'string') {
    return `must be a quantity string, got ${q === null ? 'null' : Array.isArray(q) ? 'list' : typeof q}`
  }
  try {
    if (quantityValue(q) < 0) return 'must not be negative'
    quantityMilliValue(q)
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
  return undefined
}

/** The quantity as an integer, rounded up: `128Mi` → 134217728, `1G` → 1000000000, `1500m` → 2. */
export function quantityValue(q: string | number): number {
  const {num, den} = parse(q)
  return toNumber(ceilDiv(num, den), q)
}

/**
 * Why a value is not a Kubernetes resource quantity such as `100m`, `64Mi`, `1.5`, `2e3` that
 * kube-node can honour (syntax, sign, and a size every consumer can compute with), or undefined.
 */
export const NOT_A_QUANTITY = 'is not a quantity'

export function quantityProblem(value: unknown): string | undefined {
  if (typeof value === 'string' && !/^\+?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/.test(value)) return NOT_A_QUANTITY
  return quantityError(value)
}
