#!/usr/bin/env bash
# The series that are posted on the base with fewer than all the series
# before them (lib.sh's SERIES_NEEDS: fprobe, and kprobe-multi on it), built
# and tested as posted: patches/'s files applied with git am to Debian's
# source, in build/standalone/SERIES/linux, with build/linux's .config; the
# tree's test modules built against that kernel; the tests of the series
# (TESTS below) run in a guest with make test's test_progs (build/selftests)
# and its patched.deny.  That test_progs, and the libbpf it links, are built
# from the tree with all the series: the kernel and the series' own test
# files are as posted (the script fails if a test file the series changes
# differs there), the rest of the test binary is not.
# Prints the result lines and writes them to build/standalone/results.txt;
# exits non-zero if one failed.
#   selftests/standalone.sh [SERIES...]     (default: every SERIES_NEEDS one)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# The test_progs tests of each series: its own, and fprobe's KUnit suite,
# which runs at boot in every kernel that has the series.
declare -A TESTS=([fprobe]="kunit" [kprobe-multi]="kprobe_multi_test,kunit")

[ -x "$BUILD/selftests/test_progs" ] || die "no $BUILD/selftests/test_progs (make selftests)"
[ -f "$KSRC/.config" ] || die "no $KSRC/.config (make kernel)"
mapfile -t want < <(if [ $# -gt 0 ]; then printf '%s\n' "$@"; else printf '%s\n' "${!SERIES_NEEDS[@]}" | sort; fi)
out=$BUILD/standalone
mkdir -p "$out"
: >"$out/results.txt"
fails=0
for s in "${want[@]}"; do
	[ -n "${SERIES_NEEDS[$s]+set}" ] && [ -n "${TESTS[$s]:-}" ] ||
		die "standalone: $s is not a series posted on the base alone (lib.sh SERIES_NEEDS)"
	# What it is posted on, then itself: export allows at most one series
	# under it, itself posted on the base.
	read -ra chain <<<"${SERIES_NEEDS[$s]} $s"
	dir=$out/$s/linux
	base=$(git -C "$KSRC" rev-parse 'base^{commit}')
	patches=()
	for c in "${chain[@]}"; do
		mapfile -t p < <(series_patches "$TOP/patches/$c")
		[ ${#p[@]} -gt 0 ] || die "standalone: no patches/$c"
		patches+=("${p[@]}")
	done
	# What the worktree was last made from: the base and these patches.
	# When neither changed and the worktree is as that run left it, it
	# stays: a checkout and git am again would rewrite the series' files,
	# and make would build their objects again.
	made=$( { echo "$base"; cat "${patches[@]}"; } | sha256sum | cut -d' ' -f1)
	if [ "$(cat "$out/$s/made" 2>/dev/null)" = "$made $(git -C "$dir" rev-parse HEAD 2>/dev/null)" ] &&
		git -C "$dir" diff --quiet HEAD; then
		say TREE "${dir#"$TOP"/}: as the last run made it"
	else
		rm -f "$out/$s/made"
		worktree_at "$dir" "$base" "the base commit"
		# An earlier run whose git am failed left its state behind.
		git -C "$dir" am --abort >/dev/null 2>&1 || true
		GIT_COMMITTER_NAME=standalone GIT_COMMITTER_EMAIL=standalone@localhost \
			git -C "$dir" am -q --committer-date-is-author-date "${patches[@]}" ||
			die "standalone: the patches of ${chain[*]} do not apply to the base"
		echo "$made $(git -C "$dir" rev-parse HEAD)" >"$out/$s/made"
		say TREE "${dir#"$TOP"/}: the base, then ${chain[*]} ($(git -C "$dir" rev-list --count base..HEAD) patches)"
	fi
	# The tests that run are the series' own only if no later series
	# changed their files.
	git -C "$dir" diff --name-only base HEAD -- tools/testing/selftests/bpf |
		while read -r f; do
			cmp -s "$dir/$f" "$KSRC/$f" ||
				die "standalone: $f differs in ${KSRC#"$TOP"/}: make test's test_progs does not run $s's tests as posted"
		done
	cmp -s "$KSRC/.config" "$dir/.config" || cp "$KSRC/.config" "$dir/.config"
	ATTACH_DATA_KSRC=$dir "$TOP/kernel/build.sh"
	# The tree's test modules, for this kernel: test_progs loads
	# bpf_testmod.ko from its directory.
	say MOD "test_kmods for ${dir#"$TOP"/}"
	make -C "$dir" M="$dir/tools/testing/selftests/bpf/test_kmods" modules >"$out/$s/kmods.log" 2>&1 ||
		{ tail -n 30 "$out/$s/kmods.log"; die "standalone: test_kmods do not build for $s"; }
	# A run directory: make test's test_progs and its files, but the modules.
	run=$out/$s/run
	rm -rf "$run"
	cp -as "$BUILD/selftests" "$run"
	rm -f "$run"/*.ko
	cp "$dir"/tools/testing/selftests/bpf/test_kmods/*.ko "$run/"
	say VM "$s: test_progs -t ${TESTS[$s]}"
	set +e
	(cd "$run" && "$TOP/vm/run.sh" -k "$dir/arch/x86/boot/bzImage" -l "$out/$s/serial.log" -- \
		./test_progs -t "${TESTS[$s]}" -d@"$TOP/selftests/lists/patched.deny" \
		--json-summary="$out/$s/json") >"$out/$s/vm.log" 2>&1
	rc=$?
	set -e
	lines=$("$TOP/selftests/tp-results.py" "standalone-$s:" "$out/$s/vm.log" "$out/$s/json") || true
	printf '%s\n' "$lines" | tee -a "$out/results.txt"
	case $rc in
	0|1) ;;
	99) echo "FAIL standalone-$s:kernel_log_clean" | tee -a "$out/results.txt" ;;
	*) echo "FAIL standalone-$s:vm_run(exit $rc, see ${out#"$TOP"/}/$s/vm.log)" | tee -a "$out/results.txt" ;;
	esac
	! grep -q '^FAIL ' "$out/results.txt" || fails=1
done
exit $fails
