import {describe, expect, it} from 'vitest'
import {CriError, runtimeErrorText} from '../../../src/util/errors.js'

describe('runtimeErrorText', () => {
  const pull = 'failed to pull and unpack image "docker.io/library/nope:1": not found'
  it.each([
    ['a gRPC status from the runtime', new CriError('PullImage', 'NotFound', pull, {cause: {code: 5, details: pull}}), `rpc error: code = NotFound desc = ${pull}`],
    ['a code kube-node does not name, by its wire number', new CriError('PullImage', 'Unknown', 'denied', {cause: {code: 7, details: 'denied'}}), 'rpc error: code = PermissionDenied desc = denied'],
    ['no wire code: kube-node\'s own', new CriError('PullImage', 'Unavailable', 'connection refused'), 'rpc error: code = Unavailable desc = connection refused'],
    ['cancelled, as Go spells it', new CriError('PullImage', 'Cancelled', 'cancelled'), 'rpc error: code = Canceled desc = cancelled'],
    ['not a runtime error', new Error('cannot read the docker config'), 'cannot read the docker config'],
  ] as const)('%s', (_name, err, want) => {
    expect(runtimeErrorText(err)).toBe(want)
  })
})
