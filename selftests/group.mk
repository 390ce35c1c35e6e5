# SPDX-License-Identifier: GPL-2.0
#
# Process groups on the kernel module (included by selftests/Makefile):
# group_module.sh runs ftnl-launch (from /opt/ftnl/bin, make guest-scripts)
# with the group tests' workload and checker, built and copied here, on a
# virtual cluster. Documentation/selftests.rst, Documentation/ftnl-launch.rst.

EXTRA_TESTS += group_module.sh group_recover
EXTRA_TOOLS += ftnl-group-worker group-check group_recover

GROUP_TESTS_SRC := $(ROOT)/libftnl/group/tests


# The workload (libftnl/group/tests/group-worker.c), against the guest's
# libftnl in /opt/ftnl/lib.
$(OUT)/ftnl-group-worker: $(GROUP_TESTS_SRC)/group-worker.c \
		$(ROOT)/libftnl/include/ftnl/group.h $(ROOT)/libftnl/include/ftnl/ftnl.h \
		$(wildcard $(BUILD)/lib/libftnl.so) | $(OUT)
	$(CC) $(ST_CPPFLAGS) $(LIBFTNL_CPPFLAGS) $(ST_CFLAGS) -o $@ $< $(LIBFTNL_LDLIBS) -lpthread

$(OUT)/group-check: $(GROUP_TESTS_SRC)/group-check | $(OUT)
	install -m 0755 $< $@

# The group's failure detector itself (an internal of libftnl, so linked
# from libftnl.a, whose hidden symbols link statically), against the module.
$(OUT)/group_recover: group_recover.c $(OBJ)/ftnl_selftest.o $(COMMON_H) \
		$(ROOT)/libftnl/group/detector.h $(wildcard $(BUILD)/lib/libftnl.a) | $(OUT)
	$(CC) $(ST_CPPFLAGS) $(LIBFTNL_CPPFLAGS) -I$(ROOT)/libftnl $(ST_CFLAGS) \
		-o $@ $< $(OBJ)/ftnl_selftest.o $(BUILD)/lib/libftnl.a -lmnl -lpthread
