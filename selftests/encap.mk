# SPDX-License-Identifier: GPL-2.0
#
# The UDP encap static keys (Documentation/selftests.rst): udp_encap checks
# that the module takes them once at load, so that configuring clusters
# never rewrites kernel text under traffic, and cycles cluster set/delete
# hundreds of times while UDP datagrams flow.
EXTRA_FTNL_TESTS += udp_encap
EXTRA_TESTS += udp_encap
