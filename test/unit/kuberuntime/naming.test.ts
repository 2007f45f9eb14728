import {describe, expect, it} from 'vitest'
import {containerLogPath, emptyDirPath, podDataDir, podLogDirectory} from '../../../src/kuberuntime/naming.js'

describe('naming', () => {
  it('puts pod logs in <podLogsDir>/<ns>_<name>_<uid>', () => {
    expect(podLogDirectory('/var/log/pods', 'kube-system', 'etcd-node1', 'abc')).toBe('/var/log/pods/kube-system_etcd-node1_abc')
  })
  it('names container logs <name>/<restartCount>.log', () => {
    expect(containerLogPath('etcd', 3)).toBe('etcd/3.log')
  })
  it('puts pod data under <root>/pods/<uid> and emptyDirs where the kubelet does', () => {
    expect(podDataDir('/var/lib/kube-node', 'abc')).toBe('/var/lib/kube-node/pods/abc')
    expect(emptyDirPath('/var/lib/kube-node/', 'abc', 'cache')).toBe('/var/lib/kube-node/pods/abc/volumes/kubernetes.io~empty-dir/cache')
  })
})
