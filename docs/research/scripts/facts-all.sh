#!/usr/bin/env bash
# facts-all.sh - run every facts-* script; outputs go to $FX/out/*.txt (default /tmp/hf-facts/out).
# Runtime part starts servers on 127.0.0.1 (free high ports) in their own session and stops them.
set -u
D=$(cd "$(dirname "$0")" && pwd)
FX=${FX:-/tmp/hf-facts}; export FX
mkdir -p "$FX/out"
for s in facts-cases-1 facts-cases-2 facts-cases-3 facts-cases-4; do
  "$D/$s.sh" > "$FX/out/$s.txt" 2>&1; echo "$s: $(grep -c '^===' "$FX/out/$s.txt") cases -> $FX/out/$s.txt"
done
"$D/facts-certs.sh" "$FX/pki" > "$FX/out/facts-certs.txt" 2>&1
"$D/facts-runtime.sh" > "$FX/out/facts-runtime.txt" 2>&1; echo "facts-runtime: $(grep -c '^===' "$FX/out/facts-runtime.txt") cases -> $FX/out/facts-runtime.txt"
