// One API request as the handlers see it, and what they share: the pods' hub, the open streams.
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Query} from './query.js'
import type {IncludeObject} from './table.js'
import type {PodHub} from './pod-hub.js'
import type {Streams} from './streams.js'
import type {TurnShare} from './turn-share.js'
import type {KubeApiData} from './types.js'

export interface ApiRequest {
  req: IncomingMessage
  res: ServerResponse
  query: Query
  /** The client asked for the Table form. */
  table: boolean
  include: IncludeObject
}

export interface ApiContext {
  data: KubeApiData
  hub: PodHub
  streams: Streams
  /** Each event-loop turn's share of sending, for every log read together. */
  share: TurnShare
  now: () => number
}
