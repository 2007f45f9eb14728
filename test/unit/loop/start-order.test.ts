import {describe, expect, it} from 'vitest'
import type {StaticPod} from '../../../src/api/types.js'
import {startOrder} from '../../../src/loop/start-order.js'
import {basePod} from '../../support/pods.js'

function sp(name: string, startAfter: string[] = []): {sp: StaticPod} {
  const p = basePod()
  return {sp: {...p, manifestName: name, ...(startAfter.length > 0 ? {startAfter} : {})}}
}

describe('startOrder', () => {
  it.each<{name: string; pods: {sp: StaticPod}[]; want: string[]}>([
    {name: 'no start-after keeps the given order', pods: [sp('b'), sp('a')], want: ['b', 'a']},
    {name: 'a chain listed backwards comes out forwards', pods: [sp('ctl', ['api']), sp('web'), sp('api', ['etcd']), sp('etcd')], want: ['etcd', 'api', 'ctl', 'web']},
    {name: 'a name outside the set is ignored', pods: [sp('api', ['gone']), sp('etcd')], want: ['api', 'etcd']},
  ])('$name', ({pods, want}) => expect(startOrder(pods).map((t) => t.sp.manifestName)).toEqual(want))
})
