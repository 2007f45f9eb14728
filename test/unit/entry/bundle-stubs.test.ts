// The bundle replaces `debug`, `tinyglobby`, `long` and `wsl-utils` with stand-ins
// (scripts/bundle-stubs/, wired in scripts/bundle.mjs). Each must keep what its users in the bundle
// rely on: oclif's tracers stay callable and silent, a glob fails loudly instead of finding
// nothing, protobufjs without Long.js hands kube-node the same int64 numbers it does with it, and
// oclif learns the platform and PowerShell's path as it does from wsl-utils.
import {createRequire} from 'node:module'
import {pathToFileURL} from 'node:url'
import protobuf from 'protobufjs/minimal.js'
import {afterEach, describe, expect, it, vi} from 'vitest'
import {int64ToNumber} from '../../../src/cri/grpc/convert.js'
import {runtime} from '../../../src/cri/grpc/generated/codecs.js'
import {PROTO_LOADER_OPTIONS} from '../../../src/cri/grpc/load.js'

const require = createRequire(import.meta.url)
const stub = (name: string): unknown => require(`../../../scripts/bundle-stubs/${name}`)

interface Tracer {
  (formatter: unknown, ...args: unknown[]): void
  namespace: string
  enabled: boolean
  extend(sub: string, delimiter?: string): Tracer
}

describe('the debug stand-in', () => {
  const createDebug = stub('debug.cjs') as (namespace: string) => Tracer

  it('makes tracers that oclif can call and that print nothing, whatever DEBUG says', () => {
    vi.stubEnv('DEBUG', '*')
    const write = vi.spyOn(process.stderr, 'write')
    const trace = createDebug('oclif')
    expect(trace('loading %s', 'plugin')).toBeUndefined()
    expect(write).not.toHaveBeenCalled()
    expect([trace.namespace, trace.enabled]).toEqual(['oclif', false])
    expect(trace.extend('config').namespace).toBe('oclif:config')
    vi.unstubAllEnvs()
  })

  it('has every method of a real tracer', () => {
    const real = (require('debug') as (namespace: string) => Record<string, unknown>)('x')
    const methods = Object.keys(real).filter((k) => typeof real[k] === 'function')
    const ours = createDebug('x') as unknown as Record<string, unknown>
    expect(methods.filter((k) => typeof ours[k] !== 'function')).toEqual([])
  })
})

describe('the tinyglobby stand-in', () => {
  const glob = stub('glob.cjs') as Record<string, () => unknown>

  it('has every export of tinyglobby, and each one throws an error that says what happened', () => {
    expect(Object.keys(glob).sort()).toEqual(Object.keys(require('tinyglobby') as object).sort())
    for (const fn of Object.values(glob)) expect(() => fn()).toThrow(/tinyglobby.*not part of the bundle/)
  })
})

describe('the wsl-utils stand-in', () => {
  // What oclif reads of it: isWsl (getPlatform) and powerShellPath (getShell, on Windows only).
  it('gives oclif the same isWsl and powerShellPath as the package', async () => {
    const real = await import('wsl-utils')
    const ours = (await import(pathToFileURL(require.resolve('../../../scripts/bundle-stubs/wsl-utils.mjs')).href)) as typeof real
    expect(ours.isWsl).toBe(real.isWsl)
    expect(await ours.powerShellPath()).toBe(await real.powerShellPath())
  })
})

describe('the long stand-in', () => {
  interface Codec {
    fromObject(value: object): object
    encode(message: object): {finish(): Uint8Array}
    decode(bytes: Uint8Array): object
    toObject(message: object, options: typeof PROTO_LOADER_OPTIONS): {value?: unknown}
  }
  const v1 = (runtime as unknown as {v1: Record<string, Codec>}).v1
  const longJs = protobuf.util.Long
  /** protobufjs as the bundle has it: its loader found no Long.js (the stand-in is null). */
  function withoutLong<T>(f: () => T): T {
    protobuf.util.Long = null as unknown as typeof longJs
    protobuf.configure()
    try {
      return f()
    } finally {
      protobuf.util.Long = longJs
      protobuf.configure()
    }
  }
  afterEach(() => expect(protobuf.util.Long).toBe(longJs))

  it('is what protobufjs takes for "no Long.js"', () => {
    expect(stub('long.cjs')).toBeNull()
  })

  const wire: [string, string][] = [
    ['Int64Value', '0'],
    ['Int64Value', '-1'],
    ['Int64Value', '9007199254740993'],
    ['Int64Value', '1764129000123456789'],
    ['Int64Value', '9223372036854775807'],
    ['Int64Value', '-9223372036854775808'],
    ['UInt64Value', '18446744073709551615'],
    ['UInt64Value', '123456789012'],
  ]
  it.each(wire)('a %s of %s read from the wire is the same number without Long.js', (type, exact) => {
    const codec = v1[type]!
    const bytes = codec.encode(codec.fromObject({value: exact})).finish()
    const read = () => int64ToNumber(codec.toObject(codec.decode(bytes), PROTO_LOADER_OPTIONS).value as string)
    expect(withoutLong(() => typeof (codec.decode(bytes) as {value: unknown}).value)).toBe('number')
    expect(withoutLong(read)).toBe(read())
    expect(read()).toBe(Number(exact))
  })

  const sent: [string, number][] = [
    ['Int64Value', 0],
    ['Int64Value', -5],
    ['Int64Value', Number.MAX_SAFE_INTEGER],
    ['Int64Value', Number.MIN_SAFE_INTEGER],
    ['UInt64Value', 2 ** 40 + 7],
  ]
  it.each(sent)('a %s of %d that kube-node sends encodes to the same bytes without Long.js', (type, n) => {
    const codec = v1[type]!
    const encode = () => Buffer.from(codec.encode(codec.fromObject({value: n})).finish()).toString('hex')
    expect(withoutLong(encode)).toBe(encode())
  })
})
