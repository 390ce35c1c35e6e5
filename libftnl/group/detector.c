// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The perfect failure detector of a process group (see detector.h): the
 * failure oracle directory and the ftnl kernel module. Neither can name a
 * live process; so neither does this file: no timeouts, no guesses.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "group/detector.h"
#include "group/loop.h"

/* Node id of a rank whose node is unknown (its address matched none). */
#define GRP_NODE_UNKNOWN	FTNL_GROUP_NODE_ANY

struct grp_detector {
	const struct ftnl_group_spec *spec;
	int epfd;
	grp_dead_fn on_dead;
	void *ctx;

	/* the oracle directory */
	int inotify_fd;			/* -1 without a failure_dir */
	struct grp_source dir_src;

	/* the module */
	struct ftnl_handle *handle;	/* holds the registration */
	struct ftnl_events *events;
	struct grp_source events_src;
	bool events_in_epoll;
	uint32_t *rank_node;		/* each rank's node id, or unknown */
	uint32_t owner_uid;		/* whose registrations count */
	bool seq_known;			/* last_seq is where numbering stands */
	uint64_t last_seq;		/* newest event seq seen, 0: none */
	uint64_t events_unrecoverable;	/* pushed out of the history */
	bool expelled;			/* this node was expelled */
};

static void grp_report(struct grp_detector *d, uint32_t rank, uint32_t inc)
{
	if (rank < d->spec->size && rank != d->spec->rank)
		d->on_dead(d->ctx, rank, inc);
}

/* ---- the failure oracle directory ---------------------------------------- */

/*
 * A number below @max as printf("%u") writes it (no sign, no blank, no
 * leading zero), ending at '\0' or @stop. Return: the end, NULL if none.
 */
static const char *grp_oracle_number(const char *s, char stop, uint64_t max,
				     uint32_t *out)
{
	uint64_t v = 0;
	const char *start = s;

	if (s[0] == '0' && s[1] && s[1] != stop)
		return NULL;
	for (; *s && *s != stop; s++) {
		if (*s < '0' || *s > '9')
			return NULL;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v >= max)
			return NULL;
	}
	if (s == start)
		return NULL;
	*out = (uint32_t)v;
	return s;
}

/* "R" (incarnation 1) or "R.I" (I >= 2). */
static bool grp_oracle_name(const char *name, uint32_t *rank, uint32_t *inc)
{
	const char *s = grp_oracle_number(name, '.', FTNL_GROUP_MAX_SIZE, rank);

	*inc = 1;
	if (!s)
		return false;
	if (!*s)
		return true;
	s = grp_oracle_number(s + 1, '\0', UINT32_MAX, inc);
	return s && *inc >= 2;
}

static void grp_oracle_file(struct grp_detector *d, const char *name)
{
	uint32_t rank, inc;

	if (grp_oracle_name(name, &rank, &inc))
		grp_report(d, rank, inc);	/* out of range or self: ignored */
}

static int grp_oracle_scan(struct grp_detector *d)
{
	DIR *dir = opendir(d->spec->failure_dir);
	struct dirent *de;

	if (!dir)
		return -errno;
	while ((de = readdir(dir)))
		grp_oracle_file(d, de->d_name);
	closedir(dir);
	return 0;
}

static void grp_oracle_ready(struct grp_source *src, uint32_t events)
{
	struct grp_detector *d = (struct grp_detector *)
		((char *)src - offsetof(struct grp_detector, dir_src));
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	(void)events;
	for (;;) {
		const struct inotify_event *ev;
		char *p;

		n = read(d->inotify_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		for (p = buf; p < buf + n; p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			if (ev->mask & IN_Q_OVERFLOW)
				grp_oracle_scan(d);	/* events lost */
			else if (ev->len)
				grp_oracle_file(d, ev->name);
		}
	}
}

static int grp_oracle_open(struct grp_detector *d)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &d->dir_src };

	d->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (d->inotify_fd < 0)
		return -errno;
	/* Watch first, then list: a file created in between is seen twice. */
	if (inotify_add_watch(d->inotify_fd, d->spec->failure_dir,
			      IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE |
			      IN_ONLYDIR) < 0)
		return -errno;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->inotify_fd, &ev))
		return -errno;
	return grp_oracle_scan(d);
}

