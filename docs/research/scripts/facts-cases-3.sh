#!/usr/bin/env bash
# facts-cases-3.sh - SSL directives, Mutex, LogLevel, auth providers, IfModule matching, parser quirks.
. "$(dirname "$0")/facts-lib.sh"
for v in 'SSLv2' '-SSLv2' '+SSLv2' 'all -SSLv2' 'all -SSLv2 -SSLv3' 'SSLv3' 'all -SSLv3' 'TLSv1' 'TLSv1.3' '+TLSv1.2 +TLSv1.3' 'all' 'TLSv1.2 -SSLv2' 'ALL -SSLV2' 'foo'; do
 tcase "sslprotocol-$(echo "$v"|tr ' +.' '_pd')" ssl <<<"SSLProtocol $v"
done
tcase sslprotocol-nossl none <<<"SSLProtocol all -SSLv2"
for v in 'ALL:!ADH:!EXPORT:!SSLv2:RC4+RSA:+HIGH:+MEDIUM:+LOW' 'HIGH:!SSLv2' 'HIGH:+SSLv2' 'SSLv2' 'NOSUCHCIPHER'; do
 tcase "sslciphersuite-$(echo "$v"|tr -dc 'A-Za-z0-9')" ssl <<<"SSLCipherSuite $v"
