import {describe, expect, it} from 'vitest'
import {quantityMilliValue, quantityValue} from '../../../src/util/quantity.js'
import {InvalidInputError} from '../../../src/util/errors.js'

describe('quantityMilliValue', () => {
  it.each([
    ['250m', 250],
    ['1', 1000],
    ['0.5', 500],
    ['.1', 100],
    ['2', 2000],
    ['1500m', 1500],
    ['100u', 1], // rounds up
    ['1k', 1_000_000],
    ['1e-3', 1],
    [2, 2000],
    ['0', 0],
  ])('%s → %d', (q, expected) => {
    expect(quantityMilliValue(q)).toBe(expected)
  })
})

describe('quantityValue', () => {
  it.each([
    ['128Mi', 134_217_728],
    ['1Gi', 1_073_741_824],
    ['1G', 1_000_000_000],
    ['64k', 64_000],
    ['1Ki', 1024],
    ['1.5Gi', 1_610_612_736],
    ['1e3', 1000],
    ['1E6', 1_000_000],
    ['1500m', 2], // rounds up
    ['100', 100],
    [512, 512],
  ])('%s → %d', (q, expected) => {
    expect(quantityValue(q)).toBe(expected)
  })

  it.each(['', 'abc', '1X', '1.2.3', 'Mi', '1 Mi'])('rejects %j', (q) => {
    expect(() => quantityValue(q)).toThrow(InvalidInputError)
  })
})
