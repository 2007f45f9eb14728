// imagePullSecrets as the kubelet uses them (pkg/credentialprovider: MakeDockerKeyring,
// BasicDockerKeyring.Add/Lookup, URLsMatch): the docker configs of the pod's pull secrets become
// a keyring of registry keys, and an image's repository gets every credential whose key matches
// it, most specific key first. Pure. The credentials are secrets: nothing here logs them, and the
// errors name the secret and what is wrong, never its content.
import type {Secret} from '../api/types.js'
import type {AuthConfig} from '../cri/api.js'
import {secretData} from '../kuberuntime/env.js'
import {parseImageRef} from './reference.js'

export const DOCKER_CONFIG_JSON_TYPE = 'kubernetes.io/dockerconfigjson'
export const DOCKER_CONFIG_JSON_KEY = '.dockerconfigjson'
export const DOCKERCFG_TYPE = 'kubernetes.io/dockercfg'
export const DOCKERCFG_KEY = '.dockercfg'

/** Docker Hub's key in a docker config ("https://index.docker.io/v1/" becomes it). */
const DEFAULT_REGISTRY_KEY = 'index.docker.io'

/** A registry key (host[:port][/path], no scheme) and the credentials given for it, in config order. */
export interface Keyring {
  /** Keys, reverse-sorted so that "quay.io/coreos" is tried before "quay.io". */
  index: string[]
  creds: Map<string, AuthConfig[]>
}

export class DockerConfigError extends Error {}

/**
 * The keyring of the pod's pull secrets. A secret of another type adds nothing (as the kubelet's);
 * a docker secret whose config cannot be read is an error naming the secret, since the kubelet
 * then fails the pull rather than pull without it.
 */
export function keyringFromSecrets(secrets: readonly Secret[]): Keyring {
  const keyring: Keyring = {index: [], creds: new Map()}
  for (const secret of secrets) {
    const config = dockerConfigOf(secret)
    if (config) addToKeyring(keyring, config)
  }
  keyring.index = [...new Set(keyring.index)].sort().reverse()
  return keyring
}

/** The entries of a docker secret's config (`auths` of a dockerconfigjson, the whole dockercfg); undefined for other secrets. */
function dockerConfigOf(secret: Secret): Record<string, unknown> | undefined {
  const name = secret.metadata?.name ?? ''
  const key = secret.type === DOCKER_CONFIG_JSON_TYPE ? DOCKER_CONFIG_JSON_KEY : secret.type === DOCKERCFG_TYPE ? DOCKERCFG_KEY : undefined
  if (!key) return undefined
  const bytes = secretData(secret).get(key)
  if (!bytes || bytes.length === 0) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(bytes.toString('utf8'))
  } catch {
    // The parser's message quotes the text: it would put the credentials in an error.
    throw new DockerConfigError(`imagePullSecret "${name}": ${key} is not valid JSON`)
  }
  const entries = key === DOCKER_CONFIG_JSON_KEY && isObject(parsed) ? parsed['auths'] ?? {} : parsed
  if (!isObject(entries)) throw new DockerConfigError(`imagePullSecret "${name}": ${key} must be a JSON object${key === DOCKER_CONFIG_JSON_KEY ? ' with an "auths" object' : ''}`)
  for (const [registry, entry] of Object.entries(entries)) {
    if (!isObject(entry)) throw new DockerConfigError(`imagePullSecret "${name}": the entry for registry ${JSON.stringify(registry)} must be an object`)
  }
  return Object.fromEntries(Object.entries(entries).map(([registry, entry]) => [registry, authOf(name, registry, entry as Record<string, unknown>)]))
}

