import {describe, expect, it} from 'vitest'
import {status} from '@grpc/grpc-js'
import {toCriError} from '../../../../src/cri/grpc/errors.js'
import {CriError} from '../../../../src/util/errors.js'

const grpcError = (code: number, details: string): Error => Object.assign(new Error(`${code} ${details}`), {code, details})

describe('toCriError', () => {
  it.each([
    [status.NOT_FOUND, 'NotFound'],
    [status.ALREADY_EXISTS, 'AlreadyExists'],
    [status.DEADLINE_EXCEEDED, 'DeadlineExceeded'],
    [status.UNAVAILABLE, 'Unavailable'],
    [status.INVALID_ARGUMENT, 'InvalidArgument'],
    [status.UNKNOWN, 'Unknown'],
    [status.INTERNAL, 'Unknown'],
    [status.CANCELLED, 'Cancelled'],
    [status.FAILED_PRECONDITION, 'Unknown'],
  ])('gRPC code %d → %s, naming the call and keeping the details', (code, criCode) => {
    const err = toCriError('RunPodSandbox', grpcError(code, 'something happened'))
    expect(err).toBeInstanceOf(CriError)
    expect(err.call).toBe('RunPodSandbox')
    expect(err.code).toBe(criCode)
    expect(err.detail).toBe('something happened')
    expect(err.message).toBe(`CRI RunPodSandbox failed (${criCode}): something happened`)
  })

  it('wraps a local error (e.g. serialisation) as Unknown with its message', () => {
    const err = toCriError('CreateContainer', new Error('invalid encoding'))
    expect(err.code).toBe('Unknown')
    expect(err.detail).toBe('invalid encoding')
  })

  it('passes a CriError through unchanged', () => {
    const original = new CriError('ImageStatus', 'NotFound', 'gone')
    expect(toCriError('Other', original)).toBe(original)
  })
})
