import {describe, expect, it} from 'vitest'
import {validatePod} from '../../../src/manifest/validate.js'
import {podWith, withPath} from './pod-builder.js'

// Container restart policies and rules as the API server accepts them (KEP-5307): each bad shape
// is one field error, so nothing odd reaches the restart decision.
const where = {location: 'pods/web.yaml', document: 0}
const fields = (pod: Record<string, unknown>) => validatePod(pod, where).map((i) => ({field: i.field, message: i.message}))
const R = 'spec.containers[1]'
const rule = (operator: unknown, values: unknown, action: unknown = 'Restart') => ({action, exitCodes: {operator, values}})
const withRules = (rules: unknown, policy: unknown = 'Never') =>
  withPath(withPath(podWith('spec.containers.1.restartPolicyRules', rules), 'spec.containers.1.restartPolicy', policy), 'spec.restartPolicy', 'Never')

describe('validatePod: restartPolicy and restartPolicyRules', () => {
  it.each<[string, Record<string, unknown>]>([
    ['a rule In [42] beside restartPolicy Never', withRules([rule('In', [42])])],
    ['a rule NotIn [0, 1] beside restartPolicy OnFailure', withRules([rule('NotIn', [0, 1])], 'OnFailure')],
    ['restartPolicy on a regular container alone', podWith('spec.containers.1.restartPolicy', 'OnFailure')],
    ['restartPolicy Never on a regular init container', podWith('spec.initContainers', [{name: 'init', image: 'busybox', restartPolicy: 'Never'}])],
    ['rules on a regular init container', podWith('spec.initContainers', [{name: 'init', image: 'busybox', restartPolicy: 'Never', restartPolicyRules: [rule('In', [3])]}])],
    ['action RestartAllContainers (KEP-5532)', withRules([rule('In', [42], 'RestartAllContainers')])],
    ['RestartAllContainers on a sidecar', podWith('spec.initContainers', [{name: 'watch', image: 'busybox', restartPolicy: 'Always', restartPolicyRules: [rule('In', [88], 'RestartAllContainers')]}])],
    ['20 rules', withRules(Array.from({length: 20}, (_, i) => rule('In', [i])))],
    ['255 values', withRules([rule('In', Array.from({length: 255}, (_, i) => i))])],
    ['an empty rule list without a policy', podWith('spec.containers.1.restartPolicyRules', [])],
  ])('accepts %s', (_what, pod) => {
    expect(fields(pod)).toEqual([])
  })

  it.each<[string, Record<string, unknown>, string, string]>([
    ['rules without a restartPolicy', podWith('spec.containers.1.restartPolicyRules', [rule('In', [42])]), `${R}.restartPolicy`,
      'must be set when restartPolicyRules are used (Always, OnFailure or Never: what happens when no rule matches)'],
    ['rules not a list', withRules({action: 'Restart'}), `${R}.restartPolicyRules`, 'must be a list, got object'],
    ['a rule not an object', withRules(['Restart']), `${R}.restartPolicyRules[0]`, 'must be an object, got string'],
    ['21 rules', withRules(Array.from({length: 21}, (_, i) => rule('In', [i]))), `${R}.restartPolicyRules`, 'must have at most 20 rules, got 21'],
    ['action missing', withRules([{exitCodes: {operator: 'In', values: [1]}}]), `${R}.restartPolicyRules[0].action`, 'must be set (Restart or RestartAllContainers)'],
    ['action unknown', withRules([rule('In', [1], 'DoNotRestart')]), `${R}.restartPolicyRules[0].action`, 'must be Restart or RestartAllContainers, got "DoNotRestart"'],
    ['exitCodes missing', withRules([{action: 'Restart'}]), `${R}.restartPolicyRules[0].exitCodes`, 'must be set'],
    ['exitCodes a list', withRules([{action: 'Restart', exitCodes: [42]}]), `${R}.restartPolicyRules[0].exitCodes`, 'must be an object, got list'],
    ['operator missing', withRules([{action: 'Restart', exitCodes: {values: [1]}}]), `${R}.restartPolicyRules[0].exitCodes.operator`, 'must be set (In or NotIn)'],
    ['operator Equals', withRules([rule('Equals', [3])]), `${R}.restartPolicyRules[0].exitCodes.operator`, 'must be one of In, NotIn, got "Equals"'],
    ['values a number', withRules([rule('In', 42)]), `${R}.restartPolicyRules[0].exitCodes.values`, 'must be a list, got integer'],
    ['a value a string', withRules([rule('In', ['42'])]), `${R}.restartPolicyRules[0].exitCodes.values[0]`, 'must be an integer, got "42"'],
    ['a value beyond int32', withRules([rule('In', [2 ** 31])]), `${R}.restartPolicyRules[0].exitCodes.values[0]`, 'must be between -2147483648 and 2147483647, got 2147483648'],
    ['256 values', withRules([rule('In', Array.from({length: 256}, (_, i) => i))]), `${R}.restartPolicyRules[0].exitCodes.values`, 'must have at most 255 values, got 256'],
    ['restartPolicy unknown beside rules', withRules([rule('In', [1])], 'Sometimes'), `${R}.restartPolicy`, 'must be one of Always, OnFailure, Never, got "Sometimes"'],
  ])('%s', (_what, pod, field, message) => {
    expect(fields(pod)).toEqual([{field, message}])
  })
})
