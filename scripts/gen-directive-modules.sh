#!/usr/bin/env bash
# gen-directive-modules.sh - map every httpd directive to the module that defines it.
#
# Usage: gen-directive-modules.sh [--compact] [APACHE2_BINARY] [MODULE_DIR] > directive-modules.json
#   --compact       only what the codemod reads (no descriptions, no per-directive source, no
#                   load diagnostics). The committed table is made with:
#                   scripts/gen-directive-modules.sh --compact > src/modules/directive-modules.generated.json
#   APACHE2_BINARY  default: $APACHE2 or /usr/sbin/apache2
#   MODULE_DIR      default: $APACHE2_MODULE_DIR or /usr/lib/apache2/modules
# Env: KEEP_TMP=1 keeps the scratch dir (path printed on stderr); VERBOSE=1 logs every probe.
#
# How it works (needs only bash + python3; apache2 is never started, only `-t`, `-M`, `-L` run):
#  1. `apache2 -v` / `-l` / `-M` give the version line, the built-in module source names and ids.
#  2. Every *.so in MODULE_DIR is read as ELF: exported `<id>_module` objects whose struct
#     carries the "AP24" magic cookie are httpd modules; module->name (the source file name,
#     e.g. "mod_cache_disk.c", "event.c") is read through the RELATIVE relocation of that field.
#     So ids/sources never rely on the file name (libphp8.2.so -> php_module, mod_php.c).
#  3. For each loadable MPM (ids mpm_*; only one may be loaded), a config with that MPM is
#     built: each other module is first tried alone (base + module, `apache2 -t`); the ones
#     that fail (typically "undefined symbol": they need another module loaded first, e.g.
#     mod_proxy_http needs mod_proxy) are retried after the working set until nothing changes.
#     The combined config is verified with `-t` (a module that breaks the combination is
#     dropped, using the "Syntax error on line N" of the message).
#  4. `apache2 -L` runs against each per-MPM config; the outputs are parsed and unioned.
#  5. `<IfModule SOURCE>` probes (via -t -D DUMP_RUN_CFG) verify the id->source mapping.
# Output (stdout): JSON, see the "Output" section at the bottom of the Python part.
set -euo pipefail

COMPACT=0
if [ "${1:-}" = "--compact" ]; then COMPACT=1; shift; fi
APACHE2_BIN="${1:-${APACHE2:-/usr/sbin/apache2}}"
MODULE_DIR="${2:-${APACHE2_MODULE_DIR:-/usr/lib/apache2/modules}}"

if [ ! -x "$APACHE2_BIN" ]; then
  echo "gen-directive-modules: apache2 binary not executable: $APACHE2_BIN" >&2; exit 2
fi
if [ ! -d "$MODULE_DIR" ]; then
  echo "gen-directive-modules: module dir not found: $MODULE_DIR" >&2; exit 2
fi
command -v python3 >/dev/null 2>&1 || { echo "gen-directive-modules: python3 is required" >&2; exit 2; }

PYPROG="$(cat <<'PY'
import json, os, re, shutil, struct, subprocess, sys, tempfile

BIN, MODDIR = sys.argv[1], os.path.abspath(sys.argv[2])
COMPACT = sys.argv[3] == "1"
VERBOSE = bool(os.environ.get("VERBOSE"))
KEEP = bool(os.environ.get("KEEP_TMP"))
MODULE_MAGIC_COOKIE = 0x41503234  # "AP24"

def log(*a):
    print("gen-directive-modules:", *a, file=sys.stderr)

def vlog(*a):
    if VERBOSE:
        log(*a)

ENV = dict(os.environ, LC_ALL="C", LANG="C")
TMP = tempfile.mkdtemp(prefix="gen-directive-modules.")
os.makedirs(os.path.join(TMP, "run"), exist_ok=True)
os.makedirs(os.path.join(TMP, "logs"), exist_ok=True)

def run(args, conf=None):
    cmd = [BIN]
    if conf is not None:
        cmd += ["-d", TMP, "-f", conf]
    cmd += args
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=ENV, timeout=120)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))

