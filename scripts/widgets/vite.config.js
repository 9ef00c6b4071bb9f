// The widget app of make widgets-check: our own pages on real component
// libraries, built once into dist/ and served by the e2e test
// (e2e/widgets_check_test.go) on two origins.
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Monaco and AG Grid are big; the app is served locally, its size is
    // no one's concern, and the warning would only be noise in CI.
    chunkSizeWarningLimit: 20000,
    reportCompressedSize: false,
  },
  worker: { format: 'es' },
})
