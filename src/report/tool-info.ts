/** The tool's name, version and home, for reports that name their producer (SARIF). */
import * as fs from 'fs';
import * as path from 'path';

export const TOOL_NAME = 'httpd-codemod';

let version: string | undefined;

/** The version in the package's package.json (found upwards from this module: src/ under ts-jest, dist/src/ when built or installed). */
export function toolVersion(): string {
  if (version !== undefined) return version;
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === TOOL_NAME && pkg.version) return (version = pkg.version);
    }
    if (path.dirname(dir) === dir) return (version = '0.0.0');
  }
}
