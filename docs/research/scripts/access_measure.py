#!/usr/bin/env python3
"""Re-measure every case of docs/research/access-measurements.md on the local
Apache 2.4 (Debian apache2). Prints Markdown to stdout.

    python3 docs/research/scripts/access_measure.py            # all cases
    python3 docs/research/scripts/access_measure.py C9 D1      # selected ids

Request spec legend (see access_harness.do_request):
    'GET .5 good hdr /p/c/x.html' = GET from 127.0.0.5 with good Basic creds
    (alice:secret), header 'X-Env: yes' (-> SetEnvIf sets env 'hdrenv'),
    path /p/c/x.html (default path /p/x.html).
POST to a static file is served (200) by 2.4's default handler once access
control has passed, so 200 == "allowed" for POST too.
Placeholders in configs: {root} = temp ServerRoot, docroot {root}/htdocs;
@AUTH@ = AuthType Basic / AuthName / AuthUserFile / AuthGroupFile lines.
"""
import sys
from access_harness import run_case

R_STD = ["GET .1", "GET .5", "GET .1 good", "GET .1 bad", "GET .5 good",
         "GET .5 bad", "POST .5 good"]
R_IP = ["GET .1", "GET .5", "GET .9"]
R_IPC = ["GET .1", "GET .5", "GET .1 good", "GET .5 good"]
C = "/p/c/x.html"
R_CHILD = [f"GET .1 {C}", f"GET .5 {C}", f"GET .9 {C}", f"GET .1 good {C}",
           f"GET .5 good {C}"]

D = "<Directory {root}/htdocs/p>\n"
DC = "<Directory {root}/htdocs/p/c>\n"
E = "</Directory>"

CASES = []
def case(cid, title, body, reqs, htaccess=None, compat=True):
    CASES.append(dict(id=cid, title=title, body=body, reqs=reqs,
                      htaccess=htaccess, compat=compat))

# ---------------------------------------------------------------- (a)/(b)
case("A1", "Deny from all + Basic auth, default Satisfy (All)",
     D + "Order Deny,Allow\nDeny from all\n@AUTH@\nRequire valid-user\n" + E, R_STD)
case("A2", "Deny from all + Basic auth + Satisfy Any",
     D + "Order Deny,Allow\nDeny from all\n@AUTH@\nRequire valid-user\nSatisfy Any\n" + E, R_STD)
case("A3", "Deny all / Allow .1 + auth + Satisfy Any (intranet OR password)",
     D + "Order Deny,Allow\nDeny from all\nAllow from 127.0.0.1\n@AUTH@\nRequire valid-user\nSatisfy Any\n" + E, R_STD)
case("A4", "Deny all / Allow .1 + auth + Satisfy All (intranet AND password)",
     D + "Order Deny,Allow\nDeny from all\nAllow from 127.0.0.1\n@AUTH@\nRequire valid-user\nSatisfy All\n" + E, R_STD)
case("A5", "Allow from all + auth + Satisfy Any (auth never asked)",
     D + "Order Allow,Deny\nAllow from all\n@AUTH@\nRequire valid-user\nSatisfy Any\n" + E, R_STD)
case("A6", "Satisfy Any + Require valid-user, NO Order/Allow/Deny at all",
     D + "@AUTH@\nRequire valid-user\nSatisfy Any\n" + E, R_STD)
case("A7", "Require valid-user only (compat loaded, nothing else)",
     D + "@AUTH@\nRequire valid-user\n" + E, R_STD)
case("A8", "A1 without mod_access_compat loaded",
     D + "Order Deny,Allow\nDeny from all\n@AUTH@\nRequire valid-user\n" + E, R_STD, compat=False)

case("A9", "Deny from all + Satisfy Any, NO Require/auth anywhere",
     D + "Order Deny,Allow\nDeny from all\nSatisfy Any\n" + E, R_IP)
case("A10", "Deny from all + Satisfy Any + AuthType but NO Require",
     D + "Order Deny,Allow\nDeny from all\n@AUTH@\nSatisfy Any\n" + E, ["GET .1", "GET .1 good"])
