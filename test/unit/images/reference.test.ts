import {describe, expect, it} from 'vitest'
import {isValidImageRef, normalizeImageRef} from '../../../src/images/reference.js'

const DIGEST = `sha256:${'a'.repeat(64)}`

describe('normalizeImageRef', () => {
  it.each([
    ['busybox', 'docker.io/library/busybox:latest'],
    ['busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['foo/bar', 'docker.io/foo/bar:latest'],
    ['docker.io/busybox', 'docker.io/library/busybox:latest'],
    ['index.docker.io/library/busybox:1', 'docker.io/library/busybox:1'],
    ['localhost/busybox', 'localhost/busybox:latest'],
    ['localhost:5000/busybox', 'localhost:5000/busybox:latest'],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io/pause:3.9'],
    ['quay.io/a/b/c', 'quay.io/a/b/c:latest'],
    [`busybox@${DIGEST}`, `docker.io/library/busybox@${DIGEST}`],
    [`busybox:1.36@${DIGEST}`, `docker.io/library/busybox:1.36@${DIGEST}`],
    [`localhost:5000/x@${DIGEST}`, `localhost:5000/x@${DIGEST}`],
    [DIGEST, DIGEST],
  ])('%s → %s', (ref, want) => {
    expect(normalizeImageRef(ref)).toBe(want)
  })

  it('is idempotent', () => {
    for (const ref of ['busybox', 'foo/bar:1', `x:tag@${DIGEST}`, 'localhost:5000/y']) {
      expect(normalizeImageRef(normalizeImageRef(ref))).toBe(normalizeImageRef(ref))
    }
  })
})

describe('isValidImageRef', () => {
  it.each(['busybox', 'busybox:1.36', 'localhost:5000/a/b:c', `x@${DIGEST}`, 'registry.example.com:443/team/app_1:v1.2-rc'])(
    '%s is valid',
    (ref) => expect(isValidImageRef(ref)).toBe(true),
  )
  it.each(['', ' busybox', 'Busybox', 'busy box', 'busybox:', 'busybox:-bad', 'x@sha256:short', 'a//b', 'UPPER/Case'])(
    '%j is invalid',
    (ref) => expect(isValidImageRef(ref)).toBe(false),
  )
})
