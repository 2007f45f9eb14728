import {describe, expect, it} from 'vitest'
import {validatePod} from '../../../src/manifest/validate.js'
import {podWith, withPath} from './pod-builder.js'
import {POD_LIMITS_REFUSAL} from '../../../src/manifest/validate-pod-resources.js'

// Pod-level resources: requests are honoured (admission, QoS), limits refused with the reason.
const where = {location: 'pods/web.yaml', document: 0}
const fields = (pod: Record<string, unknown>) => validatePod(pod, where).map((i) => ({field: i.field, message: i.message}))

describe('validatePod: spec.resources (pod-level)', () => {
  it.each<[string, Record<string, unknown>]>([
    ['cpu and memory requests', podWith('spec.resources', {requests: {cpu: '1', memory: '1Gi'}})],
    ['a request equal to the containers\' sum', withPath(podWith('spec.resources', {requests: {cpu: '1'}}), 'spec.containers.0.resources', {requests: {cpu: '1'}})],
    ['hugepages requests', podWith('spec.resources', {requests: {'hugepages-2Mi': '4Mi'}})],
  ])('accepts %s', (_what, pod) => expect(fields(pod)).toEqual([]))

  it.each<[string, Record<string, unknown>, string, string]>([
    ['any pod-level limit', podWith('spec.resources', {limits: {memory: '1Gi'}}), 'spec.resources.limits', POD_LIMITS_REFUSAL],
    ['an unsupported resource', podWith('spec.resources', {requests: {'example.org/gpu': '1'}}), 'spec.resources.requests["example.org/gpu"]',
      'must be cpu, memory or hugepages-<size>: pod-level resources support no other, got "example.org/gpu"'],
    ['a request below the containers\' sum', withPath(podWith('spec.resources', {requests: {memory: '64Mi'}}), 'spec.containers.0.resources', {limits: {memory: '128Mi'}}),
      'spec.resources.requests.memory', 'must be at least the sum of the containers\' memory requests (64Mi is less)'],
  ])('%s', (_what, pod, field, message) => expect(fields(pod)).toEqual([{field, message}]))
})
