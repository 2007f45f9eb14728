// Validation of one container or init container. Pure.
import {
  checkBoolean, checkEnum, checkStringList, getInteger, getItem, getList, getObject, getString, isObject, nested, show,
  type JsonObject, type Report,
} from '../util/check.js'
import {unsupported} from '../util/unsupported.js'
import {parseImageRef} from './image-ref.js'
import {dnsLabelError, portNameError} from './names.js'
import {quantityProblem, NOT_A_QUANTITY} from '../util/quantity.js'
import {validateLifecycle, validateProbe} from './validate-probe.js'
import {joinPath, keySegment} from '../util/field-path.js'
import {subPathError} from '../util/relative-path.js'
import {envFileKeyError, envFilePathError} from '../kuberuntime/env-file.js'
import type {Volume} from '../api/types.js'
import {volumeKind} from '../volumes/registry.js'
import {validateRestartRules} from './validate-restart-rules.js'


export interface ContainerContext {
  kind: 'container' | 'initContainer'
  volumeNames: ReadonlySet<string>
  hostNetwork: boolean
  /**
   * The pod's emptyDir volumes, the only ones a fileKeyRef may read (the API's rule); when not
   * given, only the volume's existence is checked here and `run` refuses any other kind.
   */
  emptyDirNames?: ReadonlySet<string> | undefined
}

/** `report` is already prefixed with the container's path, e.g. `spec.containers[1]`. */
export function validateContainer(report: Report, value: unknown, ctx: ContainerContext): void {
  if (!isObject(value)) {
    report('', `must be an object, got ${show(value)}`)
    return
  }
  const c = value
  const name = getString(report, 'name', c['name'])
  if (!name) report('name', 'must be set')
  else {
    const err = dnsLabelError(name)
    if (err) report('name', err)
  }
  validateImage(report, c['image'])
  checkEnum(report, 'imagePullPolicy', c['imagePullPolicy'], ['Always', 'IfNotPresent', 'Never'])
  checkStringList(report, 'command', c['command'])
  checkStringList(report, 'args', c['args'])
  getString(report, 'workingDir', c['workingDir'])
  const portNames = validatePorts(report, c['ports'], ctx.hostNetwork)
  validateEnv(report, c['env'], ctx)
  validateEnvFrom(report, c['envFrom'])
  validateResources(report, c['resources'])
  validateVolumeMounts(report, c['volumeMounts'], ctx.volumeNames)
  if (c['volumeDevices'] !== undefined) report('volumeDevices', unsupported('volumeDevices'))
  if (c['resizePolicy'] !== undefined) getList(report, 'resizePolicy', c['resizePolicy'])
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    validateProbe(report, probe, c[probe], portNames)
  }
  validateLifecycle(report, 'lifecycle', c['lifecycle'], portNames)
  getString(report, 'terminationMessagePath', c['terminationMessagePath'])
  checkEnum(report, 'terminationMessagePolicy', c['terminationMessagePolicy'], ['File', 'FallbackToLogsOnError'])
  for (const flag of ['stdin', 'stdinOnce', 'tty'] as const) checkBoolean(report, flag, c[flag])
  validateSecurityContext(report, c['securityContext'])

  // A container's own restartPolicy and restartPolicyRules (on any container, as the API allows
  // since ContainerRestartRules); Always on an init container makes it a sidecar.
  validateRestartRules(report, c)
  const sidecar = c['restartPolicy'] === 'Always'
  if (ctx.kind === 'initContainer') {
    if (!sidecar) {
      // Only sidecars may have probes and postStart/preStop hooks: a regular init container runs to completion.
      for (const f of ['livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'] as const) {
        if (c[f] !== undefined) report(f, 'may only be set on init containers with restartPolicy Always')
      }
    }
  }
}

function validateImage(report: Report, v: unknown): void {
  if (v === undefined || v === null || v === '') {
    report('image', 'must be set')
    return
  }
  const image = getString(report, 'image', v)
  if (image === undefined) return
  if (/\s/.test(image) || !parseImageRef(image)) {
    report('image', `"${image}" is not a valid image reference`)
  }
}

