// Validation of the pod fields whose support depends on the runtime or the host (AppArmor,
// hostUsers, supplementalGroupsPolicy; recursiveReadOnly is checked with its volumeMount): their
// shape here, as the API server's validation checks it; whether the runtime can do them is
// decided at run/watch time (decide/runtime-support.ts). Pure.
import {checkBoolean, checkEnum, getObject, getString, isObject, nested, show, type JsonObject, type Report} from '../util/check.js'
import {keySegment} from '../util/field-path.js'
import {APPARMOR_ANNOTATION_PREFIX, profileFromAnnotation} from '../kuberuntime/security.js'

const APPARMOR_TYPES = ['RuntimeDefault', 'Unconfined', 'Localhost']
/** The API server's limit on a Localhost profile's name. */
const MAX_LOCALHOST_PROFILE = 4095
// Control characters (C0 and DEL) never belong in a profile name.
const CONTROL = /[\u0000-\u001f\u007f]/

/** A Localhost profile name: set, bounded, and free of control characters (it reaches messages and the runtime). */
function localhostProfileError(name: string): string | undefined {
  if (name.trim() === '') return 'must be set when type is Localhost'
  if (name.length > MAX_LOCALHOST_PROFILE) return `must be at most ${MAX_LOCALHOST_PROFILE} characters, got ${name.length}`
  if (CONTROL.test(name)) return `must not contain control characters, got ${JSON.stringify(name.slice(0, 200))}`
  return undefined
}

/** `appArmorProfile` of a pod or container securityContext (`report` is already prefixed with it). */
export function validateAppArmorProfile(report: Report, field: string, v: unknown): void {
  const p = getObject(report, field, v)
  if (!p) return
  const r = nested(report, field)
  const type = getString(r, 'type', p['type'])
  if (type === undefined || type === '') r('type', `must be set, one of ${APPARMOR_TYPES.join(', ')}`)
  else checkEnum(r, 'type', type, APPARMOR_TYPES)
  const name = getString(r, 'localhostProfile', p['localhostProfile'])
  if (type === 'Localhost') {
    const err = localhostProfileError(name ?? '')
    if (err) r('localhostProfile', err)
  } else if (name !== undefined && type !== undefined && APPARMOR_TYPES.includes(type)) {
    r('localhostProfile', 'can only be set when type is Localhost')
  }
}

function containersOf(spec: JsonObject): {path: string; c: JsonObject}[] {
  const out: {path: string; c: JsonObject}[] = []
  for (const list of ['initContainers', 'containers'] as const) {
    const items = spec[list]
    if (!Array.isArray(items)) continue
    items.forEach((c, i) => {
      if (isObject(c)) out.push({path: `spec.${list}[${i}]`, c})
    })
  }
  return out
}

/** The profile an appArmorProfile object names, in the annotation's spelling, for comparison. */
function annotationSpelling(p: unknown): string | undefined {
  if (!isObject(p)) return undefined
  switch (p['type']) {
    case 'RuntimeDefault':
      return 'runtime/default'
    case 'Unconfined':
      return 'unconfined'
    case 'Localhost':
      return typeof p['localhostProfile'] === 'string' ? `localhost/${p['localhostProfile']}` : undefined
    default:
      return undefined
  }
}

/**
 * The deprecated `container.apparmor.security.beta.kubernetes.io/<container>` annotations: each
 * names a container of the pod, holds a profile the kubelet can read, and agrees with the
 * container's appArmorProfile (its own, else the pod's) when that is set too.
 */
function validateAppArmorAnnotations(report: Report, pod: JsonObject): void {
  const meta = pod['metadata']
  const annotations = isObject(meta) && isObject(meta['annotations']) ? meta['annotations'] : undefined
  if (!annotations) return
  const spec = isObject(pod['spec']) ? pod['spec'] : {}
  const containers = new Map(containersOf(spec).map(({c, path}) => [c['name'], {c, path}]))
  const podSc = isObject(spec['securityContext']) ? spec['securityContext'] : {}
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(APPARMOR_ANNOTATION_PREFIX)) continue
    const field = `metadata.annotations${keySegment(key)}`
    const name = key.slice(APPARMOR_ANNOTATION_PREFIX.length)
    const target = containers.get(name)
    if (!target) {
      report(field, `names no container of the pod: there is no container or init container ${JSON.stringify(name.slice(0, 200))}`)
      continue
    }
    if (typeof value !== 'string') continue
    const profile = profileFromAnnotation(value)
    if (!profile) {
      report(field, `must be "runtime/default", "unconfined" or "localhost/<profile>", got ${show(value.slice(0, 200))}`)
      continue
    }
    if (profile.type === 'Localhost') {
      const err = localhostProfileError(profile.localhostProfile ?? '')
      if (err) {
        report(field, `the profile name after "localhost/" ${err.replace(' when type is Localhost', '')}`)
        continue
      }
    }
    const sc = isObject(target.c['securityContext']) ? target.c['securityContext'] : {}
    const own = sc['appArmorProfile'] !== undefined && sc['appArmorProfile'] !== null
    const fieldProfile = own ? sc['appArmorProfile'] : podSc['appArmorProfile']
    const spelled = annotationSpelling(fieldProfile)
    if (spelled !== undefined && spelled !== value) {
      const other = own ? `${target.path}.securityContext.appArmorProfile` : 'spec.securityContext.appArmorProfile'
      report(field, `must match ${other} (${spelled}), got ${show(value.slice(0, 200))}`)
    }
  }
}

/**
 * An image volume's source (`report` prefixed with the volume): valid in a manifest, so that
 * `validate` accepts it; whether the runtime can mount it is decided at run/watch time.
 */
export function validateImageVolume(report: Report, v: unknown): void {
  const src = getObject(report, 'image', v)
  if (!src) return
  const r = nested(report, 'image')
  const ref = getString(r, 'reference', src['reference'])
  if (!ref) r('reference', 'must be set')
  checkEnum(r, 'pullPolicy', src['pullPolicy'], ['Always', 'Never', 'IfNotPresent'])
}

/** The runtime-dependent fields of a decoded Pod (`report` is not prefixed). */
export function validateRuntimeFields(report: Report, pod: JsonObject): void {
  validateAppArmorAnnotations(report, pod)
  const spec = pod['spec']
  if (!isObject(spec)) return
  checkBoolean(report, 'spec.hostUsers', spec['hostUsers'])
  if (spec['hostUsers'] === false) {
    // The API server's rule: a user namespace cannot be combined with the host's namespaces.
    for (const ns of ['hostNetwork', 'hostPID', 'hostIPC'] as const) {
      if (spec[ns] === true) report(`spec.${ns}`, 'must be false when spec.hostUsers is false')
    }
  }
  const sc = spec['securityContext']
  if (isObject(sc)) {
    checkEnum(report, 'spec.securityContext.supplementalGroupsPolicy', sc['supplementalGroupsPolicy'], ['Merge', 'Strict'])
    validateAppArmorProfile(report, 'spec.securityContext.appArmorProfile', sc['appArmorProfile'])
  }
  for (const {path, c} of containersOf(spec)) {
    const csc = c['securityContext']
    if (isObject(csc)) validateAppArmorProfile(report, `${path}.securityContext.appArmorProfile`, csc['appArmorProfile'])
  }
}
