import {describe, expect, it} from 'vitest'
import {parseImageRef} from '../../../src/manifest/image-ref.js'

const digest = 'sha256:0a4eaa0eecf5f8c050e5bba433f58c052be7587ee8af3e8b3910ef9ab5fbe9f5'

describe('parseImageRef', () => {
  it.each([
    ['busybox', {path: 'busybox'}],
    ['library/busybox:1.36', {path: 'library/busybox', tag: '1.36'}],
    ['localhost:5000/busybox', {domain: 'localhost:5000', path: 'busybox'}],
    ['localhost/busybox:v1', {domain: 'localhost', path: 'busybox', tag: 'v1'}],
    ['registry.k8s.io/etcd:3.5.15-0', {domain: 'registry.k8s.io', path: 'etcd', tag: '3.5.15-0'}],
    [`ghcr.io/org/app@${digest}`, {domain: 'ghcr.io', path: 'org/app', digest}],
    [`[::1]:5000/app:1`, {domain: '[::1]:5000', path: 'app', tag: '1'}],
  ])('parses %s', (image, ref) => {
    expect(parseImageRef(image)).toEqual(ref)
  })

  it.each(['nginx latest', 'Nginx', 'nginx:', 'nginx@sha256:abc', ':1.0', 'a//b', '-nginx', ' nginx'])('rejects %j', (image) => {
    expect(parseImageRef(image)).toBeUndefined()
  })
})
