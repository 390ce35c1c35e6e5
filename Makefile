# SPDX-License-Identifier: GPL-2.0
#
# ftnl top-level build. Out-of-tree module through kbuild, userspace library,
# CLI and tests through the per-directory makefiles below. See README.md.
#
# Targets: all check check-all check-debug demo bench install clean setup
#          deb check-deb module modules-vm debug-kernel lib cli sim
#          sim-compare guest-scripts unit-tests
#          selftests fuzz
#          checkpatch sparse

ROOT := $(abspath .)
BUILD := $(ROOT)/build
CACHE := $(ROOT)/.cache

# Kernels the VM boots. 6.1 is the default; 6.12 comes from bookworm-backports;
# debug is built here (make debug-kernel) and is not in the defaults.
VM_KERNELS ?= 6.1 6.12
CHECK_KERNELS ?= 6.1 6.12

# Module build for the host: the running kernel's build dir if present, else
# the Debian 6.1 headers the setup step installs.
HOST_KDIR := /lib/modules/$(shell uname -r)/build
KDIR ?= $(if $(wildcard $(HOST_KDIR)/Makefile),$(HOST_KDIR),$(shell $(ROOT)/tools/dev/kernels.sh kdir 6.1 2>/dev/null))

PREFIX ?= /usr/local
DESTDIR ?=

export ROOT BUILD CACHE PREFIX DESTDIR

.PHONY: all setup module modules-vm lib cli sim sim-compare era-soak vall-soak bench bench-tools \
	guest-scripts unit-tests selftests fuzz \
	check check-all check-debug debug-kernel demo install clean checkpatch sparse deb \
	check-deb

all: module lib cli sim guest-scripts unit-tests selftests bench-tools

# Idempotent: installs only what is missing.
setup:
	@$(ROOT)/tools/dev/setup.sh

# kbuild writes objects beside the sources; build each kernel's module in its
# own tree of symlinks so that builds for several kernels never mix.
define kmod_tree
	rm -rf $(1) && mkdir -p $(1) && \
	cp -rs $(ROOT)/Kbuild $(ROOT)/kmod $(ROOT)/uapi $(1)/
endef

module:
	@test -n "$(KDIR)" || { echo "no kernel headers: run 'make setup'" >&2; exit 1; }
	$(call kmod_tree,$(BUILD)/kmod/host)
	$(MAKE) -C $(KDIR) M=$(BUILD)/kmod/host modules

modules-vm:
	@set -e; for k in $(VM_KERNELS); do \
		kdir=$$($(ROOT)/tools/dev/kernels.sh kdir $$k); \
		$(call kmod_tree,$(BUILD)/kmod/$$k); \
		$(MAKE) -C $$kdir M=$(BUILD)/kmod/$$k modules; \
	done

lib:
	$(MAKE) -C libftnl

cli: lib
	$(MAKE) -C tools

# The ring benchmark's programs, built with everything so they keep compiling.
bench-tools: lib
	$(MAKE) -C tools/bench
	$(MAKE) -C tools/bench/radix

# Figures only, never pass/fail, not part of check (Documentation/bench.rst).
bench: setup modules-vm cli bench-tools
	@$(ROOT)/tools/dev/bench.sh
	@echo "== ftnl-slurm: silence to Slurm DOWN (tools/slurm/check.sh --bench)"
	@$(ROOT)/tools/slurm/check.sh --bench
	$(MAKE) -C tools/bench/era run
	$(MAKE) -C tools/bench/radix run

# The discrete-event simulator (Documentation/simulator.rst).
sim:
	$(MAKE) -C tools/sim

sim-compare: sim
	$(MAKE) -C tools/sim compare

# ERA under millions of random schedules (Documentation/era.rst).
era-soak:
	$(MAKE) -C libftnl/era soak

# Validate-all likewise (Documentation/validate-all.rst).
vall-soak:
	$(MAKE) -C libftnl/vall soak

