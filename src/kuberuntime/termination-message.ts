// Termination messages (terminationMessagePath, terminationMessagePolicy), as the kubelet does
// them: before CreateContainer an empty file under the pod's directory is bind-mounted at the
// container's terminationMessagePath (apply/termination-message-file.ts); once the container has exited, what it wrote there (at most
// 4 KiB, the end of the file) becomes the message of its terminated state. With
// FallbackToLogsOnError, a failed container that wrote nothing gets the end of its log instead
// (the last 80 lines, at most 2 KiB). kuberuntime_container.go getTerminationMessage,
// readLastStringFromContainerLogs; kubelet_pods.go makeMounts.
import type {HostFs} from '../host/port.js'
import type {ContainerStatus} from '../cri/api.js'
import type {RuntimePod} from './model.js'
import {TERMINATION_MESSAGE_PATH_ANNOTATION, TERMINATION_MESSAGE_POLICY_ANNOTATION} from './labels.js'
import {errorMessage} from '../util/errors.js'

/** kube-node's annotation: the host file mounted at the container's terminationMessagePath. */
export const TERMINATION_MESSAGE_HOST_PATH_ANNOTATION = 'kube-node.io/termination-message-host-path'
export const DEFAULT_TERMINATION_MESSAGE_PATH = '/dev/termination-log'
/** kubecontainer.MaxContainerTerminationMessageLength. */
export const MAX_TERMINATION_MESSAGE_BYTES = 4096
/** kubecontainer.MaxContainerTerminationMessageLogLines / LogLength. */
export const MAX_LOG_LINES = 80
export const MAX_LOG_BYTES = 2048
// Far more than 80 CRI lines ending in 2 KiB of text can take, prefixes included.
const LOG_WINDOW_BYTES = 64 * 1024

export type TerminationMessagePolicy = 'File' | 'FallbackToLogsOnError' | string

/** What reading messages needs of the host: files a container wrote, read at positions. */
export type MessageFs = Pick<HostFs, 'openRead'>

/** The last `max` bytes of a file (the kubelet's tail.ReadAtMost), and whether it was longer. */
async function readTail(fs: MessageFs, path: string, max: number): Promise<{data: Buffer; start: number}> {
  const fh = await fs.openRead(path)
  try {
    const size = await fh.size()
    const start = Math.max(0, size - max)
    const buf = Buffer.alloc(size - start)
    const bytesRead = await fh.read(buf, 0, buf.length, start)
    return {data: buf.subarray(0, bytesRead), start}
  } finally {
    await fh.close()
  }
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as {code?: unknown}).code === 'ENOENT'
}

/**
 * The text of CRI log lines (`<time> <stream> <P|F>[:tags] <content>`): full lines end in a
 * newline, partial ones run on into the next. A line that does not parse is kept as it is.
 */
export function criLogText(lines: readonly string[]): string {
  let out = ''
  for (const line of lines) {
    const m = /^\S+ (?:stdout|stderr) (\S+) ?(.*)$/s.exec(line)
    if (!m) {
      out += `${line}\n`
      continue
    }
    const partial = m[1]!.split(':')[0] === 'P'
    out += partial ? m[2]! : `${m[2]!}\n`
  }
  return out
}

/** The end of a CRI log file: its last 80 lines as text, cut to the last 2 KiB. */
export async function readLogTail(fs: MessageFs, logPath: string): Promise<string> {
  const {data, start} = await readTail(fs, logPath, LOG_WINDOW_BYTES)
  let lines = data.toString().split('\n')
  if (lines.at(-1) === '') lines.pop()
  // The window may begin mid-line; that piece is not a line of its own.
  if (start > 0) lines = lines.slice(1)
  const text = Buffer.from(criLogText(lines.slice(-MAX_LOG_LINES)))
  return text.subarray(Math.max(0, text.length - MAX_LOG_BYTES)).toString()
}

/**
 * The message of an exited container: the end of its message file (at most 4 KiB); when the
 * policy is FallbackToLogsOnError, the exit code non-zero and the file empty or missing, the end
 * of its log. `hostPath` is '' when no file was mounted.
 */
export async function readTerminationMessage(fs: MessageFs, hostPath: string, policy: TerminationMessagePolicy, exitCode: number, logPath: string): Promise<string> {
  const fallback = policy === 'FallbackToLogsOnError' && exitCode !== 0
  let text = ''
  if (hostPath) {
    try {
      text = (await readTail(fs, hostPath, MAX_TERMINATION_MESSAGE_BYTES)).data.toString()
    } catch (err) {
      if (!isNotFound(err)) return `Error on reading termination log ${hostPath}: ${errorMessage(err)}`
    }
  }
  if (text || !fallback || !logPath) return text
  try {
    return await readLogTail(fs, logPath)
  } catch (err) {
    if (isNotFound(err)) return ''
    return `Error on reading termination message from logs: ${errorMessage(err)}`
  }
}

/** Reads the message of an exited container (readTerminationMessage with its host bound). */
export type TerminationMessageReader = (hostPath: string, policy: TerminationMessagePolicy, exitCode: number, logPath: string) => Promise<string>

export function terminationMessageReader(fs: MessageFs): TerminationMessageReader {
  return (hostPath, policy, exitCode, logPath) => readTerminationMessage(fs, hostPath, policy, exitCode, logPath)
}

/** For a runtime cache without a host (tests of the relist): no messages are read. */
export const noTerminationMessages: TerminationMessageReader = async () => ''

/** Where the container's message file is on the host: kube-node's annotation, else the mount at its terminationMessagePath. */
export function terminationMessageHostPath(status: ContainerStatus): string {
  const fromAnnotation = status.annotations[TERMINATION_MESSAGE_HOST_PATH_ANNOTATION]
  if (fromAnnotation) return fromAnnotation
  const containerPath = status.annotations[TERMINATION_MESSAGE_PATH_ANNOTATION]
  if (!containerPath) return ''
  return status.mounts.find((m) => m.containerPath === containerPath)?.hostPath ?? ''
}

/**
 * The pod with the termination message of every exited container appended to its runtime message
 * ("<runtime message>: <text>", as the kubelet). `statuses` are the ContainerStatus answers the
 * pod was built from (the runtime cache has them); containers without one are left as they are.
 */
export async function withTerminationMessages(
  pod: RuntimePod,
  statuses: ReadonlyMap<string, ContainerStatus>,
  read: TerminationMessageReader,
): Promise<RuntimePod> {
  const containers = await Promise.all(
    pod.containers.map(async (c) => {
      const status = statuses.get(c.id)
      if (c.state !== 'exited' || !status) return c
      // A container that could not even start has no logs worth reading.
      const policy = c.reason === 'ContainerCannotRun' ? 'File' : status.annotations[TERMINATION_MESSAGE_POLICY_ANNOTATION] ?? 'File'
      const text = await read(terminationMessageHostPath(status), policy, c.exitCode, c.logPath || status.logPath)
      if (!text) return c
      return {...c, message: c.message ? `${c.message}: ${text}` : text}
    }),
  )
  return {...pod, containers}
}
