import {describe, expect, it} from 'vitest'
import type {Container, PodSpec} from '../../../src/api/types.js'
import {containerShouldRestart, isContainerRestartable, matchingRestartRule} from '../../../src/pod/restart-policy.js'

type Policy = 'Always' | 'OnFailure' | 'Never'
const rule = (operator: string, values: number[], action = 'Restart') => ({action, exitCodes: {operator, values}})

function containerWith(own?: Policy, rules?: Container['restartPolicyRules']): Container {
  return {name: 'c', image: 'busybox', ...(own ? {restartPolicy: own} : {}), ...(rules ? {restartPolicyRules: rules} : {})}
}
const spec = (pod?: Policy): PodSpec => ({containers: [], ...(pod ? {restartPolicy: pod} : {})})

// The kubelet's TestContainerShouldRestart, row for row in spirit: rules first, then the
// container's restartPolicy, then the pod's.
describe('containerShouldRestart', () => {
  it.each<[string, Policy | undefined, Policy | undefined, Container['restartPolicyRules'], number, boolean]>([
    ['rule In matches', 'Never', 'Never', [rule('In', [42])], 42, true],
    ['rule In does not match → container Never', 'Never', 'Never', [rule('In', [42])], 1, false],
    ['rule NotIn matches', 'Never', 'Never', [rule('NotIn', [0, 1])], 2, true],
    ['rule NotIn does not match', 'Never', 'Never', [rule('NotIn', [0, 1])], 1, false],
    ['second rule matches', 'Never', 'Never', [rule('In', [1]), rule('In', [2])], 2, true],
    ['unknown operator never matches', 'Never', 'Never', [rule('Equals', [3])], 3, false],
    ['unknown action does not restart', 'Never', 'Never', [rule('In', [3], 'Ignore')], 3, false],
    ['rules without a container policy are not read', 'Never', undefined, [rule('In', [42])], 42, false],
    ['container Always', 'Never', 'Always', undefined, 0, true],
    ['container OnFailure, exit 1', 'Never', 'OnFailure', undefined, 1, true],
    ['container OnFailure, exit 0', 'Always', 'OnFailure', undefined, 0, false],
    ['container Never overrides pod Always', 'Always', 'Never', undefined, 1, false],
    ['pod Always', 'Always', undefined, undefined, 0, true],
    ['pod OnFailure, exit 1', 'OnFailure', undefined, undefined, 1, true],
    ['pod OnFailure, exit 0', 'OnFailure', undefined, undefined, 0, false],
    ['pod Never', 'Never', undefined, undefined, 1, false],
    ['no policy at all defaults to Always', undefined, undefined, undefined, 0, true],
  ])('%s', (_name, pod, own, rules, code, want) => {
    expect(containerShouldRestart(containerWith(own, rules), spec(pod), code)).toBe(want)
  })

  it('names the matching rule and its index', () => {
    expect(matchingRestartRule(containerWith('Never', [rule('In', [1]), rule('NotIn', [1])]), 5)?.index).toBe(1)
    expect(matchingRestartRule(containerWith('Never', [rule('In', [1])]), 5)).toBeUndefined()
  })
})

describe('isContainerRestartable', () => {
  it.each<[string, Policy | undefined, Policy | undefined, Container['restartPolicyRules'], boolean]>([
    ['pod Never', 'Never', undefined, undefined, false],
    ['pod OnFailure', 'OnFailure', undefined, undefined, true],
    ['container Never under pod Always', 'Always', 'Never', undefined, false],
    ['container Never with a Restart rule', 'Never', 'Never', [rule('In', [42])], true],
    ['container OnFailure under pod Never', 'Never', 'OnFailure', undefined, true],
  ])('%s', (_name, pod, own, rules, want) => {
    expect(isContainerRestartable(containerWith(own, rules), spec(pod))).toBe(want)
  })
})
