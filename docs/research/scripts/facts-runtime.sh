#!/usr/bin/env bash
# facts-runtime.sh - facts that need a running server (127.0.0.1, high ports, own session via setsid):
# piped logs, default Options/AllowOverride/FileETag/DefaultType/EnableSendfile, text after '>',
# SSLCipherSuite at startup, CRL checking default, SSLProxyCheckPeer* defaults.
# Needs facts-certs.sh run first (PKI in $FX/pki).
. "$(dirname "$0")/facts-lib.sh"
P=$FX/pki
H=$FX/htdocs
freeport() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

# srvconf NAME MODS PORT  (extra config on stdin) -> writes $FX/c/NAME.run.conf
srvconf() {
  local name=$1 mods=$2 port=$3 mpm=${MPM:-event}
  { cat <<B
ServerRoot "$FX"
DefaultRuntimeDir "$FX/run"
PidFile "$FX/run/$name.pid"
ErrorLog "$FX/logs/$name-error.log"
ServerName localhost
User nobody
Group nogroup
Listen 127.0.0.1:$port
LoadModule mpm_${mpm}_module $MODDIR/mod_mpm_${mpm}.so
B
    fx_mods "$mods"
    cat <<B
DocumentRoot "$H"
TypesConfig /etc/mime.types
B
    cat; } > "$FX/c/$name.run.conf"
  rm -f "$FX/logs/$name-error.log"
}
showerr() { echo "  --- $1-error.log:"; sed 's/^/  ! /' "$FX/logs/$1-error.log" 2>/dev/null | grep -v -e 'AH00558' | head -${2:-30}; }

# ---------------------------------------------------------------- docroot
rm -rf "$H"; mkdir -p "$H/noindex" "$H/sameline" "$H/ctrl" "$H/ht"
echo hello > "$H/index.html"; echo a > "$H/noindex/a.txt"; echo a > "$H/sameline/a.txt"; echo a > "$H/ctrl/a.txt"
echo "plain text without extension" > "$H/README"
echo hi > "$H/ht/index.html"; echo "ThisIsNotADirective x" > "$H/ht/.htaccess"
HTX=('# only a comment' 'Options +Indexes' 'DirectoryIndex index.html' 'Require all granted' 'Header set X-A 1' 'ErrorDocument 404 /x')
for i in "${!HTX[@]}"; do for p in hx hn hm; do mkdir -p "$H/$p$i"; echo hi > "$H/$p$i/index.html"
  echo "${HTX[$i]}" > "$H/$p$i/.htaccess"; done; done
head -c 200000 /dev/urandom > "$H/big.bin"
chmod -R a+rX "$H"

