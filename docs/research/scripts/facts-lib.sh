#!/usr/bin/env bash
# facts-lib.sh - helpers for measuring httpd 2.4 behaviour with tiny configs.
# Source it:  . facts-lib.sh ; tcase NAME MODS <<'EOF' ...snippet... EOF
#   MODS: all | none | comma list of module ids (e.g. authz_core,authn_core)
#   MPM env: event (default) | prefork | worker
# Each case: $FX/c/NAME.conf holds the snippet (errors cite its line numbers),
# $FX/c/NAME.main.conf = base + MPM + modules + Include of the snippet; runs `apache2 -t`.
APACHE2=${APACHE2:-/usr/sbin/apache2}
MODDIR=${MODDIR:-/usr/lib/apache2/modules}
FX=${FX:-/tmp/hf-facts}
mkdir -p "$FX/c" "$FX/run" "$FX/logs"

fx_base() { # $1 = mpm
  cat <<B
ServerRoot "$FX"
DefaultRuntimeDir "$FX/run"
PidFile "$FX/run/httpd.pid"
ErrorLog "$FX/logs/error.log"
ServerName localhost
LoadModule mpm_${1}_module $MODDIR/mod_mpm_${1}.so
B
}

# every non-MPM module; modules others depend on (undefined symbols) first
fx_allmods() {
  local first="cache dav proxy session ldap" m f
  for m in $first; do echo "LoadModule ${m}_module $MODDIR/mod_$m.so"; done
  for f in "$MODDIR"/mod_*.so; do
    m=$(basename "$f" .so); m=${m#mod_}
    case " $first " in *" $m "*) continue;; esac
    case $m in mpm_*) continue;; esac
    echo "LoadModule ${m}_module $f"
  done
}

fx_mods() { # $1 = all|none|list
  case $1 in
    all) fx_allmods ;;
    none) : ;;
    *) local IFS=, m; for m in $1; do echo "LoadModule ${m}_module $MODDIR/mod_$m.so"; done ;;
  esac
}

# tcase NAME MODS [extra apache2 args...]  (snippet on stdin)
tcase() {
  local name=$1 mods=$2; shift 2
  local mpm=${MPM:-event}
  cat > "$FX/c/$name.conf"
  { fx_base "$mpm"; fx_mods "$mods"; echo "Include $FX/c/$name.conf"; } > "$FX/c/$name.main.conf"
  local out rc
  out=$("$APACHE2" -d "$FX" -f "$FX/c/$name.main.conf" -t "$@" 2>&1); rc=$?
  echo "=== $name  [mods=$mods mpm=$mpm args=${*:-}]"
  sed 's/^/  | /' "$FX/c/$name.conf"
  echo "  rc=$rc"
  printf '%s\n' "$out" | sed 's/^/  > /'
}

# start a server in its own session in the foreground; sets FXPID. $1=main conf
fx_start() {
  setsid "$APACHE2" -d "$FX" -f "$1" -DFOREGROUND </dev/null >"$FX/logs/stdout" 2>&1 &
  FXPID=$!
  sleep "${2:-1.5}"
}
fx_stop() {
  [ -n "${FXPID:-}" ] && kill -TERM -- "-$FXPID" 2>/dev/null; sleep 1
  kill -KILL -- "-$FXPID" 2>/dev/null; wait "$FXPID" 2>/dev/null; FXPID=
}
