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
# recorded row is shown and counted.
rows=$(for k in $KERNELS; do ls "$RESULTS" | grep "^$k\." | sort || true; done)
others=$(ls "$RESULTS" | grep -vxF -f <(printf '%s\n' $rows) | sort || true)
[ -n "$rows$others" ] || die "no results in $RESULTS"
# The accelerator of each row is shown only when the rows differ in it;
# else one line below the table says it.
accel_names=$(for f in $rows $others; do cut -f9 "$RESULTS/$f" | cut -d' ' -f1; done)
accels=$(grep -vx -e - -e none -e '' <<< "$accel_names" | sort -u || true)
# Why a row that KVM could have run ran under TCG, from the first such row.
kvm_why=$(for f in $rows $others; do cut -f9 "$RESULTS/$f"; done |
	  grep -m1 -o '^tcg (\(no KVM\|KVM\|a boot under KVM\|ACCEL\).*)$' | sed 's/^tcg (//; s/)$//' || true)
for f in $rows $others; do
	IFS=$'\t' read -r name status passed failed skipped log secs source accel < "$RESULTS/$f"
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
	[ "$(wc -l <<< "$accels")" -le 1 ] || case $accel in ''|-|none) ;; *) note+=" (${accel%% *})" ;; esac
	case $secs in ''|-) secs=- ;; *) secs+=s ;; esac
	printf '%-10s %-19s %7s %7s %7s %6s  %s\n' "$arch" "$suite" "$passed" "$failed" \
		"$skipped" "$secs" "$note"
	P=$((P + passed)) F=$((F + failed)) S=$((S + skipped))
done
echo
case $(wc -l <<< "$accels") in
1) [ -z "$accels" ] || echo "every QEMU boot under $accels${kvm_why:+ ($kvm_why)}" ;;
*) echo "the QEMU boots ran under $(paste -sd, <<< "$accels" | sed 's/,/ and /g'), as each row says${kvm_why:+; TCG: $kvm_why}" ;;
esac
[ $bad -ne 0 ] || echo "every row built from $mine"
echo "$P passed, $F failed, $S skipped"
[ $bad -eq 0 ] && [ $F -eq 0 ]
