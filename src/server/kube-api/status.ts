// The v1 `Status` body every Kubernetes client understands as an error: kubectl prints
// `Error from server (Reason): message`. Pure.

export type StatusReason = 'Unauthorized' | 'NotFound' | 'MethodNotAllowed' | 'BadRequest' | 'Forbidden' | 'TooManyRequests' | 'Expired' | 'InternalError' | 'NotAcceptable' | 'Invalid' | 'Timeout'

export interface StatusCause {
  reason: string
  message: string
  field?: string
}

export interface StatusDetails {
  name?: string
  group?: string
  kind?: string
  causes?: StatusCause[]
  retryAfterSeconds?: number
}

export interface KubeStatus {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Failure'
  message: string
  reason: StatusReason
  details?: StatusDetails
  code: number
}

const CODES: Readonly<Record<StatusReason, number>> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  Expired: 410,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  Timeout: 504,
}

export function failure(reason: StatusReason, message: string, details?: StatusDetails): KubeStatus {
  return {kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? {details} : {}), code: CODES[reason]}
}

/** An error a handler throws to answer with a Status. */
export class ApiError extends Error {
  constructor(readonly status: KubeStatus) {
    super(status.message)
  }
}

export const notFound = (kind: string, name: string): ApiError => new ApiError(failure('NotFound', `${kind} "${name}" not found`, {name, kind}))
export const badRequest = (message: string): ApiError => new ApiError(failure('BadRequest', message))
