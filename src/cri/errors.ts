// Questions the core asks about CRI failures, without knowing anything about gRPC.
import {CriError, type CriErrorCode} from '../util/errors.js'

export function isCriError(err: unknown, code?: CriErrorCode): err is CriError {
  return err instanceof CriError && (code === undefined || err.code === code)
}

/** The sandbox, container or image is already gone: cleanup paths treat this as success. */
export function isNotFound(err: unknown): boolean {
  return isCriError(err, 'NotFound')
}
