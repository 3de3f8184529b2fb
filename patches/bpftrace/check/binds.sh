# Sourced by build.sh and runtime.sh: chroot_binds PATH... prints what to
# bind into root.sh's chroot so that it sees each PATH where the host does:
# proc, dev and sys, and the top directory of each PATH (work for
# /work/main), once each.
chroot_binds() {
	{
		printf '%s\n' proc dev sys
		for p in "$@"; do
			p=${p#/}
			printf '%s\n' "${p%%/*}"
		done
	} | awk '!seen[$0]++'
}
