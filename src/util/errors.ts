// Typed errors. Each carries the context a person needs; cli/ turns them into one sentence and
// an exit code. The core throws these and never decides exit codes itself.

/** A file (or body) larger than the limit its reader set. */
export class TooLargeError extends RangeError {}

export abstract class KubeNodeError extends Error {
  abstract readonly kind: string
  constructor(message: string, options?: {cause?: unknown}) {
    super(message, options)
    this.name = new.target.name
  }
}

/** One problem in a manifest: where it is and what is wrong. */
export interface FieldIssue {
  /** File path, URL or `-`. */
  location: string
  /** 0-based document index inside the location (YAML document or List item). */
  document: number
  /** Field path such as `spec.containers[0].image`; empty for a document-level problem. */
  field: string
  message: string
}

export function formatIssue(i: FieldIssue): string {
  const where = `${i.location === '-' ? '<stdin>' : i.location}, document ${i.document}`
  return i.field ? `${where}, field ${i.field}: ${i.message}` : `${where}: ${i.message}`
}

/** Bad input (manifests, flags, config). Nothing was changed in the runtime. Exit code 2. */
export class InvalidInputError extends KubeNodeError {
  readonly kind = 'InvalidInput'
  readonly issues: readonly FieldIssue[]
  constructor(issues: readonly FieldIssue[] | string) {
    const list = typeof issues === 'string' ? [] : issues
    const message =
      typeof issues === 'string'
        ? issues
        : list.length === 1
          ? formatIssue(list[0]!)
          : `${list.length} problems: ${list.map(formatIssue).join('; ')}`
    super(message)
    this.issues = list
  }
}

/** The CRI runtime answered with an error or did not answer in time. */
export type CriErrorCode =
  | 'NotFound'
  | 'AlreadyExists'
  | 'DeadlineExceeded'
  | 'Unavailable'
  | 'InvalidArgument'
  /** The caller cancelled the call (its AbortSignal fired), e.g. a pull of a pod being killed. */
  | 'Cancelled'
  | 'Unknown'

export class CriError extends KubeNodeError {
  readonly kind = 'Cri'
  constructor(
    readonly call: string,
    readonly code: CriErrorCode,
    readonly detail: string,
    options?: {cause?: unknown},
  ) {
    super(`CRI ${call} failed (${code}): ${detail}`, options)
  }
}

/** A pod, container or other named thing does not exist. Exit code 1. */
export class NotFoundError extends KubeNodeError {
  readonly kind = 'NotFound'
}

/** The runtime could not bring a pod to its goal (failed pod, timeout). Exit code 1. */
export class PodFailedError extends KubeNodeError {
  readonly kind = 'PodFailed'
}

/** A server cannot listen on its address and port (taken, not permitted). Exit code 1: the input may be fine. */
export class ListenError extends KubeNodeError {
  readonly kind = 'Listen'
}

/** Something that must not happen: a bug in kube-node. */
export class InternalError extends KubeNodeError {
  readonly kind = 'Internal'
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** gRPC's code names as Go spells them (codes.Code.String()), by code number. */
const GO_GRPC_CODES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists', 'PermissionDenied',
  'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange', 'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated',
] as const

/**
 * A runtime error as the kubelet shows it (a gRPC status error's Go text):
 * `rpc error: code = NotFound desc = failed to pull and unpack image …`, without kube-node's
 * `CRI PullImage failed (NotFound):` prefix; anything else, its own message.
 */
export function runtimeErrorText(err: unknown): string {
  if (!(err instanceof CriError)) return errorMessage(err)
  const wire = (err.cause as {code?: unknown} | undefined)?.code
  const name = typeof wire === 'number' && GO_GRPC_CODES[wire] !== undefined ? GO_GRPC_CODES[wire] : err.code === 'Cancelled' ? 'Canceled' : err.code
  return `rpc error: code = ${name} desc = ${err.detail}`
}
