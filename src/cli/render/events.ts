// `events`: kubectl's columns (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE), or a v1 EventList.
import type {Event, EventList} from '../../api/types.js'
import chalk from 'chalk'
import {age} from './pod-row.js'
import {toJson, toYaml} from './output.js'
import {renderTable} from './table.js'

export type EventsFormat = 'table' | 'json' | 'yaml'

export const EVENT_HEADERS = ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']

/** One event as a table row (the table escapes what a container or the runtime said). */
export function eventRow(e: Event, now: number): string[] {
  return [age(e.lastTimestamp, now), e.type ?? '', e.reason ?? '', `pod/${e.involvedObject.name ?? ''}`, e.message ?? '']
}

export function renderEvents(list: EventList, format: EventsFormat, color: boolean, now: number): string {
  if (format === 'json') return toJson(list)
  if (format === 'yaml') return toYaml(list)
  if (list.items.length === 0) return ''
  return renderTable(EVENT_HEADERS, list.items.map((e) => eventRow(e, now)), {color, paint: paintType})
}

/** Warnings stand out on a terminal. */
export function paintType(column: string, value: string): string {
  return column === 'TYPE' && value === 'Warning' ? chalk.yellow(value) : value
}