/* ---- the module ------------------------------------------------------------ */

static int grp_cmp_node_addr(const void *a, const void *b)
{
	const struct ftnl_node *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	return memcmp(&x->addr, &y->addr, x->family == AF_INET ?
		      sizeof(x->addr.v4) : sizeof(x->addr.v6));
}

/*
 * Each rank's node: the spec's node id, else the one node of the table
 * with the rank's address. An address shared by several nodes (or none)
 * leaves the node unknown: guessing could kill a live rank.
 */
static void grp_map_ranks(struct grp_detector *d,
			  const struct ftnl_node_table *table,
			  struct ftnl_node *sorted)
{
	uint32_t r;

	memcpy(sorted, table->nodes, table->count * sizeof(*sorted));
	qsort(sorted, table->count, sizeof(*sorted), grp_cmp_node_addr);
	for (r = 0; r < d->spec->size; r++) {
		const struct ftnl_group_peer *peer = &d->spec->peers[r];
		struct ftnl_node key = { .family = peer->family,
					 .addr = peer->addr };
		const struct ftnl_node *hit;

		d->rank_node[r] = peer->node_id;
		if (peer->node_id != FTNL_GROUP_NODE_ANY)
			continue;
		hit = table->count ? bsearch(&key, sorted, table->count,
					     sizeof(*sorted),
					     grp_cmp_node_addr) : NULL;
		if (!hit)
			continue;
		if ((hit > sorted && !grp_cmp_node_addr(hit - 1, &key)) ||
		    (hit + 1 < sorted + table->count &&
		     !grp_cmp_node_addr(hit + 1, &key)))
			continue;	/* ambiguous */
		d->rank_node[r] = hit->id;
	}
}

static void grp_node_dead(struct grp_detector *d, uint32_t node_id)
{
	uint32_t r;

	for (r = 0; r < d->spec->size; r++)
		if (d->rank_node[r] == node_id && node_id != GRP_NODE_UNKNOWN)
			grp_report(d, r, 0);
}

/*
 * Read the node table: remap the ranks and report every rank on a dead
 * node. LEFT is not dead: a node that left the cluster gracefully may
 * still run live processes.
 */
static int grp_module_resync(struct grp_detector *d)
{
	struct ftnl_node_table table = { 0 };
	struct ftnl_node *sorted;
	size_t i;
	int err;

	err = ftnl_node_list(d->handle, &table);
	if (err)
		return err;
	sorted = malloc((table.count ? table.count : 1) * sizeof(*sorted));
	if (!sorted) {
		ftnl_node_table_free(&table);
		return -ENOMEM;
	}
	grp_map_ranks(d, &table, sorted);
	free(sorted);
	for (i = 0; i < table.count; i++)
		if (table.nodes[i].state == FTNL_NODE_STATE_DEAD)
			grp_node_dead(d, table.nodes[i].id);
	ftnl_node_table_free(&table);
	return 0;
}

bool grp_proc_exit_is_death(const struct ftnl_group_spec *spec,
			    const uint32_t *rank_node, uint32_t owner_uid,
			    const struct ftnl_event_proc_exit *pe)
{
	if (pe->job != spec->job || pe->rank >= spec->size)
		return false;
	if (!pe->has_owner || pe->owner_uid != owner_uid)
		return false;
	return rank_node[pe->rank] != GRP_NODE_UNKNOWN &&
	       rank_node[pe->rank] == pe->node_id;
}

bool grp_event_gap(bool seq_known, uint64_t last_seq, uint64_t seq)
{
	/* 0: a module without numbers; not above last + 1: no number skipped. */
	return seq_known && seq && seq > last_seq + 1;
}

