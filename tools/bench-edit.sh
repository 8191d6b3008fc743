#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-edit.sh: the edit loop, timed, in scratch clones of this repository
# (the clone it runs in is not touched), with the matrix warm:
#
#   edit   a comment line appended to the KUnit file that fs/read_write.c
#          includes (kunit/read_write/fs/tests/read_write_kunit.c): every
#          kernel compiles fs/read_write.o again and links; the object,
#          and so the image, is the one it was (tools/kernel.sh);
#   code   a line of code appended there instead (a string in the
#          object): every kernel compiles, links and boots;
#   mips   a comment appended to arch/mips/kernel/linux32.c in the MIPS
#          patch: only mips64 and mips64el compile that file;
#
# make test after each, and after it is taken out again.  For comparison,
# "edit" and "code" with the workbench as it was before one boot per kernel
# (BENCH_EDIT_BEFORE, a commit of this repository: its tools/ and Makefile,
# with this clone's series, suites, selftests, apply.sh, maintainers.py and
# the kernels' rows, so that both build the same kernels), on the kernels both have
# (BENCH_EDIT_BEFORE_LACKS: sh and parisc64 for 774ed0f), with a selftest
# directory of its own.  Prints each time, and the ratios of the two sides' times.
. "$(dirname "$0")/lib.sh"

BEFORE=${BENCH_EDIT_BEFORE:-774ed0f}
S=${BENCH_EDIT_DIR:-$BUILD/bench-edit}
# The kernels the workbench before cannot run (774ed0f had no sh row; the
# rows since 254f739 that it lacks: parisc64).
BEFORE_LACKS=${BENCH_EDIT_BEFORE_LACKS:-sh parisc64}
common=$(for k in $KERNELS; do [[ " $BEFORE_LACKS " = *" $k "* ]] || printf '%s ' "$k"; done)
git -C "$TOP" rev-parse -q --verify "$BEFORE^{commit}" >/dev/null ||
	die "bench-edit: no commit $BEFORE in $TOP (BENCH_EDIT_BEFORE)"
rm -rf "$S"
mkdir -p "$S"
# The commit the clones are made of (a commit made during the run is not
# in them).
head=$(git -C "$TOP" rev-parse --short=12 HEAD)
git -C "$TOP" diff --quiet HEAD || head+=" and its changes not committed"
git clone -q "$TOP" "$S/now"
git -C "$TOP" diff HEAD | git -C "$S/now" apply --allow-empty
ident=(-c user.name=bench-edit -c user.email=bench-edit@localhost)

# timed NAME DIR [VAR=VALUE...]: make test in DIR, its seconds in $S/NAME.
timed() {
	local name=$1 dir=$2 t r=0
	shift 2
	say "bench-edit: $name: make test in $dir"
	t=$(date +%s.%N)
	(cd "$dir" && env "$@" make test) > "$S/$name.out" 2>&1 || r=$?
	echo "$(date +%s.%N) - $t" | bc > "$S/$name"
	say "bench-edit: $name: $(printf %.0f "$(cat "$S/$name")")s, exit $r: $(tail -1 "$S/$name.out")"
	[ $r -eq 0 ] || die "bench-edit: $name failed ($S/$name.out)"
}

# Each edit is a line not seen before (the time in ns): no step of the
# series, no object in ccache, no boot was made from it, as after an edit
# of one's own.
line() { echo "/* bench-edit $(date +%s%N) */"; }
kfile=kunit/read_write/fs/tests/read_write_kunit.c
edit_on() { line >> "$1/$kfile"; }
code_on() { echo "static const char bench_edit_id[] __used = \"$(date +%s%N)\";" >> "$1/$kfile"; }
edit_off() { git -C "$1" checkout -q -- "$kfile"; }

