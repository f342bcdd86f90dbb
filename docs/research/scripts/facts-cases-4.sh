#!/usr/bin/env bash
# facts-cases-4.sh - more parser quirks (BOM in main file, trailing comments, text after '>'), mpm-accept per MPM.
. "$(dirname "$0")/facts-lib.sh"
# BOM at start of the main config file (-f), not an Include
{ printf '\xef\xbb\xbf'; fx_base event; } > "$FX/c/bom-main.conf"
echo "=== bom-main (BOM as first bytes of the -f file, first line 'ServerRoot ...')"
"$APACHE2" -d "$FX" -f "$FX/c/bom-main.conf" -t 2>&1 | sed 's/^/  > /'
{ printf '\xef\xbb\xbf# comment first\n'; fx_base event; } > "$FX/c/bom-main-comment.conf"
echo "=== bom-main-comment (BOM then '# comment first' as line 1 of the -f file)"
"$APACHE2" -d "$FX" -f "$FX/c/bom-main-comment.conf" -t 2>&1 | sed 's/^/  > /'
printf '\xef\xbb\xbf# a comment\nDefine AFTER_BOM_COMMENT\n' > "$FX/bomc.snip"
tcase utf8-bom-comment none -D DUMP_RUN_CFG < "$FX/bomc.snip"
printf '\xef\xbb\xbf\nDefine AFTER_BOM_EMPTY\n' > "$FX/bome.snip"
tcase utf8-bom-emptyline none -D DUMP_RUN_CFG < "$FX/bome.snip"
tcase flag-extra-args none <<'EOF'
KeepAlive On Off
EOF
tcase flag-extra-args2 none <<'EOF'
HostnameLookups Off this is ignored
EOF
tcase flag-extra-args3 none <<'EOF'
ServerSignature Off # comment
EOF
tcase flag-extra-args4 none <<'EOF'
EnableSendfile Off # comment
EOF
tcase take1-trailing-comment none <<'EOF'
UseCanonicalName Off # comment
EOF
tcase options-trailing-comment none <<'EOF'
<Directory /tmp>
Options None # comment
</Directory>
EOF
tcase servertokens-trailing-comment none <<'EOF'
ServerTokens Prod # comment
EOF
tcase limit-trailing-comment authz_core <<'EOF'
<Directory /tmp>
<Limit GET> # c
Require all granted
</Limit>
</Directory>
EOF
# what does the server actually do with text after '>' ? mod_info DUMP_CONFIG shows the parsed tree
tcase open-trailing-text-dump info -D DUMP_CONFIG <<'EOF'
<Directory /tmp> Options Indexes
</Directory>
<Location /a>Require all denied
</Location>
<Directory /srv> # comment
</Directory>
EOF
tcase open-trailing-comment-with-gt none <<'EOF'
<Directory /srv> # a > b
</Directory>
EOF
for mpm in event worker prefork; do
  MPM=$mpm tcase mutex-mpm-accept-$mpm none <<<"Mutex flock:$FX/mutexdir mpm-accept"
done
tcase section-nested-same none <<'EOF'
<Directory /tmp>
<Directory /tmp/x>
</Directory>
</Directory>
EOF
tcase directorymatch-in-vhost none <<'EOF'
<VirtualHost *:80>
<DirectoryMatch "^/tmp">
</DirectoryMatch>
</VirtualHost>
EOF
tcase quoted-empty-section none <<'EOF'
<Directory "">
</Directory>
EOF
tcase unclosed-at-eof none <<'EOF'
<Directory /tmp>
Options None
EOF
tcase stray-closer none <<'EOF'
</Directory>
EOF
tcase ifdefine-unclosed none <<'EOF'
<IfDefine FOO>
EOF
tcase ifversion none <<'EOF'
<IfVersion >= 2.4>
Define V24
</IfVersion>
EOF
tcase directive-case none -D DUMP_RUN_CFG <<'EOF'
keepalive on
DEFINE UPPER_DEFINE
EOF
tcase allowoverride-in-directorymatch none <<'EOF'
<DirectoryMatch "^/tmp/x">
AllowOverride None
</DirectoryMatch>
EOF
tcase allowoverride-in-location none <<'EOF'
<Location /x>
AllowOverride None
</Location>
EOF
tcase allowoverride-in-files none <<'EOF'
<Files x>
AllowOverride None
</Files>
EOF
