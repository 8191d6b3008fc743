#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# build-host.sh: make this machine a distcc build host for the workbench's
# kernel builds (run make deps first: the cross compilers and distcc).
#
#   ALLOW=NET   the clients' network, as distccd --allow takes it
#               (192.168.1.0/24); required: distccd runs what a client sends
#               it to any address it allows
#   LISTEN=ADDR the address to listen on (default 0.0.0.0: all)
#   STOP=1      stop the daemon that this script started
#
# The daemon runs the compilers that /usr/lib/distcc names (distcc's
# whitelist, which update-distcc-symlinks makes of the installed GCCs),
# one job per CPU, at nice 10, until it is stopped or the machine
# restarts; its pid is in /run/distcc-workbench/distccd.pid, its log in
# syslog.
# A daemon that starts at boot is Debian's own: the same values in
# /etc/default/distcc (STARTDISTCC, ALLOWEDNETS, LISTENER).
. "$(dirname "$0")/lib.sh"

# distccd writes its pid file after it drops to its own user.
PIDDIR=/run/distcc-workbench
PIDFILE=$PIDDIR/distccd.pid
[ "$(id -u)" = 0 ] || die "build-host: run it as root (it starts distccd, which drops to the distcc user)"
command -v distccd >/dev/null || die "build-host: no distccd: run make deps first"

if pid=$(cat "$PIDFILE" 2>/dev/null); then
	! kill "$pid" 2>/dev/null || say "build-host: stopped the daemon of pid $pid"
	rm -f "$PIDFILE"
fi
[ -z "${STOP:-}" ] || exit 0
[ -n "${ALLOW:-}" ] || die "build-host: ALLOW=NET is required: the clients' network (ALLOW=192.168.1.0/24)"

install -d -m 755 -o "$(id -u distccd 2>/dev/null || echo 0)" "$PIDDIR"
update-distcc-symlinks
missing=
ccs=$(for k in $ARCHES; do echo "$(arch_cross "$k")gcc"; done | sort -u)
for cc in $ccs; do
	[ -e "/usr/lib/distcc/$cc" ] || missing+=" $cc"
done
[ -z "$missing" ] || die "build-host: not installed, or not in /usr/lib/distcc:$missing (make deps)"

distccd --daemon --allow "$ALLOW" --listen "${LISTEN:-0.0.0.0}" --jobs "$(nproc)" --nice 10 \
	--pid-file "$PIDFILE" ||
	die "build-host: distccd did not start"
sleep 1
pid=$(cat "$PIDFILE" 2>/dev/null) && kill -0 "$pid" 2>/dev/null ||
	die "build-host: distccd did not start (its reason is in syslog)"
say "build-host: distccd (pid $pid) on ${LISTEN:-0.0.0.0}:3632 for $ALLOW, $(nproc) jobs, $(wc -w <<< "$ccs") compilers, those of every kernel (GCC $(gcc -dumpfullversion))"
say "build-host: on a client: DISTCC_HOSTS=\"$(hostname -f 2>/dev/null || hostname)/$(nproc)\" make test"
