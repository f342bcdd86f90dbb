// Not in the upgrade notes; found reading files: a UTF-8 byte order mark at the start of a file.
//
// httpd 2.2 and 2.4 skip a leading EF BB BF only when built for Windows (`#ifdef WIN32` in
// server/util.c ap_pcfg_openfile, both branches). On Unix the three bytes become part of the
// first directive's name: 2.4.71 stops with `Invalid command '\xef\xbb\xbfServerRoot'` (a comment
// or blank first line fails the same way), and a .htaccess file with a BOM answers 500 for every
// request it covers. 2.2 on Unix did the same, so:
// - a config file (main, included or fragment) with a BOM was only ever read by a Windows build
//   (which dropped the BOM) or not at all; the BOM is removed so 2.4 on Unix reads the file as
//   Windows did (`review`: check the file is meant to be loaded, its lines now take effect);
// - a .htaccess file with a BOM made 2.2 answer 500 for its whole directory. Removing the BOM
//   would put its directives into effect, which may open what the 500 closed: left alone,
//   reported `manual`.
import { ConfigFile, Node } from '../src/cst';
import { Transform } from './types';

const BOM = '\xEF\xBB\xBF';

function firstLine(tree: ConfigFile): Node | null {
  return tree.body[0] ?? null;
}

export const byteOrderMark: Transform = {
  id: 'byte-order-mark',
  title: 'Remove a UTF-8 byte order mark httpd on Unix reads as part of the first directive',
  row: 'Not in the upgrade notes: UTF-8 BOM at the start of a config file (fatal on Unix, 2.2 and 2.4 alike)',
  order: 10,
  applyFile(tree, ctx) {
    if (tree.bom !== BOM || !ctx.file) return;
    if (ctx.file.role === 'htaccess') {
      ctx.note(
        firstLine(tree),
        'bom-in-htaccess',
        'This .htaccess starts with a UTF-8 byte order mark: httpd on Unix (2.2 and 2.4) reads it as part of the first ' +
          'directive and answers 500 for every request in this directory. Left as it is, because removing it puts the ' +
          'directives into effect; check them, then delete the first three bytes (EF BB BF)',
        'manual',
      );
      return;
    }
    tree.bom = '';
    ctx.note(
      firstLine(tree),
      'bom-removed',
      'UTF-8 byte order mark removed: httpd on Unix (2.2 and 2.4) reads it as part of the first directive ' +
        "(Invalid command '\\xef\\xbb\\xbf…') and does not start; only Windows builds skip it. " +
        'Check that this file is meant to be loaded: its directives now take effect',
      'review',
    );
  },
};
