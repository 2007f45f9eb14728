import {describe, expect, it} from 'vitest'
import {watchRefusal, type GuardedCommand, type WatchedPod} from '../../../src/services/watch-refusal.js'

const ROOT = '/var/lib/kube-node'

describe('watchRefusal: run, delete and down on the root dir of a running watch', () => {
  const rows: Array<[string, GuardedCommand, number | undefined, WatchedPod[], RegExp | undefined]> = [
    ['no watch runs: every command goes on', 'delete', undefined, [{name: 'api'}], undefined],
    ['nothing to act on: nothing to refuse', 'down', 42, [], undefined],
    ['run of a pod the watch does not run is refused', 'run', 42, [{name: 'web'}], /^kube-node watch \(pid 42\) manages root dir \/var\/lib\/kube-node and would undo pod "web" within seconds .*: put the manifest in the directory watch reads, or use another --root-dir$/],
    ['run of a pod the watch runs from an older manifest is refused', 'run', 42, [{name: 'web', sameAsWatch: false}, {name: 'db', sameAsWatch: true}], /would undo pod "web" within/],
    ['run of pods the watch runs from the same manifests goes on', 'run', 42, [{name: 'web', sameAsWatch: true}], undefined],
    ['delete names the manifest to remove instead', 'delete', 42, [{name: 'api', managed: true, manifest: '/etc/kube-node/manifests/api.yaml'}], /^kube-node watch \(pid 42\) manages root dir \/var\/lib\/kube-node and would start pod "api" again: remove the manifest from what watch reads \(\/etc\/kube-node\/manifests\/api\.yaml\), or stop watch first \(its pods keep running\) and then delete$/],
    ['down of several pods names each manifest once', 'down', 7, [{name: 'a', managed: true, manifest: '/m/a.yaml'}, {name: 'b', managed: true, manifest: '/m/a.yaml'}, {name: 'c', managed: true, manifest: '/m/c.yaml'}], /would start pods "a", "b", "c" again: remove the manifests from what watch reads \(\/m\/a\.yaml, \/m\/c\.yaml\), or stop watch first \(its pods keep running\) and then down$/],
    ['a pod of unknown origin is refused without a file', 'down', 7, [{name: 'x', managed: true}], /would start pod "x" again: remove the manifest from what watch reads, or stop/],
    ['a pod the watch does not manage may go (the watch would remove it itself)', 'delete', 7, [{name: 'old', managed: false}], undefined],
    ['down --all names only the pods the watch would start again', 'down', 7, [{name: 'old'}, {name: 'web', managed: true}], /would start pod "web" again/],
  ]
  it.each(rows)('%s', (_, command, pid, pods, want) => {
    const got = watchRefusal(command, ROOT, pid, pods)
    if (want === undefined) expect(got).toBeUndefined()
    else expect(got).toMatch(want)
  })

  it('never suggests a command the watch would undo', () => {
    for (const command of ['run', 'delete', 'down'] as const) {
      expect(watchRefusal(command, ROOT, 1, [{name: 'p', managed: true}])).not.toMatch(/kube-node (delete|down|run)\b/)
    }
  })
})