/* A node failure or a process exit, from the socket or the history. */
static void grp_module_death(struct grp_detector *d, const struct ftnl_event *ev)
{
	switch (ev->type) {
	case FTNL_EVENT_FAILURE:
		/* A graceful leave ends the node's membership, not its ranks. */
		if (ev->failure.cause != FTNL_CAUSE_LEAVE)
			grp_node_dead(d, ev->failure.node_id);
		break;
	case FTNL_EVENT_PROC_EXIT:
		if (grp_proc_exit_is_death(d->spec, d->rank_node, d->owner_uid,
					   &ev->proc_exit))
			grp_report(d, ev->proc_exit.rank, 0);
		break;
	case FTNL_EVENT_EXPELLED:
		/* This node is dead to the others: so is this rank. */
		d->expelled = true;
		break;
	default:
		break;
	}
}

struct grp_history_walk {
	struct grp_detector *d;
	uint64_t after;
	bool first;
};

static int grp_history_event(const struct ftnl_event *ev, void *arg)
{
	struct grp_history_walk *w = arg;
	struct grp_detector *d = w->d;

	if (w->first && ev->seq != w->after + 1)
		d->events_unrecoverable += ev->seq - w->after - 1;
	w->first = false;
	grp_module_death(d, ev);
	if (ev->seq > d->last_seq)
		d->last_seq = ev->seq;
	return 0;
}

/*
 * Events were missed (an overrun, or a sequence number skipped): apply
 * the deaths the module's history holds after the last one seen. Deaths
 * are idempotent, so what the socket still delivers after this is applied
 * again harmlessly. Those pushed out of the history are lost to this node:
 * only the node table (re-read on an overrun) still tells of node deaths.
 */
static void grp_module_recover(struct grp_detector *d)
{
	struct grp_history_walk w = { .d = d, .after = d->last_seq,
				      .first = true };
	int err;

	err = ftnl_event_history(d->handle, w.after, grp_history_event, &w);
	if (err == -ESTALE) {
		/* The module's numbering restarted: take all it holds. */
		w = (struct grp_history_walk){ .d = d, .first = true };
		d->last_seq = 0;
		ftnl_event_history(d->handle, 0, grp_history_event, &w);
	}
	/* Other failures: the next gap or overrun tries again. */
}

static void grp_module_event(struct grp_detector *d,
			     const struct ftnl_event *ev)
{
	switch (ev->type) {
	case FTNL_EVENT_FAILURE:
	case FTNL_EVENT_PROC_EXIT:
	case FTNL_EVENT_EXPELLED:
		if (grp_event_gap(d->seq_known, d->last_seq, ev->seq))
			grp_module_recover(d);
		grp_module_death(d, ev);
		if (ev->seq > d->last_seq)
			d->last_seq = ev->seq;
		break;
	case FTNL_EVENT_OVERRUN:
		/*
		 * The socket dropped events: the history has them. Without
		 * knowing where the numbering stood (no stats at open), only
		 * the node table can be re-read.
		 */
		if (d->seq_known)
			grp_module_recover(d);
		grp_module_resync(d);
		break;
	case FTNL_EVENT_CLUSTER:
		/*
		 * Failing to re-read leaves the old mapping; the next event
		 * tries again.
		 */
		grp_module_resync(d);
		break;
	default:
		/* Kinds added later (joins) are not deaths here. */
		if (ev->seq > d->last_seq)
			d->last_seq = ev->seq;
		break;
	}
}

static void grp_module_ready(struct grp_source *src, uint32_t events)
{
	struct grp_detector *d = (struct grp_detector *)
		((char *)src - offsetof(struct grp_detector, events_src));
	struct ftnl_event ev;
	int n;

	(void)events;
	while ((n = ftnl_events_read(d->events, &ev)) > 0)
		grp_module_event(d, &ev);
	if (n < 0) {
		/* A broken socket stays readable: stop watching, not spin. */
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, ftnl_events_fd(d->events), NULL);
		d->events_in_epoll = false;
	}
}

