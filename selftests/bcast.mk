# SPDX-License-Identifier: GPL-2.0
#
# The broadcast of failures (kmod/bcast, Documentation/selftests.rst):
#   bcast_forwarders  32 nodes: a failure and, during its broadcast, the loss
#                     of k - 1 of its forwarders (hypercube, BMG, FCG)
#   bcast_replay      replayed, duplicate, altered, absurd and foreign BCAST
#                     and GOSSIP (FCG) datagrams from an outsider change
#                     nothing
#   bcast_burst       16 nodes: a job of 16 ranks per node aborted at once,
#                     then 4 nodes killed together: every death exactly
#                     once everywhere, nothing delivered or forwarded twice
#                     (hypercube, BMG, FCG)
# Virtual-cluster tests: EXTRA_VC_TESTS alone puts them in the run order
# (with the ring tests); EXTRA_TESTS as well would run them twice.
EXTRA_VC_TESTS += bcast_forwarders bcast_replay bcast_burst

# bcast_forwarders computes who forwards with the module's own pure overlay
# code (kmod/bcast/topology.c), compiled in.
$(OBJ)/bcast_topology.o: $(ROOT)/kmod/bcast/topology.c $(ROOT)/kmod/bcast/topology.h \
		$(ROOT)/kmod/compat.h | $(OBJ)
	$(CC) $(ST_CPPFLAGS) $(ST_CFLAGS) -c -o $@ $<

$(OUT)/bcast_forwarders: ST_CPPFLAGS += -I$(ROOT)/kmod
$(OUT)/bcast_forwarders: LIBFTNL_LDLIBS += $(OBJ)/bcast_topology.o
$(OUT)/bcast_forwarders: $(OBJ)/bcast_topology.o $(ROOT)/kmod/bcast/topology.h \
		$(ROOT)/kmod/compat.h

$(OUT)/bcast_burst: ST_CPPFLAGS += -I$(ROOT)/kmod
$(OUT)/bcast_burst: LIBFTNL_LDLIBS += $(OBJ)/bcast_topology.o
$(OUT)/bcast_burst: $(OBJ)/bcast_topology.o $(ROOT)/kmod/bcast/topology.h \
		$(ROOT)/kmod/compat.h

# bcast_replay reads captured datagrams: the format's constants (kmod/wire.h,
# kmod/bcast/message.h).
$(OUT)/bcast_replay: ST_CPPFLAGS += -I$(ROOT)/kmod
$(OUT)/bcast_replay: $(ROOT)/kmod/wire.h $(ROOT)/kmod/bcast/message.h \
		$(ROOT)/kmod/compat.h
