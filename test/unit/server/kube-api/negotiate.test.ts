import {describe, expect, it} from 'vitest'
import {wantsTable} from '../../../../src/server/kube-api/negotiate.js'

describe('wantsTable', () => {
  it.each<[string | undefined, boolean]>([
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', true],
    ['application/json; as=Table; v=v1beta1; g=meta.k8s.io', true],
    ['application/json', false],
    ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', false],
    [undefined, false],
  ])('%s → %s', (accept, want) => {
    expect(wantsTable(accept)).toBe(want)
  })
})
