// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Joining a running group (Documentation/libftnl-join.rst): the JOIN and
 * WELCOME messages (join.h), the members' table of pending joiners, and
 * the joiner's side of the API. The members' side, the grow that lets
 * joiners in, is ftnl_group_grow() in request.c: the agreement decides
 * who enters, so every process sees the same sequence of views.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "era/bitmap.h"
#include "group/core.h"
#include "group/hello.h"
#include "group/transport.h"
#include "internal.h"

int grp_join_msg_frame(const uint8_t *buf, size_t avail, size_t *len)
{
	uint32_t n;

	if (avail < 8)
		return -EAGAIN;
	if (buf[0] != GRP_JOIN_MAGIC0 || buf[1] != GRP_JOIN_MAGIC1)
		return -EBADMSG;
	if (buf[2] != GRP_JOIN_VERSION)
		return -EPROTONOSUPPORT;
	n = grp_wire_get_le32(buf + 4);
	switch (buf[3]) {
	case GRP_JOIN_T_JOIN:
		if (n != GRP_JOIN_LEN)
			return -EBADMSG;
		break;
	case GRP_JOIN_T_WELCOME:
		if (n < GRP_WELCOME_HDR_LEN + 8 ||
		    n > GRP_WELCOME_HDR_LEN + 8ull * FTNL_GROUP_MAX_SIZE ||
		    (n - GRP_WELCOME_HDR_LEN) % 8)
			return -EBADMSG;
		break;
	default:
		return -EBADMSG;
	}
	*len = n;
	return 0;
}

static void put_header(uint8_t *buf, uint8_t type, uint32_t len,
		       const struct ftnl_group *g)
{
	buf[0] = GRP_JOIN_MAGIC0;
	buf[1] = GRP_JOIN_MAGIC1;
	buf[2] = GRP_JOIN_VERSION;
	buf[3] = type;
	grp_wire_put_le32(buf + 4, len);
	grp_wire_put_le64(buf + 8, g->spec.job);
	grp_wire_put_le32(buf + 16, g->inc);
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
static int on_welcome(struct ftnl_group *g, const uint8_t *buf, size_t len)
{
	uint32_t count = (uint32_t)((len - GRP_WELCOME_HDR_LEN) / 8);
	uint64_t id = grp_wire_get_le64(buf + 24);
	uint32_t *members, *incs;
	struct grp_view *v;
	bool self = false;
	int err = 0;

	if (grp_wire_get_le32(buf + 20) != g->inc ||
	    grp_wire_get_le32(buf + 32) != count || count > g->spec.size)
		return -EBADMSG;
	members = malloc(count * sizeof(*members));
	incs = malloc(count * sizeof(*incs));
	if (!members || !incs) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *p = buf + GRP_WELCOME_HDR_LEN + 8 * i;

		members[i] = grp_wire_get_le32(p);
		incs[i] = grp_wire_get_le32(p + 4);
		if (members[i] >= g->spec.size || !incs[i] ||
		    (i && members[i] <= members[i - 1])) {
			err = -EBADMSG;
			goto out;
		}
		if (members[i] == g->spec.rank)
			self = incs[i] == g->inc;
	}
	if (!self) {
		err = -EBADMSG;
		goto out;
	}
	if (!g->joining || g->view)
		goto out;	/* another member's copy of the same view */
	err = grp_view_create(g, id, members, incs, count, &v);
	if (err)
		goto out;
	g->view = v;
	g->joining = false;
	g->welcomed = true;
	/* Other joiners' messages of this view, which came first. */
	grp_replay_early(g);
	for (uint32_t i = 0; i < count; i++) {
		if (members[i] != g->spec.rank)
			grp_new_incarnation(g, members[i], incs[i]);
		if (g->join_inc[members[i]] <= incs[i])
			g->join_inc[members[i]] = 0;
	}
out:
	free(members);
	free(incs);
	if (err == -ENOMEM)
		g->fatal = err;
	return err;
}

int grp_join_frame(struct ftnl_group *g, uint32_t from, const uint8_t *buf,
		   size_t len)
{
	uint32_t inc;

	/* The transport framed it (grp_join_msg_frame()). */
	if (grp_wire_get_le64(buf + 8) != g->spec.job || from >= g->spec.size)
		return -EBADMSG;
	inc = grp_wire_get_le32(buf + 16);
	if (!inc)
		return -EBADMSG;
	if (buf[3] == GRP_JOIN_T_JOIN)
		return on_join(g, from, inc);
	return on_welcome(g, buf, len);
}

void grp_welcome(struct ftnl_group *g, const struct grp_view *v,
		 uint32_t rank)
{
	size_t len = GRP_WELCOME_HDR_LEN + 8 * (size_t)v->size;
	uint32_t r = grp_view_rank(v, rank);
	uint8_t *buf = malloc(len);
	int err;

	if (!buf) {
		g->fatal = -ENOMEM;
		return;
	}
	put_header(buf, GRP_JOIN_T_WELCOME, (uint32_t)len, g);
	grp_wire_put_le32(buf + 20, v->incs[r]);
	grp_wire_put_le64(buf + 24, v->id);
	grp_wire_put_le32(buf + 32, v->size);
	for (uint32_t i = 0; i < v->size; i++) {
		grp_wire_put_le32(buf + GRP_WELCOME_HDR_LEN + 8 * i,
				  v->members[i]);
		grp_wire_put_le32(buf + GRP_WELCOME_HDR_LEN + 8 * i + 4,
				  v->incs[i]);
	}
	err = grp_transport_send(g->transport, rank, buf, len);
	if (err == -ENOMEM)
		g->fatal = err;
	free(buf);
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
	uint8_t msg[GRP_JOIN_LEN];

	if (g->fatal)
		return g->fatal;
	if (g->view || g->welcomed)
		return -EALREADY;
	if (g->joining)
		return 0;
	put_header(msg, GRP_JOIN_T_JOIN, GRP_JOIN_LEN, g);
	for (uint32_t r = 0; r < g->spec.size; r++) {
		int err;

		if (r == g->spec.rank || era_bit_test(g->dead, r))
			continue;	/* its latest process is dead */
		err = grp_transport_send(g->transport, r, msg, sizeof(msg));
		if (err == -ENOMEM)
			return g->fatal = err;
	}
	g->joining = true;
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
	err = join_start_locked(group);
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