/** A config entry's credentials: `auth` (base64 of user:password) wins over username and password, as the kubelet decodes it. */
function authOf(secret: string, registry: string, entry: Record<string, unknown>): AuthConfig {
  const str = (k: string): string => (typeof entry[k] === 'string' ? (entry[k] as string) : '')
  const auth = str('auth')
  if (!auth) return {username: str('username'), password: str('password')}
  const decoded = Buffer.from(auth, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) throw new DockerConfigError(`imagePullSecret "${secret}": the "auth" of registry ${JSON.stringify(registry)} is not base64 of username:password`)
  return {username: decoded.slice(0, colon), password: decoded.slice(colon + 1)}
}

function addToKeyring(keyring: Keyring, config: Record<string, unknown>): void {
  for (const [location, auth] of Object.entries(config)) {
    const key = registryKey(location)
    if (key === undefined) continue
    keyring.creds.set(key, [...(keyring.creds.get(key) ?? []), auth as AuthConfig])
    keyring.index.push(key)
  }
}

/**
 * A config location as a keyring key: the scheme dropped, a leading /v1/ or /v2/ of the path
 * taken as the registry itself (docker's ResolveAuthConfig), "host" alone for an empty path.
 * Undefined for a location that names no host.
 */
export function registryKey(location: string): string | undefined {
  const rest = location.replace(/^https?:\/\//, '')
  const slash = rest.indexOf('/')
  const host = slash < 0 ? rest : rest.slice(0, slash)
  let path = slash < 0 ? '' : rest.slice(slash)
  if (!host || /[\s@?#]/.test(host)) return undefined
  if (path.startsWith('/v1/') || path.startsWith('/v2/')) path = path.slice(3)
  return path.length > 0 && path !== '/' ? host + path : host
}

/**
 * The credentials to try for `image`, in order: every key matching the image's repository (most
 * specific first), else Docker Hub's when the image is on Docker Hub. Empty: pull without.
 */
export function credentialsFor(keyring: Keyring, image: string): AuthConfig[] {
  const repo = repositoryOf(image)
  const found = keyring.index.filter((k) => keyMatches(k, repo)).flatMap((k) => keyring.creds.get(k) ?? [])
  if (found.length > 0) return found
  const hub = keyring.creds.get(DEFAULT_REGISTRY_KEY)
  return hub && isDefaultRegistry(repo) ? hub : []
}

/** The repository the kubelet looks credentials up by: domain/path, without tag or digest ("docker.io/library/busybox"). */
export function repositoryOf(image: string): string {
  const ref = parseImageRef(image.trim())
  return `${ref.domain}/${ref.path}`
}

function isDefaultRegistry(repo: string): boolean {
  const [first, ...rest] = repo.split('/')
  if (!first) return false
  if (rest.length === 0 || first === 'docker.io' || first === 'index.docker.io') return true
  return !/[.:]/.test(first)
}

/**
 * The kubelet's URLsMatch: the same number of host labels, each matching its glob (`*.example.com`),
 * the same port, and the key's path a prefix of the repository's path (a plain string prefix).
 */
export function keyMatches(key: string, repo: string): boolean {
  const [keyHost, keyPort, keyPath] = splitLocation(key)
  const [repoHost, repoPort, repoPath] = splitLocation(repo)
  const keyLabels = keyHost.split('.')
  const repoLabels = repoHost.split('.')
  if (keyLabels.length !== repoLabels.length || keyPort !== repoPort) return false
  if (!keyLabels.every((g, i) => globMatches(g, repoLabels[i]!))) return false
  return repoPath.startsWith(keyPath)
}

function splitLocation(location: string): [host: string, port: string, path: string] {
  const slash = location.indexOf('/')
  const hostPort = slash < 0 ? location : location.slice(0, slash)
  const path = slash < 0 ? '' : location.slice(slash)
  const colon = hostPort.lastIndexOf(':')
  return colon < 0 ? [hostPort, '', path] : [hostPort.slice(0, colon), hostPort.slice(colon + 1), path]
}

/** filepath.Match over one host label: `*` any run of characters, `?` one, anything else itself. */
function globMatches(glob: string, label: string): boolean {
  const re = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${re}$`).test(label)
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
