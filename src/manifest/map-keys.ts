// Mapping keys, checked in one pass before a document becomes JavaScript: a key must be a plain
// value (Kubernetes objects are JSON: string keys only) and must not repeat in its map. The YAML
// library's own duplicate check compares every key with every other, and turning a collection
// key into text walks the whole document each time: both take seconds to minutes on inputs well
// inside the limits. A set per map keeps this linear. Pure.
import {isMap, isPair, isScalar, isSeq, type Document, type Node} from 'yaml'

export interface KeyProblem {
  offset: number
  message: string
}

/** The first key that is not a plain value or repeats an earlier key of its map, or undefined. */
export function firstKeyProblem(doc: Document): KeyProblem | undefined {
  const stack: unknown[] = [doc.contents]
  while (stack.length > 0) {
    const node = stack.pop()
    if (isMap(node)) {
      const seen = new Set<string>()
      for (const item of node.items) {
        if (!isPair(item)) continue
        const key = item.key as Node | null
        if (key !== null && !isScalar(key)) {
          return {offset: key.range?.[0] ?? 0, message: 'a mapping key must be a plain value, not a list, a map or an alias'}
        }
        if (key !== null) {
          const id = `${typeof key.value}:${String(key.value)}`
          if (seen.has(id)) return {offset: key.range?.[0] ?? 0, message: 'map keys must be unique'}
          seen.add(id)
        }
        if (item.value) stack.push(item.value)
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item as Node)
    }
  }
  return undefined
}
