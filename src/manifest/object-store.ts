// An ObjectStore over the ConfigMaps and Secrets that came with the manifests.
import type {ConfigMap, ObjectStore, Secret} from '../api/types.js'

export const EMPTY_OBJECT_STORE: ObjectStore = {configMap: () => undefined, secret: () => undefined}

function key(namespace: string | undefined, name: string | undefined): string {
  return `${namespace || 'default'}/${name ?? ''}`
}

export function createObjectStore(configMaps: readonly ConfigMap[], secrets: readonly Secret[]): ObjectStore {
  const cms = new Map(configMaps.map((c) => [key(c.metadata?.namespace, c.metadata?.name), c]))
  const secs = new Map(secrets.map((s) => [key(s.metadata?.namespace, s.metadata?.name), s]))
  return {
    configMap: (namespace, name) => cms.get(key(namespace, name)),
    secret: (namespace, name) => secs.get(key(namespace, name)),
  }
}
