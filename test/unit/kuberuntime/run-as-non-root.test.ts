import {describe, expect, it} from 'vitest'
import {namedPod} from '../../support/pods.js'
import {verifyRunAsNonRoot, type ImageUser} from '../../../src/kuberuntime/security.js'
import type {Container, Pod} from '../../../src/api/types.js'

function pod(podSc: object, sc: object): [Pod, Container] {
  const c = {name: 'c', image: 'i', securityContext: sc} as Container
  const mutate = (p: Pod): void => {
    if (p.spec) p.spec.securityContext = podSc
  }
  return [namedPod('p', [c], {mutate}).pod, c]
}

describe('verifyRunAsNonRoot', () => {
  it.each<[string, object, object, ImageUser | undefined, string | undefined]>([
    ['not asked', {}, {}, {uid: 0}, undefined],
    ['runAsUser 1000', {runAsNonRoot: true}, {runAsUser: 1000}, {uid: 0}, undefined],
    ['runAsUser 0', {runAsNonRoot: true}, {runAsUser: 0}, undefined, "container's runAsUser breaks non-root policy"],
    ['image uid 1000', {}, {runAsNonRoot: true}, {uid: 1000}, undefined],
    ['image uid 0', {}, {runAsNonRoot: true}, {uid: 0}, 'container has runAsNonRoot and image will run as root'],
    ['image without a user (root)', {runAsNonRoot: true}, {}, {username: ''}, 'container has runAsNonRoot and image will run as root'],
    ['image user by name', {runAsNonRoot: true}, {}, {username: 'app'}, 'container has runAsNonRoot and image has non-numeric user (app), cannot verify user is non-root'],
    ['container turns it off', {runAsNonRoot: true}, {runAsNonRoot: false}, {uid: 0}, undefined],
  ])('%s', (_name, podSc, sc, image, want) => {
    const [p, c] = pod(podSc, sc)
    expect(verifyRunAsNonRoot(p, c, image)).toBe(want)
  })
})
