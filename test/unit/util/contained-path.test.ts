// Paths other programs report (the runtime's log_path) are used only when they are plainly
// inside kube-node's own roots.
import {describe, expect, it} from 'vitest'
import {isInside, isPlainlyInside} from '../../../src/util/contained-path.js'

describe('isPlainlyInside', () => {
  it.each<[string, boolean, boolean]>([
    ['/var/log/pods/ns_web_uid/main/0.log', true, true],
    ['/var/log/pods', true, true],
    ['/var/log/podsX/a.log', false, false],
    ['/etc/shadow', false, false],
    ['/var/log/pods/ns/../ns/main/0.log', true, false],
    ['/var/log/pods/../../../etc/shadow', false, false],
  ])('%s: inside %s, plainly %s', (path, inside, plainly) => {
    expect(isInside('/var/log/pods', path)).toBe(inside)
    expect(isPlainlyInside('/var/log/pods', path)).toBe(plainly)
  })
})
