// An ObjectStore over the ConfigMaps and Secrets that came with the manifests.
import type {ConfigMap, ObjectStore, Secret} from '../api/types.js'

export const EMPTY_OBJECT_STORE: ObjectStore = {configMap: () => undefined, secret: () => undefined}

function key(namespace: string | undefined, name: string | undefined): string {
  return `${namespace || 'default'}/${name ?? ''}`
}

export function createObjectStore(configMaps: readonly ConfigMap[], secrets: readonly Secret[]): ObjectStore {
  // The first definition of a name wins, as with pods.
  const cms = new Map<string, ConfigMap>()
  for (const c of configMaps) if (!cms.has(key(c.metadata?.namespace, c.metadata?.name))) cms.set(key(c.metadata?.namespace, c.metadata?.name), c)
  const secs = new Map<string, Secret>()
  for (const s of secrets) if (!secs.has(key(s.metadata?.namespace, s.metadata?.name))) secs.set(key(s.metadata?.namespace, s.metadata?.name), s)
  return {
    configMap: (namespace, name) => cms.get(key(namespace, name)),
    secret: (namespace, name) => secs.get(key(namespace, name)),
  }
}
