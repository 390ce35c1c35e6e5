// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Process groups: open and close, progress (the caller's loop or the
 * optional progress thread), failures and their acknowledgement, stats.
 * Agreements are in request.c, views and message routing in view.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "era/bitmap.h"
#include "group/core.h"
#include "group/detector.h"
#include "group/loop.h"
#include "group/transport.h"
#include "internal.h"

/* Events handled per ftnl_group_progress() call, so that it returns. */
#define GRP_PROGRESS_BUDGET	1024

static void lock(struct ftnl_group *g)
{
	pthread_mutex_lock(&g->lock);
}

static void unlock(struct ftnl_group *g)
{
	pthread_mutex_unlock(&g->lock);
}

/* ---- deaths ------------------------------------------------------------- */

void grp_mark_dead(struct ftnl_group *g, uint32_t rank, uint32_t inc)
{
	if (rank >= g->spec.size || rank == g->spec.rank)
		return;
	if (!inc)
		inc = g->incs[rank];
	if (inc <= g->dead_inc[rank])
		return;
	g->dead_inc[rank] = inc;
	/* Views may still hold it; the transport only serves the latest. */
	era_bit_set(g->to_engines, rank);
	if (inc >= g->incs[rank]) {
		era_bit_set(g->dead, rank);
		era_bit_set(g->to_transport, rank);
	}
}

bool grp_is_dead_inc(const struct ftnl_group *g, uint32_t rank, uint32_t inc)
{
	return inc <= g->dead_inc[rank];
}

void grp_settle_engines(struct ftnl_group *g)
{
	uint32_t n = g->spec.size, rank;

	/* Decisions taken meanwhile may reveal more deaths: loop. */
	while ((rank = era_bitmap_next(g->to_engines, n, 0)) < n) {
		era_bit_clear(g->to_engines, rank);
		for (struct grp_view *v = g->view; v; v = v->older) {
			uint32_t r = grp_view_rank(v, rank);

			if (r != UINT32_MAX && r != v->self &&
			    grp_is_dead_inc(g, rank, v->incs[r]))
				grp_view_failure(v, r);
		}
	}
}

/* Free the views every survivor has left (core.h). */
static void free_old_views(struct ftnl_group *g)
{
	struct grp_view **p = &g->view->older;

	while (*p && (*p)->id >= g->free_below)
		p = &(*p)->older;
	while (*p) {
		struct grp_view *old = *p;

		*p = old->older;
		grp_view_destroy(old);
	}
}

void grp_settle(struct ftnl_group *g)
{
	uint32_t n = g->spec.size, rank;

	grp_settle_engines(g);
	era_bitmap_for_each(rank, g->to_transport, n)
		grp_transport_peer_dead(g->transport, rank,
					g->dead_inc[rank]);
	era_bitmap_zero(g->to_transport, n);
	if (g->view)
		free_old_views(g);
}

static void detector_dead(void *ctx, uint32_t rank, uint32_t inc)
{
	struct ftnl_group *g = ctx;

	grp_mark_dead(g, rank, inc);
	/* Inside the detector's callback: the transport is told later. */
	grp_settle_engines(g);
}

/* ---- progress ----------------------------------------------------------- */

/*
 * One event per epoll_wait(): a source that an earlier event's handling
 * closed can then never be dispatched from a stale batch.
 */
static int dispatch(struct ftnl_group *g, int timeout)
{
	struct epoll_event ev;
	struct grp_source *src;
	int n = epoll_wait(g->epfd, &ev, 1, timeout);

	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (!n)
		return 0;
	src = ev.data.ptr;
	src->ready(src, ev.events);
	/*
	 * Its node was expelled: the others hold this rank dead, so it is no
	 * member any more - every call fails with -ESTALE from now on.
	 */
	if (grp_detector_expelled(g->detector) && !g->fatal) {
		g->stale = true;
		g->fatal = -ESTALE;
		return -ESTALE;
	}
	grp_settle(g);
	return 1;
}

int grp_progress_locked(struct ftnl_group *g)
{
	for (int i = 0; i < GRP_PROGRESS_BUDGET && !g->fatal; i++) {
		int n = dispatch(g, 0);

		if (n < 0)
			g->fatal = n;
		if (n <= 0)
			break;
	}
	return g->fatal;
}

int grp_wait_locked(struct ftnl_group *g)
{
	int n;

	if (g->fatal)
		return g->fatal;
	if (g->threaded) {
		pthread_cond_wait(&g->progressed, &g->lock);
		return g->fatal;
	}
	n = dispatch(g, -1);
	if (n < 0)
		g->fatal = n;
	return grp_progress_locked(g);
}

