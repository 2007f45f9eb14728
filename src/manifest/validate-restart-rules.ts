// Validation of a container's own restart policy and restart rules (KEP-5307, ContainerRestartRules,
// on by default since Kubernetes 1.35), with the API server's shapes: a regular container or a
// regular init container may carry restartPolicy Always, OnFailure or Never; rules need a
// restartPolicy beside them, at most 20 of them, each with action Restart (this container) or
// RestartAllContainers (KEP-5532: the whole pod, in place) and an exit-code condition (In or NotIn,
// at most 255 int32 values). The decisions are in pod/restart-policy.ts.
// Pure.
import {checkEnum, getInteger, getItem, getList, getObject, getString, show, type JsonObject, type Report} from '../util/check.js'

const POLICIES = ['Always', 'OnFailure', 'Never'] as const
const MAX_RULES = 20
const MAX_VALUES = 255
const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

/** `report` is already prefixed with the container's path; `c` is the container object. */
export function validateRestartRules(report: Report, c: JsonObject): void {
  checkEnum(report, 'restartPolicy', c['restartPolicy'], POLICIES)
  const rules = getList(report, 'restartPolicyRules', c['restartPolicyRules'])
  if (rules === undefined || rules.length === 0) return
  // The kubelet reads the rules only beside a container-level policy; without it they would be dropped.
  if (c['restartPolicy'] === undefined || c['restartPolicy'] === null) {
    report('restartPolicy', 'must be set when restartPolicyRules are used (Always, OnFailure or Never: what happens when no rule matches)')
  }
  if (rules.length > MAX_RULES) report('restartPolicyRules', `must have at most ${MAX_RULES} rules, got ${rules.length}`)
  rules.forEach((item, i) => {
    const f = `restartPolicyRules[${i}]`
    const rule = getItem(report, f, item)
    if (!rule) return
    const action = getString(report, `${f}.action`, rule['action'])
    if (action === undefined) report(`${f}.action`, 'must be set (Restart or RestartAllContainers)')
    else if (action !== 'Restart' && action !== 'RestartAllContainers') report(`${f}.action`, `must be Restart or RestartAllContainers, got ${show(action)}`)
    const codes = getObject(report, `${f}.exitCodes`, rule['exitCodes'])
    if (!codes) {
      if (rule['exitCodes'] === undefined || rule['exitCodes'] === null) report(`${f}.exitCodes`, 'must be set')
      return
    }
    const operator = codes['operator']
    if (operator === undefined || operator === null) report(`${f}.exitCodes.operator`, 'must be set (In or NotIn)')
    else checkEnum(report, `${f}.exitCodes.operator`, operator, ['In', 'NotIn'])
    const values = getList(report, `${f}.exitCodes.values`, codes['values'])
    if (values === undefined) return
    if (values.length > MAX_VALUES) report(`${f}.exitCodes.values`, `must have at most ${MAX_VALUES} values, got ${values.length}`)
    values.forEach((v, j) => getInteger(report, `${f}.exitCodes.values[${j}]`, v, INT32_MIN, INT32_MAX))
  })
}
