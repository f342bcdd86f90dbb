/**
 * IP addresses and subnets the way APR parses them (`apr_ipsubnet_create`,
 * `apr_inet_pton`, `apr_ipsubnet_test`), which both 2.2's `Allow from` and
 * 2.4's `Require ip` use. Reference: docs/research/access-semantics.md §2.3.
 */

export interface IpSubnet {
  readonly family: 4 | 6;
  /** Network bytes (4 or 16), host bits already cleared (APR's fix_subnet). */
  readonly network: readonly number[];
  readonly mask: readonly number[];
}

export interface ClientAddress {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
  /** For an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`): the IPv4 bytes, which APR tests IPv4 subnets against. */
  readonly mappedIpv4: readonly number[] | null;
}

/** APR_EINVAL ("not an IP address at all"), APR_EBADIP, APR_EBADMASK. */
export type SubnetError = 'not-ip' | 'bad-ip' | 'bad-mask';

export type SubnetParse = { readonly subnet: IpSubnet } | { readonly error: SubnetError };

/** The text httpd prints for each APR status. */
export const SUBNET_ERROR_TEXT: Record<SubnetError, string> = {
  'not-ip': 'An IP address was expected',
  'bad-ip': 'The specified IP address is invalid.',
  'bad-mask': 'The specified network mask is invalid.',
};

/** `inet_pton(AF_INET)`: exactly four decimal octets 0–255 (leading zeros allowed). */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^[0-9]+$/.test(part)) return null;
    const value = Number.parseInt(part, 10);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

function parseHexGroups(text: string, allowIpv4Tail: boolean): number[] | null {
  if (text === '') return [];
  const parts = text.split(':');
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (allowIpv4Tail && i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (!v4) return null;
      groups.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) {
      groups.push(Number.parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

/** `inet_pton(AF_INET6)`: eight hex groups, one `::` for a run of zeros, optional dotted IPv4 tail. */
export function parseIpv6(text: string): number[] | null {
  const gap = text.indexOf('::');
  if (gap !== -1 && text.indexOf('::', gap + 1) !== -1) return null;
  let groups: number[];
  if (gap === -1) {
    const all = parseHexGroups(text, true);
    if (!all || all.length !== 8) return null;
    groups = all;
  } else {
    const head = parseHexGroups(text.slice(0, gap), false);
    const tail = parseHexGroups(text.slice(gap + 2), true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

function isIpv4Mapped(bytes: readonly number[]): boolean {
  return bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** APR's looks_like_ip: anything with a colon, or only digits and dots. */
function looksLikeIp(text: string): boolean {
  return text.length > 0 && (text.includes(':') || /^[0-9.]*$/.test(text));
}

/** APR's parse_network: 1–4 leading decimal octets, trailing dot optional (`10`, `10.1.`, `10.1.2`). */
function parsePartialIpv4(text: string): IpSubnet | null {
  if (text.length >= 16) return null;
  const network = [0, 0, 0, 0];
  const mask = [0, 0, 0, 0];
  let index = 0;
  let rest = text;
  while (rest !== '') {
    const match = /^([0-9]+)(\.?)/.exec(rest);
    if (!match) return null;
    if (!match[2] && rest.length > match[0].length) return null;
    if (index > 3) return null;
    const octet = Number.parseInt(match[1], 10);
    if (octet > 255) return null;
    network[index] = octet;
    mask[index] = 0xff;
    index++;
    rest = rest.slice(match[0].length);
  }
  return { family: 4, network, mask };
}

/** C `strtol(text, &end, 10)` with the whole string consumed (an empty string counts, as 0). */
function strtolWhole(text: string): number | null {
  if (text === '') return 0;
  const match = /^[ \t\n\v\f\r]*([+-]?[0-9]+)$/.exec(text);
  return match ? Number.parseInt(match[1], 10) : null;
}

function bitsMask(bits: number, length: number): number[] {
  const mask: number[] = [];
  for (let i = 0; i < length; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    mask.push((0xff << (8 - take)) & 0xff);
  }
  return mask;
}

/** `apr_ipsubnet_create(ip, maskOrBits)`: the partial-IPv4 form is only allowed without a mask. */
export function createSubnet(ip: string, maskOrBits: string | null): SubnetParse {
  if (!looksLikeIp(ip)) return { error: 'not-ip' };
  let subnet: IpSubnet | null = null;
  const v6 = parseIpv6(ip);
  if (v6) {
    if (isIpv4Mapped(v6)) return { error: 'bad-ip' };
    subnet = { family: 6, network: v6, mask: new Array<number>(16).fill(0xff) };
  } else {
    const v4 = parseIpv4(ip);
    if (v4) subnet = { family: 4, network: v4, mask: [0xff, 0xff, 0xff, 0xff] };
    else if (maskOrBits === null) subnet = parsePartialIpv4(ip);
  }
  if (!subnet) return { error: 'bad-ip' };
  let mask = subnet.mask;
  if (maskOrBits !== null) {
    const maxBits = subnet.family === 6 ? 128 : 32;
    const bits = strtolWhole(maskOrBits);
    const dotted = parseIpv4(maskOrBits);
    if (bits !== null && bits > 0 && bits <= maxBits) mask = bitsMask(bits, maxBits / 8);
    else if (dotted && subnet.family === 4) mask = dotted;
    else return { error: 'bad-mask' };
  }
  const network = subnet.network.map((byte, i) => byte & mask[i]);
  return { subnet: { family: subnet.family, network, mask } };
}

/** Parses a spec as written after `Allow from` / `Require ip`: `a.b.c.d`, `10.1`, `net/bits`, `net/mask`, IPv6. */
export function parseIpSpec(spec: string): SubnetParse {
  const slash = spec.indexOf('/');
  return slash === -1 ? createSubnet(spec, null) : createSubnet(spec.slice(0, slash), spec.slice(slash + 1));
}

/** A client address: dotted-quad IPv4 or IPv6 (an IPv4-mapped one also tests against IPv4 subnets). */
export function parseClientAddress(text: string): ClientAddress | null {
  const v4 = parseIpv4(text);
  if (v4) return { family: 4, bytes: v4, mappedIpv4: null };
  const v6 = parseIpv6(text);
  if (v6) return { family: 6, bytes: v6, mappedIpv4: isIpv4Mapped(v6) ? v6.slice(12) : null };
  return null;
}

function masked(bytes: readonly number[], subnet: IpSubnet): boolean {
  return bytes.every((byte, i) => (byte & subnet.mask[i]) === subnet.network[i]);
}

/** `apr_ipsubnet_test`. */
export function subnetContains(subnet: IpSubnet, client: ClientAddress): boolean {
  if (subnet.family === 4) {
    const v4 = client.family === 4 ? client.bytes : client.mappedIpv4;
    return v4 !== null && masked(v4, subnet);
  }
  return client.family === 6 && client.mappedIpv4 === null && masked(client.bytes, subnet);
}
