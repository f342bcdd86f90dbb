#!/usr/bin/env bash
# facts-cases-1.sh - built-ins, LoadModule edge cases, removed/renamed 2.2 directives.
. "$(dirname "$0")/facts-lib.sh"
M=$MODDIR
echo "### apache2 -l"; "$APACHE2" -l
echo "### apache2 -V"; "$APACHE2" -V 2>&1

tcase loadmodule-builtin-so none <<<"LoadModule so_module $M/mod_so.so"
tcase loadmodule-builtin-unixd none <<<"LoadModule unixd_module $M/mod_unixd.so"
tcase loadmodule-builtin-logcfg none <<<"LoadModule log_config_module /usr/lib/apache2/modules/mod_log_config.so"
tcase loadmodule-twice none <<EOF
LoadModule rewrite_module $M/mod_rewrite.so
LoadModule rewrite_module $M/mod_rewrite.so
EOF
tcase loadmodule-missing-file none <<<"LoadModule foo_module $M/mod_foo.so"
tcase loadmodule-wrong-id none <<<"LoadModule disk_cache_module $M/mod_cache_disk.so"
tcase loadmodule-wrong-id2 all <<<"LoadModule disk_cache_module $M/mod_disk_cache.so"
tcase loadmodule-2nd-mpm none <<<"LoadModule mpm_prefork_module $M/mod_mpm_prefork.so"
tcase loadmodule-dep-missing none <<<"LoadModule proxy_http_module $M/mod_proxy_http.so"
tcase loadmodule-relative none <<<"LoadModule rewrite_module modules/mod_rewrite.so"

for mods in all none; do
for mpm in event prefork worker; do
MPM=$mpm tcase maxclients-$mpm-$mods $mods <<'EOF'
MaxClients 50
MaxRequestsPerChild 1000
EOF
done; done
tcase maxclients-nompm-x none <<'EOF'
<IfModule mpm_event_module>
</IfModule>
EOF
tcase maxclients-vhost all <<'EOF'
<VirtualHost *:80>
MaxClients 5
</VirtualHost>
EOF
tcase maxrequestworkers-and-maxclients all <<'EOF'
MaxRequestWorkers 100
MaxClients 50
EOF
tcase maxclients-too-big all <<'EOF'
MaxClients 5000
EOF
tcase maxrequestworkers-too-big all <<'EOF'
MaxRequestWorkers 5000
EOF
tcase namevirtualhost all <<'EOF'
NameVirtualHost *:80
<VirtualHost *:80>
ServerName a
</VirtualHost>
EOF
tcase namevirtualhost-star all <<'EOF'
NameVirtualHost *
EOF
for v in none None text/plain application/octet-stream '"text/plain"'; do
 tcase "defaulttype-$(echo $v|tr -dc 'a-zA-Z')" all <<<"DefaultType $v"
done
tcase defaulttype-dir all <<'EOF'
<Directory /tmp>
DefaultType text/html
</Directory>
EOF
tcase defaulttype-htaccess-ctx all <<'EOF'
<VirtualHost *:80>
DefaultType text/plain
</VirtualHost>
<VirtualHost *:81>
DefaultType none
</VirtualHost>
EOF
for d in AuthzUserAuthoritative AuthzGroupFileAuthoritative AuthzDBMAuthoritative AuthzLDAPAuthoritative AuthzDefaultAuthoritative AuthzOwnerAuthoritative AuthBasicAuthoritative AuthDigestNcCheck AuthDigestNonceFormat AuthDigestNonceLifetime AuthDigestShmemSize; do
for mods in all none; do
tcase "$d-$mods" $mods <<EOF
<Directory /tmp>
$d Off
</Directory>
EOF
done; done
tcase AuthDigestNcCheck-on all <<'EOF'
<Directory /tmp>
AuthDigestNcCheck On
</Directory>
EOF
tcase AuthDigestNonceFormat-val all <<'EOF'
<Directory /tmp>
AuthDigestNonceFormat foo
</Directory>
EOF
tcase AuthLDAPAuthoritative-all all <<'EOF'
<Directory /tmp>
AuthLDAPAuthoritative off
</Directory>
EOF
for mods in all none; do
tcase dumpio-$mods $mods <<'EOF'
DumpIOLogLevel debug
EOF
tcase dumpio-input-$mods $mods <<'EOF'
DumpIOInput On
EOF
tcase charsetoptions-debuglevel-$mods $mods <<'EOF'
<Directory /tmp>
CharsetOptions DebugLevel=4
</Directory>
EOF
tcase extfilteroptions-debuglevel-$mods $mods <<'EOF'
<Directory /tmp>
ExtFilterOptions DebugLevel=1
</Directory>
EOF
tcase rewritelog-$mods $mods <<'EOF'
RewriteLog /tmp/hf-facts/logs/rewrite.log
EOF
tcase rewriteloglevel-$mods $mods <<'EOF'
RewriteLogLevel 3
EOF
tcase rewritelock-$mods $mods <<'EOF'
RewriteLock /tmp/hf-facts/run/rewrite.lock
EOF
tcase acceptmutex-$mods $mods <<'EOF'
AcceptMutex flock
EOF
tcase lockfile-$mods $mods <<'EOF'
LockFile /tmp/hf-facts/run/accept.lock
EOF
tcase sslmutex-$mods $mods <<'EOF'
SSLMutex file:/tmp/hf-facts/run/ssl_mutex
EOF
tcase sslmutex-default-$mods $mods <<'EOF'
SSLMutex default
EOF
tcase sslstaplingmutex-$mods $mods <<'EOF'
SSLStaplingMutex file:/tmp/hf-facts/run/stapling
EOF
tcase watchdogmutexpath-$mods $mods <<'EOF'
WatchdogMutexPath /tmp/hf-facts/run
EOF
done
# no MPM at all (base without LoadModule mpm_*)
{ fx_base event | grep -v mpm_; echo "MaxClients 50"; } > "$FX/c/nompm.main.conf"
echo "=== nompm-maxclients  (no MPM loaded; 'MaxClients 50')"
"$APACHE2" -d "$FX" -f "$FX/c/nompm.main.conf" -t 2>&1 | sed 's/^/  > /'
{ fx_base event | grep -v mpm_; } > "$FX/c/nompm2.main.conf"
echo "=== nompm-empty  (no MPM loaded, nothing else)"
"$APACHE2" -d "$FX" -f "$FX/c/nompm2.main.conf" -t 2>&1 | sed 's/^/  > /'