# ---------------------------------------------------------------- 1. piped CustomLog (one server per variant)
for v in '|cat >> @F' '|/bin/cat >> @F' '|$cat >> @F' '||/bin/cat >> @F' '|/usr/bin/tee -a @F' '|$/usr/bin/tee -a @F'; do
  PORT=$(freeport); n=pcl$((++k)); f=$FX/logs/$n.pipe.log; rm -f "$f"
  spec=${v//@F/$f}
  srvconf $n mime,dir,authz_core "$PORT" <<EOF
LogFormat "%h %r %>s" short
CustomLog "$spec" short
EOF
  echo "=== runtime: CustomLog \"$spec\" short"
  fx_start "$FX/c/$n.run.conf" 2
  if kill -0 "$FXPID" 2>/dev/null; then
    ps -o args= --ppid "$FXPID" | grep -v "^$APACHE2" | sed 's/^/  child process: /'
    curl -s -o /dev/null -w '  GET / -> %{http_code}\n' "http://127.0.0.1:$PORT/"
  else echo "  server exited at startup"; fi
  sleep 1; fx_stop
  sed 's/^/  > /' "$FX/logs/stdout" | head -4
  showerr $n 10 | grep -e AH00104 -e AH00015 -e AH00106 -e cat -e tee
  echo "  $f: $( [ -s "$f" ] && head -1 "$f" || echo '(missing/empty)')"
done

# ---------------------------------------------------------------- 2. piped ErrorLog
for v in '|cat >> @F' '|/bin/cat >> @F' '|$cat >> @F' '|/bin/sh -c "cat >> @F"'; do
  PORT=$(freeport); n=pel$((++i)); f=$FX/logs/$n.pipe.log; rm -f "$f"
  spec=${v//@F/$f}
  srvconf $n mime,dir,authz_core "$PORT" <<EOF
ErrorLog "${spec//\"/\\\"}"
LogLevel info
EOF
  echo "=== runtime: ErrorLog $spec"; grep '^ErrorLog' "$FX/c/$n.run.conf" | tail -1 | sed 's/^/  | /'
  fx_start "$FX/c/$n.run.conf" 2
  ps -o pid=,ppid=,args= --ppid "$FXPID" | sed 's/^/  ps: /'
  curl -s -o /dev/null "http://127.0.0.1:$PORT/nonexistent"
  sleep 1; fx_stop
  echo "  stdout/stderr of apache2:"; sed 's/^/  > /' "$FX/logs/stdout" | head -5
  echo "  $f: $( [ -s "$f" ] && wc -l < "$f" | tr -d ' ' && echo lines; [ -s "$f" ] && head -2 "$f" | sed 's/^/     /' || echo '(missing/empty)')"
done

# ---------------------------------------------------------------- 3. defaults (Options, AllowOverride, FileETag, DefaultType)
PORT=$(freeport)
srvconf defaults mime,dir,autoindex,authz_core,authz_host,headers "$PORT" <<EOF
DefaultType text/plain
$(for i in "${!HTX[@]}"; do printf '<Directory %s>\nAllowOverride None\n</Directory>\n' "$H/hn$i"; done)
<DirectoryMatch "^$H/hm[0-9]">
AllowOverride None
</DirectoryMatch>
<Directory $H/sameline> Options Indexes
</Directory>
<Directory $H/ctrl>
Options Indexes
</Directory>
EOF
echo "=== runtime: defaults (no Options/AllowOverride/FileETag/Require given)"; sed -n '/^DefaultType/,$p' "$FX/c/defaults.run.conf" | sed 's/^/  | /'
fx_start "$FX/c/defaults.run.conf" 1.5
for u in / /noindex/ /sameline/ /ctrl/ /ht/ /README /index.html; do
  curl -s -o /dev/null -D "$FX/hdr" "http://127.0.0.1:$PORT$u"
  printf '  GET %-12s -> %s | Content-Type: %s | ETag: %s\n' "$u" "$(head -1 "$FX/hdr" | tr -d '\r')" \
    "$(grep -i '^content-type:' "$FX/hdr" | cut -d' ' -f2- | tr -d '\r')" "$(grep -i '^etag:' "$FX/hdr" | cut -d' ' -f2- | tr -d '\r')"
done
echo "  .htaccess handling: /hxN/ = no AllowOverride anywhere, /hnN/ = <Directory> AllowOverride None, /hmN/ = <DirectoryMatch> AllowOverride None"
for i in "${!HTX[@]}"; do
  printf '  .htaccess %-28s -> /hx%d/ %s   /hn%d/ %s   /hm%d/ %s\n' "'${HTX[$i]}'" $i "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/hx$i/")" $i "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/hn$i/")" $i "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/hm$i/")"
done
echo "  inode/size/mtime of index.html: $(stat -c '%i %s %Y' "$H/index.html") (hex: $(printf '%x %x' "$(stat -c %i "$H/index.html")" "$(stat -c %s "$H/index.html")"))"
fx_stop; showerr defaults 40 | grep -v -e AH00489 -e AH00094 -e AH00491