case("A11", "Deny from all + Require valid-user inside <Limit POST> + Satisfy Any (GET has no Require)",
     D + "Order Deny,Allow\nDeny from all\n@AUTH@\n<Limit POST>\nRequire valid-user\n</Limit>\nSatisfy Any\n" + E,
     ["GET .1", "GET .1 good", "POST .1", "POST .1 good"])

# ---------------------------------------------------------------- (c) mixed, same section
case("C1", "same section: Require all granted + Order allow,deny + Deny from all",
     D + "Require all granted\nOrder allow,deny\nDeny from all\n" + E, R_IP)
case("C2", "same section: Require all granted + Order allow,deny (no Allow)",
     D + "Require all granted\nOrder allow,deny\n" + E, R_IP)
case("C3", "same section: Require all denied + Order allow,deny + Allow from all",
     D + "Require all denied\nOrder allow,deny\nAllow from all\n" + E, R_IP)
case("C4", "same section: Require ip .1 + Order deny,allow / Deny all / Allow from .5",
     D + "Require ip 127.0.0.1\nOrder deny,allow\nDeny from all\nAllow from 127.0.0.5\n" + E, R_IP)
case("C5", "same section: Require ip .1 + Order allow,deny / Allow from .1 .5",
     D + "Require ip 127.0.0.1\nOrder allow,deny\nAllow from 127.0.0.1 127.0.0.5\n" + E, R_IP)
case("C6", "same section: Require valid-user + Deny all/Allow .1 + Satisfy Any",
     D + "@AUTH@\nRequire valid-user\nOrder deny,allow\nDeny from all\nAllow from 127.0.0.1\nSatisfy Any\n" + E, R_STD)
case("C7", "same section: Require valid-user + Deny all/Allow .1 + Satisfy All",
     D + "@AUTH@\nRequire valid-user\nOrder deny,allow\nDeny from all\nAllow from 127.0.0.1\nSatisfy All\n" + E, R_STD)
case("C8", "same section: Require ip .1 + Order deny,allow/Deny from all + Satisfy Any",
     D + "Require ip 127.0.0.1\nOrder deny,allow\nDeny from all\nSatisfy Any\n" + E, R_IP)
case("C9", "same section: Require all granted + Deny from all + Satisfy Any",
     D + "Require all granted\nOrder deny,allow\nDeny from all\nSatisfy Any\n" + E, R_IP)
# parent/child
case("C10", "parent old (Deny all) + child new (Require all granted)  [upgrade doc 'NOT WORKING']",
     D + "Order deny,allow\nDeny from all\n" + E + "\n" + DC + "Require all granted\n" + E, R_CHILD)
case("C11", "parent new (Require all denied) + child old (Deny all/Allow .1)  [upgrade doc 'WORKING', Directory]",
     D + "Require all denied\n" + E + "\n" + DC + "Order deny,allow\nDeny from all\nAllow from 127.0.0.1\n" + E, R_CHILD)
case("C12", "upgrade doc 'WORKING' verbatim shape: <Directory /> Require all denied + <Location> old",
     "<Directory />\nAllowOverride None\nRequire all denied\n</Directory>\n"
     "<Location /p/c>\nOrder deny,allow\nDeny from all\nAllow From 127.0.0.1\n</Location>", R_CHILD)
case("C13", "parent new (Require all granted) + child old (Deny from all)",
     D + "Require all granted\n" + E + "\n" + DC + "Order deny,allow\nDeny from all\n" + E, R_CHILD)
case("C14", "parent old (Allow from all) + child new (Require all denied)",
     D + "Order allow,deny\nAllow from all\n" + E + "\n" + DC + "Require all denied\n" + E, R_CHILD)
case("C15", "parent old (Deny all/Allow .1) + child new (Require ip .5)",
     D + "Order deny,allow\nDeny from all\nAllow from 127.0.0.1\n" + E + "\n" + DC + "Require ip 127.0.0.5\n" + E, R_CHILD)
case("C16", "Debian-style <Directory /> Require all denied + app dir old-style Allow from all",
     "<Directory />\nRequire all denied\n</Directory>\n" + D + "Order allow,deny\nAllow from all\n" + E, R_IP)
