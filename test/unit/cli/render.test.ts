// What users and scripts read from kube-node's stdout (CLI.md "Output"): kubectl-style STATUS
// text, plain tables without escape codes when colour is off, `-o name`, a v1 PodList for JSON,
// and the exit codes decided in one place.
import {describe, expect, it} from 'vitest'
import {podStatusText} from '../../../src/cli/render/pod-row.js'
import {humanDuration} from '../../../src/util/human-duration.js'
import {renderPodOutput, renderPods} from '../../../src/cli/render/pods.js'
import {parseOutput} from '../../../src/cli/output-flag.js'
import {describeError, exitCodeFor} from '../../../src/cli/exit-codes.js'
import {CriError, InvalidInputError, NotFoundError, PodFailedError} from '../../../src/util/errors.js'
import type {Pod, PodStatus} from '../../../src/api/types.js'

const NOW = Date.parse('2026-11-21T12:00:00Z')

function pod(name: string, status: PodStatus, init = 0): Pod {
  return {
    metadata: {name, namespace: 'default'},
    spec: {nodeName: 'n1', containers: [{name: 'c', image: 'i'}], ...(init ? {initContainers: Array.from({length: init}, (_, i) => ({name: `i${i}`, image: 'i'}))} : {})},
    status,
  }
}
const cs = (state: object, extra: object = {}) => ({name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state, ...extra})

describe('STATUS column', () => {
  it.each<[string, Pod, string]>([
    ['running', pod('a', {phase: 'Running', containerStatuses: [cs({running: {}}, {ready: true})]}), 'Running'],
    ['image pull error', pod('a', {phase: 'Pending', containerStatuses: [cs({waiting: {reason: 'ErrImagePull'}})]}), 'ErrImagePull'],
    ['crash loop', pod('a', {phase: 'Running', containerStatuses: [cs({waiting: {reason: 'CrashLoopBackOff'}})]}), 'CrashLoopBackOff'],
    ['completed', pod('a', {phase: 'Succeeded', containerStatuses: [cs({terminated: {exitCode: 0, reason: 'Completed'}})]}), 'Completed'],
    ['exit code without a reason', pod('a', {phase: 'Failed', containerStatuses: [cs({terminated: {exitCode: 3}})]}), 'ExitCode:3'],
    ['second of two init containers', pod('a', {phase: 'Pending', initContainerStatuses: [{...cs({terminated: {exitCode: 0}}), name: 'i0'}, {...cs({running: {}}), name: 'i1'}]}, 2), 'Init:1/2'],
    ['rejected by admission', pod('a', {phase: 'Failed', reason: 'NodePorts'}), 'NodePorts'],
  ])('%s', (_name, p, want) => expect(podStatusText(p)).toBe(want))
})

describe('renderPods', () => {
  const items = [pod('web-n1', {phase: 'Running', podIP: '10.0.0.2', startTime: '2026-11-21T11:58:00Z', containerStatuses: [cs({running: {}}, {ready: true, restartCount: 2})]})]

  it('prints a plain kubectl-style table with no escape codes when colour is off', () => {
    const text = renderPods(items, 'table', false, NOW)
    expect(text).toBe('NAME     READY   STATUS    RESTARTS   AGE\nweb-n1   1/1     Running   2          2m\n')
    expect(renderPods(items, 'wide', false, NOW)).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE +IP +NODE +NOMINATED NODE +READINESS GATES$/m)
    expect(renderPods(items, 'wide', false, NOW)).toMatch(/^web-n1 +1\/1 +Running +2 +2m +10\.0\.0\.2 +n1 +<none> +<none>$/m)
  })

  it("prints RESTARTS with the time of the newest restart, and AGE in kubectl's human format", () => {
    const restarted = [pod('web-n1', {phase: 'Running', startTime: '2026-11-21T11:54:11Z', containerStatuses: [cs({running: {}}, {ready: true, restartCount: 2, lastState: {terminated: {exitCode: 1, finishedAt: '2026-11-21T11:55:00Z'}}})]})]
    expect(renderPods(restarted, 'table', false, NOW)).toMatch(/^web-n1 +1\/1 +Running +2 \(5m ago\) +5m49s$/m)
  })

  it.each<[number, string]>([
    [45_000, '45s'],
    [349_000, '5m49s'],
    [600_000, '10m'],
    [3 * 3_600_000 + 600_000, '3h10m'],
    [9 * 3_600_000, '9h'],
    [3 * 86_400_000 + 3_600_000, '3d1h'],
    [40 * 86_400_000, '40d'],
    [800 * 86_400_000, '2y70d'],
  ])('humanDuration(%d) is %s, as kubectl prints ages', (ms, text) => {
    expect(humanDuration(ms)).toBe(text)
  })

  it('prints pod/NAME for -o name and a v1 PodList for -o json', () => {
    expect(renderPods(items, 'name', false, NOW)).toBe('pod/web-n1\n')
    expect(JSON.parse(renderPods(items, 'json', false, NOW))).toMatchObject({apiVersion: 'v1', kind: 'PodList', items: [{metadata: {name: 'web-n1'}}]})
  })
})

