#!/usr/bin/env node
// Rewrites the README's Findings tables from the catalogue (src/report/finding-codes.ts, built into
// dist/): `npm run build && node scripts/render-finding-tables.js`. __tests__/report-finding-codes.test.ts
// checks that the README holds exactly this rendering.
const fs = require('fs');
const path = require('path');
const { FINDING_GROUPS } = require('../dist/src/report/finding-codes');

function renderTables() {
  return FINDING_GROUPS.map(
    (g) =>
      `**${g.title}**\n\n| code | severity | meaning |\n|---|---|---|\n` +
      g.codes.map((c) => `| \`${c.code}\` | ${c.severities.join(' / ')} | ${c.meaning.replace(/\|/g, '\\|')} |\n`).join(''),
  ).join('\n');
}

module.exports = { renderTables };

if (require.main === module) {
  const file = path.join(__dirname, '..', 'README.md');
  const readme = fs.readFileSync(file, 'utf8');
  const first = `**${FINDING_GROUPS[0].title}**`;
  const start = readme.indexOf(first);
  const lastTitle = `**${FINDING_GROUPS[FINDING_GROUPS.length - 1].title}**`;
  const lastStart = readme.indexOf(lastTitle);
  if (start < 0 || lastStart < 0) throw new Error('README: the Findings tables were not found');
  // the last table ends at the first line after it that is not a table row
  const after = readme.slice(lastStart).split('\n');
  let end = lastStart;
  let inTable = false;
  for (const line of after) {
    if (line.startsWith('|')) inTable = true;
    else if (inTable) break;
    end += line.length + 1;
  }
  fs.writeFileSync(file, readme.slice(0, start) + renderTables() + readme.slice(end));
}
