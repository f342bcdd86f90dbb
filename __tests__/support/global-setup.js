// Builds dist/ once before the suites run, so CLI tests spawn the current code.
const { execFileSync } = require('child_process');
const path = require('path');

module.exports = async function globalSetup() {
  const root = path.join(__dirname, '..', '..');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json')], {
    cwd: root,
    stdio: 'inherit',
  });
};
