import {defineConfig} from 'vitest/config'

// Unit and integration tests: no I/O beyond temp dirs, fake CRI, fake clock.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    clearMocks: true,
    restoreMocks: true,
  },
})
