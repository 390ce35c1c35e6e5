#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What `make demo` runs inside the VM: an 8-node ftnl cluster, one netns per
# node, configured with ftnl-cli, then shown from node 1.
set -eu

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "building an 8-node cluster: one netns per node, veth to a bridge"
ftnl-vcluster up 8
echo "config file given to every node:"
sed 's/^key .*/key <64 hex digits, random>/' /tmp/ftnl-vcluster.conf

say "node 1: ftnl-cli info"
ftnl-vcluster exec 1 ftnl-cli info
say "node 1: ftnl-cli cluster show"
ftnl-vcluster exec 1 ftnl-cli cluster show
say "node 1: ftnl-cli node list"
ftnl-vcluster exec 1 ftnl-cli node list
say "node 5: ftnl-cli -j node list (JSON, for scripts)"
ftnl-vcluster exec 5 ftnl-cli -j node list
say "a bad request is refused with the kernel's reason, nothing changes"
ftnl-vcluster exec 1 ftnl-cli cluster set file /tmp/ftnl-vcluster.conf self 99 || true
ftnl-vcluster exec 1 ftnl-cli cluster show
ftnl-vcluster down
