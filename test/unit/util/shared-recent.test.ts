import {describe, expect, it} from 'vitest'
import {sharedRecent} from '../../../src/util/shared-recent.js'

describe('sharedRecent', () => {
  it('gives callers at the same time one getting, and hands a recent value out again', async () => {
    let t = 0
    let gets = 0
    const get = sharedRecent(async () => ++gets, 1000, () => t)
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1])
    t = 999
    expect(await get()).toBe(1)
    t = 1000
    expect(await get()).toBe(2)
    expect(gets).toBe(2)
  })

  it('hands out no value from the future: a clock set back an hour gets anew', async () => {
    let t = 3_600_000
    let gets = 0
    const get = sharedRecent(async () => ++gets, 1000, () => t)
    expect(await get()).toBe(1)
    t = 0
    expect(await get()).toBe(2)
  })

  it('keeps no failure: the next caller tries again', async () => {
    let fail = true
    const get = sharedRecent(async () => (fail ? Promise.reject(new Error('down')) : 'up'), 1000, () => 0)
    await expect(get()).rejects.toThrow('down')
    fail = false
    expect(await get()).toBe('up')
  })

  it('counts a value’s age from when its getting began', async () => {
    let t = 0
    let release: (v: number) => void = () => undefined
    const get = sharedRecent(() => new Promise<number>((r) => (release = r)), 1000, () => t)
    const first = get()
    t = 1500
    release(1)
    expect(await first).toBe(1)
    // Begun at 0, so at 1500 it is too old to hand out again.
    const second = get()
    release(2)
    expect(await second).toBe(2)
  })
})
