#!/bin/sh
# In a guest (vm/run.sh [-k KERNEL] -- patches/bpftrace/check/jvm.sh TAG):
# on OpenJDK 17's libjvm (517 probes), the patched bpftrace counts every
# probe's hits while java runs, as the usdt tool counts them in the same kind
# of run; then the unpatched bpftrace tries the same; then each makes a
# histogram of an argument, as the usdt tool does; then a probe whose block
# is both usdt and kprobe, without and with an argument read, in both.
# Outputs in build/bpftrace/jvm-TAG.*
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
B=$TOP/build/bpftrace
O=$B/jvm-${1:?TAG}
L=$(readlink -f /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so)
# what runs the same number of times in each run: usdt_tool.c's libjvm test
JAVA="/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Xint -XX:+UseSerialGC"
JAVA="$JAVA -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0 -version"
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
cd /tmp
uname -r >"$O.kernel"
"$TOP/patches/bpftrace/check/bt" -e "usdt:$L:* { @[probe] = count(); }" -c "$JAVA" \
	>"$O.bt" 2>&1
echo "exit $?" >>"$O.bt"
"$TOP/build/usdt/usdt" -C "$L" '*' -c "$JAVA" >"$O.usdt" 2>&1
echo "exit $?" >>"$O.usdt"
BPFTRACE_BIN=$B/out/bpftrace.base "$TOP/patches/bpftrace/check/bt" \
	-e "usdt:$L:* { @[probe] = count(); }" -c "$JAVA" >"$O.base" 2>&1
echo "exit $?" >>"$O.base"
"$TOP/patches/bpftrace/check/bt" -e "usdt:$L:hotspot:class__loaded { @ = hist(arg1); }" \
	-c "$JAVA" >"$O.hist" 2>&1
echo "exit $?" >>"$O.hist"
"$TOP/build/usdt/usdt" -H 1 "$L" hotspot:class__loaded -c "$JAVA" >"$O.usdt-hist" 2>&1
echo "exit $?" >>"$O.usdt-hist"
for b in patched base; do
	bin=$B/out/src/bpftrace
	[ $b = patched ] || bin=$B/out/bpftrace.base
	BPFTRACE_BIN=$bin "$TOP/patches/bpftrace/check/bt" \
		-e "usdt:$L:hotspot:class__loaded, kprobe:do_exit { @[probe] = count(); }" \
		-c "$JAVA" >"$O.mixed-$b" 2>&1
	echo "exit $?" >>"$O.mixed-$b"
	BPFTRACE_BIN=$bin "$TOP/patches/bpftrace/check/bt" \
		-e "usdt:$L:hotspot:class__loaded, kprobe:do_exit { @[probe] = count(); @n = sum(arg1); }" \
		-c "$JAVA" >"$O.mixed-arg-$b" 2>&1
	echo "exit $?" >>"$O.mixed-arg-$b"
done