static void grp_module_close(struct grp_detector *d, bool clean)
{
	if (d->events_in_epoll)
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, ftnl_events_fd(d->events), NULL);
	d->events_in_epoll = false;
	ftnl_events_close(d->events);
	d->events = NULL;
	if (d->handle && clean)
		ftnl_proc_unregister(d->handle);
	/* Without unregistering, closing the socket is this rank's death. */
	ftnl_close(d->handle);
	d->handle = NULL;
	free(d->rank_node);
	d->rank_node = NULL;
}

/*
 * Subscribe before reading the table, so that no failure falls between
 * the two; register last, once everything else worked.
 * Return: 0; -ENOENT when there is no module or no cluster; other errno.
 */
static int grp_module_open(struct grp_detector *d)
{
	struct epoll_event ev = { .events = EPOLLIN,
				  .data.ptr = &d->events_src };
	struct ftnl_cluster_info info;
	struct ftnl_stats stats;
	int err;

	err = ftnl_open(&d->handle);
	if (err)
		return err;
	err = ftnl_cluster_get(d->handle, &info);
	if (err)
		return err;
	err = ftnl_events_open(&d->events);
	if (err)
		return err;
	/*
	 * Where the numbering stands once subscribed: a later gap is an event
	 * missed. A module without sequence numbers reports 0 (no recovery).
	 */
	if (!ftnl_stats_get(d->handle, &stats)) {
		d->last_seq = stats.event_seq;
		d->seq_known = true;
	}
	d->owner_uid = d->spec->has_owner ? d->spec->owner_uid :
					    (uint32_t)getuid();
	d->rank_node = malloc((size_t)d->spec->size * sizeof(*d->rank_node));
	if (!d->rank_node)
		return -ENOMEM;
	err = grp_module_resync(d);
	if (err)
		return err;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, ftnl_events_fd(d->events), &ev))
		return -errno;
	d->events_in_epoll = true;
	return ftnl_proc_register(d->handle, d->spec->job, d->spec->rank);
}

/* ---- the API ---------------------------------------------------------------- */

int grp_detector_open(const struct ftnl_group_spec *spec,
		      enum ftnl_group_module module, int epfd,
		      grp_dead_fn on_dead, void *ctx,
		      struct grp_detector **out)
{
	struct grp_detector *d;
	int err;

	if (!spec || !spec->peers || spec->rank >= spec->size || !on_dead ||
	    (module != FTNL_GROUP_MODULE_AUTO && module != FTNL_GROUP_MODULE_OFF &&
	     module != FTNL_GROUP_MODULE_ON))
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->spec = spec;
	d->epfd = epfd;
	d->on_dead = on_dead;
	d->ctx = ctx;
	d->inotify_fd = -1;
	d->dir_src.ready = grp_oracle_ready;
	d->events_src.ready = grp_module_ready;

	if (module != FTNL_GROUP_MODULE_OFF) {
		err = grp_module_open(d);
		if (err) {
			grp_module_close(d, false);
			if (err != -ENOENT || module == FTNL_GROUP_MODULE_ON)
				goto fail;
		}
	}
	if (spec->failure_dir) {
		err = grp_oracle_open(d);
		if (err)
			goto fail;
	}
	*out = d;
	return 0;

fail:
	grp_detector_close(d, true);
	return err;
}

bool grp_detector_expelled(const struct grp_detector *d)
{
	return d && d->expelled;
}

bool grp_detector_uses_module(const struct grp_detector *d)
{
	return d->handle;
}

int grp_detector_events_fd(const struct grp_detector *d)
{
	return d->events ? ftnl_events_fd(d->events) : -1;
}

uint64_t grp_detector_events_unrecoverable(const struct grp_detector *d)
{
	return d->events_unrecoverable;
}

void grp_detector_close(struct grp_detector *d, bool clean)
{
	if (!d)
		return;
	if (d->inotify_fd >= 0) {
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, d->inotify_fd, NULL);
		close(d->inotify_fd);
	}
	grp_module_close(d, clean);
	free(d);
}