/** Returns the port names declared by the container (for probes' named ports). */
function validatePorts(report: Report, v: unknown, hostNetwork: boolean): Set<string> {
  const names = new Set<string>()
  getList(report, 'ports', v)?.forEach((item, i) => {
    const f = `ports[${i}]`
    const port = getItem(report, f, item)
    if (!port) return
    const r = nested(report, f)
    if (port['containerPort'] === undefined || port['containerPort'] === null) r('containerPort', 'must be set')
    const containerPort = getInteger(r, 'containerPort', port['containerPort'], 1, 65535)
    const hostPort = getInteger(r, 'hostPort', port['hostPort'], 0, 65535)
    if (hostNetwork && hostPort && containerPort !== undefined && hostPort !== containerPort) {
      r('hostPort', `must equal containerPort (${containerPort}) with hostNetwork, got ${hostPort}`)
    }
    checkEnum(r, 'protocol', port['protocol'], ['TCP', 'UDP', 'SCTP'])
    getString(r, 'hostIP', port['hostIP'])
    const name = getString(r, 'name', port['name'])
    if (name !== undefined && name !== '') {
      const err = portNameError(name)
      if (err) r('name', err)
      else if (names.has(name)) r('name', `must be unique within the container: "${name}" is used twice`)
      names.add(name)
    }
  })
  return names
}

const VALUE_FROM = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'] as const

function validateEnv(report: Report, v: unknown, ctx: ContainerContext): void {
  getList(report, 'env', v)?.forEach((item, i) => {
    const f = `env[${i}]`
    const env = getItem(report, f, item)
    if (!env) return
    const r = nested(report, f)
    const name = getString(r, 'name', env['name'])
    if (!name) r('name', 'must be set')
    else if (name.includes('=')) r('name', `"${name}" must not contain '='`)
    getString(r, 'value', env['value'])
    const from = getObject(r, 'valueFrom', env['valueFrom'])
    if (!from) return
    if (env['value'] !== undefined && env['value'] !== '') r('valueFrom', 'may not be set together with value')
    const present = VALUE_FROM.filter((k) => from[k] !== undefined && from[k] !== null)
    if (present.length !== 1) {
      r('valueFrom', `must have exactly one source (${VALUE_FROM.join(', ')}), got ${present.length}`)
    }
    for (const k of present) {
      const ref = getObject(r, `valueFrom.${k}`, from[k])
      if (!ref) continue
      if (k === 'fileKeyRef') {
        validateFileKeyRef(nested(r, 'valueFrom.fileKeyRef'), ref, ctx)
        continue
      }
      const key = k === 'fieldRef' ? 'fieldPath' : k === 'resourceFieldRef' ? 'resource' : 'key'
      if (!getString(r, `valueFrom.${k}.${key}`, ref[key])) r(`valueFrom.${k}.${key}`, 'must be set')
    }
  })
}

/** The names of the emptyDir volumes among `spec.volumes` (as decoded), for ContainerContext.emptyDirNames. */
export function emptyDirVolumeNames(volumes: unknown): Set<string> {
  const names = new Set<string>()
  if (!Array.isArray(volumes)) return names
  for (const v of volumes) {
    if (isObject(v) && typeof v['name'] === 'string' && volumeKind(v as unknown as Volume)?.name === 'emptyDir') names.add(v['name'])
  }
  return names
}

/**
 * `valueFrom.fileKeyRef` (an env file in an emptyDir): every part is checked here, because the
 * path becomes a file kube-node opens as root and the key is looked up in a container's file.
 */
function validateFileKeyRef(r: Report, ref: JsonObject, ctx: ContainerContext): void {
  const volume = getString(r, 'volumeName', ref['volumeName'])
  if (!volume) r('volumeName', 'must be set')
  else if (!ctx.volumeNames.has(volume)) r('volumeName', `volume "${volume}" is not defined in spec.volumes`)
  else if (ctx.emptyDirNames && !ctx.emptyDirNames.has(volume)) r('volumeName', `volume "${volume}" must be an emptyDir volume (env files are read only from emptyDir)`)
  const path = getString(r, 'path', ref['path'])
  const pathErr = path ? envFilePathError(path) : undefined
  if (!path) r('path', 'must be set')
  else if (pathErr) r('path', withValue(pathErr, path))
  const key = getString(r, 'key', ref['key'])
  const keyErr = key ? envFileKeyError(key) : undefined
  if (!key) r('key', 'must be set')
  else if (keyErr) r('key', withValue(keyErr, key))
  checkBoolean(r, 'optional', ref['optional'])
}

/** The rule's message and the value (shortened), unless the message already says what it got. */
function withValue(message: string, value: string): string {
  return message.includes(', got ') ? message : `${message}, got ${JSON.stringify(value.slice(0, 200))}`
}

function validateEnvFrom(report: Report, v: unknown): void {
  getList(report, 'envFrom', v)?.forEach((item, i) => {
    const f = `envFrom[${i}]`
    const src = getItem(report, f, item)
    if (!src) return
    getString(report, `${f}.prefix`, src['prefix'])
    const refs = ['configMapRef', 'secretRef'].filter((k) => src[k] !== undefined && src[k] !== null)
    if (refs.length !== 1) report(f, `must have exactly one of configMapRef, secretRef, got ${refs.length}`)
    for (const k of refs) {
      const ref = getObject(report, `${f}.${k}`, src[k])
      if (ref && !getString(report, `${f}.${k}.name`, ref['name'])) report(`${f}.${k}.name`, 'must be set')
    }
  })
}

