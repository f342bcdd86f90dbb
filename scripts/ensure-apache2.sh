#!/usr/bin/env bash
# Makes sure Debian's apache2 (httpd 2.4) is installed: the real-httpd tests need it.
# Installs it with apt-get when missing, without letting the package start a service.
set -euo pipefail

if command -v apache2 >/dev/null 2>&1 || [ -x /usr/sbin/apache2 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-apache2: apache2 is missing and this user cannot install it (not root, no sudo)" >&2
    exit 1
  fi
fi

echo "ensure-apache2: installing Debian's apache2 for the real-httpd tests" >&2
created_policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  # exit 101 = "action forbidden": the package installs without starting a service
  printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
  $SUDO chmod +x /usr/sbin/policy-rc.d
  created_policy=1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends apache2 >/dev/null
if [ -n "$created_policy" ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
command -v apache2 >/dev/null 2>&1 || [ -x /usr/sbin/apache2 ]
