// SPDX-License-Identifier: GPL-2.0
/*
 * slurmctl.c - ftnl-slurm's requests to slurmctld, through libslurm.
 * Each call is one RPC; libslurm authenticates it with munge and, when
 * slurmctld does not answer, gives up after its MessageTimeout with a
 * communication error that the caller retries later.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "slurmctl.h"

void fs_slurm_open(const char *conf)
{
	slurm_init(conf);
}

void fs_slurm_close(void)
{
	slurm_fini();
}

static int fs_slurm_err(void)
{
	int err = slurm_get_errno();

	return err ? err : SLURM_ERROR;
}

static const char *fs_base_name(uint32_t base)
{
	switch (base) {
	case NODE_STATE_DOWN:
		return "DOWN";
	case NODE_STATE_IDLE:
		return "IDLE";
	case NODE_STATE_ALLOCATED:
		return "ALLOCATED";
	case NODE_STATE_MIXED:
		return "MIXED";
	case NODE_STATE_ERROR:
		return "ERROR";
	case NODE_STATE_FUTURE:
		return "FUTURE";
	default:
		return "UNKNOWN";
	}
}

static void fs_slurm_fill(const node_info_t *info, struct fs_slurm_state *state)
{
	memset(state, 0, sizeof(*state));
	state->node.down = (info->node_state & NODE_STATE_BASE) == NODE_STATE_DOWN;
	state->node.drain = (info->node_state & NODE_STATE_DRAIN) != 0;
	if (info->reason)
		snprintf(state->reason, sizeof(state->reason), "%s", info->reason);
	state->node.reason = state->reason;
	snprintf(state->state_name, sizeof(state->state_name), "%s%s",
		 fs_base_name(info->node_state & NODE_STATE_BASE),
		 state->node.drain ? "+DRAIN" : "");
}

int fs_slurm_get(const char *name, struct fs_slurm_state *state)
{
	node_info_msg_t *msg = NULL;
	char buf[FS_NAME_MAX];
	uint32_t i;
	int err = ESLURM_INVALID_NODE_NAME;

	snprintf(buf, sizeof(buf), "%s", name);
	if (slurm_load_node_single(&msg, buf, SHOW_ALL) != SLURM_SUCCESS)
		return fs_slurm_err();
	for (i = 0; msg && i < msg->record_count; i++) {
		if (!msg->node_array[i].name || strcmp(msg->node_array[i].name, name))
			continue;
		fs_slurm_fill(&msg->node_array[i], state);
		err = 0;
		break;
	}
	slurm_free_node_info_msg(msg);
	return err;
}

int fs_slurm_each(fs_slurm_node_cb cb, void *arg)
{
	node_info_msg_t *msg = NULL;
	struct fs_slurm_state state;
	uint32_t i;
	int ret = 0;

	if (slurm_load_node(0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return fs_slurm_err();
	for (i = 0; i < msg->record_count && ret == 0; i++) {
		if (!msg->node_array[i].name)
			continue;
		fs_slurm_fill(&msg->node_array[i], &state);
		ret = cb(msg->node_array[i].name, &state, arg);
	}
	slurm_free_node_info_msg(msg);
	return ret;
}

int fs_slurm_update(const char *name, enum fs_op op, const char *reason)
{
	update_node_msg_t msg;
	char name_buf[FS_NAME_MAX];
	char reason_buf[FS_REASON_MAX];

	slurm_init_update_node_msg(&msg);
	snprintf(name_buf, sizeof(name_buf), "%s", name);
	msg.node_names = name_buf;
	switch (op) {
	case FS_OP_DOWN:
		msg.node_state = NODE_STATE_DOWN;
		break;
	case FS_OP_DRAIN:
		msg.node_state = NODE_STATE_DRAIN;
		break;
	case FS_OP_RESUME:
		msg.node_state = NODE_RESUME;
		break;
	case FS_OP_NONE:
		return 0;
	}
	if (reason && op != FS_OP_RESUME) {
		snprintf(reason_buf, sizeof(reason_buf), "%s", reason);
		msg.reason = reason_buf;
		msg.reason_uid = getuid();
	}
	if (slurm_update_node(&msg) != SLURM_SUCCESS)
		return fs_slurm_err();
	return 0;
}

const char *fs_slurm_strerror(int err)
{
	return slurm_strerror(err);
}
