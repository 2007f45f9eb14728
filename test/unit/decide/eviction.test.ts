import {describe, expect, it} from 'vitest'
import type {PodSpec, Volume} from '../../../src/api/types.js'
import {emptyDirEviction, emptyDirLimits} from '../../../src/decide/eviction.js'

const MI = 1024 * 1024

function spec(volumes: Volume[]): PodSpec {
  return {containers: [{name: 'main', image: 'busybox'}], volumes}
}

describe('emptyDirLimits', () => {
  it.each<{name: string; volumes: Volume[]; want: {name: string; limitBytes: number; limit: string}[]}>([
    {name: 'no volumes', volumes: [], want: []},
    {name: 'an emptyDir without a limit is never measured', volumes: [{name: 'a', emptyDir: {}}], want: []},
    {name: 'an emptyDir on disk with a limit', volumes: [{name: 'a', emptyDir: {sizeLimit: '1Mi'}}], want: [{name: 'a', limitBytes: MI, limit: '1Mi'}]},
    {name: 'a Memory emptyDir is a sized tmpfs: the kernel enforces it', volumes: [{name: 'a', emptyDir: {medium: 'Memory', sizeLimit: '1Mi'}}], want: []},
    {name: 'a zero limit is no limit (the kubelet checks size.Sign() == 1)', volumes: [{name: 'a', emptyDir: {sizeLimit: '0'}}], want: []},
    {name: 'a plain number of bytes', volumes: [{name: 'a', emptyDir: {sizeLimit: '4096'}}], want: [{name: 'a', limitBytes: 4096, limit: '4096'}]},
    {name: 'other kinds are skipped', volumes: [{name: 'h', hostPath: {path: '/tmp'}}, {name: 'a', emptyDir: {sizeLimit: '2k'}}], want: [{name: 'a', limitBytes: 2000, limit: '2k'}]},
  ])('$name', ({volumes, want}) => {
    expect(emptyDirLimits(spec(volumes))).toEqual(want)
  })
})

describe('emptyDirEviction', () => {
  const limits = emptyDirLimits(spec([{name: 'cache', emptyDir: {sizeLimit: '1Mi'}}, {name: 'scratch', emptyDir: {sizeLimit: '2Mi'}}]))
  it.each<{name: string; used: [string, number][]; want: string | undefined}>([
    {name: 'nothing measured → no eviction', used: [], want: undefined},
    {name: 'under the limit', used: [['cache', MI - 1]], want: undefined},
    {name: 'exactly at the limit is allowed (the kubelet evicts only above it)', used: [['cache', MI]], want: undefined},
    {name: 'one byte over', used: [['cache', MI + 1]], want: 'Usage of EmptyDir volume "cache" exceeds the limit "1Mi".'},
    {name: 'the second volume over its own limit', used: [['cache', 10], ['scratch', 3 * MI]], want: 'Usage of EmptyDir volume "scratch" exceeds the limit "2Mi".'},
    {name: 'both over: the first in spec order names the message', used: [['scratch', 3 * MI], ['cache', 3 * MI]], want: 'Usage of EmptyDir volume "cache" exceeds the limit "1Mi".'},
    {name: 'a volume measured but not limited never evicts', used: [['other', 100 * MI]], want: undefined},
  ])('$name', ({used, want}) => {
    const got = emptyDirEviction(limits, new Map(used))
    expect(got?.message).toBe(want)
    if (want) expect(got?.reason).toBe('Evicted')
  })
})
