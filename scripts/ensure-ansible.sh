#!/usr/bin/env bash
# Makes sure ansible-playbook is installed: __tests__/ansible-fleet.test.ts runs the playbook in
# examples/ansible/ with it. Installs Debian's ansible-core with apt-get when missing: it holds
# ansible-playbook and the ansible.builtin modules the playbook uses (Debian's `ansible` package
# adds some 250 MB of collections it does not need; on a release without ansible-core, that one).
set -euo pipefail

if command -v ansible-playbook >/dev/null 2>&1; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-ansible: ansible-playbook is missing and this user cannot install it (not root, no sudo)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
package=ansible-core
if ! apt-cache show ansible-core >/dev/null 2>&1; then package=ansible; fi
echo "ensure-ansible: installing Debian's $package for the Ansible example's test" >&2
$SUDO apt-get install -y -qq --no-install-recommends "$package" >/dev/null
command -v ansible-playbook >/dev/null 2>&1
