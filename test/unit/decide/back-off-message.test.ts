// The waiting message of a container in image-pull back-off repeats the pull's error, as the
// kubelet's does, so `get`/`describe` still say why after the first ErrImagePull.
import {describe, expect, it} from 'vitest'
import type {BackOffEntry} from '../../../src/decide/actions.js'
import {backOffMessage} from '../../../src/decide/compute-pod-actions.js'
import {NOW, basePod} from '../../support/pods.js'

describe('backOffMessage for ImagePullBackOff', () => {
  const error = 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/alpine:9": not found'
  it.each<[string, string | undefined, string]>([
    ['with the previous pull error', error, `Back-off pulling image "alpine:9": ErrImagePull: ${error}`],
    ['taken over from another process, the error unknown', undefined, 'Back-off pulling image "alpine:9"'],
  ])('%s', (_name, lastError, want) => {
    const entry: BackOffEntry = {until: NOW + 1, reason: 'ImagePullBackOff', message: 'back-off 10s pulling image', lastError}
    expect(backOffMessage(entry, 'foo2', 'alpine:9', basePod().pod)).toBe(want)
  })
})
