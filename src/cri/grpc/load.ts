// Loads the CRI API once per process from the code generated out of proto/api.proto
// (./generated/codecs.ts, `npm run gen:cri`): protobufjs's static encoders and decoders, written
// ahead of time, so a CLI start neither parses the .proto nor builds codecs by reflection, which
// cost it tens of milliseconds. Messages are (de)serialised exactly as proto-loader does with
// PROTO_LOADER_OPTIONS, so the proto-loader types in ./generated describe them.
import {makeClientConstructor, type ServiceDefinition} from '@grpc/grpc-js'
import type {ProtoGrpcType} from './generated/api.js'
import {runtime, SERVICES} from './generated/codecs.js'

/** The options the generated types were made with (scripts/gen-cri.mjs). */
export const PROTO_LOADER_OPTIONS = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
} as const

const PACKAGE = 'runtime.v1'

/** The part of a generated message class the clients use. */
interface Codec {
  fromObject(value: object): object
  encode(message: object): {finish(): Uint8Array}
  decode(bytes: Uint8Array): object
  toObject(message: object, options: typeof PROTO_LOADER_OPTIONS): object
}

const messages = (runtime as unknown as {v1: Record<string, Codec>}).v1
const services = SERVICES as unknown as Record<'RuntimeService' | 'ImageService', Record<string, [string, string]>>

function codec(name: string): Codec {
  const found = messages[name]
  if (!found) throw new Error(`CRI message ${name} is missing from the generated codecs`)
  return found
}

function serviceDefinition(name: keyof typeof services): ServiceDefinition {
  const def: Record<string, ServiceDefinition[string]> = {}
  for (const [method, [requestType, responseType]] of Object.entries(services[name])) {
    const request = codec(requestType)
    const response = codec(responseType)
    def[method] = {
      path: `/${PACKAGE}.${name}/${method}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (value: object) => Buffer.from(request.encode(request.fromObject(value)).finish()),
      requestDeserialize: (bytes: Buffer) => request.toObject(request.decode(bytes), PROTO_LOADER_OPTIONS),
      responseSerialize: (value: object) => Buffer.from(response.encode(response.fromObject(value)).finish()),
      responseDeserialize: (bytes: Buffer) => response.toObject(response.decode(bytes), PROTO_LOADER_OPTIONS),
      originalName: method.charAt(0).toLowerCase() + method.slice(1),
    }
  }
  return def
}

let cached: ProtoGrpcType | undefined

export function loadCriProto(): ProtoGrpcType {
  if (!cached) {
    const v1: Record<string, unknown> = {}
    for (const name of ['RuntimeService', 'ImageService'] as const) {
      const def = serviceDefinition(name)
      v1[name] = Object.assign(makeClientConstructor(def, name), {service: def})
    }
    // The generated ProtoGrpcType describes exactly this shape: runtime.v1.{RuntimeService,ImageService}.
    cached = {runtime: {v1}} as unknown as ProtoGrpcType
  }
  return cached
}