case("C17", "<Directory /> Require all denied, docroot Require all granted, p old-style Allow from all",
     "<Directory />\nRequire all denied\n</Directory>\n<Directory {root}/htdocs>\nRequire all granted\n</Directory>\n"
     + D + "Order allow,deny\nAllow from all\n" + E, R_IP)
case("C18", "parent old Deny all + Satisfy Any + child new Require valid-user (+auth)",
     D + "Order deny,allow\nDeny from all\nAllow from 127.0.0.1\nSatisfy Any\n" + E + "\n" + DC + "@AUTH@\nRequire valid-user\n" + E,
     [f"GET .1 {C}", f"GET .5 {C}", f"GET .5 good {C}", f"GET .5 bad {C}"])

# ---------------------------------------------------------------- (d) compat merging
case("D1", "parent Deny all/Allow .1/Satisfy Any/auth; child ONLY 'Allow from 127.0.0.5'",
     D + "Order deny,allow\nDeny from all\nAllow from 127.0.0.1\n@AUTH@\nRequire valid-user\nSatisfy Any\n" + E + "\n"
     + DC + "Allow from 127.0.0.5\n" + E, R_CHILD)
case("D2", "parent Deny all + auth (Satisfy default); child ONLY 'Satisfy Any'",
     D + "Order deny,allow\nDeny from all\n@AUTH@\nRequire valid-user\n" + E + "\n" + DC + "Satisfy Any\n" + E, R_CHILD)
case("D3", "parent 'Order Allow,Deny' + Allow from .5; child ONLY 'Allow from 127.0.0.1'",
     D + "Order Allow,Deny\nAllow from 127.0.0.5\n" + E + "\n" + DC + "Allow from 127.0.0.1\n" + E, R_CHILD)
case("D4", "parent Deny all; child ONLY 'Order allow,deny'",
     D + "Order deny,allow\nDeny from all\n" + E + "\n" + DC + "Order allow,deny\n" + E, R_CHILD)
case("D5", "parent Allow,Deny/Allow from all; child ONLY 'Deny from 127.0.0.5'",
     D + "Order allow,deny\nAllow from all\n" + E + "\n" + DC + "Deny from 127.0.0.5\n" + E, R_CHILD)
case("D6", "parent Deny all; child ONLY 'Order deny,allow'",
     D + "Order deny,allow\nDeny from all\n" + E + "\n" + DC + "Order deny,allow\n" + E, R_CHILD)
case("D7", "parent Deny all/Allow .1 + Satisfy Any + auth; child ONLY AuthName (authn) -> compat inherited?",
     D + "Order deny,allow\nDeny from all\nAllow from 127.0.0.1\n@AUTH@\nRequire valid-user\nSatisfy Any\n" + E + "\n"
     + DC + "AuthName other\n" + E, R_CHILD)
case("D8", "Directory Allow from all vs Location Deny from all (Location merged last)",
     D + "Order allow,deny\nAllow from all\n" + E + "\n<Location /p>\nOrder deny,allow\nDeny from all\n</Location>", R_IP)

# ---------------------------------------------------------------- (e) .htaccess
HT_GARBAGE = {"p": "ThisIsNotADirective\n"}
case("E1", "no AllowOverride anywhere; .htaccess = 'Require all denied'",
     "", R_IP, htaccess={"p": "Require all denied\n"})
case("E2", "no AllowOverride anywhere; .htaccess = Order deny,allow / Deny from all",
     "", R_IP, htaccess={"p": "Order deny,allow\nDeny from all\n"})
case("E3", "no AllowOverride anywhere; .htaccess = garbage directive",
     "", R_IP, htaccess=HT_GARBAGE)
case("E4", "AllowOverride Limit; .htaccess = 'Require all granted'",
     D + "AllowOverride Limit\n" + E, R_IP, htaccess={"p": "Require all granted\n"})
case("E5", "AllowOverride Limit; .htaccess = Order deny,allow / Deny from all / Allow from .1",
     D + "AllowOverride Limit\n" + E, R_IP, htaccess={"p": "Order deny,allow\nDeny from all\nAllow from 127.0.0.1\n"})
case("E6", "AllowOverride AuthConfig; .htaccess = 'Require all denied'",
     D + "AllowOverride AuthConfig\n" + E, R_IP, htaccess={"p": "Require all denied\n"})
