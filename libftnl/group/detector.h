/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the sources of failure knowledge, all perfect
 * (none can report a live process):
 *
 * - the ftnl kernel module: the process registers (job, rank) over a
 *   netlink handle kept open for its lifetime; the group subscribes to
 *   the "events" group and maps FTNL_EVENT_FAILURE of node N to every rank
 *   whose peer node is N (spec node id, else the address matched in the
 *   module's node table), and FTNL_EVENT_PROC_EXIT of this job to its
 *   rank, but only one from that rank's node and owned by the job's
 *   owner (grp_proc_exit_is_death()). Missed events (an overrun of the
 *   socket, or a sequence number skipped) are recovered from the module's
 *   event history (ftnl_event_history()) after the last sequence number
 *   seen, and an overrun also re-reads the node table: every node it lists
 *   dead is reported. FTNL_EVENT_EXPELLED (this node declared dead while
 *   it runs) makes the whole group fail with -ESTALE. A node that *left*
 *   (FTNL_CAUSE_LEAVE, state LEFT) is not dead: its ranks may live on.
 *   An address that several nodes share maps to none (never guess).
 * - the failure oracle directory (spec->failure_dir): watched with
 *   inotify; a file named after a decimal rank means that rank's first
 *   process exited, "R.I" that incarnation I (>= 2) of rank R did (a
 *   launcher that restarts ranks). Files present at open count too.
 */
#ifndef FTNL_GROUP_DETECTOR_H
#define FTNL_GROUP_DETECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include <ftnl/group.h>

struct grp_detector;

/*
 * Incarnation @inc of world rank @rank is dead (0: whichever process of
 * the rank runs now - the module's reports, which carry no incarnation).
 * May be called for a death already reported.
 */
typedef void (*grp_dead_fn)(void *ctx, uint32_t rank, uint32_t inc);

/*
 * Start the sources @spec and @module call for, adding their descriptors
 * to @epfd. Deaths already known at open (oracle files, dead nodes) are
 * reported through @on_dead before this returns. @spec must outlive the
 * detector. Return: 0; -ENOENT (FTNL_GROUP_MODULE_ON, and no module or no
 * cluster; or spec->failure_dir does not exist); -EINVAL (bad arguments);
 * -ENOMEM; other negative errno (e.g. of ftnl_proc_register()).
 */
int grp_detector_open(const struct ftnl_group_spec *spec,
		      enum ftnl_group_module module, int epfd,
		      grp_dead_fn on_dead, void *ctx,
		      struct grp_detector **out);

/*
 * Is @pe the death of a rank of @spec's job? Only if its node is the
 * rank's node (@rank_node, indexed by rank: the peers file's node id or
 * the node matched by address; FTNL_GROUP_NODE_ANY when unknown, which
 * matches nothing) and its owner is @owner_uid: any local user may
 * register any (job, rank), but only under its own uid, and only on its
 * own node.
 */
bool grp_proc_exit_is_death(const struct ftnl_group_spec *spec,
			    const uint32_t *rank_node, uint32_t owner_uid,
			    const struct ftnl_event_proc_exit *pe);

/*
 * Was an event missed before the one numbered @seq, @last_seq being the
 * newest seen (@seq_known: the numbering was read at open)? Sequence
 * numbers 0 (a module without them) and repeats (an event met again
 * after a recovery from the history) are no gap.
 */
bool grp_event_gap(bool seq_known, uint64_t last_seq, uint64_t seq);

/*
 * The module said this node was expelled (FTNL_EVENT_EXPELLED): the
 * cluster holds it, and so every rank on it, dead.
 */
bool grp_detector_expelled(const struct grp_detector *d);

/* Whether the kernel module is in use. */
bool grp_detector_uses_module(const struct grp_detector *d);

/* The module events' descriptor, -1 without the module (for tests). */
int grp_detector_events_fd(const struct grp_detector *d);

/*
 * Events missed and no longer in the module's history when the detector
 * looked (their deaths are lost but for node deaths, which the node table
 * still shows).
 */
uint64_t grp_detector_events_unrecoverable(const struct grp_detector *d);

/*
 * Stop; with @clean, unregister from the module first (a clean exit, not
 * a death). NULL is fine.
 */
void grp_detector_close(struct grp_detector *d, bool clean);

#endif /* FTNL_GROUP_DETECTOR_H */
