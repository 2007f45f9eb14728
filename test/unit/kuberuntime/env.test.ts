import {describe, expect, it} from 'vitest'
import type {Container, EnvVar} from '../../../src/api/types.js'
import {buildEnv, expand, resourceFieldValue} from '../../../src/kuberuntime/env.js'
import {ConfigError} from '../../../src/kuberuntime/errors.js'
import {createObjectStore} from '../../../src/manifest/object-store.js'
import {makeContainer, podOf, UID} from '../../support/pods.js'

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

  it.each([
    ['status.hostIP', '192.168.1.5'],
    ['status.hostIPs', '192.168.1.5'],
  ])('fieldRef %s → the node IP', (fieldPath, expected) => {
    expect(buildEnv(pod, makeContainer({env: [field('H', fieldPath)]}), {podIP: '10.1.2.3', hostIP: '192.168.1.5'})).toEqual([{key: 'H', value: expected}])
  })

  it('gives a host-network pod the node IP as status.podIP', () => {
    const hostPod = podOf((p) => (p.spec.hostNetwork = true))
    expect(buildEnv(hostPod, makeContainer({env: [field('IP', 'status.podIP')]}), {podIP: '', hostIP: '192.168.1.5'})).toEqual([{key: 'IP', value: '192.168.1.5'}])
  })

  it('refuses a fieldRef it cannot resolve', () => {
    expect(() => env([field('X', 'spec.nope')])).toThrow(ConfigError)
  })
})

describe('buildEnv with ConfigMaps and Secrets', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64')
  const objects = createObjectStore(
    [
      {metadata: {name: 'app', namespace: 'default'}, data: {HOST: 'db', PORT: '5432', '1BAD': 'x', 'ok.dotted': 'y'}, binaryData: {BIN: b64('z')}},
      {metadata: {name: 'app', namespace: 'other'}, data: {HOST: 'elsewhere'}},
    ],
    [{metadata: {name: 'creds', namespace: 'default'}, data: {PASSWORD: b64('s3cr3t')}, stringData: {USER: 'admin'}}],
  )
  const pod = podOf()
  const env = (c: Partial<Container>) => buildEnv(pod, makeContainer(c), {podIP: '10.1.2.3', objects})

  it('envFrom adds every valid key, prefixed, before env; env may use and override them', () => {
    expect(
      env({
        envFrom: [{configMapRef: {name: 'app'}, prefix: 'DB_'}, {secretRef: {name: 'creds'}}],
        env: [
          {name: 'URL', value: 'pg://$(USER):$(PASSWORD)@$(DB_HOST):$(DB_PORT)'},
          {name: 'DB_PORT', value: '6543'},
        ],
      }),
    ).toEqual([
      {key: 'DB_1BAD', value: 'x'},
      {key: 'DB_HOST', value: 'db'},
      {key: 'DB_PORT', value: '6543'},
      {key: 'DB_ok.dotted', value: 'y'},
      {key: 'PASSWORD', value: 's3cr3t'},
      {key: 'USER', value: 'admin'},
      {key: 'URL', value: 'pg://admin:s3cr3t@db:5432'},
    ])
  })

  it('skips envFrom keys that are not valid variable names, and binaryData', () => {
    expect(env({envFrom: [{configMapRef: {name: 'app'}}]}).map((e) => e.key)).toEqual(['HOST', 'PORT', 'ok.dotted'])
  })

  it.each<[string, Partial<Container>, {key: string; value: string}[] | string]>([
    ['configMapKeyRef', {env: [{name: 'H', valueFrom: {configMapKeyRef: {name: 'app', key: 'HOST'}}}]}, [{key: 'H', value: 'db'}]],
    ['secretKeyRef (base64 data)', {env: [{name: 'P', valueFrom: {secretKeyRef: {name: 'creds', key: 'PASSWORD'}}}]}, [{key: 'P', value: 's3cr3t'}]],
    ['secretKeyRef (stringData)', {env: [{name: 'U', valueFrom: {secretKeyRef: {name: 'creds', key: 'USER'}}}]}, [{key: 'U', value: 'admin'}]],
    ['missing configmap', {env: [{name: 'H', valueFrom: {configMapKeyRef: {name: 'gone', key: 'HOST'}}}]}, 'configmap "gone" not found'],
    ['missing secret', {env: [{name: 'H', valueFrom: {secretKeyRef: {name: 'gone', key: 'x'}}}]}, 'secret "gone" not found'],
    ['missing configmap key', {env: [{name: 'H', valueFrom: {configMapKeyRef: {name: 'app', key: 'NOPE'}}}]}, "couldn't find key NOPE in ConfigMap default/app"],
    ['missing secret key', {env: [{name: 'H', valueFrom: {secretKeyRef: {name: 'creds', key: 'NOPE'}}}]}, "couldn't find key NOPE in Secret default/creds"],
    ['missing envFrom configmap', {envFrom: [{configMapRef: {name: 'gone'}}]}, 'configmap "gone" not found'],
    ['missing envFrom secret', {envFrom: [{secretRef: {name: 'gone'}}]}, 'secret "gone" not found'],
    [
      'optional references to missing objects and keys are left out',
      {
        envFrom: [{configMapRef: {name: 'gone', optional: true}}, {secretRef: {name: 'gone', optional: true}}],
        env: [
          {name: 'A', valueFrom: {configMapKeyRef: {name: 'gone', key: 'x', optional: true}}},
          {name: 'B', valueFrom: {configMapKeyRef: {name: 'app', key: 'NOPE', optional: true}}},
          {name: 'C', valueFrom: {secretKeyRef: {name: 'creds', key: 'NOPE', optional: true}}},
          {name: 'OK', value: 'yes'},
        ],
      },
      [{key: 'OK', value: 'yes'}],
    ],
  ])('%s', (_name, c, expected) => {
    if (typeof expected === 'string') {
      expect(() => env(c)).toThrow(ConfigError)
      expect(() => env(c)).toThrow(expected)
    } else {
      expect(env(c)).toEqual(expected)
    }
  })

  it('looks objects up in the pod namespace', () => {
    const other = podOf((p) => (p.metadata.namespace = 'other'))
    expect(buildEnv(other, makeContainer({envFrom: [{configMapRef: {name: 'app'}}]}), {podIP: '', objects})).toEqual([{key: 'HOST', value: 'elsewhere'}])
  })

  it('treats every reference as missing without an object store', () => {
    expect(() => buildEnv(pod, makeContainer({envFrom: [{configMapRef: {name: 'app'}}]}), {podIP: ''})).toThrow('configmap "app" not found')
  })
})

