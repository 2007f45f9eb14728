// `events`: kubectl's columns (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE), or a v1 EventList.
import type {Event, EventList} from '../../api/types.js'
import chalk from 'chalk'
import {age} from './pod-row.js'
import {toJson, toYaml} from './output.js'
import {renderTable} from './table.js'

export type EventsFormat = 'table' | 'json' | 'yaml'

export const EVENT_HEADERS = ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']

/** The headers, with kubectl's NAMESPACE first when events of several namespaces are listed (-A). */
export function eventHeaders(namespaceColumn = false): string[] {
  return namespaceColumn ? ['NAMESPACE', ...EVENT_HEADERS] : EVENT_HEADERS
}

/** One event as a table row (the table escapes what a container or the runtime said). */
export function eventRow(e: Event, now: number, namespaceColumn = false): string[] {
  const row = [age(e.lastTimestamp, now), e.type ?? '', e.reason ?? '', `pod/${e.involvedObject.name ?? ''}`, e.message ?? '']
  return namespaceColumn ? [e.metadata.namespace ?? '', ...row] : row
}

export function renderEvents(list: EventList, format: EventsFormat, color: boolean, now: number, namespaceColumn = false): string {
  if (format === 'json') return toJson(list)
  if (format === 'yaml') return toYaml(list)
  if (list.items.length === 0) return ''
  return renderTable(eventHeaders(namespaceColumn), list.items.map((e) => eventRow(e, now, namespaceColumn)), {color, paint: paintType})
}

/** Warnings stand out on a terminal. */
export function paintType(column: string, value: string): string {
  return column === 'TYPE' && value === 'Warning' ? chalk.yellow(value) : value
}
