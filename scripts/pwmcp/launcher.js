// make pwmcp-check puts this file where Playwright MCP's test fixtures
// start their server (packages/playwright-core/lib/entry/mcp.js, run as
// `node mcp.js ARGS`): it runs the e2e-mcp binary named by E2E_MCP_BIN with
// the same arguments, the same stdin, stdout and stderr, and the same
// environment, and ends as it ends (its exit code, or its signal).
//
// No orphans: a signal that ends this process is passed on to the server
// first; on Linux the server is also started under `setpriv --pdeathsig`,
// so that it gets SIGTERM even when this process is killed with SIGKILL.
'use strict';

const { spawn } = require('child_process');
const fs = require('fs');

const bin = process.env.E2E_MCP_BIN;
if (!bin) {
  process.stderr.write('pwmcp launcher: E2E_MCP_BIN is not set (the e2e-mcp binary to run)\n');
  process.exit(2);
}

let command = bin;
let args = process.argv.slice(2);
const setpriv = '/usr/bin/setpriv';
if (process.platform === 'linux' && fs.existsSync(setpriv)) {
  args = ['--pdeathsig', 'TERM', '--', bin, ...args];
  command = setpriv;
}

const child = spawn(command, args, { stdio: 'inherit' });

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null)
      child.kill(signal);
  });
}

// Should this process leave before the server (an uncaught error), the
// server goes too.
process.on('exit', () => {
  if (child.exitCode === null && child.signalCode === null)
    child.kill('SIGTERM');
});

child.on('error', err => {
  process.stderr.write(`pwmcp launcher: cannot start ${bin}: ${err.message}\n`);
  process.exit(127);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // End as the server ended: by the same signal, with the default action.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
