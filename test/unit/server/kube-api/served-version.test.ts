import {describe, expect, it} from 'vitest'
import {servedMinor} from '../../../../src/server/kube-api/served-version.js'
import {KUBE_MINOR, versionInfo} from '../../../../src/server/kube-api/discovery.js'

describe('servedMinor: kubectl version sees no skew warning', () => {
  it.each([
    ['a kubectl is answered with its own minor', 'kubectl/v1.32.4 (linux/amd64) kubernetes/$Format', '32'],
    ['a vendor build suffix is fine', 'kubectl/v1.29.0-dispatcher (linux/amd64) kubernetes/abc', '29'],
    ['a future kubectl too', 'kubectl/v1.40.1 (linux/arm64) kubernetes/x', '40'],
    ['other clients get the release kube-node speaks', 'OpenAPI-Generator/22.0.0/python', KUBE_MINOR],
    ['no agent at all', undefined, KUBE_MINOR],
    ['another major is not mirrored', 'kubectl/v2.1.0 (linux/amd64)', KUBE_MINOR],
    ['a leading zero is no release', 'kubectl/v1.032.0 (linux/amd64)', KUBE_MINOR],
    ['a name that only starts like kubectl', 'kubectl-foo/v1.30.0', KUBE_MINOR],
  ])('%s', (_, agent, minor) => {
    expect(servedMinor(agent)).toBe(minor)
  })
})

describe('versionInfo', () => {
  it('is a semantic version kubectl parses, naming kube-node in its build metadata', () => {
    const v = versionInfo('0.1.0', 'linux/amd64', '32')
    expect(v).toMatchObject({major: '1', minor: '32', gitVersion: 'v1.32.0+kube-node-0.1.0'})
  })
  it('keeps the build metadata valid whatever the version string holds', () => {
    expect(versionInfo('0.2.0-dev+g1a2b/3', 'linux/amd64', '36')['gitVersion']).toBe('v1.36.0+kube-node-0.2.0-dev-g1a2b-3')
  })
})