/**
 * `resources` of a container, or of the pod (`spec.resources`, pod-level resources): every
 * limit and request must parse as a quantity, as the kubelet's decoder requires.
 */
export function validateResources(report: Report, v: unknown): void {
  const res = getObject(report, 'resources', v)
  if (!res) return
  for (const kind of ['limits', 'requests'] as const) validateQuantities(report, `resources.${kind}`, res[kind])
  if (res['claims'] !== undefined) report('resources.claims', unsupported('claims'))
}

/** A map of resource name to quantity (resource limits and requests, `spec.overhead`). */
export function validateQuantities(report: Report, field: string, v: unknown): void {
  const map = getObject(report, field, v)
  if (!map) return
  for (const [k, q] of Object.entries(map)) {
    const problem = quantityProblem(q)
    if (problem) report(joinPath(field, keySegment(k)), `must be a quantity such as "500m" or "64Mi", got ${show(q)}${problem === NOT_A_QUANTITY ? '' : ` (${problem})`}`)
  }
}

function validateVolumeMounts(report: Report, v: unknown, volumeNames: ReadonlySet<string>): void {
  const paths = new Map<string, number>()
  getList(report, 'volumeMounts', v)?.forEach((item, i) => {
    const f = `volumeMounts[${i}]`
    const mount = getItem(report, f, item)
    if (!mount) return
    const r = nested(report, f)
    const name = getString(r, 'name', mount['name'])
    if (!name) r('name', 'must be set')
    else if (!volumeNames.has(name)) r('name', `volume "${name}" is not defined in spec.volumes`)
    const path = getString(r, 'mountPath', mount['mountPath'])
    if (!path) r('mountPath', 'must be set')
    else if (!path.startsWith('/')) r('mountPath', `must be an absolute path, got "${path}"`)
    else {
      const normal = path.length > 1 ? path.replace(/\/+$/, '') : path
      const first = paths.get(normal)
      if (first !== undefined) r('mountPath', `must be unique: "${path}" is also mounted by volumeMounts[${first}]`)
      else paths.set(normal, i)
    }
    checkBoolean(r, 'readOnly', mount['readOnly'])
    for (const sub of ['subPath', 'subPathExpr'] as const) {
      const sp = getString(r, sub, mount[sub])
      const err = sp ? subPathError(sp) : undefined
      if (err) r(sub, `${err}, got ${JSON.stringify(sp!.slice(0, 200))}`)
    }
    checkEnum(r, 'mountPropagation', mount['mountPropagation'], ['None', 'HostToContainer', 'Bidirectional'])
    validateRecursiveReadOnly(r, mount)
  })
}

function validateSecurityContext(report: Report, v: unknown): void {
  const sc: JsonObject | undefined = getObject(report, 'securityContext', v)
  if (!sc) return
  const r = nested(report, 'securityContext')
  for (const flag of ['privileged', 'readOnlyRootFilesystem', 'allowPrivilegeEscalation', 'runAsNonRoot'] as const) {
    checkBoolean(r, flag, sc[flag])
  }
  getInteger(r, 'runAsUser', sc['runAsUser'], 0, 2147483647)
  getInteger(r, 'runAsGroup', sc['runAsGroup'], 0, 2147483647)
  const caps = getObject(r, 'capabilities', sc['capabilities'])
  if (caps) {
    checkStringList(r, 'capabilities.add', caps['add'])
    checkStringList(r, 'capabilities.drop', caps['drop'])
  }
  checkEnum(r, 'procMount', sc['procMount'], ['Default', 'Unmasked'])
  // A field of a newer API than the schema's: refused for what it needs, whatever --validate says.
  if (sc['cgroupOptions'] !== undefined && sc['cgroupOptions'] !== null) r('cgroupOptions', unsupported('cgroupOptions'))
}

/** The API server's rule: a recursive read-only mount must be read-only and not propagate mounts. */
function validateRecursiveReadOnly(r: Report, mount: JsonObject): void {
  const rro = mount['recursiveReadOnly']
  checkEnum(r, 'recursiveReadOnly', rro, ['Disabled', 'IfPossible', 'Enabled'])
  if (rro !== 'IfPossible' && rro !== 'Enabled') return
  if (mount['readOnly'] !== true) r('recursiveReadOnly', 'may only be specified when readOnly is true')
  const propagation = mount['mountPropagation']
  if (propagation !== undefined && propagation !== null && propagation !== 'None') {
    r('recursiveReadOnly', 'may only be specified when mountPropagation is None or not specified')
  }
}
