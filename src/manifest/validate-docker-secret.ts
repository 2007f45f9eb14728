// The API server's rules for the docker-config Secret types (ValidateSecret): a
// kubernetes.io/dockerconfigjson Secret needs `.dockerconfigjson`, a kubernetes.io/dockercfg one
// `.dockercfg`, holding a JSON object. An imagePullSecret that breaks them is an error here, not
// a failed pull later. The contents are credentials: a message never quotes them. Pure.
import {isObject, type Report} from '../util/check.js'
import {joinPath, keySegment} from '../util/field-path.js'

const DOCKER_KEYS: Readonly<Record<string, string>> = {
  'kubernetes.io/dockerconfigjson': '.dockerconfigjson',
  'kubernetes.io/dockercfg': '.dockercfg',
}

export function validateDockerSecret(report: Report, secret: Record<string, unknown>): void {
  const type = secret['type']
  const key = typeof type === 'string' ? DOCKER_KEYS[type] : undefined
  if (!key) return
  const data = isObject(secret['data']) ? secret['data'] : {}
  const stringData = isObject(secret['stringData']) ? secret['stringData'] : {}
  // stringData wins over data, as the API server merges them.
  const [field, text] =
    typeof stringData[key] === 'string' ? ['stringData', stringData[key]] : typeof data[key] === 'string' ? ['data', Buffer.from(data[key], 'base64').toString('utf8')] : [undefined, undefined]
  if (field === undefined || text === undefined) {
    report(joinPath('data', keySegment(key)), `is required for a Secret of type ${type as string}`)
    return
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (!isObject(parsed)) report(joinPath(field, keySegment(key)), 'must hold a JSON object (the contents are not shown)')
}
