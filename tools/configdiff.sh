#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# configdiff.sh [KERNEL...]: the options (=y or =m) that each kernel's image
# has and the plain `kunit.py run --kunitconfig=lib/kunit` of `make bench`
# does not have for the same machine, and the reverse.  Ours is the .config
# of the kernel's last build (make test); theirs is made by `kunit.py
# config` with the arguments `make bench` gives `kunit.py run` (olddefconfig
# only, nothing is built), in $BUILD/configdiff-KERNEL.
. "$(dirname "$0")/lib.sh"

hold_applied "$@"
[ $# -gt 0 ] || set -- $KERNELS
on() { sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=[ym]$/\1/p' "$1" | sort; }
fold_list() { tr '\n' ' ' | fold -s -w 76 | sed 's/^/    /'; echo; }
for kernel in "$@"; do
	ours=$(kbuild_dir "$kernel")/.config
	[ -f "$ours" ] || die "configdiff $kernel: no build in $(kbuild_dir "$kernel")"
	theirs=$BUILD/configdiff-$kernel
	rm -rf "$theirs"
	plain_kunit config "$kernel" "$theirs" >"$theirs.log" 2>&1 ||
		{ tail -20 "$theirs.log"; die "configdiff $kernel: kunit.py config failed (log: $theirs.log)"; }
	only_ours=$(comm -23 <(on "$ours") <(on "$theirs/.config"))
	only_theirs=$(comm -13 <(on "$ours") <(on "$theirs/.config"))
	echo "$kernel: $(grep -c . <<< "$only_ours") options only in ours, $(grep -c . <<< "$only_theirs") only in kunit.py's lib/kunit run"
	echo "  only in ours:"
	fold_list <<< "$only_ours"
	echo "  only in theirs:"
	fold_list <<< "$only_theirs"
done
