#!/usr/bin/env bash
# Installs Debian packages for the tests, the way every scripts/ensure-*.sh needs it:
#   apt-install.sh WHO PACKAGE...
# as root (or through sudo), non-interactive, without recommends, and without letting a package
# start a service of its own (a policy-rc.d that answers 101 while it runs). WHO names the caller
# in messages. Exits non-zero when it cannot install.
set -euo pipefail

who="$1"
shift

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "$who: $* missing and this user cannot install it (not root, no sudo)" >&2
    exit 1
  fi
fi

created_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  # exit 101 = "action forbidden": the package installs without starting a service
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  created_policy=1
fi
cleanup() { if [ -n "$created_policy" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