# The MIPS patch with a comment at the end of linux32.c, made with git in a
# worktree of the applied tree, so that its hunks are right.
mips_patch=$(cd "$S/now" && ls series/*-MIPS-*.patch)
mips_on() {
	local wt=$S/mips-wt
	rm -rf "$wt"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
	git -C "$wt" am -q "$S/now/series/0001-"*.patch "$S/now/$mips_patch"
	line >> "$wt/arch/mips/kernel/linux32.c"
	git -C "$wt" "${ident[@]}" commit -q --amend --no-edit -a
	git -C "$wt" format-patch -q --zero-commit -N --no-signature -1 --stdout > "$S/now/$mips_patch"
	git -C "$TREE" worktree remove --force "$wt"
}
mips_off() { git -C "$S/now" checkout -q -- "$mips_patch"; }

# The workbench as it was, with this clone's inputs.
git clone -q "$TOP" "$S/before"
git -C "$S/before" checkout -q "$BEFORE" -- tools Makefile
git -C "$S/now" ls-files -z tools/apply.sh tools/maintainers.py series kunit selftests kunitconfig MAINTAINERS.snippet |
	(cd "$S/now" && xargs -0 tar -c) | (cd "$S/before" && rm -rf series kunit && tar -x)
python3 - "$S/now/tools/lib.sh" "$S/before/tools/lib.sh" <<'PY'
import re
import sys
now, before = (open(p).read() for p in sys.argv[1:])
table = re.search(r"KERNEL_TABLE='.*?\n'", now, re.S).group(0)
before = re.sub(r"KERNEL_TABLE='.*?\n'", lambda m: table, before, flags=re.S)
# What this apply.sh needs of lib.sh that the one before did not have.
for name in ('note_of_patch',):
    if not re.search('^' + name + r'\(\)', before, re.M):
        before += '\n' + re.search('^' + name + r'\(\) \{\n.*?\n\}\n', now, re.S | re.M).group(0)
open(sys.argv[2], 'w').write(before)
PY
# The same python3 on both sides (tools/bin/python3: Debian's), so that
# the figures compare the designs, not a python3 start.
ln -sf /usr/bin/python3 "$S/before/tools/bin/python3"
before_env=(ST="$BUILD/st-before" LOGS="$S/logs-before" RESULTS="$S/results-before" KERNELS="$common")

# BENCH_EDIT_ONLY=now or before: that side alone, for a run that has the
# other side's figures already.
only=${BENCH_EDIT_ONLY:-}
if [ "$only" != before ]; then
	timed now-warm "$S/now"
	edit_on "$S/now"; timed now-edit "$S/now"
	edit_off "$S/now"; timed now-edit-back "$S/now"
	mips_on; timed now-mips "$S/now"
	mips_off; timed now-mips-back "$S/now"
	edit_on "$S/now"; timed now-edit-common "$S/now" KERNELS="$common"
	edit_off "$S/now"; timed now-edit-common-back "$S/now" KERNELS="$common"
	code_on "$S/now"; timed now-code-common "$S/now" KERNELS="$common"
	edit_off "$S/now"; timed now-code-common-back "$S/now" KERNELS="$common"
fi
if [ "$only" != now ]; then
	timed before-warm "$S/before" "${before_env[@]}"
	edit_on "$S/before"; timed before-edit "$S/before" "${before_env[@]}"
	edit_off "$S/before"; timed before-edit-back "$S/before" "${before_env[@]}"
	code_on "$S/before"; timed before-code "$S/before" "${before_env[@]}"
	edit_off "$S/before"; timed before-code-back "$S/before" "${before_env[@]}"
fi
# Leave the matrix warm for the workbench as it is (the "before" side
# configured and built the same build dirs its own way: tools/kernel.sh
# sees their .config).
timed now-rewarm "$S/now"

n=$(wc -w <<< "$KERNELS") c=$(wc -w <<< "$common")
f() { printf %.0f "$(cat "$S/$1")"; }
echo
echo "bench-edit: $(date -u '+%F %T') UTC, $(nproc) CPUs, the workbench at $head against $BEFORE"
if [ "$only" != before ]; then
	echo "  a comment line in the KUnit file of fs/read_write.c, $n kernels: $(f now-edit)s (taken out again: $(f now-edit-back)s)"
	echo "  a comment in arch/mips/kernel/linux32.c, $n kernels:    $(f now-mips)s (taken out again: $(f now-mips-back)s)"
	echo "  the comment line on the $c kernels both have, now: $(f now-edit-common)s (out: $(f now-edit-common-back)s)"
	echo "  a line of code there, the $c kernels, now: $(f now-code-common)s (out: $(f now-code-common-back)s)"
	echo "  nothing changed, $n kernels: $(f now-warm)s"
fi
if [ "$only" != now ]; then
	echo "  the comment line on the $c kernels both have, before: $(f before-edit)s (out: $(f before-edit-back)s)"
	echo "  the line of code, the $c kernels, before: $(f before-code)s (out: $(f before-code-back)s)"
fi
if [ -z "$only" ]; then
	echo "  ratio now / before, the comment line: $(echo "scale=2; $(cat "$S/now-edit-common") / $(cat "$S/before-edit")" | bc)"
	echo "  ratio now / before, the line of code: $(echo "scale=2; $(cat "$S/now-code-common") / $(cat "$S/before-code")" | bc)"
fi