case("E7", "AllowOverride AuthConfig; .htaccess = Order deny,allow / Deny from all",
     D + "AllowOverride AuthConfig\n" + E, R_IP, htaccess={"p": "Order deny,allow\nDeny from all\n"})
case("E8", "AllowOverride AuthConfig; .htaccess = Basic auth + Require valid-user",
     D + "AllowOverride AuthConfig\n" + E, R_STD,
     htaccess={"p": "AuthType Basic\nAuthName t\nAuthUserFile {root}/htpasswd\nRequire valid-user\n"})
case("E9", "AllowOverride Limit; .htaccess = 'Satisfy Any'",
     D + "AllowOverride Limit\n" + E, R_IP, htaccess={"p": "Satisfy Any\n"})
case("E10", "AllowOverride None + AllowOverrideList Require; .htaccess = 'Require all denied'",
     D + "AllowOverride None\nAllowOverrideList Require\n" + E, R_IP, htaccess={"p": "Require all denied\n"})
case("E11", "AllowOverride None + AllowOverrideList Order Deny; .htaccess = Order deny,allow / Deny from all",
     D + "AllowOverride None\nAllowOverrideList Order Deny\n" + E, R_IP, htaccess={"p": "Order deny,allow\nDeny from all\n"})
case("E12", "AllowOverrideList Require only; .htaccess has Require + Order (Order not listed)",
     D + "AllowOverride None\nAllowOverrideList Require\n" + E, R_IP,
     htaccess={"p": "Require all granted\nOrder deny,allow\n"})
case("E13", "Directory Deny all/Allow .1 + auth; .htaccess (AllowOverride All) = ONLY 'Satisfy Any'",
     D + "AllowOverride All\nOrder deny,allow\nDeny from all\nAllow from 127.0.0.1\n@AUTH@\nRequire valid-user\n" + E,
     R_STD, htaccess={"p": "Satisfy Any\n"})
case("E14", "Directory Require all granted; .htaccess (AllowOverride All) = Order deny,allow / Deny from all",
     D + "AllowOverride All\nRequire all granted\n" + E, R_IP, htaccess={"p": "Order deny,allow\nDeny from all\n"})
case("E15", "Debian-like <Directory /> AllowOverride None; p AllowOverride All; .htaccess Deny from all",
     "<Directory />\nAllowOverride None\n</Directory>\n" + D + "AllowOverride All\n" + E, R_IP,
     htaccess={"p": "Order deny,allow\nDeny from all\n"})

case("E16", "explicit AllowOverride None; .htaccess = garbage directive",
     D + "AllowOverride None\n" + E, R_IP, htaccess=HT_GARBAGE)
case("E17", "no AllowOverride anywhere; EMPTY .htaccess", "", R_IP, htaccess={"p": "# only a comment\n"})

# ---------------------------------------------------------------- (f) Require syntax
case("F1", "'Require not ip 127.0.0.5' alone", D + "Require not ip 127.0.0.5\n" + E, R_IP)
case("F2", "<RequireAll> with only 'Require not ip'", D + "<RequireAll>\nRequire not ip 127.0.0.5\n</RequireAll>\n" + E, R_IP)
case("F3", "<RequireAll> Require all granted + Require not ip .5",
     D + "<RequireAll>\nRequire all granted\nRequire not ip 127.0.0.5\n</RequireAll>\n" + E, R_IP)
case("F4", "<RequireNone> Require ip .5 alone", D + "<RequireNone>\nRequire ip 127.0.0.5\n</RequireNone>\n" + E, R_IP)
case("F5", "<RequireAny> Require not ip .5 + Require all granted",
     D + "<RequireAny>\nRequire all granted\nRequire not ip 127.0.0.5\n</RequireAny>\n" + E, R_IP)
case("F6", "<RequireAll> Require all granted + <RequireNone> Require ip .5",
     D + "<RequireAll>\nRequire all granted\n<RequireNone>\nRequire ip 127.0.0.5\n</RequireNone>\n</RequireAll>\n" + E, R_IP)
