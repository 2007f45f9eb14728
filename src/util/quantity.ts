// Kubernetes resource quantities (`250m`, `1`, `128Mi`, `1G`, `1e3`), as in
// k8s.io/apimachinery/pkg/api/resource. Values are kept as exact fractions of BigInts so that
// `0.1` CPU is exactly 100 milli-CPU; results round up, as the apimachinery's Value() and
// MilliValue() do.
import {InvalidInputError} from './errors.js'

const BINARY: Record<string, bigint> = {Ki: 1n, Mi: 2n, Gi: 3n, Ti: 4n, Pi: 5n, Ei: 6n}
const DECIMAL: Record<string, bigint> = {n: -9n, u: -6n, m: -3n, '': 0n, k: 3n, M: 6n, G: 9n, T: 12n, P: 15n, E: 18n}

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
  const [whole = '', frac = ''] = digits.split('.')
  let num = BigInt((whole || '0') + frac)
  let den = 10n ** BigInt(frac.length)
  if (sign === '-') num = -num
  if (suffix in BINARY) {
    num *= 1024n ** BINARY[suffix]!
  } else {
    const exp = suffix in DECIMAL ? DECIMAL[suffix]! : BigInt(suffix.slice(1))
    if (exp >= 0n) num *= 10n ** exp
    else den *= 10n ** -exp
  }
  return {num, den}
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

/** The quantity as an integer, rounded up: `128Mi` → 134217728, `1G` → 1000000000, `1500m` → 2. */
export function quantityValue(q: string | number): number {
  const {num, den} = parse(q)
  return toNumber(ceilDiv(num, den), q)
}
