/**
 * Whether the main server answers any request. httpd gives a connection's requests to the virtual hosts
 * whose address matches the address and port it arrived on (`*:80`, `_default_:443`, `*`…), and to the
 * main server only when none does (vhost.c). When every Listen address is covered by a virtual host, the
 * main server's own DocumentRoot, aliases and rules never map a request: only its sections that virtual
 * hosts inherit matter (Debian's apache2.conf sets no DocumentRoot for this reason).
 *
 * Conservative: the main server serves when no Listen line is visible, when a virtual host is under a
 * condition, or when a Listen address is not matched by a virtual host with a wildcard address (or the
 * same literal address) and the same or a wildcard port. A virtual host without a port takes the main
 * server's ServerName port, or any port.
 */
import { Section } from '../../cst';
import { Entry } from './read-config';

interface Address {
  /** Null: every address. */
  readonly host: string | null;
  /** Null: every port. */
  readonly port: string | null;
}

function listenAddress(arg: string): Address | null {
  if (/^\d+$/.test(arg)) return { host: null, port: arg };
  const m = /^(\[[^\]]*\]|[^:]+):(\d+)$/.exec(arg);
  if (!m) return null;
  const host = m[1] === '0.0.0.0' || m[1] === '[::]' ? null : m[1].toLowerCase();
  return { host, port: m[2] };
}

function vhostAddress(word: string, defaultPort: string | null): Address {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+|\*))?$/.exec(word);
  const hostPart = (m?.[1] ?? word).toLowerCase();
  const portPart = m?.[2];
  const host = hostPart === '*' || hostPart === '_default_' ? null : hostPart;
  const port = portPart === undefined ? defaultPort : portPart === '*' ? null : portPart;
  return { host, port };
}

function covers(v: Address, l: Address): boolean {
  const hostOk = v.host === null || (l.host !== null && v.host === l.host);
  const portOk = v.port === null || v.port === l.port;
  return hostOk && portOk;
}

export function mainServerServes(mainDirectives: readonly Entry[], sureVhosts: readonly Section[], allVhosts: number): boolean {
  if (allVhosts === 0 || sureVhosts.length < allVhosts) return true;
  let defaultPort: string | null = null;
  const listens: Address[] = [];
  for (const e of mainDirectives) {
    if (e.cert.kind === 'no') continue;
    if (e.d.is('ServerName')) {
      const port = /:(\d+)$/.exec(e.d.values[0] ?? '');
      defaultPort = port ? port[1] : null;
    }
    if (e.d.is('Listen') && e.d.values[0]) {
      const a = listenAddress(e.d.values[0]);
      if (!a) return true;
      listens.push(a);
    }
  }
  if (listens.length === 0) return true;
  const addresses = sureVhosts.flatMap((v) => v.values.map((w) => vhostAddress(w, defaultPort)));
  return listens.some((l) => !addresses.some((v) => covers(v, l)));
}
