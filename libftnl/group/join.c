// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Joining a running group (Documentation/libftnl-join.rst): the JOIN and
 * WELCOME messages (joinmsg.h), the members' table of pending joiners, and
 * the joiner's side of the API. The members' side, the grow that lets
 * joiners in, is ftnl_group_grow() in request.c: the agreement decides
 * who enters, so every process sees the same sequence of views.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "era/bitmap.h"
#include "group/core.h"
#include "group/transport.h"
#include "internal.h"

/* Encode @m (job and incarnation filled in) and send it to @rank. */
static void send_msg(struct ftnl_group *g, uint32_t rank,
		     struct grp_join_msg *m)
{
	size_t len;
	uint8_t *buf;
	int err;

	m->job = g->spec.job;
	m->inc = g->inc;
	len = grp_join_msg_size(m);
	buf = malloc(len);
	if (!buf) {
		g->fatal = -ENOMEM;
		return;
	}
	grp_join_msg_encode(m, buf, len);
	err = grp_transport_send(g->transport, rank, buf, len);
	if (err == -ENOMEM)
		g->fatal = err;
	free(buf);
}

/* Whether @rank, incarnation @inc, is a member of the current view. */
static bool in_current_view(const struct ftnl_group *g, uint32_t rank,
			    uint32_t inc)
{
	uint32_t r;

	if (!g->view)
		return false;
	r = grp_view_rank(g->view, rank);
	return r != UINT32_MAX && g->view->incs[r] >= inc;
}

/*
 * A process of @rank now runs as incarnation @inc: the older ones are dead
 * (a launcher restarts a rank only once it died), and the rank is alive.
 */
void grp_new_incarnation(struct ftnl_group *g, uint32_t rank, uint32_t inc)
{
	if (inc <= g->incs[rank])
		return;
	grp_mark_dead(g, rank, inc - 1);
	g->incs[rank] = inc;
	era_bit_clear(g->dead, rank);
	era_bit_clear(g->to_transport, rank);
	/* Unless it already connected: what is queued now is for it. */
	grp_transport_peer_new(g->transport, rank, inc);
}

/* A JOIN: remember it for the next grow. */
static int on_join(struct ftnl_group *g, uint32_t from, uint32_t inc)
{
	if (inc < g->incs[from] || in_current_view(g, from, inc))
		return 0;	/* an older incarnation's, or let in already */
	grp_new_incarnation(g, from, inc);
	if (inc > g->join_inc[from])
		g->join_inc[from] = inc;
	return 0;
}

/* A WELCOME: the first view of this process, if it is one. */
static int on_welcome(struct ftnl_group *g, const struct grp_join_msg *m)
{
	struct grp_view *v;
	uint32_t self;
	int err;

	if (m->joiner_inc != g->inc)
		return -EBADMSG;
	for (self = 0; self < m->count; self++)
		if (m->members[self] == g->spec.rank)
			break;
	if (self == m->count || m->incs[self] != g->inc)
		return -EBADMSG;	/* a view without this process */
	if (!g->joining || g->view)
		return 0;	/* another member's copy of the same view */
	err = grp_view_create(g, m->view_id, m->members, m->incs, m->count,
			      &v);
	if (err) {
		if (err == -ENOMEM)
			g->fatal = err;
		return err;
	}
	g->view = v;
	g->joining = false;
	g->welcomed = true;
	/* Other joiners' messages of this view, which came first. */
	grp_replay_early(g);
	for (uint32_t i = 0; i < m->count; i++) {
		if (m->members[i] != g->spec.rank)
			grp_new_incarnation(g, m->members[i], m->incs[i]);
		if (g->join_inc[m->members[i]] <= m->incs[i])
			g->join_inc[m->members[i]] = 0;
	}
	return 0;
}

int grp_join_frame(struct ftnl_group *g, uint32_t from, const uint8_t *buf,
		   size_t len)
{
	struct grp_join_msg m = { .members = g->rx_members,
				  .incs = g->rx_incs };

	if (grp_join_msg_decode(buf, len, g->spec.size, &m) ||
	    m.job != g->spec.job || from >= g->spec.size)
		return -EBADMSG;
	if (m.type == GRP_JOIN_T_JOIN)
		return on_join(g, from, m.inc);
	return on_welcome(g, &m);
}

void grp_welcome(struct ftnl_group *g, const struct grp_view *v,
		 uint32_t rank)
{
	struct grp_join_msg m = {
		.type = GRP_JOIN_T_WELCOME,
		.joiner_inc = v->incs[grp_view_rank(v, rank)],
		.view_id = v->id, .count = v->size,
		.members = v->members, .incs = v->incs,
	};

	send_msg(g, rank, &m);
}

/* ---- the joiner's API --------------------------------------------------- */

static void lock(struct ftnl_group *g)
{
	pthread_mutex_lock(&g->lock);
}

static void unlock(struct ftnl_group *g)
{
	pthread_mutex_unlock(&g->lock);
}

static int join_start_locked(struct ftnl_group *g)
{
	struct grp_join_msg m = { .type = GRP_JOIN_T_JOIN };

	if (g->fatal)
		return g->fatal;
	/*
	 * Asked before: fine, even if let in meanwhile (the progress thread
	 * may have taken the welcome before the caller came back).
	 */
	if (g->asked)
		return 0;
	if (g->view)
		return -EALREADY;	/* a member from the start */
	for (uint32_t r = 0; r < g->spec.size && !g->fatal; r++)
		if (r != g->spec.rank && !era_bit_test(g->dead, r))
			send_msg(g, r, &m);	/* not if its latest is dead */
	if (g->fatal)
		return g->fatal;
	g->joining = true;
	g->asked = true;
	return 0;
}

FTNL_EXPORT int ftnl_group_join_start(struct ftnl_group *group)
{
	int err;

	if (!group)
		return -EINVAL;
	lock(group);
	err = join_start_locked(group);
	unlock(group);
	return err;
}

/*
 * The first view reached the caller: run the view callback once, in the
 * caller's thread and unlocked (it may call back into the group).
 * Called with the lock held; returns with it released.
 */
static void first_view_unlock(struct ftnl_group *g)
{
	struct ftnl_view view;
	ftnl_view_cb cb = NULL;
	void *arg = NULL;

	if (g->welcomed) {
		g->welcomed = false;
		grp_fill_view(g->view, &view);
		cb = g->view_cb;
		arg = g->view_cb_arg;
	}
	unlock(g);
	if (cb)
		cb(&view, arg);
}

FTNL_EXPORT int ftnl_group_join(struct ftnl_group *group)
{
	int err;

	if (!group)
		return -EINVAL;
	lock(group);
	/* In, and the caller was told (ftnl_group_join() or is_member()). */
	err = group->view && !group->welcomed ? -EALREADY :
	      join_start_locked(group);
	while (!err && !group->view)
		err = grp_wait_locked(group);
	if (err) {
		unlock(group);
		return err;
	}
	first_view_unlock(group);
	return 0;
}

FTNL_EXPORT int ftnl_group_is_member(struct ftnl_group *group)
{
	if (!group)
		return -EINVAL;
	lock(group);
	if (!group->view) {
		unlock(group);
		return 0;
	}
	first_view_unlock(group);
	return 1;
}

FTNL_EXPORT int ftnl_group_joiners(struct ftnl_group *group)
{
	int n = 0;

	if (!group)
		return -EINVAL;
	lock(group);
	for (uint32_t r = 0; r < group->spec.size; r++)
		if (group->join_inc[r] &&
		    !grp_is_dead_inc(group, r, group->join_inc[r]))
			n++;
	unlock(group);
	return n;
}
