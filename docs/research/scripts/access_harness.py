#!/usr/bin/env python3
"""Minimal harness: start a throw-away Apache httpd 2.4 (Debian `apache2`) with a
given access-control snippet, fire requests from various 127.0.0.x source
addresses (with/without Basic credentials, GET/POST, optional header that
triggers SetEnvIf), record status codes, stop the server.

Self-contained: needs only python3 and /usr/sbin/apache2 (+ modules in
/usr/lib/apache2/modules). Each case gets its own temp dir under /tmp, its own
free port on 127.0.0.1, its own process group (start_new_session=True), and is
always stopped (SIGTERM to the prefork parent, then SIGKILL to the group).
"""
import base64, hashlib, http.client, os, re, shutil, signal, socket, subprocess
import tempfile, textwrap, time

APACHE = "/usr/sbin/apache2"
MODDIR = "/usr/lib/apache2/modules"
USER, GROUP = "www-data", "www-data"   # running as root requires User/Group
GOOD = ("alice", "secret")
BAD = ("alice", "wrong")

BASE_MODULES = ["mpm_prefork", "authz_core", "authn_core", "authz_host",
                "authz_user", "authz_groupfile", "authn_file", "auth_basic",
                "setenvif", "alias", "mime", "dir", "env"]

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close()
    return p

AUTH = """AuthType Basic
AuthName "t"
AuthUserFile {root}/htpasswd
AuthGroupFile {root}/htgroup"""

def build_conf(root, port, body, compat=True, extra_modules=()):
    mods = list(BASE_MODULES) + (["access_compat"] if compat else []) + list(extra_modules)
    lm = "\n".join(f"LoadModule {m}_module {MODDIR}/mod_{m}.so" for m in mods)
    return f"""ServerRoot {root}
PidFile {root}/httpd.pid
Listen 127.0.0.1:{port}
ServerName 127.0.0.1
User {USER}
Group {GROUP}
ErrorLog {root}/error.log
LogLevel warn authz_core:debug
{lm}
StartServers 1
MinSpareServers 1
MaxSpareServers 2
HostnameLookups Off
TypesConfig /dev/null
DocumentRoot {root}/htdocs
# header 'X-Env: yes' sets env var 'hdrenv' (server context -> post_read_request)
SetEnvIf X-Env yes hdrenv
{body.replace('@AUTH@', AUTH).format(root=root)}
"""

def make_tree(root, htaccess):
    for d in ["htdocs", "htdocs/p", "htdocs/p/c", "htdocs/q"]:
        os.makedirs(os.path.join(root, d), exist_ok=True)
        with open(os.path.join(root, d, "x.html"), "w") as f:
            f.write("ok\n")
    sha = base64.b64encode(hashlib.sha1(GOOD[1].encode()).digest()).decode()
    with open(os.path.join(root, "htpasswd"), "w") as f:
        f.write(f"{GOOD[0]}:{{SHA}}{sha}\nbob:{{SHA}}{sha}\n")
    with open(os.path.join(root, "htgroup"), "w") as f:
        f.write("admins: alice\n")
    for rel, content in (htaccess or {}).items():
        with open(os.path.join(root, "htdocs", rel, ".htaccess"), "w") as f:
            f.write(textwrap.dedent(content).replace("{root}", root))
    os.chmod(root, 0o755)
    for dp, dn, fn in os.walk(root):
        for n in dn: os.chmod(os.path.join(dp, n), 0o755)
        for n in fn: os.chmod(os.path.join(dp, n), 0o644)

def do_request(port, spec):
    """spec: 'GET .5 good hdr /p/x.html' -> (method, ip, creds, hdr, path)"""
    parts = spec.split()
    method = parts[0]; ip = parts[1] if parts[1].startswith("127.") else "127.0.0" + parts[1]
    creds = None; hdr = False; path = "/p/x.html"
    for p in parts[2:]:
        if p == "good": creds = GOOD
        elif p == "bad": creds = BAD
        elif p == "hdr": hdr = True
        elif p.startswith("/"): path = p
    headers = {}
    if creds:
        headers["Authorization"] = "Basic " + base64.b64encode(
            f"{creds[0]}:{creds[1]}".encode()).decode()
    if hdr: headers["X-Env"] = "yes"
    body = "a=b" if method == "POST" else None
    if body: headers["Content-Type"] = "application/x-www-form-urlencoded"
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(ip, 0))
    try:
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse(); r.read()
        return r.status
    finally:
        c.close()

def run_case(body, requests, htaccess=None, compat=True, keep_log=False):
    """Returns dict: {'error': str|None, 'results': [(spec, status)], 'log': [...]}"""
    root = tempfile.mkdtemp(prefix="acc-", dir="/tmp")
    out = {"error": None, "results": [], "log": []}
    proc = None
    try:
        make_tree(root, htaccess)
        port = free_port()
        conf = os.path.join(root, "httpd.conf")
        with open(conf, "w") as f:
            f.write(build_conf(root, port, body, compat))
        t = subprocess.run([APACHE, "-t", "-f", conf], capture_output=True, text=True)
        if t.returncode != 0:
            msg = (t.stderr + t.stdout).strip().splitlines()
            msg = [m for m in msg if "Syntax OK" not in m]
            out["error"] = " | ".join(msg[-3:]).replace(root, "ROOT")
            return out
        proc = subprocess.Popen([APACHE, "-f", conf, "-DFOREGROUND"],
                                start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close(); break
            except OSError:
                if proc.poll() is not None:
                    out["error"] = "server exited: " + proc.stderr.read().decode()[-300:]
                    return out
                time.sleep(0.05)
        for spec in requests:
            try:
                out["results"].append((spec, do_request(port, spec)))
            except Exception as e:  # noqa
                out["results"].append((spec, f"ERR {e}"))
        if keep_log:
            with open(os.path.join(root, "error.log")) as f:
                out["log"] = [l.strip().replace(root, "ROOT") for l in f if re.search(r"AH0(1797|1630|1631|1629|1627|0027|0028|01618|0529|0526)|AH01618|denied|failure|not allowed|invalid", l)]
        return out
    finally:
        if proc is not None:
            try:
                os.kill(proc.pid, signal.SIGTERM)
                proc.wait(timeout=10)
            except Exception:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)   # our own group only
            except ProcessLookupError:
                pass
        shutil.rmtree(root, ignore_errors=True)