# Scripts the VM runner puts on the guest's PATH (build/bin).
guest-scripts:
	install -d $(BUILD)/bin
	install -m 0755 tools/demo/ftnl-vcluster tools/demo/demo-guest.sh \
		tools/launch/ftnl-launch $(BUILD)/bin/
	install -m 0755 tools/cluster/node $(BUILD)/bin/ftnl-cluster-node

unit-tests: lib cli
	$(MAKE) -C kmod/tests
	$(MAKE) -C tools/sim tests
	$(MAKE) -C libftnl/era tests
	$(MAKE) -C libftnl/vall tests
	$(MAKE) -C libftnl/radix tests
	$(MAKE) -C libftnl tests
	$(MAKE) -C tools tests
	$(MAKE) -C libftnl/group/tests
	$(MAKE) -C examples
	$(MAKE) -C tools/fuzz

# Coverage-guided fuzzing of the network decoders, FUZZ_SECONDS (default
# 60) per target; needs clang (Documentation/fuzzing.rst). make check
# replays the committed corpus instead.
fuzz: setup
	$(MAKE) -C tools/fuzz run

selftests: lib
	$(MAKE) -C selftests

# Style and static checks on the kernel code (part of check).
checkpatch:
	@$(ROOT)/tools/dev/checkpatch.sh

sparse:
	$(call kmod_tree,$(BUILD)/kmod/sparse)
	$(MAKE) -C $$($(ROOT)/tools/dev/kernels.sh kdir 6.1) M=$(BUILD)/kmod/sparse W=1 C=2 modules

check: setup
	@$(ROOT)/tools/dev/check.sh $(CHECK_KERNELS)

# The debug kernel (lockdep, KASAN, kmemleak; Documentation/vm-runner.rst):
# built once per machine outside the clone, tens of minutes the first time.
debug-kernel: setup
	@$(ROOT)/tools/dev/debug-kernel.sh

# The module and the ring, broadcast, process and teardown selftests on it.
check-debug: setup
	@$(ROOT)/tools/dev/check.sh --kernels-only debug

# check plus the debug kernel: a fresh machine's kernel build alone pushes it
# past an hour.
check-all: setup
	@CLUSTER_SET=all $(ROOT)/tools/dev/check.sh 6.1 6.12 debug

demo: setup
	@$(ROOT)/tools/dev/demo.sh

# Debian packages from debian/ into build/deb (Documentation/admin-guide.rst).
deb:
	@$(ROOT)/tools/dev/deb.sh

# Installs them on this machine (root), has DKMS build the module for both
# kernels and runs selftests in the VM with it. Not part of check.
check-deb: setup
	@$(ROOT)/tools/dev/check-deb.sh

# The module goes to the extra/ dir of the kernel KDIR belongs to.
install: module lib cli
	krel=$$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h) && \
	install -d $(DESTDIR)/lib/modules/$$krel/extra && \
	install -m 0644 $(BUILD)/kmod/host/ftnl.ko $(DESTDIR)/lib/modules/$$krel/extra/ && \
	if [ -z "$(DESTDIR)" ]; then depmod -a $$krel; fi
	$(MAKE) -C libftnl install
	$(MAKE) -C tools install

clean:
	rm -rf $(BUILD)
	$(MAKE) -C kmod/tests clean
	$(MAKE) -C tools/sim clean
	$(MAKE) -C libftnl/era clean
	$(MAKE) -C libftnl/vall clean
	$(MAKE) -C libftnl/radix clean
	$(MAKE) -C tools/bench clean
	$(MAKE) -C libftnl clean
	$(MAKE) -C tools clean
	$(MAKE) -C selftests clean
	$(MAKE) -C libftnl/group/tests clean
	$(MAKE) -C tools/fuzz clean
	$(MAKE) -C examples clean
	$(MAKE) -C tools/bench/era clean
	$(MAKE) -C tools/bench/radix clean
