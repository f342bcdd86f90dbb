#!/usr/bin/env bash
# Makes sure Debian's chromium is installed: the review-site test (__tests__/browser-review.test.ts)
# opens the generated pages in it, headless. Installs it with apt-get when missing.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi
echo "ensure-chromium: installing Debian's chromium for the review-site browser test" >&2
bash "$(dirname "$0")/apt-install.sh" ensure-chromium chromium fonts-liberation
[ -x /usr/bin/chromium ]
