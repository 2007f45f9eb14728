// `exec`: run a command in a running container through CRI ExecSync.
import type {ExecSyncResult} from '../cri/api.js'
import type {KubeNode} from '../node/create-node.js'
import {selectOne} from './query/select-pods.js'
import {InvalidInputError, NotFoundError} from '../util/errors.js'

export interface ExecRequest {
  pod: string
  namespace?: string | undefined
  container?: string
  command: string[]
  timeoutSeconds: number
}

export async function execInContainer(node: KubeNode, req: ExecRequest): Promise<ExecSyncResult> {
  if (req.command.length === 0) throw new InvalidInputError('exec needs a command after --, e.g. kube-node exec web -- ls /')
  const pod = (await selectOne(node, {name: req.pod, namespace: req.namespace})).managed
  const specNames = pod.sp.pod.spec.containers.map((c) => c.name)
  const name = req.container ?? specNames[0]
  const target = pod.observed.containers.find((c) => c.name === name && c.state === 'running')
  if (!target) throw new NotFoundError(`container "${name}" in pod "${pod.observed.name}" is not running`)
  return node.runtime.execSync(target.id, req.command, req.timeoutSeconds)
}
