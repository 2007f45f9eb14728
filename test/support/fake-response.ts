// A node:http ServerResponse as the API's long responses use it: writes are kept, `accepts`
// decides what write returns (false: the socket's buffer is full), and destroy emits close.
import {EventEmitter} from 'node:events'
import type {ServerResponse} from 'node:http'

export class FakeResponse extends EventEmitter {
  destroyed = false
  written: Buffer[] = []
  accepts = true
  write(chunk: Buffer): boolean {
    this.written.push(chunk)
    return this.accepts
  }
  destroy(): void {
    this.destroyed = true
    this.emit('close')
  }
}

export const fakeResponse = (): FakeResponse & ServerResponse => new FakeResponse() as FakeResponse & ServerResponse
