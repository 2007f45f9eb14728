// Validation of probes and lifecycle hooks: exactly one handler, sane timings, ports that
// exist. Pure.
import {checkEnum, checkStringList, getInteger, getItem, getList, getObject, getString, nested, show, type JsonObject, type Report} from '../util/check.js'
import {unsupported} from '../util/unsupported.js'
import {portNameError} from './names.js'

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const
const HOOK_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const

/** `field` names the probe (e.g. `livenessProbe`); liveness and startup probes need successThreshold 1. */
export function validateProbe(report: Report, field: string, value: unknown, portNames: ReadonlySet<string>): void {
  const probe = getObject(report, field, value)
  if (!probe) return
  const r = nested(report, field)
  validateHandler(r, probe, PROBE_HANDLERS, portNames)
  getInteger(r, 'initialDelaySeconds', probe['initialDelaySeconds'], 0)
  getInteger(r, 'timeoutSeconds', probe['timeoutSeconds'], 1)
  getInteger(r, 'periodSeconds', probe['periodSeconds'], 1)
  const success = getInteger(r, 'successThreshold', probe['successThreshold'], 1)
  getInteger(r, 'failureThreshold', probe['failureThreshold'], 1)
  getInteger(r, 'terminationGracePeriodSeconds', probe['terminationGracePeriodSeconds'], 1)
  if (success !== undefined && success !== 1 && !field.endsWith('readinessProbe')) {
    r('successThreshold', `must be 1 for liveness and startup probes, got ${success}`)
  }
}

export function validateLifecycle(report: Report, field: string, value: unknown, portNames: ReadonlySet<string>): void {
  const lifecycle = getObject(report, field, value)
  if (!lifecycle) return
  for (const hook of ['postStart', 'preStop'] as const) {
    const handler = getObject(report, `${field}.${hook}`, lifecycle[hook])
    if (handler) validateHandler(nested(report, `${field}.${hook}`), handler, HOOK_HANDLERS, portNames)
  }
  // The CRI this kube-node speaks (runtime.v1 without ContainerConfig.stop_signal) cannot pass a
  // stop signal: refused, never silently dropped.
  if (lifecycle['stopSignal'] !== undefined) {
    checkEnum(report, `${field}.stopSignal`, lifecycle['stopSignal'], STOP_SIGNALS)
    report(`${field}.stopSignal`, unsupported('stopSignal'))
  }
}

const STOP_SIGNALS = ['SIGABRT', 'SIGALRM', 'SIGBUS', 'SIGCHLD', 'SIGCONT', 'SIGFPE', 'SIGHUP', 'SIGILL', 'SIGINT', 'SIGIO', 'SIGKILL', 'SIGPIPE', 'SIGPROF', 'SIGPWR', 'SIGQUIT', 'SIGSEGV', 'SIGSTKFLT', 'SIGSTOP', 'SIGSYS', 'SIGTERM', 'SIGTRAP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU', 'SIGURG', 'SIGUSR1', 'SIGUSR2', 'SIGVTALRM', 'SIGWINCH', 'SIGXCPU', 'SIGXFSZ']

function validateHandler(report: Report, obj: JsonObject, kinds: readonly string[], portNames: ReadonlySet<string>): void {
  const present = kinds.filter((k) => obj[k] !== undefined && obj[k] !== null)
  if (present.length !== 1) {
    report('', present.length === 0
      ? `must have exactly one handler (${kinds.join(', ')})`
      : `must have exactly one handler, got ${present.length} (${present.join(', ')})`)
  }
  const exec = getObject(report, 'exec', obj['exec'])
  if (exec) {
    const command = getList(report, 'exec.command', exec['command'])
    if (!command || command.length === 0) report('exec.command', 'must be set')
    else checkStringList(report, 'exec.command', command)
  }
  const http = getObject(report, 'httpGet', obj['httpGet'])
  if (http) {
    checkPort(report, 'httpGet.port', http['port'], portNames)
    getString(report, 'httpGet.path', http['path'])
    getString(report, 'httpGet.host', http['host'])
    checkEnum(report, 'httpGet.scheme', http['scheme'], ['HTTP', 'HTTPS'])
    getList(report, 'httpGet.httpHeaders', http['httpHeaders'])?.forEach((h, i) => {
      const f = `httpGet.httpHeaders[${i}]`
      const header = getItem(report, f, h)
      if (!header) return
      const name = getString(report, `${f}.name`, header['name'])
      if (!name) report(`${f}.name`, 'must be set')
      getString(report, `${f}.value`, header['value'])
    })
  }
  const tcp = getObject(report, 'tcpSocket', obj['tcpSocket'])
  if (tcp) {
    checkPort(report, 'tcpSocket.port', tcp['port'], portNames)
    getString(report, 'tcpSocket.host', tcp['host'])
  }
  const grpc = getObject(report, 'grpc', obj['grpc'])
  if (grpc) {
    if (grpc['port'] === undefined || grpc['port'] === null) report('grpc.port', 'must be set')
    getInteger(report, 'grpc.port', grpc['port'], 1, 65535)
    getString(report, 'grpc.service', grpc['service'])
  }
  const sleep = getObject(report, 'sleep', obj['sleep'])
  if (sleep) {
    if (sleep['seconds'] === undefined || sleep['seconds'] === null) report('sleep.seconds', 'must be set')
    getInteger(report, 'sleep.seconds', sleep['seconds'], 0)
  }
}

/** A port number, or the name of one of the container's ports. */
function checkPort(report: Report, field: string, v: unknown, portNames: ReadonlySet<string>): void {
  if (v === undefined || v === null || v === '') {
    report(field, 'must be set')
  } else if (typeof v === 'string') {
    const err = portNameError(v)
    if (err) report(field, err)
    else if (!portNames.has(v)) report(field, `port "${v}" is not defined in this container's ports`)
  } else if (typeof v === 'number') {
    getInteger(report, field, v, 1, 65535)
  } else {
    report(field, `must be a port number or name, got ${show(v)}`)
  }
}
