import {describe, expect, it} from 'vitest'
import {decodeHealthCheckResponse, encodeHealthCheckRequest} from '../../../src/prober/grpc-wire.js'

describe('gRPC health wire format', () => {
  it('encodes HealthCheckRequest with its length prefix; an empty service is an empty message', () => {
    expect([...encodeHealthCheckRequest('')]).toEqual([0, 0, 0, 0, 0])
    expect([...encodeHealthCheckRequest('web')]).toEqual([0, 0, 0, 0, 5, 0x0a, 3, 0x77, 0x65, 0x62])
  })

  it('encodes a long service name with a multi-byte length', () => {
    const msg = encodeHealthCheckRequest('s'.repeat(200))
    expect([...msg.subarray(0, 8)]).toEqual([0, 0, 0, 0, 203, 0x0a, 0xc8, 0x01])
  })

  it.each([
    ['SERVING', [0, 0, 0, 0, 2, 0x08, 1], 1],
    ['an empty message (UNKNOWN)', [0, 0, 0, 0, 0], 0],
    ['unknown fields around the status', [0, 0, 0, 0, 7, 0x12, 1, 0x41, 0x08, 2, 0x18, 5], 2],
  ])('decodes %s', (_name, bytes, status) => {
    expect(decodeHealthCheckResponse(Buffer.from(bytes))).toBe(status)
  })

  it.each([
    ['no message', []],
    ['a compressed message', [1, 0, 0, 0, 2, 0x08, 1]],
    ['a truncated message', [0, 0, 0, 0, 4, 0x08]],
  ])('rejects %s', (_name, bytes) => {
    expect(() => decodeHealthCheckResponse(Buffer.from(bytes))).toThrow()
  })
})
