// x
// bench's output directory, reporters and artifacts.
import base from './playwright.config';

const out = process.env.E2E_MCP_BENCH_OUT || 'bench-out';
const artifacts = process.env.E2E_MCP_BENCH_ARTIFACTS === '1';

export default {
  ...base,
  outputDir: out + '/test-results',
  reporter: artifacts
    ? [['junit', { outputFile: out + '/junit.xml' }], ['html', { outputFolder: out + '/report', open: 'never' }]]
    : [['junit', { outputFile: out + '/junit.xml' }]],
  use: { ...base.use, ...(artifacts ? { trace: 'on', screenshot: 'on' } : {}) },
};
