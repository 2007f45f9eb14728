import {describe, expect, it} from 'vitest'
import {decidePull, defaultPullPolicy, type PullPolicy} from '../../../src/images/pull-policy.js'

const DIGEST = `sha256:${'b'.repeat(64)}`
const present = new Set(['docker.io/library/busybox:1.36', `docker.io/library/alpine@${DIGEST}`, 'localhost:5000/app:latest'])

describe('decidePull', () => {
  it.each<[PullPolicy, string, 'pull' | 'no pull' | 'ErrImageNeverPull' | 'InvalidImageName']>([
    ['Always', 'busybox:1.36', 'pull'],
    ['Always', 'nginx', 'pull'],
    ['IfNotPresent', 'busybox:1.36', 'no pull'],
    ['IfNotPresent', 'docker.io/library/busybox:1.36', 'no pull'],
    ['IfNotPresent', 'busybox:1.37', 'pull'],
    ['IfNotPresent', `alpine@${DIGEST}`, 'no pull'],
    ['IfNotPresent', `alpine:3.20@${DIGEST}`, 'no pull'],
    ['IfNotPresent', 'localhost:5000/app', 'no pull'],
    ['Never', 'busybox:1.36', 'no pull'],
    ['Never', 'nginx:1.27', 'ErrImageNeverPull'],
    ['IfNotPresent', 'Bad Image', 'InvalidImageName'],
    ['Always', '', 'InvalidImageName'],
  ])('%s %s → %s', (policy, image, want) => {
    const d = decidePull(policy, image, present)
    const got = 'error' in d ? d.error : d.pull ? 'pull' : 'no pull'
    expect(got).toBe(want)
    if ('error' in d) expect(d.message).toContain(image)
    if ('pull' in d && d.pull) expect(d.reason).toContain(policy)
  })

  it('explains a Never pull like the kubelet', () => {
    expect(decidePull('Never', 'nginx:1.27', present)).toEqual({
      error: 'ErrImageNeverPull',
      message: 'Container image "nginx:1.27" is not present with pull policy of Never',
    })
  })
})

describe('defaultPullPolicy', () => {
  it.each([
    ['busybox', 'Always'],
    ['busybox:latest', 'Always'],
    ['busybox:1.36', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    [`busybox@${DIGEST}`, 'IfNotPresent'],
  ])('%s → %s', (image, want) => expect(defaultPullPolicy(image)).toBe(want))
})
