import {describe, expect, it} from 'vitest'
import type {EnvVar} from '../../../src/api/types.js'
import {buildEnv, expand} from '../../../src/kuberuntime/env.js'
import {makeContainer, podOf, UID} from './pod-builder.js'

describe('expand', () => {
  const vars = new Map([
    ['HOST', 'db'],
    ['PORT', '5432'],
    ['EMPTY', ''],
  ])
  const lookup = (n: string) => vars.get(n)

  it.each([
    ['$(HOST):$(PORT)', 'db:5432'],
    ['$(MISSING)', '$(MISSING)'],
    ['$$(HOST)', '$(HOST)'],
    ['$$$(HOST)', '$db'],
    ['cost: $$5', 'cost: $5'],
    ['$HOST', '$HOST'],
    ['trailing $', 'trailing $'],
    ['$(HOST', '$(HOST'],
    ['x$(EMPTY)y', 'xy'],
    ['$()', '$()'],
    ['no refs', 'no refs'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(expand(input, lookup)).toBe(expected)
  })
})

describe('buildEnv', () => {
  const pod = podOf((p) => {
    p.metadata.labels = {app: 'web', 'tier.example/role': 'front'}
    p.metadata.annotations = {owner: 'ops'}
  })
  const env = (vars: EnvVar[], podIP = '10.1.2.3') => buildEnv(pod, makeContainer({env: vars}), {podIP})
  const field = (name: string, fieldPath: string): EnvVar => ({name, valueFrom: {fieldRef: {fieldPath}}})

  it('keeps spec order and expands references to earlier entries only', () => {
    expect(
      env([
        {name: 'A', value: 'a'},
        {name: 'B', value: '$(A)-$(C)'},
        {name: 'C', value: 'c'},
        {name: 'D', value: '$$(A)'},
      ]),
    ).toEqual([
      {key: 'A', value: 'a'},
      {key: 'B', value: 'a-$(C)'},
      {key: 'C', value: 'c'},
      {key: 'D', value: '$(A)'},
    ])
  })

  it('gives a variable without value an empty value', () => {
    expect(env([{name: 'E'}])).toEqual([{key: 'E', value: ''}])
  })

  it('keeps the first position and the last value of a repeated name', () => {
    expect(
      env([
        {name: 'A', value: '1'},
        {name: 'B', value: '2'},
        {name: 'A', value: '3'},
      ]),
    ).toEqual([
      {key: 'A', value: '3'},
      {key: 'B', value: '2'},
    ])
  })

  it.each([
    ['metadata.name', 'web-node1'],
    ['metadata.namespace', 'default'],
    ['metadata.uid', UID],
    ['spec.nodeName', 'node1'],
    ['status.podIP', '10.1.2.3'],
    ["metadata.labels['app']", 'web'],
    ["metadata.labels['tier.example/role']", 'front'],
    ['metadata.labels["missing"]', ''],
    ["metadata.annotations['owner']", 'ops'],
  ])('fieldRef %s → %j', (fieldPath, expected) => {
    expect(env([field('V', fieldPath)])).toEqual([{key: 'V', value: expected}])
  })

  it('lets later values refer to fieldRef values', () => {
    expect(env([field('IP', 'status.podIP'), {name: 'URL', value: 'http://$(IP):80'}])).toContainEqual({
      key: 'URL',
      value: 'http://10.1.2.3:80',
    })
  })

  it('leaves out sources not supported yet instead of failing', () => {
    expect(
      env([
        {name: 'S', valueFrom: {secretKeyRef: {name: 's', key: 'k'}}},
        {name: 'C', valueFrom: {configMapKeyRef: {name: 'c', key: 'k'}}},
        {name: 'R', valueFrom: {resourceFieldRef: {resource: 'limits.cpu'}}},
        field('H', 'status.hostIP'),
        {name: 'OK', value: 'yes'},
      ]),
    ).toEqual([{key: 'OK', value: 'yes'}])
  })
})
