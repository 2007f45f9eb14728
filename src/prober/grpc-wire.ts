// The gRPC health protocol on the wire, by hand so that only cri/grpc depends on @grpc/*:
// length-prefixed messages (grpc PROTOCOL-HTTP2.md) holding grpc.health.v1 HealthCheckRequest
// {string service = 1} and HealthCheckResponse {ServingStatus status = 1}.

export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check'
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const
export const GRPC_CODES = [
  'OK', 'Canceled', 'Unknown', 'InvalidArgument', 'DeadlineExceeded', 'NotFound', 'AlreadyExists',
  'PermissionDenied', 'ResourceExhausted', 'FailedPrecondition', 'Aborted', 'OutOfRange',
  'Unimplemented', 'Internal', 'Unavailable', 'DataLoss', 'Unauthenticated',
] as const

function varint(n: number): number[] {
  const out: number[] = []
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  out.push(n)
  return out
}

/** One uncompressed gRPC message holding HealthCheckRequest (an empty service is left out, as proto3 does). */
export function encodeHealthCheckRequest(service: string): Buffer {
  const name = Buffer.from(service)
  const body = name.length === 0 ? Buffer.alloc(0) : Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name])
  const prefix = Buffer.alloc(5)
  prefix.writeUInt32BE(body.length, 1)
  return Buffer.concat([prefix, body])
}

class Reader {
  pos = 0
  constructor(private readonly buf: Buffer) {}
  get done(): boolean {
    return this.pos >= this.buf.length
  }
  varint(): number {
    let n = 0
    for (let shift = 0; shift < 64; shift += 7) {
      const b = this.buf[this.pos++]
      if (b === undefined) throw new Error('truncated varint')
      n += (b & 0x7f) * 2 ** shift
      if ((b & 0x80) === 0) return n
    }
    throw new Error('varint too long')
  }
  skip(n: number): void {
    if (this.pos + n > this.buf.length) throw new Error('truncated field')
    this.pos += n
  }
}

/** The status number of the first message in a response body; throws on a malformed body. */
export function decodeHealthCheckResponse(data: Buffer): number {
  if (data.length < 5) throw new Error('response has no message')
  if (data[0] !== 0) throw new Error('response message is compressed')
  const len = data.readUInt32BE(1)
  if (data.length < 5 + len) throw new Error('response message is truncated')
  const r = new Reader(data.subarray(5, 5 + len))
  let status = 0
  while (!r.done) {
    const tag = r.varint()
    const wire = tag & 7
    if (tag >>> 3 === 1 && wire === 0) status = r.varint()
    else if (wire === 0) r.varint()
    else if (wire === 1) r.skip(8)
    else if (wire === 2) r.skip(r.varint())
    else if (wire === 5) r.skip(4)
    else throw new Error(`unsupported wire type ${wire}`)
  }
  return status
}
