/**
 * One concrete request on which two access policies answer differently: the
 * evidence a finding shows a human (method, client address, credentials, and
 * the two status codes). Candidate requests are built from what the policies
 * mention — each address or network (one address inside it), an address none
 * of them names, each environment variable set or not, each user and group,
 * no / wrong credentials — and tried in a fixed order, so the witness is
 * stable from run to run.
 */
import { parseIpSpec } from './ip-address';
import { CompatRecord } from './compat24';
import { HostEntry, Outcome, Request, RequireNode } from './types';

export interface Witness {
  readonly request: Request;
  readonly before: Outcome;
  readonly after: Outcome;
}

/** What the policies mention, to build requests from. */
export interface Mentions {
  readonly ips: Set<string>;
  readonly env: Set<string>;
  readonly users: Set<string>;
  readonly groups: Set<string>;
  readonly hosts: Set<string>;
}

export function emptyMentions(): Mentions {
  return { ips: new Set(), env: new Set(), users: new Set(), groups: new Set(), hosts: new Set() };
}

/** An address inside a network spec (`10.1` → 10.1.0.1), or null when the spec is not an address. */
function addressIn(spec: string): string | null {
  const parsed = parseIpSpec(spec);
  if ('error' in parsed) return null;
  const bytes = [...parsed.subnet.network];
  const hostBits = parsed.subnet.mask.some((m) => m !== 0xff);
  if (hostBits) bytes[bytes.length - 1] |= 1;
  if (parsed.subnet.family === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

function noteEntry(entry: HostEntry, m: Mentions): void {
  if (entry.kind === 'ip') {
    const inside = addressIn(entry.spec);
    if (inside) m.ips.add(inside);
  } else if (entry.kind === 'env') m.env.add(entry.name);
  else if (entry.kind === 'host') m.hosts.add(entry.name);
}

export function mentionTree(tree: RequireNode | null, m: Mentions): void {
  if (!tree) return;
  if (tree.kind !== 'require') {
    tree.children.forEach((c) => mentionTree(c, m));
    return;
  }
  const args = tree.args;
  switch (tree.provider) {
    case 'ip':
      for (const a of args) {
        const inside = addressIn(a);
        if (inside) m.ips.add(inside);
      }
      break;
    case 'env':
      args.forEach((a) => m.env.add(a));
      break;
    case 'host':
      args.forEach((a) => m.hosts.add(a));
      break;
    case 'user':
      args.forEach((a) => m.users.add(a));
      break;
    case 'group':
    case 'dbm-group':
      args.forEach((a) => m.groups.add(a));
      break;
  }
}

export function mentionRecord(record: CompatRecord | null, m: Mentions): void {
  if (!record) return;
  for (const e of [...record.host.allows, ...record.host.denys]) noteEntry(e.entry, m);
}

/** An address no rule of these policies is likely to name (TEST-NET-2). */
const OUTSIDE = '198.51.100.7';

function* requests(m: Mentions, methods: readonly string[]): Generator<Request> {
  const ips = [...m.ips, OUTSIDE, '127.0.0.1'];
  const envSets: string[][] = [[], ...[...m.env].map((e) => [e])];
  const credentials: Request['credentials'][] = [
    { kind: 'none' },
    { kind: 'bad' },
    { kind: 'user', user: 'someone', groups: [] },
    ...[...m.users].map((u) => ({ kind: 'user' as const, user: u, groups: [] })),
    ...[...m.groups].map((g) => ({ kind: 'user' as const, user: `member-of-${g}`, groups: [g] })),
  ];
  const hostNames: (string | null)[] = [null, ...[...m.hosts].map((h) => (h.startsWith('.') ? `www${h}` : h))];
  for (const method of methods) {
    for (const ip of ips) {
      for (const env of envSets) {
        for (const cred of credentials) {
          for (const hostName of hostNames) yield { ip, hostName, env, method, credentials: cred };
        }
      }
    }
  }
}

const MAX_REQUESTS = 20000;

/** The first request (in a stable order) the two answer differently, or null when none of the candidates does. */
export function findWitness(
  before: (req: Request) => Outcome,
  after: (req: Request) => Outcome,
  mentions: Mentions,
  methods: readonly string[],
): Witness | null {
  let tried = 0;
  for (const request of requests(mentions, methods)) {
    if (++tried > MAX_REQUESTS) return null;
    let a: Outcome;
    let b: Outcome;
    try {
      a = before(request);
      b = after(request);
    } catch {
      continue;
    }
    if (a !== b) return { request, before: a, after: b };
  }
  return null;
}

/** `GET /private from 198.51.100.7, as alice (a valid user)` (`target`: what the request asks for, in words). */
export function describeRequest(req: Request, target: string): string {
  const cred =
    req.credentials.kind === 'none'
      ? 'without credentials'
      : req.credentials.kind === 'bad'
        ? 'with a wrong password'
        : `as ${req.credentials.user} (a valid user${req.credentials.groups.length ? ` in group ${req.credentials.groups.join(', ')}` : ''})`;
  const env = req.env.length > 0 ? `, with ${req.env.join(', ')} set` : '';
  const host = req.hostName ? ` (${req.hostName})` : '';
  return `${req.method} ${target} from ${req.ip}${host}${env}, ${cred}`;
}
