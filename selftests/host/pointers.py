#!/usr/bin/env python3
"""Stale hand-kept pointers (pointers.sh): reads the project's file names on
stdin, the kernel tree's path as argv[1]; prints a FAIL line for each README
or source header that names a patch or an issue by number, or a path that
does not exist, and exits 1 if there is one."""
import os, re, sys

ksrc = sys.argv[1]
TOPDIRS = ("selftests/", "tools/", "kernel/", "vm/", "patches/", ".ci/")
KTREE = ("tools/testing/", "tools/lib/", "tools/bpf/", "tools/include/", "kernel/bpf/",
         "kernel/trace/", "include/", "Documentation/", "arch/", "net/", "mm/", "scripts/",
         "lib/")
NUMBERED = re.compile(r"\b(?:[Pp]atch(?:es)?|[Ii]ssues?) \d+\b")
PATHLIKE = re.compile(r"^[\w.+-]+(?:/[\w.+-]+)+/?$|^[\w+-]+\.(?:c|h|sh|py|md|mk|patch)$")
bad = []


def record(path):
    """A committed record: measured output, quoted as it was made."""
    return ("/results/" in "/" + path or "-results/" in path or
            re.search(r"/libbpf-ab/probes-", path) is not None)


def header(text):
    """The comment block a source file starts with."""
    lines, out = text.splitlines(), []
    i = 1 if lines and lines[0].startswith("#!") else 0
    if i < len(lines) and lines[i].lstrip().startswith("/*") or (
            i < len(lines) and "SPDX" in lines[i] and i + 1 < len(lines) and
            lines[i + 1].lstrip().startswith("/*")):
        for line in lines[i:]:
            out.append(line)
            if "*/" in line and not line.lstrip().startswith("// SPDX"):
                break
    else:
        for line in lines[i:]:
            if not line.startswith(("#", "//")):
                break
            out.append(line)
    return "\n".join(out)


def exists(tok, where):
    """Beside the text, at the top, in the kernel tree or its selftests."""
    tok = tok.rstrip("/")
    roots = (".", where, "selftests", ksrc, os.path.join(ksrc, "tools/testing/selftests/bpf"))
    return any(os.path.exists(os.path.join(r, tok)) for r in roots)


for path in sys.stdin.read().split():
    if record(path) or path.startswith("patches/") and not path.endswith(".md"):
        continue
    text = open(path, errors="replace").read()
    md = path.endswith(".md")
    body = text if md else header(text)
    where = os.path.dirname(path)
    for n, line in enumerate(body.splitlines(), 1):
        for m in NUMBERED.finditer(line):
            bad.append(f"{path}:{n}: names a patch or an issue by number: {m.group(0)!r}")
        if md:
            toks = re.findall(r"`([^`\s]+)`", line)
        else:
            toks = [t.strip(".,;:()\"'") for t in line.split()]
            toks = [t for t in toks if t.startswith(TOPDIRS)]
        for tok in toks:
            tok = tok.rstrip(".,;:")
            # src/: the bpftrace tree (patches/bpftrace/), not this project
            if (tok.startswith(("/", "~", "build/", "-", "http", "src/")) or "*" in tok or
                    "$" in tok or "<" in tok or "{" in tok or "..." in tok or
                    not PATHLIKE.match(tok)):
                continue
            if not md and not tok.startswith(TOPDIRS):
                continue
            # a bare file name is read beside the row or text of its directory;
            # an upper-case part is a placeholder (prog_tests/NAME.c)
            # and test/subtest names are not paths: a path starts at a
            # top directory or ends in a file name with a suffix
            if "/" not in tok or re.search(r"(^|/)[A-Z_]+(\.|/|$)", tok):
                continue
            if not tok.startswith(TOPDIRS + KTREE) and "." not in tok.rsplit("/", 1)[-1]:
                continue
            if not exists(tok, where):
                bad.append(f"{path}:{n}: names {tok!r}, which does not exist")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
