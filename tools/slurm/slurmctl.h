/* SPDX-License-Identifier: GPL-2.0 */
/*
 * slurmctl.h - the few slurmctld requests ftnl-slurm makes, through
 * libslurm (Debian's libslurm-dev): read a node's state, update it.
 */
#ifndef FTNL_SLURM_SLURMCTL_H
#define FTNL_SLURM_SLURMCTL_H

#include <stddef.h>

#include "policy.h"

/* A node's state as read from slurmctld; reason is a copy. */
struct fs_slurm_state {
	struct fs_slurm_node node;
	char reason[FS_REASON_MAX];
	char state_name[48];
};

/* Reads the Slurm configuration (NULL: SLURM_CONF or the default path). */
void fs_slurm_open(const char *conf);
void fs_slurm_close(void);

/**
 * fs_slurm_get() - read one node's state from slurmctld
 * Return: 0; else libslurm's error number (fs_error_is_transient() says
 * whether to retry).
 */
int fs_slurm_get(const char *name, struct fs_slurm_state *state);

/**
 * fs_slurm_update() - scontrol update NodeName=@name State=@op Reason=@reason
 * Return: 0; else libslurm's error number.
 */
int fs_slurm_update(const char *name, enum fs_op op, const char *reason);

/* Called with every node slurmctld knows; nonzero stops the walk. */
typedef int (*fs_slurm_node_cb)(const char *name, const struct fs_slurm_state *state,
				void *arg);

/**
 * fs_slurm_each() - one request for all nodes' states, @cb for each
 * Return: 0; the callback's nonzero value; else libslurm's error number.
 */
int fs_slurm_each(fs_slurm_node_cb cb, void *arg);

const char *fs_slurm_strerror(int err);

#endif