static void *progress_thread(void *arg)
{
	struct ftnl_group *g = arg;
	struct pollfd fds[2] = {
		{ .fd = g->epfd, .events = POLLIN },
		{ .fd = g->stop_fd, .events = POLLIN },
	};
	int err;

	for (;;) {
		/* Sleep without the lock; dispatch with it. */
		if (poll(fds, 2, -1) < 0 && errno != EINTR) {
			lock(g);
			g->fatal = -errno;
			pthread_cond_broadcast(&g->progressed);
			unlock(g);
			return NULL;
		}
		if (fds[1].revents)
			return NULL;
		lock(g);
		err = grp_progress_locked(g);
		pthread_cond_broadcast(&g->progressed);
		unlock(g);
		if (err)
			return NULL;
	}
}

FTNL_EXPORT int ftnl_group_fd(const struct ftnl_group *group)
{
	return group ? group->epfd : -EINVAL;
}

FTNL_EXPORT int ftnl_group_progress(struct ftnl_group *group)
{
	int err;

	if (!group)
		return -EINVAL;
	lock(group);
	err = grp_progress_locked(group);
	if (group->threaded)
		pthread_cond_broadcast(&group->progressed);
	unlock(group);
	return err;
}

/* ---- open and close ----------------------------------------------------- */

static bool topology_valid(enum ftnl_group_topology t, bool hier_ok)
{
	switch (t) {
	case FTNL_GROUP_TOPO_BINARY:
	case FTNL_GROUP_TOPO_STAR:
	case FTNL_GROUP_TOPO_STRING:
		return true;
	case FTNL_GROUP_TOPO_HIER:
		return hier_ok;
	}
	return false;
}

static bool attr_valid(const struct ftnl_group_attr *a)
{
	if (!topology_valid(a->topology, true) || a->window > GRP_MAX_WINDOW)
		return false;
	if (a->topology == FTNL_GROUP_TOPO_HIER &&
	    (!topology_valid(a->inter, false) ||
	     !topology_valid(a->intra, false)))
		return false;
	if ((unsigned int)a->engine > FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE)
		return false;
	switch (a->module) {
	case FTNL_GROUP_MODULE_AUTO:
	case FTNL_GROUP_MODULE_OFF:
	case FTNL_GROUP_MODULE_ON:
		return true;
	}
	return false;
}

/* A peer's endpoint, comparable with memcmp() (padding zeroed). */
struct endpoint {
	int family;
	uint16_t port;
	union ftnl_addr addr;
};

static int endpoint_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct endpoint));
}

/* Two ranks on one address and port would receive each other's messages. */
static int endpoints_unique(const struct ftnl_group_spec *s)
{
	struct endpoint *e = calloc(s->size, sizeof(*e));
	int err = 0;

	if (!e)
		return -ENOMEM;
	for (uint32_t r = 0; r < s->size; r++) {
		const struct ftnl_group_peer *p = &s->peers[r];

		e[r].family = p->family;
		e[r].port = p->port;
		if (p->family == AF_INET)
			e[r].addr.v4 = p->addr.v4;
		else
			e[r].addr.v6 = p->addr.v6;
	}
	qsort(e, s->size, sizeof(*e), endpoint_cmp);
	for (uint32_t r = 1; r < s->size && !err; r++)
		if (!endpoint_cmp(&e[r - 1], &e[r]))
			err = -EINVAL;
	free(e);
	return err;
}

static int spec_check(const struct ftnl_group_spec *s)
{
	bool member = false;

	if (!s->size || s->size > FTNL_GROUP_MAX_SIZE || s->rank >= s->size ||
	    !s->peers || (unsigned int)s->module > FTNL_GROUP_MODULE_ON)
		return -EINVAL;
	for (uint32_t r = 0; r < s->size; r++) {
		const struct ftnl_group_peer *p = &s->peers[r];

		if ((p->family != AF_INET && p->family != AF_INET6) ||
		    !p->port)
			return -EINVAL;
		member |= !p->spare;
	}
	if (!member)
		return -EINVAL;		/* view 0 would be empty */
	return endpoints_unique(s);
}