describe('exit codes and error sentences', () => {
  it.each<[string, unknown, number]>([
    ['invalid input', new InvalidInputError('bad'), 2],
    ['a failed pod', new PodFailedError('pod failed'), 1],
    ['not found', new NotFoundError('pod "x" not found'), 1],
    ['a runtime error', new CriError('RunPodSandbox', 'Unavailable', 'down'), 1],
    ['an unexpected error', new Error('boom'), 1],
  ])('%s → exit %s', (_name, err, code) => expect(exitCodeFor(err)).toBe(code))

  it('lists every manifest problem on its own line', () => {
    const err = new InvalidInputError([
      {location: 'a.yaml', document: 0, field: 'spec.containers[0].image', message: 'must be set'},
      {location: 'b.yaml', document: 1, field: 'metadata.name', message: 'must be set'},
    ])
    expect(describeError(err)).toBe(
      '2 problems in the manifests:\n  a.yaml, document 0, field spec.containers[0].image: must be set\n  b.yaml, document 1, field metadata.name: must be set',
    )
  })
})

describe('NAMESPACE column and one Pod by name', () => {
  const a: Pod = {apiVersion: 'v1', kind: 'Pod', ...pod('dup-n1', {phase: 'Running'})}
  const b = {...pod('dup-n1', {phase: 'Pending'}), metadata: {name: 'dup-n1', namespace: 'kube-system'}}

  it('pods of the same name in two namespaces are told apart by a NAMESPACE column', () => {
    const text = renderPods([a, b], 'table', false, NOW, {namespaceColumn: true})
    expect(text).toMatch(/^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE$/m)
    expect(text).toMatch(/^default +dup-n1 +0\/1 +Running/m)
    expect(text).toMatch(/^kube-system +dup-n1 +0\/1 +Pending/m)
    expect(renderPods([a, b], 'wide', false, NOW, {namespaceColumn: true})).toMatch(/^NAMESPACE +NAME +READY .* READINESS GATES$/m)
  })

  it('-o json|yaml of one named pod is the Pod, of a listing a PodList', () => {
    const spec = parseOutput('json', ['table', 'json', 'yaml'], true)
    expect(JSON.parse(renderPodOutput([a], spec, false, NOW, {single: true}))).toMatchObject({kind: 'Pod', status: {phase: 'Running'}})
    expect(JSON.parse(renderPodOutput([a], spec, false, NOW))).toMatchObject({kind: 'PodList'})
    expect(renderPodOutput([a], parseOutput('yaml', ['table', 'json', 'yaml'], true), false, NOW, {single: true})).toMatch(/^kind: Pod$/m)
  })

  it('-o jsonpath and custom-columns', () => {
    expect(renderPodOutput([a, b], parseOutput('jsonpath={.items[*].metadata.namespace}', ['table'], true), false, NOW)).toBe('default kube-system')
    expect(renderPodOutput([a], parseOutput('jsonpath={.status.phase}', ['table'], true), false, NOW, {single: true})).toBe('Running')
    expect(renderPodOutput([a, b], parseOutput('custom-columns=NS:.metadata.namespace,PHASE:.status.phase', ['table'], true), false, NOW)).toBe('NS            PHASE\ndefault       Running\nkube-system   Pending\n')
  })

  it('refuses an unknown format naming the ones it knows', () => {
    expect(() => parseOutput('xml', ['table', 'json'], true)).toThrow('"xml" is not an output format; use one of table, json, jsonpath=TEMPLATE, custom-columns=SPEC')
  })
})