# ---------------------------------------------------------------- 4. EnableSendfile default (strace)
for sf in default On; do
  PORT=$(freeport)
  srvconf sendfile-$sf mime,dir,authz_core "$PORT" <<EOF
$( [ $sf = On ] && echo "EnableSendfile On" )
EOF
  setsid strace -f -qq -e trace=sendfile,sendfile64 -o "$FX/logs/strace-$sf.txt" "$APACHE2" -d "$FX" -f "$FX/c/sendfile-$sf.run.conf" -DFOREGROUND </dev/null >/dev/null 2>&1 &
  FXPID=$!; sleep 2
  curl -s -o /dev/null -w "  EnableSendfile=$sf: GET /big.bin -> %{http_code} %{size_download} bytes; " "http://127.0.0.1:$PORT/big.bin"
  sleep 0.5; echo "sendfile() calls: $(grep -c 'sendfile' "$FX/logs/strace-$sf.txt")"
  fx_stop
done

# ---------------------------------------------------------------- 5. SSLCipherSuite at startup
for cs in 'ALL:!ADH:!EXPORT:!SSLv2:RC4+RSA:+HIGH:+MEDIUM:+LOW' 'HIGH:!SSLv2' 'HIGH:+SSLv2' 'SSLv2' 'NOSUCHCIPHER' 'RC4-SHA'; do
  PORT=$(freeport); n=cs$((++j))
  srvconf $n ssl,mime,dir,authz_core,socache_shmcb "$PORT" <<EOF
SSLEngine on
SSLCertificateFile $P/server.crt
SSLCertificateKeyFile $P/server.key
SSLCipherSuite $cs
EOF
  echo "=== runtime: SSLCipherSuite $cs"
  fx_start "$FX/c/$n.run.conf" 1.5
  if kill -0 "$FXPID" 2>/dev/null; then
    echo "  server running; $(curl -sk -o /dev/null -w 'GET https:// -> %{http_code}' "https://127.0.0.1:$PORT/")"
  else echo "  server exited"; fi
  fx_stop; sed 's/^/  > /' "$FX/logs/stdout" | head -5; showerr $n 8 | grep -e 'ssl:' -e emerg -e error -e AH0
done

# ---------------------------------------------------------------- 6. CRL checking default
for mode in path file path+check file+check; do
  PORT=$(freeport); n=crl-${mode/+/-}
  case $mode in
    path*) crl="SSLCARevocationPath $P/crl" ;;
    file*) crl="SSLCARevocationFile $P/crl/ca.crl" ;;
  esac
  srvconf $n ssl,mime,dir,authz_core,socache_shmcb "$PORT" <<EOF
SSLEngine on
SSLCertificateFile $P/server.crt
SSLCertificateKeyFile $P/server.key
SSLCACertificateFile $P/ca.crt
SSLVerifyClient require
SSLVerifyDepth 2
$crl
$( case $mode in *check) echo "SSLCARevocationCheck chain";; esac )
EOF
  echo "=== runtime: client cert + $crl $( case $mode in *check) echo '+ SSLCARevocationCheck chain';; *) echo '(no SSLCARevocationCheck)';; esac)"
  fx_start "$FX/c/$n.run.conf" 1.5
  for c in client-good client-revoked; do
    printf '  %-15s -> %s\n' $c "$(curl -s --cacert $P/ca.crt --cert $P/$c.crt --key $P/$c.key -o /dev/null -w '%{http_code}' "https://localhost:$PORT/" 2>&1; echo " (curl exit $?)")"
  done
  fx_stop; showerr $n 20 | grep -i -e revok -e crl -e AH02039 -e 'Certificate Verification' | head -4
done

