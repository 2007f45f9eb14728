import {describe, expect, it} from 'vitest'
import {AmbiguousPodError, parsePodRef, podSelected, resolveOne} from '../../../../src/services/query/pod-query.js'
import {InvalidInputError, NotFoundError} from '../../../../src/util/errors.js'
import {parseLabelSelector} from '../../../../src/services/query/selectors.js'

describe('pod names as kubectl users write them', () => {
  it.each([
    ['web', undefined, {name: 'web', namespace: undefined}],
    ['web', 'prod', {name: 'web', namespace: 'prod'}],
    ['pod/web', undefined, {name: 'web', namespace: undefined}],
    ['pods/web', 'prod', {name: 'web', namespace: 'prod'}],
    ['po/web', undefined, {name: 'web', namespace: undefined}],
    ['kube-system/etcd', undefined, {name: 'etcd', namespace: 'kube-system'}],
    ['pod/kube-system/etcd', 'kube-system', {name: 'etcd', namespace: 'kube-system'}],
  ])('%s with -n %s', (text, ns, expected) => {
    expect(parsePodRef(text, ns)).toEqual(expected)
  })

  it.each([['a/b/c'], ['/web'], ['web/'], ['pod/']])('refuses %s', (text) => {
    expect(() => parsePodRef(text)).toThrow(InvalidInputError)
  })

  it('refuses a namespace in the name that -n contradicts', () => {
    expect(() => parsePodRef('kube-system/etcd', 'default')).toThrow(/names namespace "kube-system" but -n says "default"/)
  })
})

describe('resolving a name to one pod', () => {
  const pods = [
    {name: 'dup-n1', namespace: 'default', manifestName: 'dup'},
    {name: 'dup-n1', namespace: 'kube-system', manifestName: 'dup'},
    {name: 'web-n1', namespace: 'default', manifestName: 'web'},
  ]

  it('finds a pod by manifest name or full name', () => {
    expect(resolveOne(pods, {name: 'web'})).toBe(pods[2])
    expect(resolveOne(pods, {name: 'web-n1'})).toBe(pods[2])
  })

  it('a name in several namespaces without -n is an error listing them', () => {
    expect(() => resolveOne(pods, {name: 'dup'})).toThrow(AmbiguousPodError)
    expect(() => resolveOne(pods, {name: 'dup'})).toThrow('pod "dup" exists in namespaces default, kube-system; choose one with -n NAMESPACE or NAMESPACE/dup')
  })

  it('a namespace makes it one', () => {
    expect(resolveOne(pods, {name: 'dup', namespace: 'kube-system'})).toBe(pods[1])
  })

  it('not found names the namespace it looked in', () => {
    expect(() => resolveOne(pods, {name: 'web', namespace: 'kube-system'})).toThrow(new NotFoundError('pod "web" not found in namespace "kube-system"'))
    expect(() => resolveOne(pods, {name: 'nope'})).toThrow('pod "nope" not found')
  })
})

describe('which pods a query selects', () => {
  const pod = {metadata: {name: 'web-n1', namespace: 'prod', labels: {app: 'web'}}, spec: {containers: []}, status: {phase: 'Running'}}
  it.each([
    [{}, true],
    [{namespace: 'prod'}, true],
    [{namespace: 'default'}, false],
    [{labels: parseLabelSelector('app=web')}, true],
    [{labels: parseLabelSelector('app=db')}, false],
    [{fields: [{field: 'status.phase', op: 'eq' as const, value: 'Pending'}]}, false],
  ])('%j: %s', (q, expected) => {
    expect(podSelected(pod, q)).toBe(expected)
  })
})
