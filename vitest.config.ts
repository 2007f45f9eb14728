import {defineConfig} from 'vitest/config'

// Unit tests (test/unit: no I/O, fake CRI, fake clock) and integration tests (test/integration:
// the core and the host adapters against temp dirs, loopback sockets and the fake CRI).
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    clearMocks: true,
    restoreMocks: true,
  },
})
