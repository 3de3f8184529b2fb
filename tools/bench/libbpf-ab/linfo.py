#!/usr/bin/env python3
"""linfo.py OBJ FUNC...: the line info records that OBJ's .BTF.ext holds for
each FUNC (by the function's instruction range in its section), and for
all of them together, with the bytes the kernel keeps for them while the
program is loaded (struct bpf_line_info, 16 bytes each, as passed at load)."""
import struct
import subprocess
import sys
import tempfile


def section(obj, name):
    with tempfile.NamedTemporaryFile() as out, tempfile.NamedTemporaryFile() as junk:
        subprocess.run(["llvm-objcopy-19", "--dump-section", f"{name}={out.name}", obj, junk.name],
                       check=True)
        return open(out.name, "rb").read()


obj, funcs = sys.argv[1], sys.argv[2:]
ext, btf = section(obj, ".BTF.ext"), section(obj, ".BTF")
_, _, _, hdr_len, _, _, lo, ll = struct.unpack_from("<HBBIIIII", ext, 0)
_, _, _, bhdr, _, _, so, sl = struct.unpack_from("<HBBIIIII", btf, 0)
strs = btf[bhdr + so:bhdr + so + sl]
ranges = {}
for line in subprocess.run(["llvm-objdump-19", "-t", obj], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    parts = [x for x in line.split() if x != ".hidden"]
    if " F " in line:
        ranges[parts[-1]] = (parts[-3], int(parts[0], 16), int(parts[-2], 16))
p, end = hdr_len + lo, hdr_len + lo + ll
rec = struct.unpack_from("<I", ext, p)[0]
p += 4
counts = dict.fromkeys(funcs, 0)
while p < end:
    name_off, n = struct.unpack_from("<II", ext, p)
    p += 8
    sec = strs[name_off:strs.index(b"\0", name_off)].decode()
    offs = [struct.unpack_from("<I", ext, p + i * rec)[0] for i in range(n)]
    p += n * rec
    for fn in funcs:
        s, v, sz = ranges[fn]
        if s == sec:
            counts[fn] += sum(1 for o in offs if v <= o < v + sz)
for fn in funcs:
    print(f"{fn}: {counts[fn]}")
total = sum(counts.values())
print(f"together: {total} records, {total * 16} bytes")
