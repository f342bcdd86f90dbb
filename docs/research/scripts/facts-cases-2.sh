#!/usr/bin/env bash
# facts-cases-2.sh - deprecations at higher log level, KeepAlive, access control, Options, Include, ...
. "$(dirname "$0")/facts-lib.sh"
M=$MODDIR
for mpm in event prefork worker; do
MPM=$mpm tcase maxclients-info-$mpm none -e info <<'EOF'
MaxClients 50
MaxRequestsPerChild 1000
EOF
done
tcase maxclients-loglevel-info none <<'EOF'
LogLevel info
MaxClients 50
MaxRequestsPerChild 1000
EOF
tcase defaulttype-vhost all <<'EOF'
<VirtualHost *:80>
DefaultType text/plain
</VirtualHost>
DefaultType off
EOF
for v in On Off on off 0 1 yes no true; do
 tcase keepalive-$v none <<<"KeepAlive $v"
done
tcase keepalive-empty none <<<"KeepAlive"
tcase keepalive-vhost none <<'EOF'
<VirtualHost *:80>
KeepAlive Off
</VirtualHost>
EOF
for mods in none authz_core authz_core,authz_host access_compat all; do
tcase order-allow-deny-$mods $mods <<'EOF'
<Directory /tmp>
Order allow,deny
Allow from all
Deny from 10.0.0.1
Satisfy Any
</Directory>
EOF
done
tcase order-bad-args all <<'EOF'
<Directory /tmp>
Order Allow, Deny
</Directory>
EOF
tcase order-spaces all <<'EOF'
<Directory /tmp>
Order deny, allow
</Directory>
EOF
tcase order-server-level all <<'EOF'
Order allow,deny
EOF
tcase user-group none <<'EOF'
User www-data
Group www-data
EOF
tcase user-vhost none <<'EOF'
<VirtualHost *:80>
User nobody
</VirtualHost>
EOF
tcase options-mixed none <<'EOF'
<Directory /tmp>
Options FollowSymLinks -Indexes
</Directory>
EOF
tcase options-mixed2 none <<'EOF'
<Directory /tmp>
Options +FollowSymLinks Indexes
</Directory>
EOF
tcase options-plus-includes none <<'EOF'
<Directory /tmp>
Options +Includes +IncludesNOEXEC +ExecCGI -MultiViews +SymLinksIfOwnerMatch
</Directory>
EOF
tcase options-all-none none <<'EOF'
<Directory /tmp>
Options All
Options None
Options +All
</Directory>
EOF
tcase options-minus-none none <<'EOF'
<Directory /tmp>
Options -None
</Directory>
EOF
tcase options-unknown none <<'EOF'
<Directory /tmp>
Options +Foo
</Directory>
EOF
tcase options-lowercase none <<'EOF'
<Directory /tmp>
Options followsymlinks indexes
</Directory>
EOF
tcase allowoverride-options-list none <<'EOF'
<Directory /tmp>
AllowOverride Options=Indexes,MultiViews AuthConfig
AllowOverrideList Redirect
</Directory>
EOF
tcase allowoverride-bad none <<'EOF'
<Directory /tmp>
AllowOverride Foo
</Directory>
EOF
mkdir -p "$FX/emptydir"; rm -f "$FX/emptydir"/*
tcase include-wild-nomatch none <<<"Include $FX/emptydir/*.conf"
tcase include-wild-nodir none <<<"Include $FX/nonexistent-dir/*.conf"
tcase include-literal-missing none <<<"Include $FX/nonexistent.conf"
tcase include-dir-empty none <<<"Include $FX/emptydir"
tcase include-dir-empty-slash none <<<"Include $FX/emptydir/"
tcase includeoptional-wild-nomatch none <<<"IncludeOptional $FX/emptydir/*.conf"
tcase includeoptional-wild-nodir none <<<"IncludeOptional $FX/nonexistent-dir/*.conf"
tcase includeoptional-literal-missing none <<<"IncludeOptional $FX/nonexistent.conf"
tcase include-relative-missing none <<<"Include conf.d/*.conf"
tcase include-wild-in-dir-part none <<<"Include $FX/nonexist*/x.conf"
for mods in none "filter" all; do
tcase filterprovider-22-$mods $mods <<'EOF'
FilterDeclare f1
FilterProvider f1 DEFLATE resp=Content-Type $text/html
FilterChain f1
EOF
done
tcase filterprovider-22-nodeclare all <<'EOF'
FilterProvider f1 DEFLATE resp=Content-Type $text/html
EOF
tcase filterprovider-22-3args all <<'EOF'
FilterProvider f1 DEFLATE resp=Content-Type
EOF
tcase filterprovider-24 all <<'EOF'
FilterDeclare f1
FilterProvider f1 DEFLATE "%{CONTENT_TYPE} =~ m#^text/html#"
FilterChain f1
EOF
tcase filterprovider-24-unknownprov all <<'EOF'
FilterProvider f1 NOSUCHFILTER "%{CONTENT_TYPE} =~ m#^text/html#"
EOF
tcase filterdeclare-type all <<'EOF'
FilterDeclare f1 CONTENT_SET
FilterProtocol f1 DEFLATE change=yes
EOF