# ---------------------------------------------------------------- 7. SSLProxyCheckPeer* defaults
for variant in defaults cn-off name-off both-off expire-off; do
  PORT=$(freeport); B1=$(freeport); B2=$(freeport); B3=$(freeport)
  case $variant in
    defaults) extra="" ;;
    cn-off) extra="SSLProxyCheckPeerCN off" ;;
    name-off) extra="SSLProxyCheckPeerName off" ;;
    both-off) extra=$'SSLProxyCheckPeerCN off\nSSLProxyCheckPeerName off' ;;
    expire-off) extra="SSLProxyCheckPeerExpire off" ;;
  esac
  srvconf proxy-$variant ssl,mime,dir,authz_core,socache_shmcb,proxy,proxy_http "$PORT" <<EOF
Listen 127.0.0.1:$B1
Listen 127.0.0.1:$B2
Listen 127.0.0.1:$B3
<VirtualHost 127.0.0.1:$B1>
SSLEngine on
SSLCertificateFile $P/backend-wrongname.crt
SSLCertificateKeyFile $P/backend-wrongname.key
</VirtualHost>
<VirtualHost 127.0.0.1:$B2>
SSLEngine on
SSLCertificateFile $P/backend-expired.crt
SSLCertificateKeyFile $P/backend-expired.key
</VirtualHost>
<VirtualHost 127.0.0.1:$B3>
SSLEngine on
SSLCertificateFile $P/server.crt
SSLCertificateKeyFile $P/server.key
</VirtualHost>
<VirtualHost 127.0.0.1:$PORT>
LogLevel warn ssl:info
SSLProxyEngine on
$extra
ProxyPass /wrongname/ https://localhost:$B1/
ProxyPass /expired/ https://localhost:$B2/
ProxyPass /good/ https://localhost:$B3/
</VirtualHost>
EOF
  echo "=== runtime: reverse proxy to https backends, SSLProxyEngine on, SSLProxyVerify unset (none); variant=$variant ${extra//$'\n'/; }"
  fx_start "$FX/c/proxy-$variant.run.conf" 1.5
  for u in good wrongname expired; do
    printf '  GET /%-10s -> %s\n' "$u/" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/$u/")"
  done
  fx_stop; showerr proxy-$variant 40 | grep -e 'ssl:info.*AH0241' -e 'ssl:info.*AH0200' -e 'ssl:info.*AH0202' -e AH00898 -e 'AH01097' | sed -e 's/\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [^]]*\] //' -e 's/\[pid [^]]*\] //' -e 's/\[client [^]]*\] //' -e 's/\[remote [^]]*\] //' -e 's/127\.0\.0\.1:[0-9][0-9]*/127.0.0.1:PORT/g' | sort -u | head -8
done

# ---------------------------------------------------------------- 8. auth without the provider modules (runtime)
for variant in "authz_core,authz_user|Require valid-user" \
               "authz_core,authz_user,authn_core,auth_basic|AuthType Basic@AuthName x@Require valid-user" \
               "authz_core,authz_user,authn_core,auth_basic,authn_file|AuthType Basic@AuthName x@Require valid-user"; do
  mods=${variant%%|*}; body=${variant#*|}; body=${body//@/$'\n'}
  PORT=$(freeport); n=auth$((++authn_i))
  srvconf $n "mime,dir,$mods" "$PORT" <<EOF
<Directory $H>
$body
</Directory>
EOF
  echo "=== runtime: modules=$mods; <Directory docroot> ${body//$'\n'/; }"
  fx_start "$FX/c/$n.run.conf" 1.5
  if kill -0 "$FXPID" 2>/dev/null; then
    printf '  GET / (no credentials) -> %s; GET / (user:pw) -> %s\n' "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")" "$(curl -s -u user:pw -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/")"
  else echo "  server exited at startup"; sed 's/^/  > /' "$FX/logs/stdout" | head -3; fi
  fx_stop; showerr $n 20 | grep -e ':error\]' -e ':crit\]' -e emerg | sed -e 's/\[[A-Z][a-z][a-z] [A-Z][a-z][a-z] [^]]*\] //' -e 's/\[pid [^]]*\] //' -e 's/\[client [^]]*\] //' | sort -u | head -4
done
