// TCP socket handler: a connection opened within the timeout is success (kubelet pkg/probe/tcp).
import * as net from 'node:net'
import type {TCPSocketAction} from './actions.js'
import {joinHostPort, resolvePort, seconds, type HandlerOutcome, type HandlerTarget} from './target.js'

export async function runTcp(action: TCPSocketAction, target: HandlerTarget, timeoutMs: number): Promise<HandlerOutcome> {
  const resolved = resolvePort(action.port, target.ports)
  if ('error' in resolved) return {result: 'Error', output: resolved.error}
  const host = action.host || target.podIP
  const where = `dial tcp ${joinHostPort(host, resolved.port)}`
  return new Promise((resolve) => {
    const socket = net.connect({host, port: resolved.port})
    const finish = (outcome: HandlerOutcome): void => {
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    const timer = setTimeout(() => finish({result: 'Failure', output: `${where}: i/o timeout after ${seconds(timeoutMs)}`}), timeoutMs)
    socket.once('connect', () => finish({result: 'Success', output: ''}))
    socket.once('error', (err) => finish({result: 'Failure', output: `${where}: ${err.message}`}))
  })
}