case("F7", "'Require ip 10.1' (partial)", D + "Require ip 10.1\n" + E, R_IP)
case("F8", "'Require ip 127.0.0' (partial)", D + "Require ip 127.0.0\n" + E, R_IP + ["GET 127.1.0.1"])
case("F9", "'Require ip 127.0.0.' (partial, trailing dot)", D + "Require ip 127.0.0.\n" + E, R_IP + ["GET 127.1.0.1"])
case("F10", "'Require ip 127' (one octet)", D + "Require ip 127\n" + E, R_IP + ["GET 127.1.0.1"])
case("F11", "'Require ip 127.0.0.0/255.255.255.0 127.0.0.9/32'", D + "Require ip 127.0.0.0/255.255.255.0 127.0.0.9/32\n" + E, R_IP + ["GET 127.1.0.1"])
case("F12", "'Require ip 127.0.0.1/33' (bad mask)", D + "Require ip 127.0.0.1/33\n" + E, R_IP)
case("F13", "'Require ip foo.example' (hostname)", D + "Require ip foo.example\n" + E, R_IP)
case("F14", "'Require host localhost' (127.0.0.1 <-> localhost in /etc/hosts)", D + "Require host localhost\n" + E, R_IP)
case("F15", "'Require local'", D + "Require local\n" + E, R_IP + ["GET 127.1.0.1"])
case("F16", "'Require env hdrenv'", D + "Require env hdrenv\n" + E, ["GET .1", "GET .1 hdr"])
case("F17", "'Require not env hdrenv' inside RequireAll with Require all granted",
     D + "<RequireAll>\nRequire all granted\nRequire not env hdrenv\n</RequireAll>\n" + E, ["GET .1", "GET .1 hdr"])
case("F18", "Require all denied + Basic auth configured", D + "@AUTH@\nRequire all denied\n" + E, R_STD)
case("F19", "<RequireAny> Require all denied + Require valid-user", D + "@AUTH@\n<RequireAny>\nRequire all denied\nRequire valid-user\n</RequireAny>\n" + E, R_STD)
case("F20", "<RequireAll> Require valid-user + Require ip .1", D + "@AUTH@\n<RequireAll>\nRequire valid-user\nRequire ip 127.0.0.1\n</RequireAll>\n" + E, R_STD)
case("F21", "Require valid-user with NO AuthType", D + "Require valid-user\n" + E, ["GET .1", "GET .1 good"])
case("F22", "AuthType Basic + AuthUserFile, NO Require", D + "@AUTH@\n" + E, ["GET .1", "GET .1 good"])
case("F23", "'Require all' (no arg) / 'Require all granted denied'", D + "Require all granted denied\n" + E, R_IP)
case("F24", "'Require user bob' with alice's creds / 'Require group admins'",
     D + "@AUTH@\nRequire user bob\n" + E + "\n" + DC + "@AUTH@\nRequire group admins\n" + E,
     ["GET .1 good", f"GET .1 good {C}"])
case("F25", "'Require ip' (no argument)", D + "Require ip\n" + E, R_IP)
case("F26", "'Require valid-user' + 'Require ip .1' in same section (implicit RequireAny)",
     D + "@AUTH@\nRequire valid-user\nRequire ip 127.0.0.1\n" + E, R_STD)
case("F27", "'Require group admins' without mod_authz_groupfile? (here loaded) + AuthzGroupFileAuthoritative Off",
     D + "@AUTH@\nAuthzGroupFileAuthoritative Off\nRequire group admins\n" + E, ["GET .1 good"])
case("F28", "AuthzUserAuthoritative Off (2.2 directive)", D + "@AUTH@\nAuthzUserAuthoritative Off\nRequire valid-user\n" + E, ["GET .1 good"])

case("F29", "'Require ip 127.0.0.1 # comment'", D + "Require ip 127.0.0.1 # comment\n" + E, R_IP)
case("F30", "'Require host localhost # comment'", D + "Require host localhost # comment\n" + E, R_IP)
case("F31", "'Require ip 127.0.0.1,127.0.0.5' (comma list)", D + "Require ip 127.0.0.1,127.0.0.5\n" + E, R_IP)
case("F32", "'Require host calhost' (label-boundary check)", D + "Require host calhost\n" + E, R_IP)
case("F33", "'Require ip ::1 127.0.0.1' (IPv6 + IPv4)", D + "Require ip ::1 127.0.0.1\n" + E, R_IP)

