// `describe pod` and `events` as a person reads them: kubectl's layout, no secret values, every
// text from a container escaped.
import {describe, expect, it} from 'vitest'
import type {Event, Pod} from '../../../src/api/types.js'
import {renderDescription, probeText} from '../../../src/cli/render/describe.js'
import {renderEvents} from '../../../src/cli/render/events.js'

const NOW = Date.parse('2026-11-23T10:00:00Z')

const pod: Pod = {
  metadata: {name: 'web-node1', namespace: 'default', labels: {app: 'web'}},
  spec: {
    containers: [
      {
        name: 'main',
        image: 'nginx:1.27',
        env: [{name: 'TOKEN', value: 'hunter2'}, {name: 'PASSWORD', valueFrom: {secretKeyRef: {name: 'db', key: 'pw'}}}],
        readinessProbe: {httpGet: {path: '/ready', port: 8080}, periodSeconds: 5},
        volumeMounts: [{name: 'conf', mountPath: '/etc/app', readOnly: true}],
      },
    ],
    volumes: [{name: 'conf', configMap: {name: 'app'}}],
    tolerations: [{operator: 'Exists', effect: 'NoExecute'}],
  },
  status: {
    phase: 'Running',
    podIP: '10.88.0.5',
    podIPs: [{ip: '10.88.0.5'}],
    qosClass: 'BestEffort',
    conditions: [{type: 'Ready', status: 'False'}],
    containerStatuses: [
      {
        name: 'main',
        ready: false,
        restartCount: 3,
        image: 'nginx:1.27',
        imageID: 'sha256:1',
        state: {waiting: {reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=main'}},
        lastState: {terminated: {exitCode: 1, reason: 'Error', message: 'bad\u001b[31m config', startedAt: '2026-11-23T09:59:00Z', finishedAt: '2026-11-23T09:59:30Z'}},
      },
    ],
  },
}

const event = (reason: string, message: string, count = 1): Event => ({
  metadata: {name: `web-node1.${reason}`},
  involvedObject: {kind: 'Pod', name: 'web-node1', namespace: 'default'},
  reason,
  message,
  type: reason === 'BackOff' ? 'Warning' : 'Normal',
  count,
  firstTimestamp: '2026-11-23T09:50:00Z',
  lastTimestamp: '2026-11-23T09:59:50Z',
})

describe('describe pod', () => {
  const text = renderDescription({pod, events: {items: [event('Started', 'Started container main'), event('BackOff', 'Back-off restarting failed container main', 4)]}, nodeName: 'node1', hostIP: '192.0.2.2'}, NOW)

  it.each([
    ['the name', /^Name: +web-node1$/m],
    ['the node and its IP', /^Node: +node1\/192\.0\.2\.2$/m],
    ['the waiting reason as the status', /^Status: +CrashLoopBackOff$/m],
    ['the state with its reason', /^ {4}State: +Waiting\n {6}Reason: +CrashLoopBackOff$/m],
    ['the last state with its exit code', /^ {4}Last State: +Terminated\n {6}Reason: +Error\n {6}Message: +bad\\x1b\[31m config\n {6}Exit Code: +1$/m],
    ['the restart count', /^ {4}Restart Count: +3$/m],
    ['the probe as kubectl prints it', /^ {4}Readiness: +http-get http:\/\/:8080\/ready delay=0s timeout=1s period=5s #success=1 #failure=3$/m],
    ['a secret reference by name, never its value', /^ {6}PASSWORD: +<set to the key 'pw' in secret 'db'>$/m],
    ['a plain env value hidden', /^ {6}TOKEN: +<set>$/m],
    ['the mount', /^ {6}\/etc\/app from conf \(ro\)$/m],
    ['the volume kind', /^ {4}Type: +ConfigMap \(a volume populated by a ConfigMap\)$/m],
    ['the toleration as kubectl prints it', /^Tolerations: +:NoExecute op=Exists$/m],
    ['a repeated event with its count', /^ {2}Warning +BackOff +10s \(x4 over 10m\) +kubelet +Back-off restarting failed container main$/m],
  ])('shows %s', (_name, pattern) => {
    expect(text).toMatch(pattern)
  })

  it('never prints a plain env value', () => {
    expect(text).not.toContain('hunter2')
  })

  it.each([
    [{exec: {command: ['cat', '/tmp/ready']}}, 'exec [cat /tmp/ready] delay=0s timeout=1s period=10s #success=1 #failure=3'],
    [{tcpSocket: {port: 2379}, initialDelaySeconds: 5}, 'tcp-socket :2379 delay=5s timeout=1s period=10s #success=1 #failure=3'],
  ])('probeText(%j)', (probe, expected) => {
    expect(probeText(probe)).toBe(expected)
  })
})

describe('events', () => {
  it("lists kubectl's columns, escaping what a container said", () => {
    const out = renderEvents({items: [event('Failed', 'Error: boom\u0007')]}, 'table', false, NOW)
    expect(out).toBe('LAST SEEN   TYPE     REASON   OBJECT          MESSAGE\n10s         Normal   Failed   pod/web-node1   Error: boom\\x07\n')
  })

  it('has a NAMESPACE column first when events of several namespaces are listed', () => {
    const a = {...event('Pulled', 'ok'), metadata: {name: 'a', namespace: 'default'}}
    const b = {...event('Pulled', 'ok'), metadata: {name: 'b', namespace: 'kube-system'}}
    expect(renderEvents({items: [a, b]}, 'table', false, NOW, true).split('\n').map((l) => l.split(/ {2,}/)[0])).toEqual(['NAMESPACE', 'default', 'kube-system', ''])
  })

  it('is a v1 EventList as JSON', () => {
    expect(JSON.parse(renderEvents({apiVersion: 'v1', kind: 'EventList', metadata: {}, items: [event('Pulled', 'ok')]}, 'json', false, NOW))).toMatchObject({kind: 'EventList', items: [{reason: 'Pulled'}]})
  })
})
