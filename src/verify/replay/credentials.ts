/**
 * The throw-away users of a replay, written to one password file and one group file that stand in
 * for every AuthUserFile / AuthGroupFile in the stage: a user in no group (for valid-user), each
 * user a `Require user` line names, and one member per group a `Require group` line names, all
 * with a password made up for this run.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import { Request } from '../../semantics/access/types';

export interface ReplayUser {
  readonly name: string;
  readonly groups: readonly string[];
}

export interface Credential {
  /** `none`, `alice (valid)`, `cv-user (wrong password)`. */
  readonly label: string;
  readonly user?: string;
  readonly password?: string;
  readonly model: Request['credentials'];
}

export const NO_CREDENTIALS: Credential = { label: 'no credentials', model: { kind: 'none' } };

const USABLE = /^[A-Za-z0-9._@-]{1,64}$/;

export class ReplayUsers {
  readonly password = randomBytes(12).toString('hex');
  private readonly wrong = `wrong-${randomBytes(6).toString('hex')}`;
  private readonly users = new Map<string, ReplayUser>();
  private readonly members = new Map<string, ReplayUser>();
  readonly plain: ReplayUser;

  constructor() {
    this.plain = this.add('codemod-verify', []);
  }

  private add(name: string, groups: string[]): ReplayUser {
    const existing = this.users.get(name);
    if (existing) return existing;
    const user = { name, groups };
    this.users.set(name, user);
    return user;
  }

  /** A user a `Require user` line names (null when the name cannot go in a password file). */
  named(name: string): ReplayUser | null {
    return USABLE.test(name) ? this.add(name, []) : null;
  }

  /** A member of a group a `Require group` line names (null when the name cannot go in a group file). */
  member(group: string): ReplayUser | null {
    if (!USABLE.test(group)) return null;
    let user = this.members.get(group);
    if (!user) {
      user = this.add(`codemod-verify-${this.users.size}`, [group]);
      this.members.set(group, user);
    }
    return user;
  }

  valid(user: ReplayUser): Credential {
    return { label: `${user.name} (valid)`, user: user.name, password: this.password, model: { kind: 'user', user: user.name, groups: user.groups } };
  }

  bad(): Credential {
    return { label: `${this.plain.name} (wrong password)`, user: this.plain.name, password: this.wrong, model: { kind: 'bad' } };
  }

  /** Writes the password file ({SHA}) and the group file, readable by httpd's children. */
  write(htpasswd: string, htgroups: string): void {
    const hash = `{SHA}${createHash('sha1').update(this.password).digest('base64')}`;
    fs.writeFileSync(htpasswd, [...this.users.keys()].map((u) => `${u}:${hash}\n`).join(''), { mode: 0o644 });
    const groups = new Map<string, string[]>();
    for (const u of this.users.values()) for (const g of u.groups) groups.set(g, [...(groups.get(g) ?? []), u.name]);
    fs.writeFileSync(htgroups, [...groups].map(([g, members]) => `${g}: ${members.join(' ')}\n`).join(''), { mode: 0o644 });
  }
}
