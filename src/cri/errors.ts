// Questions the core asks about CRI failures, without knowing anything about gRPC.
import {CriError, type CriErrorCode} from '../util/errors.js'

export function isCriError(err: unknown, code?: CriErrorCode): err is CriError {
  return err instanceof CriError && (code === undefined || err.code === code)
}

/** The sandbox, container or image is already gone: cleanup paths treat this as success. */
export function isNotFound(err: unknown): boolean {
  return isCriError(err, 'NotFound')
}

/**
 * The runtime is still starting a container of the object, and refuses to remove it until then
 * (containerd: "container is in starting state, can't be removed"): a StartContainer whose
 * caller was killed goes on in the runtime for a moment. Worth trying again shortly.
 */
export function isStillStarting(err: unknown): boolean {
  return isCriError(err) && /\bin starting state\b/.test(err.detail)
}

/**
 * The call's result, or undefined when the object is gone: a container or sandbox can disappear
 * between a list and a status call, and a cleanup of something already removed is done.
 */
export async function ignoreNotFound<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p
  } catch (err) {
    if (isNotFound(err)) return undefined
    throw err
  }
}