# ---------------------------------------------------------------- (g) Limit
case("G1", "<Limit GET> Require valid-user </Limit> + Require ip .5 outside, same section",
     D + "@AUTH@\n<Limit GET>\nRequire valid-user\n</Limit>\nRequire ip 127.0.0.5\n" + E,
     ["GET .1", "GET .1 good", "GET .5", "POST .1", "POST .1 good", "POST .5"])
case("G2", "<Limit POST> Require valid-user </Limit> only",
     D + "@AUTH@\n<Limit POST>\nRequire valid-user\n</Limit>\n" + E, ["GET .1", "POST .1", "POST .1 good"])
case("G3", "<LimitExcept GET> Require valid-user </LimitExcept> only",
     D + "@AUTH@\n<LimitExcept GET>\nRequire valid-user\n</LimitExcept>\n" + E, ["GET .1", "POST .1", "POST .1 good"])
case("G4", "<Limit GET> Require all granted </Limit> + Require all denied outside",
     D + "<Limit GET>\nRequire all granted\n</Limit>\nRequire all denied\n" + E, ["GET .1", "POST .1"])
case("G5", "compat: <Limit POST> Order deny,allow / Deny from all </Limit>",
     D + "<Limit POST>\nOrder deny,allow\nDeny from all\n</Limit>\n" + E, ["GET .1", "POST .1"])
case("G6", "compat: <Limit GET> Order deny,allow/Deny from all </Limit> + Allow from .1 outside",
     D + "<Limit GET>\nOrder deny,allow\nDeny from all\n</Limit>\nAllow from 127.0.0.1\n" + E,
     ["GET .1", "GET .5", "POST .1", "POST .5"])
case("G7", "<Limit GET> Require valid-user </Limit> + Require all granted outside",
     D + "@AUTH@\n<Limit GET>\nRequire valid-user\n</Limit>\nRequire all granted\n" + E,
     ["GET .1", "POST .1"])
case("G8", "<RequireAll> inside <Limit>", D + "<Limit GET>\n<RequireAll>\nRequire all granted\n</RequireAll>\n</Limit>\n" + E, ["GET .1", "POST .1"])
case("G9", "<Limit GET> inside <RequireAll>", D + "<RequireAll>\n<Limit GET>\nRequire all granted\n</Limit>\n</RequireAll>\n" + E, ["GET .1", "POST .1"])
case("G10", "compat: <Limit POST> Satisfy Any </Limit>, Deny all + auth",
     D + "Order deny,allow\nDeny from all\n@AUTH@\nRequire valid-user\n<Limit POST>\nSatisfy Any\n</Limit>\n" + E,
     ["GET .1 good", "POST .1 good"])

# ---------------------------------------------------------------- (h) AuthMerging
PARENT_VU = D + "@AUTH@\nRequire valid-user\n" + E + "\n"
case("H1", "parent Require valid-user; child Require ip .1 (AuthMerging default Off)",
     PARENT_VU + DC + "Require ip 127.0.0.1\n" + E, R_CHILD)
case("H2", "parent Require valid-user; child Require ip .1 + AuthMerging Or",
     PARENT_VU + DC + "AuthMerging Or\nRequire ip 127.0.0.1\n" + E, R_CHILD)
case("H3", "parent Require valid-user; child Require ip .1 + AuthMerging And",
     PARENT_VU + DC + "AuthMerging And\nRequire ip 127.0.0.1\n" + E, R_CHILD)
case("H4", "parent Require valid-user; child has no Require (inherits)",
     PARENT_VU + DC + "Options None\n" + E, R_CHILD)
case("H5", "parent Require valid-user; child only 'AuthMerging And' (no Require)",
     PARENT_VU + DC + "AuthMerging And\n" + E, R_CHILD)
case("H6", "parent Require valid-user; .htaccess in c: 'AuthMerging Or' + Require ip .1",
     PARENT_VU + DC + "AllowOverride AuthConfig\n" + E, R_CHILD,
     htaccess={"p/c": "AuthMerging Or\nRequire ip 127.0.0.1\n"})
