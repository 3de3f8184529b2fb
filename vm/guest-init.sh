#!/bin/sh
# PID 1 of the test guest.  The root filesystem is the host's, read-only over
# virtio-9p; the project directory is mounted read-write at its host path.
# The host runner passes the run directory in ATTACH_DATA_RUN (kernel command
# line); we run its cmd.sh, store the exit code there and power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=${TERM:-linux}
P9='trans=virtio,version=9p2000.L,msize=512000'

mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs -o mode=1777 tmp /tmp
mount -t tmpfs run /run
mkdir -p /dev/shm && mount -t tmpfs -o mode=1777 shm /dev/shm	# POSIX shared memory; d_path's test makes its file there
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing
mount -t bpf bpf /sys/fs/bpf
mount -t cgroup2 cgroup2 /sys/fs/cgroup
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null || true	# BPF CI has it: the active LSMs
# After the tmpfs mounts: the project may live below /tmp or /run, whose
# tmpfs would hide it; its mount point is then made in the tmpfs.
mkdir -p "$ATTACH_DATA_TOP" 2>/dev/null
if ! mount -t 9p -o "$P9" project "$ATTACH_DATA_TOP" || ! cd "$ATTACH_DATA_TOP"; then
	echo "vm: cannot mount the project at $ATTACH_DATA_TOP" >/dev/hvc0
	busybox poweroff -f
fi
ulimit -l unlimited
hostname vm
# Loopback up, as BPF CI's guests have it: the tree's serial tests connect
# and ping over lo in the initial network namespace.
ip link set lo up 2>/dev/null || echo "vm: cannot bring lo up" >/dev/hvc0

run=$ATTACH_DATA_RUN
echo "vm: up, $(nproc) CPU(s)" >/dev/hvc0
if [ -f "$run/shell" ]; then
	setsid -c /bin/bash -i </dev/hvc0 >/dev/hvc0 2>&1
	echo $? >"$run/exit"
else
	/bin/sh "$run/cmd.sh" </dev/null >/dev/hvc0 2>&1
	echo $? >"$run/exit"
fi
sync
busybox poweroff -f
