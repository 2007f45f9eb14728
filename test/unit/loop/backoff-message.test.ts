// The waiting message of a crash loop prints its delay as the kubelet does, in Go's duration form.
import {describe, expect, it} from 'vitest'
import {BackOff} from '../../../src/loop/backoff.js'

describe('back-off messages', () => {
  it('print each step of the crash-loop back-off as a Go duration: 10s 20s 40s 1m20s 2m40s 5m0s 5m0s', () => {
    const b = new BackOff()
    const seen: string[] = []
    for (let i = 0; i < 7; i++) {
      const now = i * 1_000
      b.next('k', now, 'CrashLoopBackOff')
      seen.push(b.get('k', now)?.message ?? '')
    }
    expect(seen).toEqual(['10s', '20s', '40s', '1m20s', '2m40s', '5m0s', '5m0s'].map((d) => `back-off ${d} restarting failed container`))
  })

  it('a back-off taken over from another process is printed in whole seconds', () => {
    const b = new BackOff()
    b.restore('k', 95_500, 0, 'CrashLoopBackOff')
    expect(b.get('k', 1)?.message).toBe('back-off 1m36s restarting failed container')
  })
})