static int spec_copy(struct ftnl_group_spec *dst,
		     const struct ftnl_group_spec *src)
{
	*dst = *src;
	dst->peers = malloc(src->size * sizeof(*src->peers));
	dst->failure_dir = src->failure_dir ? strdup(src->failure_dir) : NULL;
	if (!dst->peers || (src->failure_dir && !dst->failure_dir)) {
		free(dst->peers);
		free(dst->failure_dir);
		dst->peers = NULL;
		dst->failure_dir = NULL;
		return -ENOMEM;
	}
	memcpy(dst->peers, src->peers, src->size * sizeof(*src->peers));
	return 0;
}

static void group_free(struct ftnl_group *g)
{
	grp_detector_close(g->detector, true);
	grp_transport_close(g->transport);
	grp_cancel_requests(g);
	while (g->view) {
		struct grp_view *older = g->view->older;

		grp_view_destroy(g->view);
		g->view = older;
	}
	grp_free_early(g);
	if (g->epfd >= 0)
		close(g->epfd);
	if (g->stop_fd >= 0)
		close(g->stop_fd);
	pthread_cond_destroy(&g->progressed);
	pthread_mutex_destroy(&g->lock);
	free(g->txbuf);
	free(g->dead);
	free(g->dead_inc);
	free(g->acked);
	free(g->acked_inc);
	free(g->to_engines);
	free(g->to_transport);
	free(g->incs);
	free(g->join_inc);
	free(g->rx_members);
	free(g->rx_incs);
	free(g->spec.peers);
	free(g->spec.failure_dir);
	free(g);
}

/* View 0: the ranks that are not spares. */
static int create_view0(struct ftnl_group *g)
{
	uint32_t *world = malloc(g->spec.size * sizeof(*world)), n = 0;
	int err;

	if (!world)
		return -ENOMEM;
	for (uint32_t r = 0; r < g->spec.size; r++)
		if (!g->spec.peers[r].spare)
			world[n++] = r;
	err = grp_view_create(g, 0, world, NULL, n, &g->view);
	free(world);
	return err;
}

static int group_start(struct ftnl_group *g)
{
	int err;

	g->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (g->epfd < 0)
		return -errno;
	err = grp_transport_open(&g->spec, g->epfd, grp_on_frame, g,
				 &g->transport);
	if (err)
		return err;
	err = grp_detector_open(&g->spec, g->attr.module, g->epfd,
				detector_dead, g, &g->detector);
	if (err)
		return err;
	/*
	 * The module's exit reports name no incarnation: a late one of the
	 * dead process would kill the restarted one (not a perfect detector).
	 */
	if (g->inc > 1 && grp_detector_uses_module(g->detector))
		return -EOPNOTSUPP;
	/* A spare or a restarted process starts outside: ftnl_group_join(). */
	if (!g->spec.peers[g->spec.rank].spare && g->inc == 1) {
		err = create_view0(g);
		if (err)
			return err;
	}
	grp_settle(g);
	if (g->attr.progress_thread) {
		g->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (g->stop_fd < 0)
			return -errno;
		err = pthread_create(&g->thread, NULL, progress_thread, g);
		if (err)
			return -err;
		g->threaded = true;
	}
	return 0;
}

FTNL_EXPORT int ftnl_group_open(const struct ftnl_group_spec *spec,
				const struct ftnl_group_attr *attr,
				struct ftnl_group **group)
{
	static const struct ftnl_group_attr defaults;
	struct ftnl_group *g;
	size_t map;
	int err;

	if (!spec || !group || !attr_valid(attr ? attr : &defaults))
		return -EINVAL;
	err = spec_check(spec);
	if (err)
		return err;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->epfd = -1;
	g->stop_fd = -1;
	g->early_tail = &g->early;
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->progressed, NULL);
	g->attr = attr ? *attr : defaults;
	if (!g->attr.window)
		g->attr.window = GRP_DEFAULT_WINDOW;
	/* The program's explicit choice wins over the launcher's. */
	if (g->attr.module == FTNL_GROUP_MODULE_AUTO)
		g->attr.module = spec->module;
	map = era_bitmap_words(spec->size) * sizeof(uint64_t);
	g->dead = calloc(1, map);
	g->acked = calloc(1, map);
	g->to_engines = calloc(1, map);
	g->to_transport = calloc(1, map);
	g->incs = malloc(spec->size * sizeof(*g->incs));
	g->dead_inc = calloc(spec->size, sizeof(*g->dead_inc));
	g->acked_inc = calloc(spec->size, sizeof(*g->acked_inc));
	g->join_inc = calloc(spec->size, sizeof(*g->join_inc));
	g->rx_members = malloc(spec->size * sizeof(*g->rx_members));
	g->rx_incs = malloc(spec->size * sizeof(*g->rx_incs));
	g->inc = spec->incarnation ? spec->incarnation : 1;
	err = spec_copy(&g->spec, spec);
	if (!err && (!g->dead || !g->acked || !g->to_engines ||
		     !g->to_transport || !g->incs || !g->join_inc ||
		     !g->dead_inc || !g->acked_inc || !g->rx_members ||
		     !g->rx_incs))
		err = -ENOMEM;
	for (uint32_t r = 0; !err && r < spec->size; r++)
		g->incs[r] = r == spec->rank ? g->inc : 1;
	if (!err)
		err = group_start(g);
	if (err) {
		group_free(g);
		return err;
	}
	*group = g;
	return 0;
}

