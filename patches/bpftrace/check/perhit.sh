#!/bin/sh
# In a guest of the patched kernel with a deterministic clock
# (vm/run.sh -i 0 -- patches/bpftrace/check/perhit.sh): the cost per hit of
# bpftrace's argN on USDT probes of 1, 3, 6 and 12 arguments (perhit.c),
# for two builds of the patched bpftrace that differ only in libbpf:
# out/bpftrace.before (the series without kprobe-ctx: the register read
# goes through a switch) and out/bpftrace.after (with it: one load at a
# variable context offset).  Each build runs two scripts on the same four
# probes: one that reads every argument, and one with an empty block.
# Output: build/bpftrace/perhit-*.out, and the table perhit.md.
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
B=$TOP/build/bpftrace
T=$B/perhit
CALLS=${CALLS:-2000} ROUNDS=${ROUNDS:-5}
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
set -eu
cc -O2 -Wall -DUSDT_FIRE_PROVIDER=perhit -I"$TOP/tools/common" -o "$T" \
	"$TOP/patches/bpftrace/check/perhit.c" "$TOP/tools/common/usdt_fire.c"
uname -r >"$B/perhit.kernel"
git -C "$TOP/build/linux" log -1 --format='tree: %h ("%s")' >>"$B/perhit.kernel" || true
"$T" "$CALLS" "$ROUNDS" >"$B/perhit-none.out"
sum() {	# arg0 + arg1 + ... + arg$(($1 - 1))
	i=1 s=arg0
	while [ $i -lt "$1" ]; do s="$s + arg$i"; i=$((i + 1)); done
	echo "$s"
}
for bin in before after; do
	for what in empty read; do
		prog=
		for k in 1 3 6 12; do
			if [ $what = read ]; then
				body="if ($(sum $k) == -1) { @x = 1; }"
			else
				body=
			fi
			prog="$prog usdt:$T:perhit:args$k { $body }"
		done
		BPFTRACE_BIN=$B/out/bpftrace.$bin "$TOP/patches/bpftrace/check/bt" -e "$prog" \
			-c "$T $CALLS $ROUNDS" >"$B/perhit-$bin-$what.out" 2>&1
	done
done
python3 "$TOP/patches/bpftrace/check/perhit.py" "$B" >"$B/perhit.md"
cat "$B/perhit.md"
