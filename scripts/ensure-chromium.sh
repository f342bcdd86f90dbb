#!/usr/bin/env bash
# Makes sure Debian's chromium is installed: the review-site test (__tests__/browser-review.test.ts)
# opens the generated pages in it, headless. Installs it with apt-get when missing.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-chromium: chromium is missing and this user cannot install it (not root, no sudo)" >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing Debian's chromium for the review-site browser test" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
[ -x /usr/bin/chromium ]
