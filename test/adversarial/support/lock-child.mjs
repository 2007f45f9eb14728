// Takes kube-node's lock on a root dir (built code), says what happened on one line, and holds
// the lock until killed or until stdin closes.
const {acquireLock} = await import(new URL('../../../dist/node/lock.js', import.meta.url).href)
try {
  const lock = await acquireLock(process.argv[2])
  process.stdout.write(`held ${process.pid}\n`)
  process.stdin.resume()
  process.stdin.on('end', async () => {
    await lock.release()
    process.exit(0)
  })
} catch (err) {
  process.stdout.write(`refused ${err.message}\n`)
  process.exit(3)
}
