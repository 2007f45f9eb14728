// Validation of a decoded Pod: collects every issue of the document with its exact field path
// and never throws, whatever JSON it is given. Pure.
import type {FieldIssue} from '../util/errors.js'
import {
  checkBoolean, checkEnum, checkStringList, checkStringMap, getInteger, getItem, getList, getObject, getString,
  isObject, nested, show, typeName, type Report,
} from '../util/check.js'
import {unsupported} from '../util/unsupported.js'
import {dnsLabelError} from './names.js'
import {emptyDirVolumeNames, validateContainer, validateQuantities, validateResources} from './validate-container.js'
import {validateMetadata} from './validate-meta.js'
import {validatePodResources} from './validate-pod-resources.js'
import {validateRuntimeFields} from './validate-runtime-fields.js'
import {withShapeIssues} from './shape-check.js'
import {validateVolumes} from './validate-volume.js'
import {issueAt, type DocumentRef} from './where.js'

export interface ValidateOptions {
  /** When known, also checks that `<name>-<node>` is a valid name. */
  nodeName?: string
}

export function validatePod(pod: unknown, where: DocumentRef, opts: ValidateOptions = {}): FieldIssue[] {
  const issues: FieldIssue[] = []
  const report: Report = (field, message) => issues.push(issueAt(where, field, message))
  if (!isObject(pod)) {
    report('', `must be a Pod object, got ${typeName(pod)}`)
    return issues
  }
  validateMetadata(report, pod['metadata'], opts.nodeName === undefined ? {} : {nodeName: opts.nodeName})
  if (pod['spec'] === undefined || pod['spec'] === null) report('spec', 'must be set')
  else {
    const spec = getObject(report, 'spec', pod['spec'])
    if (spec) validateSpec(nested(report, 'spec'), spec)
  }
  validateRuntimeFields(report, pod)
  // Every other value's JSON type, as the kubelet's decoding checks it: nothing later meets a shape it
  // does not expect.
  return withShapeIssues(issues, 'Pod', pod, where)
}

const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']

function validateSpec(report: Report, spec: Record<string, unknown>): void {
  const volumeNames = validateVolumes(report, spec['volumes'])
  checkBoolean(report, 'hostNetwork', spec['hostNetwork'])
  checkBoolean(report, 'hostPID', spec['hostPID'])
  checkBoolean(report, 'hostIPC', spec['hostIPC'])
  checkBoolean(report, 'shareProcessNamespace', spec['shareProcessNamespace'])
  checkBoolean(report, 'enableServiceLinks', spec['enableServiceLinks'])
  checkBoolean(report, 'automountServiceAccountToken', spec['automountServiceAccountToken'])
  const hostNetwork = spec['hostNetwork'] === true

  const containers = getList(report, 'containers', spec['containers'])
  if (!containers || containers.length === 0) {
    if (spec['containers'] === undefined || spec['containers'] === null || containers?.length === 0) {
      report('containers', 'must have at least one container')
    }
  }
  const initContainers = getList(report, 'initContainers', spec['initContainers'])
  // Names must be unique across containers and init containers: they key the runtime's containers.
  const seen = new Map<string, string>()
  const emptyDirNames = emptyDirVolumeNames(spec['volumes'])
  const each = (list: unknown[] | undefined, field: string, kind: 'container' | 'initContainer'): void => {
    list?.forEach((c, i) => {
      const path = `${field}[${i}]`
      validateContainer(nested(report, path), c, {kind, volumeNames, hostNetwork, emptyDirNames})
      const name = isObject(c) ? c['name'] : undefined
      if (typeof name !== 'string' || name === '') return
      const first = seen.get(name)
      if (first !== undefined) report(`${path}.name`, `must be unique: "${name}" is also the name of spec.${first}`)
      else seen.set(name, path)
    })
  }
  each(initContainers, 'initContainers', 'initContainer')
  each(containers, 'containers', 'container')
  if (spec['ephemeralContainers'] !== undefined) report('ephemeralContainers', unsupported('ephemeralContainers'))

  checkEnum(report, 'restartPolicy', spec['restartPolicy'], ['Always', 'OnFailure', 'Never'])
  getInteger(report, 'terminationGracePeriodSeconds', spec['terminationGracePeriodSeconds'], 0)
  getInteger(report, 'activeDeadlineSeconds', spec['activeDeadlineSeconds'], 1)
  checkEnum(report, 'dnsPolicy', spec['dnsPolicy'], DNS_POLICIES)
  validateDnsConfig(report, spec['dnsConfig'])
  if (spec['dnsPolicy'] === 'None' && (spec['dnsConfig'] === undefined || spec['dnsConfig'] === null)) {
    report('dnsConfig', 'must be set when dnsPolicy is None')
  }
  for (const f of ['hostname', 'subdomain'] as const) {
    const v = getString(report, f, spec[f])
    if (v) {
      const err = dnsLabelError(v)
      if (err) report(f, err)
    }
  }
  checkBoolean(report, 'setHostnameAsFQDN', spec['setHostnameAsFQDN'])
  getList(report, 'hostAliases', spec['hostAliases'])?.forEach((a, i) => {
    const alias = getItem(report, `hostAliases[${i}]`, a)
    if (!alias) return
    if (!getString(report, `hostAliases[${i}].ip`, alias['ip'])) report(`hostAliases[${i}].ip`, 'must be set')
    checkStringList(report, `hostAliases[${i}].hostnames`, alias['hostnames'])
  })
  getString(report, 'nodeName', spec['nodeName'])
  checkStringMap(report, 'nodeSelector', spec['nodeSelector'])
  if (getString(report, 'runtimeClassName', spec['runtimeClassName'])) report('runtimeClassName', unsupported('runtimeClassName'))
  if (getString(report, 'hostnameOverride', spec['hostnameOverride'])) report('hostnameOverride', unsupported('hostnameOverride'))
  getString(report, 'priorityClassName', spec['priorityClassName'])
  getString(report, 'schedulerName', spec['schedulerName'])
  getList(report, 'tolerations', spec['tolerations'])?.forEach((t, i) => getItem(report, `tolerations[${i}]`, t))
  validatePodSecurityContext(report, spec['securityContext'])
  validateNodeAffinity(report, spec['affinity'])
  // Pod-level resources and the overhead are quantities too: one that does not parse makes the
  // kubelet refuse the manifest (and admission adds the overhead to the pod's requests).
  validateResources(report, spec['resources'])
  validatePodResources(report, spec)
  validateQuantities(report, 'overhead', spec['overhead'])

  // The kubelet rejects API-object references in static pods (KUBELET.md §1.3); kube-node has no
  // API server to resolve them.
  for (const f of ['serviceAccountName', 'serviceAccount'] as const) {
    const sa = getString(report, f, spec[f])
    if (sa && sa !== 'default') report(f, `${unsupported(f)}; only "default" is allowed, got ${show(sa)}`)
  }
  if (spec['resourceClaims'] !== undefined) report('resourceClaims', unsupported('resourceClaims'))
}

