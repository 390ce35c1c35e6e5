# SPDX-License-Identifier: GPL-2.0
#
# Deployment: health.sh checks "ftnl-cli health" on a real module;
# node_config.sh runs ftnl.service's own commands (self auto,
# node names, the leave on stop) on a 3-node cluster; it reads the unit
# from beside itself. slurm_dryrun.sh runs ftnl-slurm --dry-run on a
# 4-node cluster: one actor per failure, the reasons.
EXTRA_TESTS += node_config.sh health.sh slurm_dryrun.sh

all: $(OUT)/ftnl.service.in

$(OUT)/ftnl.service.in: $(ROOT)/tools/systemd/ftnl.service.in | $(OUT)
	install -m 0644 $< $@