describe('resourceFieldRef', () => {
  const capacity = {cpuMilli: 4000, memoryBytes: 8 * 1024 ** 3}
  const container = makeContainer({resources: {limits: {cpu: '1500m', memory: '256Mi'}, requests: {cpu: '250m'}}})
  const bare = makeContainer()

  it.each<[string, Container, string, string | undefined, string]>([
    ['CPU limit rounds up to whole cores', container, 'limits.cpu', undefined, '2'],
    ['CPU limit in millicores', container, 'limits.cpu', '1m', '1500'],
    ['CPU request', container, 'requests.cpu', '1m', '250'],
    ['memory limit in bytes', container, 'limits.memory', undefined, String(256 * 1024 * 1024)],
    ['memory limit in Mi', container, 'limits.memory', '1Mi', '256'],
    ['memory limit rounds up', container, 'limits.memory', '100Mi', '3'],
    ['memory request defaults to the limit', container, 'requests.memory', '1Mi', '256'],
    ['no CPU limit: the node capacity', bare, 'limits.cpu', undefined, '4'],
    ['no memory limit: the node capacity', bare, 'limits.memory', '1Gi', '8'],
    ['no request and no limit: 0', bare, 'requests.cpu', undefined, '0'],
  ])('%s', (_name, c, resource, divisor, expected) => {
    expect(resourceFieldValue(c, resource, divisor, {podIP: '', nodeCapacity: capacity})).toBe(expected)
  })

  it('resolves through env, also for another container of the pod', () => {
    const pod = podOf((p) => (p.spec.containers = [makeContainer(), makeContainer({name: 'side', resources: {limits: {memory: '1Gi'}}})]))
    const c = makeContainer({
      env: [
        {name: 'CPU', valueFrom: {resourceFieldRef: {resource: 'limits.cpu'}}},
        {name: 'SIDE_MEM', valueFrom: {resourceFieldRef: {containerName: 'side', resource: 'limits.memory', divisor: '1Mi'}}},
      ],
    })
    expect(buildEnv(pod, c, {podIP: '', nodeCapacity: capacity})).toEqual([
      {key: 'CPU', value: '4'},
      {key: 'SIDE_MEM', value: '1024'},
    ])
  })

  it('fails clearly when the limit is unset and the node capacity unknown', () => {
    expect(() => resourceFieldValue(bare, 'limits.memory', undefined, {podIP: ''})).toThrow(/no such limit/)
  })

  it('refuses unsupported resources', () => {
    expect(() => resourceFieldValue(bare, 'limits.gpu', undefined, {podIP: ''})).toThrow(ConfigError)
  })
})