case("H7", "parent Require ip .1 (no auth); child AuthMerging And + Require all granted",
     D + "Require ip 127.0.0.1\n" + E + "\n" + DC + "AuthMerging And\nRequire all granted\n" + E, R_CHILD)

case("H8", "parent Require valid-user; child ONLY <Limit POST> Require all denied </Limit>",
     PARENT_VU + DC + "<Limit POST>\nRequire all denied\n</Limit>\n" + E,
     [f"GET .1 {C}", f"POST .1 {C}", f"POST .1 good {C}"])

# ---------------------------------------------------------------- (i) parsing of Order/Allow/Deny/Satisfy
OD = "Order deny,allow\nDeny from all\n"
case("I1", "'Order deny, allow' (space after comma)", D + "Order deny, allow\n" + E, R_IP)
case("I2", "'Order \"deny, allow\"' (quoted with space)", D + "Order \"deny, allow\"\n" + E, R_IP)
case("I3", "'Order DENY,Allow' (mixed case) + Deny from all + Allow from .1", D + "Order DENY,Allow\nDeny from all\nAllow from 127.0.0.1\n" + E, R_IP)
case("I4", "'Allow from 127.0.0.1 127.0.0.5' (multiple per line)", D + OD + "Allow from 127.0.0.1 127.0.0.5\n" + E, R_IP)
case("I5", "'Allow from env=!hdrenv'", D + OD + "Allow from env=!hdrenv\n" + E, ["GET .1", "GET .1 hdr"])
case("I6", "'Allow from env=hdrenv'", D + OD + "Allow from env=hdrenv\n" + E, ["GET .1", "GET .1 hdr"])
case("I7", "'Allow from 127.0.0' (partial)", D + OD + "Allow from 127.0.0\n" + E, R_IP + ["GET 127.1.0.1"])
case("I8", "'Allow from 127.0.0.' (partial, trailing dot)", D + OD + "Allow from 127.0.0.\n" + E, R_IP + ["GET 127.1.0.1"])
case("I9", "'Allow from 127.0.0.0/255.255.255.0'", D + OD + "Allow from 127.0.0.0/255.255.255.0\n" + E, R_IP + ["GET 127.1.0.1"])
case("I10", "'Allow from 127.0.0.0/24'", D + OD + "Allow from 127.0.0.0/24\n" + E, R_IP + ["GET 127.1.0.1"])
case("I11", "'Allow 127.0.0.1' (missing from)", D + OD + "Allow 127.0.0.1\n" + E, R_IP)
case("I12", "'Allow from 127.0.0.1/33'", D + OD + "Allow from 127.0.0.1/33\n" + E, R_IP)
case("I13", "'Allow from localhost' (hostname, HostnameLookups Off)", D + OD + "Allow from localhost\n" + E, R_IP)
case("I14", "'Allow from 127.0.0.1 # comment'", D + OD + "Allow from 127.0.0.1 # comment\n" + E, R_IP)
case("I15", "'Allow From 127.0.0.1' (From capitalised)", D + OD + "Allow From 127.0.0.1\n" + E, R_IP)
case("I16", "'Allow from ::1 127.0.0.1' (IPv6 + IPv4)", D + OD + "Allow from ::1 127.0.0.1\n" + E, R_IP)
case("I17", "'Satisfy foo'", D + "Satisfy foo\n" + E, R_IP)
case("I18", "'Order' with no argument", D + "Order\n" + E, R_IP)
case("I19", "'Deny from all' with no Order (default Deny,Allow)", D + "Deny from all\nAllow from 127.0.0.1\n" + E, R_IP)
case("I20", "'Allow from 10.1.' vs host-like '10.1.x'", D + OD + "Allow from 127.0.0.x\n" + E, R_IP)
case("I21", "'Allow from 127.0.0.1/8' (host bits set under mask)", D + OD + "Allow from 127.0.0.1/8\n" + E, R_IP + ["GET 127.1.0.1"])
case("I22", "'Allow from 127.0.0.1,127.0.0.5' (comma list)", D + OD + "Allow from 127.0.0.1,127.0.0.5\n" + E, R_IP)
case("I23", "'Allow from 127.0/16' (partial IP with mask)", D + OD + "Allow from 127.0/16\n" + E, R_IP)
case("I24", "'Allow from 256.1.1.1' (bad octet)", D + OD + "Allow from 256.1.1.1\n" + E, R_IP)
case("I25", "'Allow from 127.0.0.1/' (empty mask)", D + OD + "Allow from 127.0.0.1/\n" + E, R_IP)
case("I26", "'Allow from fe80::/10 ::1/128 127.0.0.1' (IPv6 CIDR)", D + OD + "Allow from fe80::/10 ::1/128 127.0.0.1\n" + E, R_IP)
case("I27", "'Allow from 127.0.0.0/255.0.255.0' (non-contiguous mask)", D + OD + "Allow from 127.0.0.0/255.0.255.0\n" + E, R_IP)
case("I28", "'Allow from foo/24' (hostname with mask)", D + OD + "Allow from foo/24\n" + E, R_IP)
case("I29", "'Require ip 127.0/16' (partial IP with mask)", D + "Require ip 127.0/16\n" + E, R_IP)
case("I30", "'Deny from all' + 'Allow from all' in Order Deny,Allow / Allow,Deny",
     D + "Order Allow,Deny\nAllow from all\nDeny from all\n" + E + "\n" + DC + "Order Deny,Allow\nAllow from all\nDeny from all\n" + E,
     ["GET .1", f"GET .1 {C}"])
