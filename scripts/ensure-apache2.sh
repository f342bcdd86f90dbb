#!/usr/bin/env bash
# Makes sure Debian's apache2 (httpd 2.4) is installed: the real-httpd tests need it.
# Installs it with apt-get when missing, without letting the package start a service.
set -euo pipefail

if command -v apache2 >/dev/null 2>&1 || [ -x /usr/sbin/apache2 ]; then
  exit 0
fi
echo "ensure-apache2: installing Debian's apache2 for the real-httpd tests" >&2
bash "$(dirname "$0")/apt-install.sh" ensure-apache2 apache2
command -v apache2 >/dev/null 2>&1 || [ -x /usr/sbin/apache2 ]
