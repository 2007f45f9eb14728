import {describe, expect, it} from 'vitest'
import type {Pod} from '../../../src/api/types.js'
import {terminationPrerequisites, type Stopping} from '../../../src/pod/termination-order.js'

const pod: Pod = {
  metadata: {name: 'web', namespace: 'default', uid: 'u'},
  spec: {
    initContainers: [
      {name: 'setup', image: 'i'},
      {name: 'proxy', image: 'i', restartPolicy: 'Always'},
      {name: 'log', image: 'i', restartPolicy: 'Always'},
      {name: 'metrics', image: 'i', restartPolicy: 'Always'},
    ],
    containers: [{name: 'app', image: 'i'}, {name: 'worker', image: 'i'}],
  },
}

const s = (name: string): Stopping => ({name, type: 'sidecar'})
const r = (name: string): Stopping => ({name, type: 'regular'})

describe('terminationPrerequisites', () => {
  it.each<[string, Pod | undefined, Stopping[], Record<string, string[]>]>([
    ['no sidecars: nobody waits', {...pod, spec: {containers: pod.spec!.containers}}, [r('app'), r('worker')], {}],
    [
      'each sidecar waits for every main container and the sidecar after it',
      pod, [s('proxy'), s('log'), s('metrics'), r('app'), r('worker')],
      {proxy: ['app', 'worker', 'log'], log: ['app', 'worker', 'metrics'], metrics: ['app', 'worker']},
    ],
    ['a container not being stopped is not waited for', pod, [s('proxy'), s('metrics'), r('app')], {proxy: ['app'], metrics: ['app']}],
    ['only sidecars left: reverse order among themselves', pod, [s('proxy'), s('log')], {proxy: ['log'], log: []}],
    ['the manifest is gone: sidecars wait for the regular containers only', undefined, [s('proxy'), s('log'), r('app')], {proxy: ['app'], log: ['app']}],
  ])('%s', (_name, p, stopping, want) => {
    expect(Object.fromEntries(terminationPrerequisites(p, stopping))).toEqual(want)
  })
})
