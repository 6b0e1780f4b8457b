"""APT: deb-src entries, source-package and candidate queries."""
import os
import re
import subprocess

from harness.subjects.fetch.common import EXIT_FAIL, EXIT_MISSING, Fail, is_root, run

SRC_FILE = "/etc/apt/sources.list.d/lz4gate-src.sources"


def os_codename():
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VERSION_CODENAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None

def parse_deb822(text):
    stanzas, cur, key = [], {}, None
    for line in text.splitlines():
        if not line.strip():
            if cur:
                stanzas.append(cur)
            cur, key = {}, None
            continue
        if line.startswith("#"):
            continue
        if line[0] in " \t" and key:
            cur[key] += "\n" + line.strip()
            continue
        if ":" in line:
            key, val = line.split(":", 1)
            key = key.strip().lower()
            cur[key] = val.strip()
    if cur:
        stanzas.append(cur)
    return stanzas

def apt_entries():
    """Yield (types, uris, suites, components, signed_by) for all entries."""
    paths = []
    if os.path.isfile("/etc/apt/sources.list"):
        paths.append("/etc/apt/sources.list")
    d = "/etc/apt/sources.list.d"
    if os.path.isdir(d):
        paths += [os.path.join(d, n) for n in sorted(os.listdir(d))]
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            continue
        if path.endswith(".sources"):
            for s in parse_deb822(text):
                if s.get("enabled", "yes").lower() == "no":
                    continue
                yield (s.get("types", "").split(), s.get("uris", "").split(),
                       s.get("suites", "").split(),
                       s.get("components", "").split(),
                       s.get("signed-by", ""))
        elif path.endswith(".list") or path == "/etc/apt/sources.list":
            for line in text.splitlines():
                line = line.split("#", 1)[0].strip()
                m = re.match(r"(deb|deb-src)\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)"
                             r"\s*(.*)", line)
                if not m:
                    continue
                opts = m.group(2) or ""
                sb = re.search(r"signed-by=(\S+?)\]?(\s|$)", opts)
                yield ([m.group(1)], [m.group(3)], [m.group(4)],
                       m.group(5).split(), sb.group(1) if sb else "")

def deb_src_stanza():
    """The deb822 text of the deb-src entry to add, or None if unknown."""
    codename = os_codename()
    if not codename:
        return None
    for types, uris, suites, comps, signed_by in apt_entries():
        if "deb" in types and codename in suites and "main" in comps:
            text = ("Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\n"
                    % (" ".join(uris), codename))
            if signed_by and "\n" not in signed_by:
                text += "Signed-By: %s\n" % signed_by
            return text
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    if os.path.isfile(keyring):
        return ("Types: deb-src\nURIs: http://deb.debian.org/debian\n"
                "Suites: %s\nComponents: main\nSigned-By: %s\n"
                % (codename, keyring))
    return None

def have_source_index(srcpkg):
    p = subprocess.run(["apt-cache", "showsrc", "--only-source", srcpkg],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL,
                       env=dict(os.environ, LC_ALL="C"), check=False)
    return p.returncode == 0 and b"\nVersion:" in b"\n" + p.stdout

def has_candidate(pkg):
    p = subprocess.run(["apt-cache", "policy", pkg], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, LC_ALL="C"), check=False)
    m = re.search(rb"Candidate:\s*(\S+)", p.stdout)
    return bool(m) and m.group(1) != b"(none)"

def dpkg_version(pkg):
    p = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=False)
    return p.stdout.decode().strip() if p.returncode == 0 else None

def ensure_deb_src(srcpkg, say):
    if have_source_index(srcpkg):
        return
    stanza = deb_src_stanza()
    codename = os_codename()
    # a deb-src entry that would serve the package (this release, main)
    has_src = any("deb-src" in types and codename in suites and "main" in comps
                  for types, _, suites, comps, _ in apt_entries())
    if not is_root():
        if has_src:
            fix = "apt-get update"
        elif stanza:
            fix = ("printf '%s' > %s && apt-get update"
                   % (stanza.replace("\n", "\\n"), SRC_FILE))
        else:
            fix = "add a deb-src entry for Debian main, then apt-get update"
        raise Fail(EXIT_MISSING,
                   "APT knows no source package '%s' (no deb-src entry or "
                   "stale lists) and adding one needs root" % srcpkg,
                   "fix (as root): %s   -- or rerun this tool as root" % fix)
    if not has_src:
        if stanza is None:
            raise Fail(EXIT_MISSING,
                       "cannot derive a deb-src entry: no Debian 'deb' entry "
                       "for this release's main component was found",
                       "fix: add a deb-src entry for Debian main to %s, then "
                       "apt-get update" % SRC_FILE)
        say("upstream", "adding deb-src entry %s" % SRC_FILE)
        with open(SRC_FILE, "w", encoding="utf-8") as f:
            f.write("# Added by lz4gate (python3 -m harness fetch) to "
                    "fetch the lz4 source package.\n" + stanza)
    say("upstream", "apt-get update")
    run(["apt-get", "update"])
    if not have_source_index(srcpkg):
        raise Fail(EXIT_FAIL,
                   "after apt-get update APT still knows no source package "
                   "'%s'" % srcpkg,
                   "check: apt-cache showsrc %s; cat %s" % (srcpkg, SRC_FILE))
