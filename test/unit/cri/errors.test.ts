import {describe, expect, it} from 'vitest'
import {isCriError, isNotFound} from '../../../src/cri/errors.js'
import {CriError} from '../../../src/util/errors.js'

describe('CRI error helpers', () => {
  it.each([
    [new CriError('RemoveContainer', 'NotFound', 'gone'), true],
    [new CriError('RemoveContainer', 'Unavailable', 'down'), false],
    [new Error('NotFound'), false],
    [undefined, false],
  ])('isNotFound(%s) → %s', (err, expected) => {
    expect(isNotFound(err)).toBe(expected)
  })

  it('isCriError narrows with or without a code', () => {
    const err: unknown = new CriError('Version', 'DeadlineExceeded', 'slow')
    expect(isCriError(err)).toBe(true)
    expect(isCriError(err, 'DeadlineExceeded')).toBe(true)
    expect(isCriError(err, 'NotFound')).toBe(false)
  })
})