function validateDnsConfig(report: Report, v: unknown): void {
  const cfg = getObject(report, 'dnsConfig', v)
  if (!cfg) return
  const ns = getList(report, 'dnsConfig.nameservers', cfg['nameservers'])
  checkStringList(report, 'dnsConfig.nameservers', ns)
  if (ns && ns.length > 3) report('dnsConfig.nameservers', `must have at most 3 entries, got ${ns.length}`)
  const searches = getList(report, 'dnsConfig.searches', cfg['searches'])
  checkStringList(report, 'dnsConfig.searches', searches)
  if (searches && searches.length > 32) report('dnsConfig.searches', `must have at most 32 entries, got ${searches.length}`)
  getList(report, 'dnsConfig.options', cfg['options'])?.forEach((o, i) => {
    const opt = getItem(report, `dnsConfig.options[${i}]`, o)
    if (!opt) return
    if (!getString(report, `dnsConfig.options[${i}].name`, opt['name'])) report(`dnsConfig.options[${i}].name`, 'must be set')
    getString(report, `dnsConfig.options[${i}].value`, opt['value'])
  })
}

function validatePodSecurityContext(report: Report, v: unknown): void {
  const sc = getObject(report, 'securityContext', v)
  if (!sc) return
  const r = nested(report, 'securityContext')
  getInteger(r, 'runAsUser', sc['runAsUser'], 0, 2147483647)
  getInteger(r, 'runAsGroup', sc['runAsGroup'], 0, 2147483647)
  getInteger(r, 'fsGroup', sc['fsGroup'], 0, 2147483647)
  checkEnum(r, 'fsGroupChangePolicy', sc['fsGroupChangePolicy'], ['OnRootMismatch', 'Always'])
  checkBoolean(r, 'runAsNonRoot', sc['runAsNonRoot'])
  getList(r, 'supplementalGroups', sc['supplementalGroups'])?.forEach((g, i) => getInteger(r, `supplementalGroups[${i}]`, g, 0, 4294967295))
  getList(r, 'sysctls', sc['sysctls'])?.forEach((s, i) => {
    const sysctl = getItem(r, `sysctls[${i}]`, s)
    if (!sysctl) return
    if (!getString(r, `sysctls[${i}].name`, sysctl['name'])) r(`sysctls[${i}].name`, 'must be set')
    getString(r, `sysctls[${i}].value`, sysctl['value'])
  })
}

const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']

/**
 * The node affinity admission reads (the kubelet admits static pods against the node's labels):
 * every shape it relies on is checked here, so admission never meets a list where it expects an
 * object. Preferred terms and pod (anti-)affinity are scheduling-only and only need to be objects.
 */
function validateNodeAffinity(report: Report, v: unknown): void {
  const affinity = getObject(report, 'affinity', v)
  if (!affinity) return
  const na = getObject(report, 'affinity.nodeAffinity', affinity['nodeAffinity'])
  getObject(report, 'affinity.podAffinity', affinity['podAffinity'])
  getObject(report, 'affinity.podAntiAffinity', affinity['podAntiAffinity'])
  if (!na) return
  getList(report, 'affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution', na['preferredDuringSchedulingIgnoredDuringExecution'])
  const f = 'affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution'
  const required = getObject(report, f, na['requiredDuringSchedulingIgnoredDuringExecution'])
  if (!required) return
  const terms = getList(report, `${f}.nodeSelectorTerms`, required['nodeSelectorTerms'])
  if (!terms) {
    report(`${f}.nodeSelectorTerms`, 'must be set')
    return
  }
  terms.forEach((t, i) => {
    const tf = `${f}.nodeSelectorTerms[${i}]`
    const term = getItem(report, tf, t)
    if (!term) return
    for (const kind of ['matchExpressions', 'matchFields'] as const) {
      getList(report, `${tf}.${kind}`, term[kind])?.forEach((e, j) => {
        const ef = `${tf}.${kind}[${j}]`
        const expr = getItem(report, ef, e)
        if (!expr) return
        if (!getString(report, `${ef}.key`, expr['key'])) report(`${ef}.key`, 'must be set')
        if (expr['operator'] === undefined || expr['operator'] === null) report(`${ef}.operator`, 'must be set')
        checkEnum(report, `${ef}.operator`, expr['operator'], SELECTOR_OPERATORS)
        checkStringList(report, `${ef}.values`, expr['values'])
      })
    }
  })
}
