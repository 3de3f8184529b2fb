#!/bin/sh
# In a guest of a kmemleak kernel (make test-debug): run a command between
# two kmemleak scans and write what the second one reports to FILE.
#
#   vm/kmemleak.sh FILE -- COMMAND [ARGS...]
#
# kmemleak reports an object only after it has been unreferenced for 5 s,
# and through a scan: each check is two scans 6 s apart.  Boot's own
# reports are found first and cleared ("clear" forgets them), so FILE holds
# what the command leaked.  FILE is not written when a scan fails or
# kmemleak disabled itself; the host counts that as a failure.  Exits with
# COMMAND's exit code.
kml=/sys/kernel/debug/kmemleak
file=$1
shift 2
rm -f "$file"
check() {	# check OUT: scan twice, the reports into OUT
	echo scan >$kml && sleep 6 && echo scan >$kml && cat $kml >"$1"
}
sleep 6
check /dev/null && echo clear >$kml || echo "kmemleak: the first scan failed (disabled?)"
"$@"
rc=$?
check "$file.tmp" && mv "$file.tmp" "$file" || echo "kmemleak: the last scan failed (disabled?)"
exit $rc
