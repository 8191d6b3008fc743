# SPDX-License-Identifier: GPL-2.0
#
# The workbench: apply the series to Debian's linux-source-7.3, build and
# boot it under QEMU on x86, MIPS, ARM, powerpc, s390, PA-RISC and UML, run
# the KUnit suite and the selftests.
# `make help` lists the targets.

ARCH ?= x86_64
# The extracted tree and the build output (a cache shared by all clones).
BUILD ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/preadv-workbench
# KSRC=/path/to/linux: a kernel git tree of your own instead of Debian's
# linux-source-7.3; its HEAD is the base, and it is never modified (the
# workbench works in a clone of it).  It gets a workspace of its own in
# $(BUILD)/ksrc-<hash of its path>, laid out as $(BUILD) is, so that ccache
# finds the objects the two trees share.
# override: KSRC and BUILD are usually given on the command line, whose
# values a plain := would not replace.
ifneq ($(KSRC),)
override KSRC := $(realpath $(KSRC))
ifeq ($(KSRC),)
$(error KSRC: no such directory)
endif
override BUILD := $(BUILD)/ksrc-$(shell printf %s '$(KSRC)' | sha256sum | cut -c1-12)
export KSRC
endif
export BUILD

.PHONY: help deps tree apply run test kunit selftests native format-patch \
	summary checkpatch b4check bisect codegen otherarch mutants bench bench-edit bench-ccache objects \
	configdiff debian-patches cccheck faults ksrc-check build-host distcc-check clean distclean

help:
	@echo 'make run [ARCH=x86_64]  deps, apply the series, build ARCH and boot it once in QEMU:'
	@echo '                         its KUnit suites, then the selftests of each user ABI;'
	@echo '                         one of the kernels of KERNEL_TABLE (tools/lib.sh):'
	@bash -c '. tools/lib.sh; echo "$$KERNELS"' | fold -s -w 54 | sed 's/ *$$//; s/^/                         /'
	@echo '                         (x86_64-san: x86_64 with KASAN and UBSAN)'
	@echo 'make test               the whole matrix: each of those kernels booted once, KUnit'
	@echo '                         and the selftests of every user ABI (ABI_TABLE);'
	@echo '                         SKIP="x32 mips64/n32" skips combos;'
	@echo '                         KERNELS="x86_64 x86_64-san" runs those kernels only'
	@echo '                         (MATRIX_JOBS=2: kernels at once; 1 for one at a time)'
	@echo 'make kunit, selftests   the same as make run (one boot runs both)'
	@echo '                         ACCEL=tcg|kvm: the accelerator; START_BOUND=60: seconds to'
	@echo '                         the first console byte, else "the machine did not start"'
	@echo 'make native             the selftests built for x86_64, run on this machine'
	@echo 'make deps               install the Debian packages (as root; no-op if present)'
	@echo 'make tree               extract linux-source-7.3 into $$BUILD/linux, commit "base"'
	@echo '                         (KSRC=/path/to/linux: a clone of your tree, its HEAD the base;'
	@echo '                         works for every target: make test KSRC=..., format-patch ...)'
	@echo 'make apply              base + series/, kunit/, selftests/, MAINTAINERS.snippet as'
	@echo '                         commits in $$BUILD/linux (no-op if unchanged)'
	@echo 'make format-patch       export the applied series, cover letter first, to out/series/'
	@echo 'make checkpatch         checkpatch.pl --strict on every exported patch'
	@echo 'make b4check            the exported series through b4 am and git am onto the base'
	@echo 'make bisect             every commit of the series builds on its own (x86, MIPS,'
	@echo '                         and the objects of ppc64 ppc32 arm64 sh sparc64 parisc parisc64)'
	@echo 'make codegen            objdump of every function the kernel patches change, before'
	@echo '                         and after; every difference explained (tools/codegen.py)'
	@echo 'make otherarch          the changed objects build, -Werror, on arm64 ppc64 ppc32 sh'
	@echo '                         (LE, BE) sparc64 parisc parisc64 riscv64, base and series;'
	@echo '                         sh and parisc with FTRACE_SYSCALLS (syscall metadata)'
	@echo 'make mutants            break the code each test guards; every break must be caught'
	@echo 'make bench ARCH=..      cold build+run: ours against kunit.py run --kunitconfig=lib/kunit'
	@echo '                         (KERNELS="x86_64 mips": those, one after the other)'
	@echo 'make bench-edit         the edit loop timed: a comment and a line of code in'
	@echo '                         fs/read_write.c'"'"'s KUnit file, a comment in'
	@echo '                         arch/mips/kernel/linux32.c, against the old way'
	@echo 'make bench-ccache       a cold rebuild of kernel/ fs/ mm/ without ccache, with it,'
	@echo '                         in depend mode, through wbcc (the workbench'"'"'s CC), and'
	@echo '                         through wbcc and a distcc daemon on 127.0.0.2'
	@echo 'make objects            the objects of each kernel built, and of what kunitconfig cuts'
	@echo 'make debian-patches     the files the series touches that Debian'"'"'s patches changed'
	@echo 'make configdiff         options of each kernel built against those of make bench'"'"'s kunit.py run'
	@echo 'make cccheck            the kernel builds'"'"' CC rebuilds an object whose .incbin payload changed'
	@echo 'make faults             two clones at once, interrupts, full disk, no compiler, silent'
	@echo '                         QEMU, KVMs that hang or fail, no loader, an edit of each'
	@echo '                         syscall table, distcc hosts that refuse, vanish or have'
	@echo '                         another compiler: each a check, on a scratch $$BUILD (root:'
	@echo '                         mounts tmpfs)'
	@echo 'make build-host ALLOW=192.168.1.0/24   this machine a distcc build host for'
	@echo '                         those clients (after make deps; STOP=1 stops it); then'
	@echo '                         DISTCC_HOSTS="host1/8 host2/8" make test compiles there'
	@echo 'make distcc-check       each kernel'"'"'s fs/ compiled again through distcc daemons'
	@echo '                         on 127.0.0.2 and .3: the same build ID'
	@echo 'make ksrc-check         KSRC= on a developer'"'"'s own git tree: applies, or names the'
	@echo '                         patch, file and hunk; the tree is left as it was'
	@echo 'make clean              remove build output, keep the extracted tree and ccache'
	@echo 'make distclean          remove $$BUILD and out/ entirely'
	@echo '$$BUILD is $(BUILD)'