NOISE = re.compile(r"AH00558:|^Syntax OK$")

def clean_err(text):
    lines = [l.strip() for l in text.splitlines() if l.strip() and not NOISE.search(l.strip())]
    return " | ".join(lines).replace(TMP, "<scratch>")[:600]

# ---------------------------------------------------------------- ELF reader
def cstr(data, off):
    end = data.index(b"\0", off)
    return data[off:end].decode("latin-1")

def elf_modules(path):
    """[(id, source)] for every httpd 2.4 module struct exported by ELF file `path`;
    None if the file is not a readable ELF object."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
        return None
    is64 = data[4] == 2
    e = "<" if data[5] == 1 else ">"
    try:
        if is64:
            (_, _, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, _) = \
                struct.unpack_from(e + "HHIQQQIHHHHHH", data, 16)
        else:
            (_, _, _, _, phoff, shoff, _, _, phentsize, phnum, shentsize, shnum, _) = \
                struct.unpack_from(e + "HHIIIIIHHHHHH", data, 16)
        loads = []
        for i in range(phnum):
            o = phoff + i * phentsize
            if is64:
                p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = struct.unpack_from(e + "IIQQQQQQ", data, o)
            else:
                p_type, p_offset, p_vaddr, _, p_filesz, _, _, _ = struct.unpack_from(e + "IIIIIIII", data, o)
            if p_type == 1:  # PT_LOAD
                loads.append((p_vaddr, p_offset, p_filesz))

        def v2o(v):
            for va, of, sz in loads:
                if va <= v < va + sz:
                    return of + (v - va)
            return None

        secs = []
        for i in range(shnum):
            o = shoff + i * shentsize
            if is64:
                _, s_type, _, _, s_off, s_size, s_link, _, _, _ = struct.unpack_from(e + "IIQQQQIIQQ", data, o)
            else:
                _, s_type, _, _, s_off, s_size, s_link, _, _, _ = struct.unpack_from(e + "IIIIIIIIII", data, o)
            secs.append((s_type, s_off, s_size, s_link))
        # RELA relocations without symbol (R_*_RELATIVE): r_offset -> addend.
        # REL / RELR keep the addend in place, which the in-place read below covers.
        rela = {}
        for s_type, s_off, s_size, _ in secs:
            if s_type != 4:  # SHT_RELA
                continue
            ent = 24 if is64 else 12
            for k in range(s_size // ent):
                if is64:
                    r_off, r_info, r_add = struct.unpack_from(e + "QQq", data, s_off + k * ent)
                    sym = r_info >> 32
                else:
                    r_off, r_info, r_add = struct.unpack_from(e + "IIi", data, s_off + k * ent)
                    sym = r_info >> 8
                if sym == 0:
                    rela[r_off] = r_add
        psz = 8 if is64 else 4
        pfmt = e + ("Q" if is64 else "I")
        out = []
        for s_type, s_off, s_size, s_link in secs:
            if s_type != 11:  # SHT_DYNSYM
                continue
            stroff = secs[s_link][1]
            ent = 24 if is64 else 16
            for k in range(s_size // ent):
                o = s_off + k * ent
                if is64:
                    st_name, st_info, _, st_shndx, st_value, _ = struct.unpack_from(e + "IBBHQQ", data, o)
                else:
                    st_name, st_value, _, st_info, _, st_shndx = struct.unpack_from(e + "IIIBBH", data, o)
                if st_shndx == 0 or (st_info & 0xF) != 1:  # defined STT_OBJECT only
                    continue
                name = cstr(data, stroff + st_name)
                if not name.endswith("_module") or len(name) <= 7:
                    continue
                # struct module_struct { int version, minor_version, module_index;
                #   const char *name; void *dso_handle; module *next; unsigned long magic; ...}
                name_field = st_value + (16 if is64 else 12)
                magic_off = v2o(name_field + 3 * psz)
                if magic_off is None:
                    continue
                if struct.unpack_from(pfmt, data, magic_off)[0] != MODULE_MAGIC_COOKIE:
                    continue
                if name_field in rela:
                    ptr = rela[name_field]
                else:
                    nf = v2o(name_field)
                    ptr = struct.unpack_from(pfmt, data, nf)[0] if nf is not None else 0
                so = v2o(ptr) if ptr else None
                src = cstr(data, so) if so is not None else None
                if src is not None and not re.fullmatch(r"[\x21-\x7e]+", src):
                    src = None
                out.append((name[:-len("_module")], src))
        return out
    except (struct.error, ValueError, IndexError):
        return None

# ---------------------------------------------------------------- built-ins
rc, out, err = run(["-v"])
version_line = out.splitlines()[0].strip() if out.strip() else ""
rc, out, err = run(["-l"])
builtin = [l.strip() for l in out.splitlines()[1:] if l.strip()]
log("binary:", version_line, "| built-in:", " ".join(builtin))

# ---------------------------------------------------------------- discover .so files
modules = {}   # id -> {"file":..., "source":...}
order = []     # ids in file-name order
for fn in sorted(os.listdir(MODDIR)):
    if not fn.endswith(".so"):
        continue
    path = os.path.join(MODDIR, fn)
    if not os.path.isfile(path):
        continue
    found = elf_modules(path)
    if found is None or not found:
        # Not readable as ELF module: fall back to the conventional name; verified by loading.
        stem = re.sub(r"^(mod_|lib)", "", fn[:-3])
        if found is not None and not found:
            log("skip %s: no exported *_module struct with AP24 magic" % fn)
            continue
        found = [(stem, None)]
        log("warning: %s: ELF parse failed, guessing id %s_module" % (fn, stem))
    for mid, src in found:
        if mid in modules:
            log("warning: module id %s defined by %s and %s; keeping the first" % (mid, modules[mid]["file"], fn))
            continue
        modules[mid] = {"file": fn, "source": src}
        order.append(mid)

base_lines = [
    'ServerRoot "%s"' % TMP,
    'DefaultRuntimeDir "%s/run"' % TMP,
    'PidFile "%s/run/httpd.pid"' % TMP,
    'ErrorLog "%s/logs/error.log"' % TMP,
    "ServerName localhost",
]

def write_conf(name, mpm, mods, extra=()):
    """Return (path, first_module_line). Module i is on line first_module_line + i."""
    lines = list(base_lines)
    if mpm:
        lines.append("LoadModule %s_module \"%s/%s\"" % (mpm, MODDIR, modules[mpm]["file"]))
    first = len(lines) + 1
    for m in mods:
        lines.append("LoadModule %s_module \"%s/%s\"" % (m, MODDIR, modules[m]["file"]))
    lines.extend(extra)
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path, first

def test(name, mpm, mods, extra=()):
    path, first = write_conf(name, mpm, mods, extra)
    rc, out, err = run(["-t"], path)
    ok = rc == 0
    vlog("test", name, mpm, mods[-1] if mods else "-", "OK" if ok else clean_err(err))
    return ok, clean_err(err), path, first

# built-in ids from -M (static modules are listed in the same order as `-l`)
static_ids = []
mpms = [m for m in order if m.startswith("mpm_")]
others = [m for m in order if not m.startswith("mpm_")]
builtin_ids = {}
probe_mpm = mpms[0] if mpms else None
path, _ = write_conf("static.conf", probe_mpm, [])
rc, out, err = run(["-M"], path)
for l in out.splitlines():
    mm = re.match(r"\s*(\S+)_module \(static\)\s*$", l)
    if mm:
        static_ids.append(mm.group(1))
if len(static_ids) == len(builtin):
    builtin_ids = dict(zip(static_ids, builtin))
else:
    log("warning: -l lists %d modules but -M %d static ones; built-in ids unknown" % (len(builtin), len(static_ids)))
for mid in list(modules):
    if mid in builtin_ids or (modules[mid]["source"] and modules[mid]["source"] in builtin):
        log("skip %s: %s_module is built in" % (modules[mid]["file"], mid))
        del modules[mid]
others = [m for m in others if m in modules]
mpms = [m for m in mpms if m in modules]

# ---------------------------------------------------------------- build a loadable set per MPM
def build_set(mpm):
    tag = mpm or "nompm"
    failed = {}
    ok_alone = []
    for m in others:
        ok, err, _, _ = test("alone-%s.conf" % tag, mpm, [m])
        if ok:
            ok_alone.append(m)
        else:
            failed[m] = err
    # combined set: drop modules that break it
    cur = list(ok_alone)
    while True:
        ok, err, path, first = test("combined-%s.conf" % tag, mpm, cur)
        if ok:
            break
        mm = re.search(r"line (\d+) of " + re.escape(path), err)
        idx = int(mm.group(1)) - first if mm else -1
        if 0 <= idx < len(cur):
            bad = cur.pop(idx)
        else:
            # no usable line number: add modules one at a time to find the culprit
            acc = []
            bad = None
            for m in cur:
                ok2, err2, _, _ = test("incr-%s.conf" % tag, mpm, acc + [m])
                if not ok2:
                    bad, err = m, err2
                    break
                acc.append(m)
            if bad is None:
                raise SystemExit("combined config fails but no culprit found: " + err)
            cur.remove(bad)
        failed[bad] = "conflicts in combination: " + err
        log("[%s] dropping %s: %s" % (tag, bad, err))
    # retry failures after the working set (dependencies), until no progress
    progress = True
    while progress and failed:
        progress = False
        for m in [x for x in others if x in failed]:
            ok, err, _, _ = test("retry-%s.conf" % tag, mpm, cur + [m])
            if ok:
                cur.append(m)
                del failed[m]
                progress = True
            else:
                failed[m] = err
    return cur, failed

def parse_L(text):
    """Parse `apache2 -L`. Each entry is 'Name (source.c)', then the description
    (errmsg; may span several lines, continuation lines are not indented), then always
    '\tAllowed in *.conf ...', optionally followed by '\twhen AllowOverride ...'."""
    res = []
    cur = None
    for line in text.splitlines():
        t = line.strip()
        if not t:
            continue
        in_desc = cur is not None and not cur["ctx"]
        if in_desc:
            if line.startswith("\t") and t.startswith("Allowed in "):
                cur["ctx"].append(t)
            else:
                cur["desc"].append(t)
            continue
        if cur is not None and line.startswith("\t") and t.startswith("when AllowOverride"):
            cur["ctx"].append(t)
            continue
        mm = re.match(r"^(\S+) \(([^()\s]+)\)$", line)
        if not mm:
            log("warning: unparsed -L line: %r" % line)
            continue
        cur = {"name": mm.group(1), "source": mm.group(2), "desc": [], "ctx": []}
        res.append(cur)
    return res

source_to_id = {src: bid for bid, src in builtin_ids.items()}
directives = {}
mpm_info = {}
load_failures = {}
loaded_any = set()
mismatch = []

for mpm in (mpms or [None]):
    tag = mpm or "nompm"
    cur, failed = build_set(mpm)
    mpm_info[tag] = {"loaded": len(cur), "failed": sorted(failed)}
    log("[%s] loaded %d modules, %d failed%s" % (tag, len(cur), len(failed),
        (": " + " ".join(sorted(failed))) if failed else ""))
    loaded_any.update(cur)
    if mpm:
        loaded_any.add(mpm)
    for m, e in failed.items():
        load_failures.setdefault(m, {})[tag] = e
    # verify id -> source mapping with <IfModule source> probes
    probe = []
    for i, m in enumerate(([mpm] if mpm else []) + cur):
        src = modules[m]["source"]
        if src:
            probe += ["<IfModule !%s>" % src, "Define GDM_MISMATCH_%d" % i, "</IfModule>"]
    path, _ = write_conf("final-%s.conf" % tag, mpm, cur, probe)
    rc, out, err = run(["-t", "-D", "DUMP_RUN_CFG"], path)
    if rc != 0:
        raise SystemExit("final config for %s fails: %s" % (tag, clean_err(err)))
    for mm in re.finditer(r"Define: GDM_MISMATCH_(\d+)", out):
        m = (([mpm] if mpm else []) + cur)[int(mm.group(1))]
        mismatch.append(m)
        log("warning: <IfModule %s> is false although %s_module is loaded" % (modules[m]["source"], m))
    for m in ([mpm] if mpm else []) + cur:
        if modules[m]["source"]:
            source_to_id.setdefault(modules[m]["source"], m)
    rc, out, err = run(["-L"], path)
    if rc != 0:
        raise SystemExit("apache2 -L failed for %s: %s" % (tag, clean_err(err)))
    for d in parse_L(out):
        mid = source_to_id.get(d["source"])
        if mid is None:
            log("warning: directive %s from unknown source %s" % (d["name"], d["source"]))
        entry = {"module": mid, "source": d["source"], "context": " ".join(d["ctx"]),
                 "description": " ".join(d["desc"])}
        old = directives.get(d["name"])
        if old is None:
            directives[d["name"]] = entry
        elif old["module"] != mid:
            alts = old.setdefault("alsoDefinedBy", [])
            if all(a["module"] != mid for a in alts):
                alts.append({"module": mid, "source": d["source"]})

# ---------------------------------------------------------------- Output
# generatedFrom: `apache2 -v` first line; builtin: `-l` source names;
# builtinModules: id -> source for built-ins; modules: every loadable module found in
# MODULE_DIR (id -> file, source, plus "mpm": true for MPMs and "loadError" when it could not
# be loaded under any MPM); directives: name as printed by -L -> module id, source, context
# ("Allowed in ..." text, incl. the "when AllowOverride ..." part), description, and
# alsoDefinedBy when several modules define it (e.g. MPM directives, mod_cgi + mod_cgid).
mods_out = {}
for m in sorted(modules):
    ent = {"file": modules[m]["file"], "source": modules[m]["source"]}
    if m.startswith("mpm_"):
        ent["mpm"] = True
    if m not in loaded_any:
        ent["loadError"] = load_failures.get(m)
    mods_out[m] = ent
result = {
    "generatedFrom": version_line,
    "moduleDir": MODDIR,
    "builtin": builtin,
    "builtinModules": {bid: {"source": src} for bid, src in builtin_ids.items()},
    "mpms": mpm_info,
    "modules": mods_out,
    "directives": directives,
}
if mismatch:
    result["sourceMismatch"] = sorted(set(mismatch))
if COMPACT:
    # What src/modules/ reads: ids, sources and files of modules, and for each directive (sorted by
    # name) its module, the other modules defining it and where it is allowed.
    def compact_directive(d):
        out = {"module": d["module"]}
        if d.get("alsoDefinedBy"):
            out["alsoDefinedBy"] = [a["module"] for a in d["alsoDefinedBy"]]
        out["context"] = d["context"]
        return out
    result = {
        "generatedBy": "scripts/gen-directive-modules.sh --compact",
        "generatedFrom": version_line,
        "moduleDir": MODDIR,
        "builtinModules": {bid: src for bid, src in builtin_ids.items()},
        "modules": {m: dict({"file": e["file"], "source": e["source"]}, **({"mpm": True} if e.get("mpm") else {}),
                            **({"loadError": True} if "loadError" in e else {}))
                    for m, e in mods_out.items()},
        "directives": {k: compact_directive(directives[k]) for k in sorted(directives, key=lambda n: (n.lower(), n))},
    }
json.dump(result, sys.stdout, indent=2)
sys.stdout.write("\n")
if KEEP:
    log("scratch dir kept:", TMP)
else:
    shutil.rmtree(TMP, ignore_errors=True)
PY
)"

exec python3 -c "$PYPROG" "$APACHE2_BIN" "$MODULE_DIR" "$COMPACT"
