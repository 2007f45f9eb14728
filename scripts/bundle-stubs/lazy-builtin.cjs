// A lazy view of a Node built-in module, for the bundle (scripts/bundle.mjs, `lazyBuiltins`).
// Some importers in the bundle require a built-in at load but use it only on paths kube-node never
// or rarely takes (oclif spawns PowerShell on Windows only; grpc-js compresses only when told to):
// each such require is given this view instead, and the real module is loaded the first time one
// of its members is read. A Proxy rather than getters over a key list: it needs no list of the
// module's keys taken at build time, which another Node might not match. It forwards what the
// importers do (read a member, `in`, list and describe the keys, assign); the real module is the
// receiver of its own getters (dns's `promises`). A method called on the view gets the view as
// `this`; the built-ins it is used for do not read `this` in the functions their importers call.
'use strict'

/**
 * @template {object} T
 * @param {() => T} load requires the real module; called once, at the first read.
 * @returns {T}
 */
module.exports = function lazyBuiltin(load) {
  /** @type {T | undefined} */
  let real
  const module = () => (real ??= load())
  return new Proxy({}, {
    get: (_target, key) => Reflect.get(module(), key),
    has: (_target, key) => Reflect.has(module(), key),
    set: (_target, key, value) => Reflect.set(module(), key, value),
    ownKeys: () => Reflect.ownKeys(module()),
    getOwnPropertyDescriptor(_target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(module(), key)
      // A Proxy may not report a property its (empty) target lacks as non-configurable.
      return descriptor && {...descriptor, configurable: true}
    },
  })
}
