# SPDX-License-Identifier: GPL-2.0
#
# Registered processes (FTNL_CMD_PROC_*): proc_register registers children
# on an 8-node virtual cluster (st_vcluster.c) and checks listing, clean
# exits and the broadcast of deaths (Documentation/selftests.rst).
# EXTRA_VC_TESTS alone: the Makefile appends it to the ring tests, which are
# in the run order already; adding it to EXTRA_TESTS too would run it twice.
EXTRA_VC_TESTS += proc_register
