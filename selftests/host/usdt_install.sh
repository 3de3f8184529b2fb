#!/usr/bin/env bash
# `make install PREFIX=DIR` puts the usdt tool and its man page under DIR;
# the man page renders without a warning and has every option of --help;
# the installed tool runs on the host's own kernel (attach data or not: it
# says which mode libbpf fell back to) and counts usdt_rip's hits.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
make -s -C "$TOP" install PREFIX="$dir/usr" >/dev/null
tool=$dir/usr/bin/usdt
page=$dir/usr/share/man/man8/usdt.8
[ -x "$tool" ] || { echo "FAIL: no $tool"; exit 1; }
MANWIDTH=80 man --warnings -l "$page" >"$dir/page.txt" 2>"$dir/man.err" || { cat "$dir/man.err"; exit 1; }
[ ! -s "$dir/man.err" ] || { echo "FAIL: man warns:"; cat "$dir/man.err"; exit 1; }
grep -q 'usdt - list and trace the USDT probes' "$dir/page.txt" ||
	{ echo "FAIL: man page without its NAME line"; exit 1; }
# every option of --help has its entry in the man page
for opt in $("$tool" --help | grep -o '^  -[a-zA-Z], --[a-z-]*\|^      --[a-z-]*' | grep -o -- '--[a-z-]*'); do
	grep -q -- "$opt" "$dir/page.txt" || { echo "FAIL: $opt is not in the man page"; exit 1; }
done

prog=$BUILD/selftests/usdt_rip_gcc
out=$(echo x | "$tool" -C "$prog" 'rip:*' -- "$prog" 2>"$dir/err") ||
	{ echo "FAIL: usdt exited $?"; cat "$dir/err"; exit 1; }
cat "$dir/err"
echo "$out"
grep -q ' mode, 1 link, attached in ' "$dir/err" || { echo "FAIL: no mode named"; exit 1; }
grep -q '^           4  total, 3 of 3 probes hit$' <<<"$out" || { echo "FAIL: wrong table"; exit 1; }
echo "host kernel $(uname -r): $(grep -o '[a-zA-Z +]* mode' "$dir/err")"