deps:
	@tools/deps.sh

tree: deps
	@tools/tree.sh

apply: deps
	@tools/apply.sh

run: deps
	@tools/run.sh $(ARCH)

kunit selftests: run

native: deps
	@tools/selftests.sh --native

test: deps
	@tools/matrix.sh

summary:
	@tools/summary.sh

format-patch: deps
	@tools/format-patch.sh

checkpatch: format-patch
	@tools/checkpatch.sh

b4check: format-patch
	@tools/b4check.sh

bisect: deps
	@tools/bisect.sh

codegen: deps
	@tools/codegen.sh

otherarch: deps
	@tools/otherarch.sh

mutants: deps
	@tools/mutants.sh

bench: deps
	@tools/bench.sh $(or $(KERNELS),$(ARCH))

bench-ccache: deps
	@tools/bench-ccache.sh $(or $(KERNELS),$(ARCH))

objects:
	@tools/objects.sh $(KERNELS)

configdiff: deps
	@tools/configdiff.sh $(KERNELS)

debian-patches: deps
	@tools/debian-patches.sh

cccheck:
	@tools/cccheck.sh

faults: deps
	@tools/faults.sh

ksrc-check: deps
	@tools/ksrc-check.sh

bench-edit: deps
	@tools/bench-edit.sh

build-host: deps
	@tools/build-host.sh

distcc-check: deps
	@tools/distcc-check.sh

clean:
	rm -rf $(BUILD)/kunit-* $(BUILD)/st $(BUILD)/hdr-* $(BUILD)/logs \
		$(BUILD)/results $(BUILD)/gen_init_cpio $(BUILD)/mutant-* $(BUILD)/mutant $(BUILD)/bisect-* \
		$(BUILD)/codegen-* $(BUILD)/otherarch-* $(BUILD)/bench $(BUILD)/bench-ccache $(BUILD)/configdiff-* \
		$(BUILD)/ksrc-* $(BUILD)/distcc-check out

distclean:
	rm -rf $(BUILD) out
