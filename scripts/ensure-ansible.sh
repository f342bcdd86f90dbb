#!/usr/bin/env bash
# Makes sure ansible-playbook is installed: __tests__/ansible-fleet.test.ts runs the playbook in
# examples/ansible/ with it. Installs Debian's ansible-core with apt-get when missing: it holds
# ansible-playbook and the ansible.builtin modules the playbook uses (Debian's `ansible` package
# adds some 250 MB of collections it does not need; on a release without ansible-core, that one).
set -euo pipefail

if command -v ansible-playbook >/dev/null 2>&1; then
  exit 0
fi
echo "ensure-ansible: installing Debian's ansible-core (or ansible) for the Ansible example's test" >&2
here="$(dirname "$0")"
bash "$here/apt-install.sh" ensure-ansible ansible-core || bash "$here/apt-install.sh" ensure-ansible ansible
command -v ansible-playbook >/dev/null 2>&1
