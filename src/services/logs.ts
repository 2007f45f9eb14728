// `logs`: find the pod and container kube-node runs, then stream its CRI log file.
import type {KubeNode} from '../node/create-node.js'
import {selectOne} from './query/select-pods.js'
import {streamContainerLog, type LogOptions, type LogWriter} from '../kuberuntime/logs.js'
import {InvalidInputError, NotFoundError} from '../util/errors.js'
import {isPlainlyInside} from '../util/contained-path.js'

export interface LogsRequest extends LogOptions {
  pod: string
  /** Only a pod of this namespace (the API names pods by namespace and name). */
  namespace?: string | undefined
  container?: string | undefined
  previous: boolean
}

export async function containerLog(node: KubeNode, req: LogsRequest, write: LogWriter): Promise<void> {
  const pod = (await selectOne(node, {name: req.pod, namespace: req.namespace})).managed
  const names = [...new Set(pod.observed.containers.map((c) => c.name))]
  const specNames = pod.sp.pod.spec.containers.map((c) => c.name)
  let name = req.container
  if (!name) {
    if (specNames.length > 1) {
      throw new InvalidInputError(`pod "${pod.observed.name}" has several containers; choose one with -c: ${specNames.join(', ')}`)
    }
    name = specNames[0] ?? names[0]
  }
  const instances = pod.observed.containers.filter((c) => c.name === name)
  if (instances.length === 0) throw new NotFoundError(`container "${name}" not found in pod "${pod.observed.name}"`)
  const target = req.previous ? instances[1] : instances[0]
  if (!target) throw new NotFoundError(`container "${name}" in pod "${pod.observed.name}" has no previous instance`)
  if (!target.logPath) throw new NotFoundError(`container "${name}" in pod "${pod.observed.name}" has no log file`)
  // The runtime reports the path; kube-node reads only below its own --pod-logs-dir.
  if (!isPlainlyInside(node.config.podLogsDir, target.logPath)) {
    throw new NotFoundError(`container "${name}" in pod "${pod.observed.name}" has its log outside --pod-logs-dir (${node.config.podLogsDir})`)
  }
  await streamContainerLog(target.logPath, req, write, node.clock, node.fs)
}
