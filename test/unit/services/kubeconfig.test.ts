import {describe, expect, it} from 'vitest'
import {buildKubeconfig} from '../../../src/services/kubeconfig.js'
import {localServerUrl} from '../../../src/node/api-address.js'

describe('buildKubeconfig', () => {
  it('points one context at the server, trusting its certificate, with the token logs and events need', () => {
    const c = buildKubeconfig('https://127.0.0.1:40123', {token: 'tok', certificate: 'PEM'}, 'n1')
    expect(c['current-context']).toBe('kube-node-n1')
    expect(c.clusters).toEqual([{name: 'kube-node-n1', cluster: {server: 'https://127.0.0.1:40123', 'certificate-authority-data': Buffer.from('PEM').toString('base64')}}])
    expect(c.contexts[0]!.context).toEqual({cluster: 'kube-node-n1', user: 'kube-node-n1', namespace: 'default'})
    expect(c.users).toEqual([{name: 'kube-node-n1', user: {token: 'tok'}}])
  })
})

describe('localServerUrl', () => {
  it.each([
    ['127.0.0.1', 'http://127.0.0.1:10255'],
    ['0.0.0.0', 'http://127.0.0.1:10255'],
    ['::', 'http://[::1]:10255'],
    ['::1', 'http://[::1]:10255'],
    ['[::1]', 'http://[::1]:10255'],
    ['10.0.0.5', 'http://10.0.0.5:10255'],
  ])('%s → %s', (address, url) => {
    expect(localServerUrl(address, 10255)).toBe(url)
  })
})
