// Upgrade note "Modules": modules that 2.4 needs for the migrated directives must be loaded.
// Runs last and writes each requested LoadModule once, beside the lines that already load modules.
import { Directive, NewLine, directives, insertAfter } from '../src/cst';
import { SourceFile } from '../src/server/types';
import { ModuleRequest, Transform } from './types';

interface LoadSite {
  readonly file: SourceFile;
  readonly last: Directive;
}

/** The file and line after which new LoadModule lines go: the file that loads the most modules. */
function findLoadSite(files: readonly SourceFile[]): LoadSite | null {
  let best: LoadSite | null = null;
  let bestCount = 0;
  for (const file of files) {
    const loads = [...directives(file.tree, 'LoadModule')];
    if (loads.length > bestCount) {
      best = { file, last: loads[loads.length - 1] };
      bestCount = loads.length;
    }
  }
  return best;
}

/** `modules/mod_foo.so` → `modules/mod_${name}.so`, keeping the directory of an existing line. */
function modulePath(example: Directive, module: string): string {
  const path = example.values[1] ?? '';
  const slash = path.lastIndexOf('/');
  return `${slash === -1 ? '' : path.slice(0, slash + 1)}mod_${module}.so`;
}

function loadedModules(files: readonly SourceFile[]): Set<string> {
  const loaded = new Set<string>();
  for (const file of files) {
    for (const d of directives(file.tree, 'LoadModule')) {
      const id = d.values[0] ?? '';
      loaded.add(id.replace(/_module$/, ''));
    }
  }
  return loaded;
}

export const loadModules: Transform = {
  id: 'load-modules',
  title: 'Load the modules that migrated directives need',
  row: 'Modules: LoadModule lines for modules 2.4 needs (planned once per server)',
  order: 9000,
  applyServer(server, ctx) {
    const wanted = new Map<string, ModuleRequest>();
    for (const request of ctx.moduleRequests) if (!wanted.has(request.module)) wanted.set(request.module, request);
    if (wanted.size === 0) return;
    const loaded = loadedModules(server.files);
    const missing = [...wanted.values()].filter((r) => !loaded.has(r.module));
    if (missing.length === 0) return;
    const site = findLoadSite(server.files);
    if (!site) {
      for (const request of missing) {
        const file = server.files.find((f) => f.displayPath === request.file) ?? server.files[0];
        ctx.noteIn(
          file,
          null,
          'module-needed',
          server.main
            ? `load ${request.module}_module on 2.4 (${request.reason}); this server has no LoadModule lines to add it beside`
            : `the main config must load ${request.module}_module on 2.4 (${request.reason}); it was not part of this run`,
          server.main ? 'manual' : 'review',
        );
      }
      return;
    }
    const lines: NewLine[] = [];
    for (const request of missing) {
      lines.push(
        `<IfModule !${request.module}_module>`,
        { text: `LoadModule ${request.module}_module ${modulePath(site.last, request.module)}`, depth: 1 },
        `</IfModule>`,
      );
      ctx.noteIn(site.file, null, 'module-loaded', `loads ${request.module}_module: ${request.reason}`, 'info');
    }
    insertAfter(site.last, lines);
  },
};