# decision tables: .1 = allow-only, .2 = both, .3 = deny-only, .4 = neither
RULES = "Allow from 127.0.0.1 127.0.0.2\nDeny from 127.0.0.2 127.0.0.3\n"
R_DT = ["GET .1", "GET .2", "GET .3", "GET .4"]
case("T1", "decision table Order Allow,Deny", D + "Order Allow,Deny\n" + RULES + E, R_DT)
case("T2", "decision table Order Deny,Allow", D + "Order Deny,Allow\n" + RULES + E, R_DT)
case("T3", "decision table Order Mutual-failure", D + "Order Mutual-failure\n" + RULES + E, R_DT)
case("T4", "decision table, no Order (default)", D + RULES + E, R_DT)


def fmt_body(body):
    return body.replace("{root}", "ROOT").replace(
        "@AUTH@", "AuthType Basic / AuthName / AuthUserFile / AuthGroupFile")


def main(argv):
    sel = set(argv[1:])
    import subprocess
    v = subprocess.run(["/usr/sbin/apache2", "-v"], capture_output=True, text=True).stdout.split("\n")[0]
    print(f"<!-- generated by scripts/access_measure.py on {v} -->\n")
    for c in CASES:
        if sel and c["id"] not in sel:
            continue
        r = run_case(c["body"], c["reqs"], htaccess=c["htaccess"], compat=c["compat"],
                     keep_log=True)
        print(f"### {c['id']}: {c['title']}\n")
        print("```apache")
        if not c["compat"]:
            print("# (mod_access_compat NOT loaded)")
        print(fmt_body(c["body"]).strip() or "# (nothing in the main config)")
        for rel, content in (c["htaccess"] or {}).items():
            print(f"# ROOT/htdocs/{rel}/.htaccess:")
            for line in content.strip().splitlines():
                print("#   " + line.replace("{root}", "ROOT"))
        print("```\n")
        if r["error"]:
            print(f"**config rejected:** `{r['error']}`\n")
            continue
        heads = [f"`{s.replace('/p/c/x.html', '/p/c/').replace(' good', ' +good').replace(' bad', ' +bad')}`"
                 for s, _ in r["results"]]
        print("| " + " | ".join(heads) + " |")
        print("|" + "---|" * len(heads))
        print("| " + " | ".join(str(st) for _, st in r["results"]) + " |")
        logs = [l.split("] ", 4)[-1] for l in r["log"]]
        uniq = []
        for l in logs:
            if l not in uniq:
                uniq.append(l)
        if uniq:
            print("\nerror_log: " + " ; ".join(f"`{u[:160]}`" for u in uniq[:3]))
        print()
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv)
