import { defineConfig } from 'vitest/config'

// Tier 1: pure code (shared/, client/ logic) in Node.
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    silent: 'passed-only',
  },
})
