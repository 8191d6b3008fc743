#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The table of the results that kunit.sh and selftests.sh recorded, and the
# closing line.  Exits non-zero if any row is not ok.
. "$(dirname "$0")/lib.sh"

[ -d "$RESULTS" ] || die "no results in $RESULTS"
P=0 F=0 S=0 bad=0
# Every row names the commit it was built from (lib.sh: record); it must be
# this clone's series as apply.sh made it.
mine=$(git -C "$TREE" rev-parse -q --verify --short=12 "$(applied_ref)^{commit}" || echo "never applied")
echo
echo "this clone's series: $mine (linux $(base_version) + series, kunit/, selftests/ of $TOP)"
printf '%-10s %-19s %7s %7s %7s %6s  %s\n' kernel suite passed failed skipped time status
# The rows in the order of $KERNELS, then any other kernel's (a run of
# kernels outside the default list, tools/matrix.sh parisc say): every
# recorded row is shown and counted.  In bash alone: a program per row
# was a second or two at the end of every run.
all=()
for f in "$RESULTS"/*; do
	[ -f "$f" ] && all+=("${f##*/}")
done
[ ${#all[@]} -gt 0 ] || die "no results in $RESULTS"
order=()
declare -A seen
for k in $KERNELS; do
	for f in "${all[@]}"; do
		[ "${f%%.*}" = "$k" ] || continue
		order+=("$f")
		seen[$f]=1
	done
done
for f in "${all[@]}"; do
	[ -n "${seen[$f]:-}" ] || order+=("$f")
done
# The fields of every row, read once.
declare -A row
for f in "${order[@]}"; do
	row[$f]=$(< "$RESULTS/$f")
done
# The accelerator of each row is shown only when the rows differ in it;
# else one line below the table says it.  Why a row that KVM could have
# run ran under TCG: the first such row's reason.
declare -A accel_seen
accels=() kvm_why=
for f in "${order[@]}"; do
	IFS=$'\t' read -r _ _ _ _ _ _ _ _ accel <<< "${row[$f]}"
	case ${accel%% *} in
	''|-|none) ;;
	*) [ -n "${accel_seen[${accel%% *}]:-}" ] || accels+=("${accel%% *}")
	   accel_seen[${accel%% *}]=1 ;;
	esac
	if [ -z "$kvm_why" ] && [[ $accel =~ ^tcg\ \((no\ KVM|KVM|a\ boot\ under\ KVM|ACCEL).*\)$ ]]; then
		kvm_why=${accel#tcg (}
		kvm_why=${kvm_why%)}
	fi
done
for f in "${order[@]}"; do
	IFS=$'\t' read -r name status passed failed skipped log secs source accel <<< "${row[$f]}"
	arch=${name%%.*}
	suite=${name#*.}
	case $suite in
	0kunit) suite="KUnit" ;;
	st-*) suite=${suite#st-}; suite="selftests ${suite%el}" ;;	# o32el: o32 (LE)
	esac
	note=$status
	case $status in
	ok|"skipped (asked)") ;;
	"$BOOTED_AGAIN") note="$status after a hung boot: $log" ;;
	"$REUSED") note="$status, the same image and initramfs passed: $log" ;;
	*) note="$status: $log"; bad=1 ;;
	esac
	if [ "$source" != "$mine" ] && [ "$status" != "skipped (asked)" ]; then
		note="FAILED: built from ${source:-an unknown tree}, not from this clone's series; $note"
		bad=1
	fi
	[ ${#accels[@]} -le 1 ] || case $accel in ''|-|none) ;; *) note+=" (${accel%% *})" ;; esac
	case $secs in ''|-) secs=- ;; *) secs+=s ;; esac
	printf '%-10s %-19s %7s %7s %7s %6s  %s\n' "$arch" "$suite" "$passed" "$failed" \
		"$skipped" "$secs" "$note"
	P=$((P + passed)) F=$((F + failed)) S=$((S + skipped))
done
echo
case ${#accels[@]} in
0) ;;
1) echo "every QEMU boot under ${accels[0]}${kvm_why:+ ($kvm_why)}" ;;
*) echo "the QEMU boots ran under $(IFS=,; echo "${accels[*]}" | sed 's/,/ and /g'), as each row says${kvm_why:+; TCG: $kvm_why}" ;;
esac
# A kernel booted with a QEMU other than the machine's own (boot.sh).
declare -A qemu_seen
for f in "${order[@]}"; do
	IFS=$'\t' read -r name _ _ _ _ _ _ _ accel <<< "${row[$f]}"
	case $accel in
	*"; QEMU "*) [ -n "${qemu_seen[${name%%.*}]:-}" ] ||
		echo "${name%%.*} booted with QEMU ${accel#*; QEMU }"
		qemu_seen[${name%%.*}]=1 ;;
	esac
done
[ $bad -ne 0 ] || echo "every row built from $mine"
echo "$P passed, $F failed, $S skipped"
[ $bad -eq 0 ] && [ $F -eq 0 ]
