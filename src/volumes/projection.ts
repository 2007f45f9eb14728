// What the data volumes hold. configMap, secret, downwardAPI and projected volumes are
// "projected": their files are computed here from the manifests' objects and the pod, the way
// the kubelet's volume plugins build their payload (pkg/volume/configmap, secret, downwardapi,
// projected: MakePayload / CollectData). Pure: prepare.ts writes them.
import type {Container, ObjectStore, Pod, Volume} from '../api/types.js'
import {configMapData, fieldRefValue, resourceFieldValue, secretData, type EnvContext} from '../kuberuntime/env.js'
import {filePathError} from '../util/relative-path.js'
import type {HostFile} from '../host/port.js'

/** One file of a data volume: a path relative to the volume, e.g. `app.conf` or `conf/app.conf`. */
export type ProjectedFile = HostFile

export type Projection = {files: ProjectedFile[]} | {error: string}

/** The kubelet's default mode for files of projected volumes. */
export const DEFAULT_FILE_MODE = 0o644

type ConfigMapSource = NonNullable<Volume['configMap']>
type SecretSource = NonNullable<Volume['secret']>
type DownwardAPISource = NonNullable<Volume['downwardAPI']>
type ProjectedSource = NonNullable<Volume['projected']>
type KeyToPath = NonNullable<ConfigMapSource['items']>[number]

/** Files by path; a later file at the same path replaces the earlier one. */
type Payload = Map<string, ProjectedFile>

export {filePathError}

function add(payload: Payload, path: string, data: Buffer, mode: number): string | undefined {
  const err = filePathError(path)
  if (err) return `invalid file path ${JSON.stringify(path)}: ${err}`
  payload.set(path, {path, data, mode: mode & 0o777})
  return undefined
}

/**
 * Adds the entries of one ConfigMap or Secret: every key when there are no items, else the
 * items' keys at their paths. A missing object or key is an error unless `optional`.
 */
function projectEntries(
  payload: Payload,
  what: string,
  entries: ReadonlyMap<string, Buffer> | undefined,
  items: readonly KeyToPath[] | undefined,
  defaultMode: number,
  optional: boolean,
): string | undefined {
  if (!entries) return optional ? undefined : `${what} not found`
  if (!items || items.length === 0) {
    for (const [key, data] of entries) {
      const err = add(payload, key, data, defaultMode)
      if (err) return `${what}: ${err}`
    }
    return undefined
  }
  for (const item of items) {
    const data = entries.get(item.key)
    if (data === undefined) {
      if (optional) continue
      return `${what} has no key ${JSON.stringify(item.key)}`
    }
    const err = add(payload, item.path, data, item.mode ?? defaultMode)
    if (err) return `${what}: ${err}`
  }
  return undefined
}

function result(payload: Payload, err: string | undefined): Projection {
  if (err !== undefined) return {error: err}
  return {files: [...payload.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))}
}

function configMapInto(payload: Payload, src: {name?: string; items?: KeyToPath[]; optional?: boolean}, store: ObjectStore, namespace: string, defaultMode: number): string | undefined {
  const name = src.name ?? ''
  const cm = store.configMap(namespace, name)
  return projectEntries(payload, `configmap "${name}"`, cm ? configMapData(cm) : undefined, src.items, defaultMode, src.optional === true)
}

function secretInto(payload: Payload, name: string, src: {items?: KeyToPath[]; optional?: boolean}, store: ObjectStore, namespace: string, defaultMode: number): string | undefined {
  const secret = store.secret(namespace, name)
  return projectEntries(payload, `secret "${name}"`, secret ? secretData(secret) : undefined, src.items, defaultMode, src.optional === true)
}

/** The files of a configMap volume. */
export function projectConfigMapVolume(src: ConfigMapSource, store: ObjectStore, namespace: string): Projection {
  const payload: Payload = new Map()
  return result(payload, configMapInto(payload, src, store, namespace, src.defaultMode ?? DEFAULT_FILE_MODE))
}

/** The files of a secret volume. */
export function projectSecretVolume(src: SecretSource, store: ObjectStore, namespace: string): Projection {
  const payload: Payload = new Map()
  return result(payload, secretInto(payload, src.secretName ?? '', src, store, namespace, src.defaultMode ?? DEFAULT_FILE_MODE))
}

// `key="value"` lines sorted by key, as the kubelet writes whole label and annotation maps
// (fieldpath.FormatMap).
function formatMap(map: Record<string, string> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(map?.[k] ?? '')}`)
    .join('\n')
}

export interface DownwardContext extends EnvContext {
  pod: Pod
}

function downwardInto(payload: Payload, src: DownwardAPISource, ctx: DownwardContext, defaultMode: number): string | undefined {
  const pod = ctx.pod
  for (const item of src.items ?? []) {
    let value: string | undefined
    if (item.fieldRef) {
      const fp = item.fieldRef.fieldPath
      if (fp === 'metadata.labels') value = formatMap(pod.metadata?.labels)
      else if (fp === 'metadata.annotations') value = formatMap(pod.metadata?.annotations)
      else value = fieldRefValue(pod, fp, ctx)
      if (value === undefined) return `downwardAPI ${JSON.stringify(item.path)}: unsupported fieldRef "${fp}"`
    } else if (item.resourceFieldRef) {
      const ref = item.resourceFieldRef
      const container = findContainer(pod, ref.containerName ?? '')
      if (!container) return `downwardAPI ${JSON.stringify(item.path)}: resourceFieldRef names unknown container "${ref.containerName ?? ''}"`
      try {
        value = resourceFieldValue(container, ref.resource, ref.divisor, ctx)
      } catch (err) {
        return `downwardAPI ${JSON.stringify(item.path)}: ${err instanceof Error ? err.message : String(err)}`
      }
    } else {
      continue
    }
    const err = add(payload, item.path, Buffer.from(value, 'utf8'), item.mode ?? defaultMode)
    if (err) return `downwardAPI: ${err}`
  }
  return undefined
}

function findContainer(pod: Pod, name: string): Container | undefined {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((c) => c.name === name)
}

export interface ProjectionContext extends DownwardContext {
  objects: ObjectStore
}

/** The files of a downwardAPI volume. */
export function projectDownwardAPIVolume(src: DownwardAPISource, ctx: DownwardContext): Projection {
  const payload: Payload = new Map()
  return result(payload, downwardInto(payload, src, ctx, src.defaultMode ?? DEFAULT_FILE_MODE))
}

/** The files of a projected volume: its sources merged, a later file replacing an earlier one. */
export function projectProjectedVolume(src: ProjectedSource, ctx: ProjectionContext): Projection {
  const namespace = ctx.pod.metadata?.namespace ?? 'default'
  const payload: Payload = new Map()
  const mode = src.defaultMode ?? DEFAULT_FILE_MODE
  for (const s of src.sources ?? []) {
    let err: string | undefined
    if (s.configMap) err = configMapInto(payload, s.configMap, ctx.objects, namespace, mode)
    else if (s.secret) err = secretInto(payload, s.secret.name ?? '', s.secret, ctx.objects, namespace, mode)
    else if (s.downwardAPI) err = downwardInto(payload, s.downwardAPI, ctx, mode)
    if (err !== undefined) return {error: err}
  }
  return result(payload, undefined)
}
