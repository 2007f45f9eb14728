// `plan` and `run --dry-run`: per pod, the actions run would take and why.
import type {PodPlan} from '../../services/plan.js'
import {describeActions} from '../../decide/describe.js'
import {renderTable} from './table.js'
import {toJson, toYaml} from './output.js'
import chalk from 'chalk'

export function plansAsData(plans: PodPlan[]): unknown {
  return {
    pods: plans.map(({sp, plan, waitsFor}) => ({
      name: plan.name,
      namespace: plan.namespace,
      uid: plan.uid,
      source: sp.source.location,
      sandboxId: plan.sandboxId,
      actions: plan.actions,
      blocked: plan.blocked,
      terminal: plan.terminal,
      ...(waitsFor ? {startAfter: waitsFor} : {}),
    })),
  }
}

export function renderPlans(plans: PodPlan[], format: 'table' | 'json' | 'yaml', color: boolean): string {
  if (format === 'json') return toJson(plansAsData(plans))
  if (format === 'yaml') return toYaml(plansAsData(plans))
  const rows: string[][] = []
  for (const {plan, waitsFor} of plans) {
    const gate = waitsFor ? [`waits for ${waitsFor.map((n) => `"${n}"`).join(', ')} to be Ready (kube-node.io/start-after), then:`] : []
    const lines = [...gate, ...describeActions(plan)]
    lines.forEach((line, i) => rows.push([i === 0 ? plan.name : '', line]))
    for (const b of plan.blocked) rows.push(['', `${b.name} is waiting: ${b.reason} (${b.message})`])
  }
  return renderTable(['POD', 'ACTION'], rows, {color, paint: (col, v) => (col === 'ACTION' && v === 'nothing to do' ? chalk.green(v) : v)})
}