done
mkdir -p "$FX/mutexdir"; : > "$FX/mutexfile"
tcase mutex-file-dir all <<<"Mutex file:$FX/mutexdir default"
tcase mutex-file-file all <<<"Mutex file:$FX/mutexfile rewrite-map"
tcase mutex-file-missing all <<<"Mutex file:$FX/nonexistent-dir ssl-cache"
tcase mutex-flock all <<<"Mutex flock:$FX/mutexdir ssl-cache ssl-stapling"
tcase mutex-sem all <<<"Mutex sem"
tcase mutex-default all <<<"Mutex default"
tcase mutex-bad-mech all <<<"Mutex foo default"
tcase mutex-unknown-name all <<<"Mutex file:$FX/mutexdir no-such-mutex"
tcase mutex-rewritemap-norewrite none <<<"Mutex file:$FX/mutexdir rewrite-map"
tcase mutex-sslcache-nossl none <<<"Mutex file:$FX/mutexdir ssl-cache"
tcase mutex-mpm-accept all <<<"Mutex flock:$FX/mutexdir mpm-accept"
tcase mutex-in-vhost all <<'EOF'
<VirtualHost *:80>
Mutex default
</VirtualHost>
EOF
tcase mutex-lockfile-style all <<<"Mutex file:$FX/mutexdir/accept.lock default"
tcase loglevel-rewrite-trace3 rewrite <<<"LogLevel rewrite:trace3"
tcase loglevel-warn-rewrite-trace3 rewrite <<<"LogLevel warn rewrite:trace3"
tcase loglevel-rewrite-trace3-norewrite none <<<"LogLevel rewrite:trace3"
tcase loglevel-mod_rewrite-trace3 rewrite <<<"LogLevel mod_rewrite.c:trace3"
tcase loglevel-rewrite_module-trace3 rewrite <<<"LogLevel rewrite_module:trace3"
tcase loglevel-trace9 none <<<"LogLevel trace9"
tcase loglevel-bad none <<<"LogLevel verbose"
tcase loglevel-dir rewrite <<'EOF'
<Directory /tmp>
LogLevel rewrite:trace3
</Directory>
EOF
tcase authbasicprovider-unknown auth_basic,authn_core <<'EOF'
<Directory /tmp>
AuthType Basic
AuthName x
AuthBasicProvider nosuch
</Directory>
EOF
tcase authbasicprovider-file-noauthnfile auth_basic,authn_core <<'EOF'
<Directory /tmp>
AuthType Basic
AuthName x
AuthBasicProvider file
</Directory>
EOF
tcase authbasicprovider-ldap-nomod all <<'EOF'
<Directory /tmp>
AuthType Basic
AuthName x
AuthBasicProvider ldap file
</Directory>
EOF
tcase authtype-basic-noauthbasic authn_core,authz_core <<'EOF'
<Directory /tmp>
AuthType Basic
AuthName x
Require valid-user
</Directory>
EOF
tcase authtype-noauthncore authz_core <<'EOF'
<Directory /tmp>
AuthType Basic
</Directory>
EOF
tcase authuserfile-noauthnfile auth_basic,authn_core <<'EOF'
<Directory /tmp>
AuthUserFile /tmp/htpasswd
</Directory>
EOF
tcase require-group-nogroupfile authz_core,authz_user <<'EOF'
<Directory /tmp>
Require group admins
</Directory>
EOF
tcase require-group-groupfile authz_core,authz_groupfile <<'EOF'
<Directory /tmp>
AuthGroupFile /tmp/groups
Require group admins
</Directory>
EOF
tcase require-valid-user-noauthn authz_core,authz_user <<'EOF'
<Directory /tmp>
Require valid-user
</Directory>
EOF
tcase require-valid-user-noauthzuser authz_core <<'EOF'
<Directory /tmp>
Require valid-user
</Directory>
EOF
tcase require-user-noauthzuser authz_core <<'EOF'
<Directory /tmp>
Require user bob
</Directory>
EOF
tcase require-nomods none <<'EOF'
<Directory /tmp>
Require all granted
</Directory>
EOF
tcase require-ip-noauthzhost authz_core <<'EOF'
<Directory /tmp>
Require ip 10.0.0.0/8
Require host example.com
</Directory>
EOF
tcase require-all-granted authz_core <<'EOF'
<Directory /tmp>
Require all granted
</Directory>
EOF
tcase require-file-owner-noowner authz_core <<'EOF'
<Directory /tmp>
Require file-owner
</Directory>
EOF
tcase require-ldap-user-noldap authz_core <<'EOF'
<Directory /tmp>
Require ldap-group cn=x
</Directory>
EOF
tcase require-bad-ip authz_core,authz_host <<'EOF'
<Directory /tmp>
Require ip 10.0.0.0/33
</Directory>
EOF
tcase require-and-order all <<'EOF'
<Directory /tmp>
Order deny,allow
Deny from all
Require all granted
</Directory>
EOF
tcase satisfy-without-compat authz_core <<'EOF'
<Directory /tmp>
Satisfy any
</Directory>
EOF
# ---- IfModule matching (Define inside, read via -D DUMP_RUN_CFG)
ifm() { local i=0 n; for n in "$@"; do i=$((i+1)); printf '<IfModule %s>\nDefine YES_%02d_%s\n</IfModule>\n' "$n" $i "$(echo "$n"|tr -c 'A-Za-z0-9_\n' '_')"; done; }
IFNAMES="mod_disk_cache.c disk_cache_module mod_cache_disk.c cache_disk_module mod_cache_disk cache_disk MOD_CACHE_DISK.C Cache_Disk_Module mod_cache_disk.so mod_authz_host.c authz_host_module mod_access.c access_module mod_access_compat.c mod_authz_default.c mod_mem_cache.c mod_ssl.c ssl_module mod_proxy.c prefork.c mpm_prefork_module mod_prefork.c event.c mpm_event_module mpm_event.c worker.c mpm_winnt.c mod_php5.c php5_module core.c http_core.c core_module http_module mod_so.c so_module mod_log_config.c mod_unixd.c unixd_module mod_version.c mod_watchdog.c mod_logio.c mod_ldap.c util_ldap.c ldap_module mod_auth.c mod_authn_default.c mod_authz_default.c"
ifm $IFNAMES > "$FX/ifm.snip"
tcase ifmodule-all all -D DUMP_RUN_CFG < "$FX/ifm.snip"
MPM=prefork tcase ifmodule-prefork-none none -D DUMP_RUN_CFG < "$FX/ifm.snip"
tcase ifmodule-negation-none none -D DUMP_RUN_CFG <<'EOF'
<IfModule !mod_rewrite.c>
Define NOT_REWRITE
</IfModule>
<IfModule ! mod_rewrite.c>
Define NOT_REWRITE_SPACE
</IfModule>
EOF
tcase ifmodule-noarg none <<'EOF'
<IfModule>
</IfModule>
EOF
# ---- parser quirks
tcase two-closers-one-line none <<'EOF'
<VirtualHost *:80>
<Directory /tmp>
Options None
</Directory></VirtualHost>
EOF
tcase two-closers-space none <<'EOF'
<VirtualHost *:80>
<Location /x>
Options None
</Location> </VirtualHost>
EOF
tcase closer-case none <<'EOF'
<directory /tmp>
Options None
</DIRECTORY>
<VIRTUALHOST *:80>
</virtualhost>
EOF
tcase closer-mismatch none <<'EOF'
<Directory /tmp>
Options None
</Location>
EOF
tcase closer-with-arg none <<'EOF'
<Directory /tmp>
</Directory /tmp>
EOF
tcase closer-trailing-comment none <<'EOF'
<Directory /tmp>
</Directory> # end
EOF
tcase open-trailing-comment none <<'EOF'
<Directory /tmp> # comment
Options None
</Directory>
EOF
tcase open-trailing-text none <<'EOF'
<Directory /tmp> Options None
</Directory>
EOF
tcase open-no-gt none <<'EOF'
<Directory /tmp
</Directory>
EOF
tcase open-space-before-gt none <<'EOF'
<Directory /tmp >
</Directory>
EOF
tcase comment-backslash none -D DUMP_RUN_CFG <<'EOF'
# a comment ending with backslash \
Define SWALLOWED_BY_COMMENT
Define AFTER
EOF
tcase directive-backslash none -D DUMP_RUN_CFG <<'EOF'
Define A1 \
Define A2
Define A3
EOF
tcase backslash-trailing-space none -D DUMP_RUN_CFG <<'EOF'
Define B1 \ 
Define B2
EOF
tcase trailing-comment-on-directive none <<'EOF'
KeepAlive On # keep alive
EOF
tcase trailing-comment-on-directive2 none <<'EOF'
ServerAdmin webmaster@example.com # admin
EOF
tcase trailing-comment-timeout none <<'EOF'
Timeout 300 # seconds
EOF
printf '\xef\xbb\xbfDefine AFTER_BOM\n' > "$FX/bom.snip"
tcase utf8-bom none -D DUMP_RUN_CFG < "$FX/bom.snip"
printf 'Define FIRST\n\xef\xbb\xbfDefine BOM_SECOND_LINE\n' > "$FX/bom2.snip"
tcase utf8-bom-line2 none -D DUMP_RUN_CFG < "$FX/bom2.snip"
printf 'Define CRLF1\r\nKeepAlive On\r\n<Directory /tmp>\r\nOptions None\r\n</Directory>\r\n' > "$FX/crlf.snip"
tcase crlf none -D DUMP_RUN_CFG < "$FX/crlf.snip"
printf '\tKeepAlive On\n   <Directory /tmp>\n\t</Directory>\n' > "$FX/indent.snip"
tcase indent none < "$FX/indent.snip"
# order sensitivity: module-specific LogLevel / Mutex before the LoadModule line
tcase loglevel-before-loadmodule none <<EOF
LogLevel warn rewrite:trace3
LoadModule rewrite_module $MODDIR/mod_rewrite.so
EOF
tcase mutex-before-loadmodule none <<EOF
Mutex file:$FX/mutexdir rewrite-map
LoadModule rewrite_module $MODDIR/mod_rewrite.so
EOF
tcase ifmodule-before-loadmodule none -D DUMP_RUN_CFG <<EOF
<IfModule mod_rewrite.c>
Define REWRITE_SEEN_BEFORE_LOAD
</IfModule>
LoadModule rewrite_module $MODDIR/mod_rewrite.so
<IfModule mod_rewrite.c>
Define REWRITE_SEEN_AFTER_LOAD
</IfModule>
EOF
tcase directive-before-loadmodule none <<EOF
RewriteEngine On
LoadModule rewrite_module $MODDIR/mod_rewrite.so
EOF
