// gRPC failures → CriError: the port promises every rejection names its call and carries one of
// a few codes that the core can act on (NotFound during cleanup is fine, Unavailable means the
// runtime is down, and so on).
import {status as GrpcStatus} from '@grpc/grpc-js'
import {CriError, type CriErrorCode} from '../../util/errors.js'

const codes: ReadonlyMap<number, CriErrorCode> = new Map([
  [GrpcStatus.NOT_FOUND, 'NotFound'],
  [GrpcStatus.ALREADY_EXISTS, 'AlreadyExists'],
  [GrpcStatus.DEADLINE_EXCEEDED, 'DeadlineExceeded'],
  [GrpcStatus.UNAVAILABLE, 'Unavailable'],
  [GrpcStatus.INVALID_ARGUMENT, 'InvalidArgument'],
  [GrpcStatus.CANCELLED, 'Cancelled'],
])

export function criCodeOf(grpcCode: number): CriErrorCode {
  return codes.get(grpcCode) ?? 'Unknown'
}

interface GrpcLikeError {
  code: number
  details: string
}

function isGrpcError(err: unknown): err is GrpcLikeError {
  if (typeof err !== 'object' || err === null) return false
  const e = err as Record<string, unknown>
  return typeof e['code'] === 'number' && typeof e['details'] === 'string'
}

/** Wraps whatever a call threw (a gRPC status, or a local error such as a serialisation failure). */
export function toCriError(call: string, err: unknown): CriError {
  if (err instanceof CriError) return err
  // grpc-js may end a detail with an empty "Resolution note: ": nothing a reader needs.
  if (isGrpcError(err)) return new CriError(call, criCodeOf(err.code), err.details.replace(/\.?\s*Resolution note:\s*$/, ''), {cause: err})
  const detail = err instanceof Error ? err.message : String(err)
  return new CriError(call, 'Unknown', detail, {cause: err})
}
