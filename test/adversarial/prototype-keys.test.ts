// Keys like `__proto__`, `constructor` and `toString` are ordinary keys everywhere input is
// looked up by key: a missing ConfigMap key stays missing, an unknown config field stays unknown,
// and nothing resolves to a JavaScript built-in.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {buildEnv} from '../../src/kuberuntime/env.js'
import {parseKubeletConfig} from '../../src/node/kubelet-config.js'
import {createObjectStore} from '../../src/manifest/object-store.js'
import {buildManifests} from '../../src/manifest/build.js'
import {admitPod} from '../../src/decide/admission.js'
import {checkHostPath} from '../../src/volumes/prepare.js'
import {nodeHostFs} from '../../src/host/node-host-fs.js'
import {ConfigError} from '../../src/kuberuntime/errors.js'
import type {Pod} from '../../src/api/types.js'
import {kn, makeDirs} from '../e2e/support.js'

const KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']

function envOf(p: Pod, ctx: Parameters<typeof buildEnv>[2]) {
  return buildEnv(p, p.spec!.containers[0]!, ctx)
}

function pod(env: NonNullable<Pod['spec']>['containers'][number]['env']): Pod {
  return {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'p', namespace: 'default', uid: 'u', labels: {}}, spec: {containers: [{name: 'c', image: 'i', ...(env ? {env} : {})}]}}
}

describe('prototype keys are ordinary keys', () => {
  const objects = createObjectStore([{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'cm', namespace: 'default'}, data: {real: 'yes'}}], [])

  it.each(KEYS)('configMapKeyRef key %j is a missing key, not a built-in', (key) => {
    expect(() => envOf(pod([{name: 'X', valueFrom: {configMapKeyRef: {name: 'cm', key}}}]), {podIP: '', objects})).toThrow(ConfigError)
    const optional = envOf(pod([{name: 'X', valueFrom: {configMapKeyRef: {name: 'cm', key, optional: true}}}]), {podIP: '', objects})
    expect(optional.find((e) => e.key === 'X')).toBeUndefined()
  })

  it.each(KEYS)('fieldRef metadata.labels[%j] is empty, not a built-in', (key) => {
    const env = envOf(pod([{name: 'X', valueFrom: {fieldRef: {fieldPath: `metadata.labels['${key}']`}}}]), {podIP: ''})
    expect(env.find((e) => e.key === 'X')?.value).toBe('')
  })

  it.each(KEYS)('a KubeletConfiguration field %j is reported unknown, not a crash', (key) => {
    const parsed = parseKubeletConfig(`apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n${JSON.stringify(key)}: 1\n`, 'c.yaml')
    expect(parsed.unknown).toEqual([key])
  })

  it.each(KEYS)('a label and annotation key %j flows through validation and admission as text', (key) => {
    const text = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {${JSON.stringify(key)}: "v"}\n  annotations: {${JSON.stringify(key)}: "v"}\nspec:\n  nodeSelector: {${JSON.stringify(key)}: "v"}\n  containers: [{name: c, image: busybox}]\n`
    const {pods, issues} = buildManifests([{location: 'p.yaml', source: 'file', text}], {nodeName: 'n'})
    if (key.startsWith('_')) {
      // Not a valid label key in Kubernetes either: a field error, never a crash or a prototype.
      expect(issues.map((i) => i.field)).toEqual([`metadata.labels.${key}`, `metadata.annotations.${key}`])
      return
    }
    expect(issues).toEqual([])
    expect(Object.getPrototypeOf(pods[0]!.pod.metadata.labels)).toBe(Object.prototype)
    const verdict = admitPod(pods[0]!, [], {name: 'n', os: 'linux', labels: {}, capacity: {cpuMilli: 1000, memoryBytes: 1e9, pods: 10}, maxPods: 10})
    expect(verdict).toMatchObject({admit: false, reason: 'NodeAffinity'})
  })

  it.each(KEYS)('hostPath type %j is an unknown type', async (type) => {
    await expect(checkHostPath(nodeHostFs, 'v', '/tmp', type)).rejects.toThrow(/unknown hostPath type/)
  })
})

describe('through the CLI', () => {
  const dirs = makeDirs()
  afterAll(() => dirs.cleanup())
  it('--config with __proto__, constructor and toString keys warns about unknown fields and goes on', async () => {
    const cfg = join(dirs.work, 'config.yaml')
    writeFileSync(cfg, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n__proto__: {maxPods: 1}\nconstructor: 1\ntoString: x\n')
    const file = join(dirs.work, 'ok.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: ok}\nspec: {containers: [{name: c, image: busybox}]}\n')
    const r = await kn(dirs, ['validate', '-f', file, '--config', cfg])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/Ignoring KubeletConfiguration fields.*__proto__,constructor,toString/)
  })
})
