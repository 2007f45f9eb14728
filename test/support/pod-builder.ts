// Small builders for the kuberuntime tests (the team's shared builders may not exist yet).
import type {Container, Pod, StaticPod} from '../../src/api/types.js'
import type {DNSConfig} from '../../src/cri/api.js'

export const UID = '0123456789abcdef0123456789abcdef'

/** A defaulted static pod `web-node1` in `default` with one container `app`. */
export function makeStaticPod(mutate: (pod: StaticPod['pod']) => void = () => {}): StaticPod {
  const pod: StaticPod['pod'] = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {name: 'web-node1', namespace: 'default', uid: UID, labels: {app: 'web'}, annotations: {note: 'hi'}},
    spec: {
      nodeName: 'node1',
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      containers: [makeContainer()],
    },
  }
  mutate(pod)
  return {pod, source: {kind: 'file', location: '/etc/kube-node/web.yaml', document: 0}, manifestName: 'web'}
}

export function makeContainer(overrides: Partial<Container> = {}): Container {
  return {
    name: 'app',
    image: 'nginx:1.27',
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    ...overrides,
  }
}

export function podOf(mutate: (pod: StaticPod['pod']) => void = () => {}): Pod {
  return makeStaticPod(mutate).pod
}

export const HOST_DNS: DNSConfig = {servers: ['192.168.1.1'], searches: ['lan'], options: ['edns0']}