FTNL_EXPORT void ftnl_group_close(struct ftnl_group *group)
{
	uint64_t one = 1;

	if (!group)
		return;
	if (group->threaded) {
		if (write(group->stop_fd, &one, sizeof(one)) != sizeof(one))
			abort();	/* an eventfd write cannot fail here */
		pthread_join(group->thread, NULL);
		group->threaded = false;
	}
	group_free(group);
}

FTNL_EXPORT uint64_t ftnl_group_job(const struct ftnl_group *group)
{
	return group ? group->spec.job : 0;
}

FTNL_EXPORT uint32_t ftnl_group_world_rank(const struct ftnl_group *group)
{
	return group ? group->spec.rank : 0;
}

FTNL_EXPORT uint32_t ftnl_group_world_size(const struct ftnl_group *group)
{
	return group ? group->spec.size : 0;
}

/* ---- failures and acknowledgement --------------------------------------- */

FTNL_EXPORT int ftnl_group_report_failure(struct ftnl_group *group,
					  uint32_t rank)
{
	if (!group || rank >= group->spec.size || rank == group->spec.rank)
		return -EINVAL;
	lock(group);
	grp_mark_dead(group, rank, 0);
	grp_settle(group);
	if (group->threaded)
		pthread_cond_broadcast(&group->progressed);
	unlock(group);
	return 0;
}

/* The ranks of @map into @ranks (up to @cap); return how many there are. */
static int list_ranks(const uint64_t *map, uint32_t n, uint32_t *ranks,
		      size_t cap)
{
	uint32_t rank;
	size_t count = 0;

	era_bitmap_for_each(rank, map, n) {
		if (ranks && count < cap)
			ranks[count] = rank;
		count++;
	}
	return (int)count;
}

FTNL_EXPORT int ftnl_group_failed(struct ftnl_group *group, uint32_t *ranks,
				  size_t cap)
{
	int n;

	if (!group || (!ranks && cap))
		return -EINVAL;
	lock(group);
	n = list_ranks(group->dead, group->spec.size, ranks, cap);
	unlock(group);
	return n;
}

FTNL_EXPORT int ftnl_group_failure_ack(struct ftnl_group *group)
{
	if (!group)
		return -EINVAL;
	lock(group);
	memcpy(group->acked, group->dead,
	       era_bitmap_words(group->spec.size) * sizeof(uint64_t));
	memcpy(group->acked_inc, group->dead_inc,
	       group->spec.size * sizeof(*group->acked_inc));
	unlock(group);
	return 0;
}

FTNL_EXPORT int ftnl_group_get_acked(struct ftnl_group *group,
				     uint32_t *ranks, size_t cap)
{
	int n;

	if (!group || (!ranks && cap))
		return -EINVAL;
	lock(group);
	n = list_ranks(group->acked, group->spec.size, ranks, cap);
	unlock(group);
	return n;
}

/* ---- diagnostics -------------------------------------------------------- */

FTNL_EXPORT void ftnl_group_get_stats(const struct ftnl_group *group,
				      struct ftnl_group_stats *stats)
{
	struct ftnl_group *g = (struct ftnl_group *)group;	/* the lock */
	struct grp_transport_stats ts;

	if (!g || !stats)
		return;
	lock(g);
	grp_transport_get_stats(g->transport, &ts);
	*stats = (struct ftnl_group_stats){
		.agreements = g->agreements,
		.msgs_sent = g->msgs_sent,
		.msgs_received = g->msgs_received,
		.bytes_sent = ts.bytes_sent,
		.connects = ts.connects,
		.connect_retries = ts.connect_retries,
		.failures = (uint64_t)list_ranks(g->dead, g->spec.size,
						 NULL, 0),
		.dropped = g->dropped + ts.dropped,
	};
	unlock(g);
}
