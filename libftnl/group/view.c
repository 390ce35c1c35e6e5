// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Membership views: one consensus engine per view (ERA or validate-all,
 * as &ftnl_group_attr.engine says), and the demultiplexing of incoming
 * messages to them by engine group id (a mix of job and view id; both
 * engines' messages carry it at offset 8).
 *
 * A peer that finished a shrink before this process may already send
 * messages of the next view: they wait in g->early until the local shrink
 * creates that view. A peer that is behind may still need an old view's
 * decisions: old views keep serving until an agreement of a newer view is
 * decided here (see Documentation/libftnl-group-notes.rst).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../bytes.h"
#include "era/bitmap.h"
#include "era/msg.h"
#include "vall/msg.h"
#include "group/core.h"
#include "group/transport.h"

/* Bytes of early messages kept at most; beyond, they are dropped. */
#define GRP_EARLY_MAX_BYTES	(64u << 20)

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t grp_era_id(uint64_t job, uint64_t view_id)
{
	return mix64(job ^ mix64(view_id));
}

uint32_t grp_view_rank(const struct grp_view *v, uint32_t rank)
{
	uint32_t lo = 0, hi = v->size;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v->members[mid] == rank)
			return mid;
		if (v->members[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

/* ---- the engine's actions ----------------------------------------------- */

static void view_send(void *ctx, uint32_t to, const struct era_msg *msg)
{
	struct grp_view *v = ctx;
	struct ftnl_group *g = v->group;
	size_t size = era_msg_size(&v->jop.op, msg), len;
	int err;

	if (size > g->txcap) {
		uint8_t *buf = realloc(g->txbuf, size);

		if (!buf) {
			/* A lost message could stall every agreement. */
			g->fatal = -ENOMEM;
			return;
		}
		g->txbuf = buf;
		g->txcap = size;
	}
	len = era_msg_encode(&v->jop.op, msg, g->txbuf, g->txcap);
	err = grp_transport_send(g->transport, v->members[to], g->txbuf, len);
	if (err == -ENOMEM)
		g->fatal = err;
	else if (!err)
		g->msgs_sent++;
}

static void view_vall_send(void *ctx, uint32_t to, const struct vall_msg *msg)
{
	struct grp_view *v = ctx;
	struct ftnl_group *g = v->group;
	size_t size = vall_msg_size(&v->jop.op, v->size, msg), len;
	int err;

	if (size > g->txcap) {
		uint8_t *buf = realloc(g->txbuf, size);

		if (!buf) {
			g->fatal = -ENOMEM;
			return;
		}
		g->txbuf = buf;
		g->txcap = size;
	}
	len = vall_msg_encode(&v->jop.op, v->size, msg, g->txbuf, g->txcap);
	err = grp_transport_send(g->transport, v->members[to], g->txbuf, len);
	if (err == -ENOMEM)
		g->fatal = err;
	else if (!err)
		g->msgs_sent++;
}

static void view_decided(void *ctx, uint64_t id, const void *value)
{
	struct grp_view *v = ctx;
	struct ftnl_group *g = v->group;
	uint32_t r;

	g->agreements++;
	/* A decided failure is real: some contributor's detector saw it. */
	for (r = 0; r < v->size; r++)
		if (r != v->self && era_ulfm_failed(&v->jop.ulfm, value, r))
			grp_mark_dead(g, v->members[r], v->incs[r]);
	if (era_ulfm_failed(&v->jop.ulfm, value, v->self))
		g->stale = true;
	/* Every live member of v finished the shrink that created it. */
	if (v->id > g->free_below)
		g->free_below = v->id;
	grp_req_complete(v, id, value);
}

/* ---- creation ----------------------------------------------------------- */

struct host_rank {
	uint32_t host;
	uint32_t rank;
};

static int host_rank_cmp(const void *a, const void *b)
{
	const struct host_rank *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * ERA wants host indexes below the view size: name each host after its
 * lowest view rank.
 */
static uint32_t *view_host_map(const struct ftnl_group *g,
			       const uint32_t *members, uint32_t size)
{
	struct host_rank *hr = malloc(size * sizeof(*hr));
	uint32_t *host_of = malloc(size * sizeof(*host_of));

	if (!hr || !host_of) {
		free(hr);
		free(host_of);
		return NULL;
	}
	for (uint32_t r = 0; r < size; r++)
		hr[r] = (struct host_rank){ g->spec.peers[members[r]].host, r };
	qsort(hr, size, sizeof(*hr), host_rank_cmp);
	for (uint32_t i = 0, first = 0; i < size; i++) {
		if (hr[i].host != hr[first].host)
			first = i;
		host_of[hr[i].rank] = hr[first].rank;
	}
	free(hr);
	return host_of;
}

static enum era_topology era_topo(enum ftnl_group_topology t)
{
	switch (t) {
	case FTNL_GROUP_TOPO_STAR:
		return ERA_TOPO_STAR;
	case FTNL_GROUP_TOPO_STRING:
		return ERA_TOPO_STRING;
	case FTNL_GROUP_TOPO_HIER:
		return ERA_TOPO_HIER;
	case FTNL_GROUP_TOPO_BINARY:
	default:
		return ERA_TOPO_BINARY;
	}
}

int grp_view_create(struct ftnl_group *g, uint64_t id,
		    const uint32_t *members, const uint32_t *incs,
		    uint32_t size, struct grp_view **out)
{
	struct grp_view *v = calloc(1, sizeof(*v));
	uint32_t *host_of = NULL;
	struct era_config cfg;
	int err = -ENOMEM;

	if (!v)
		return -ENOMEM;
	v->group = g;
	v->id = id;
	v->era_id = grp_era_id(g->spec.job, id);
	v->size = size;
	v->members = malloc(size * sizeof(*members));
	v->incs = malloc(size * sizeof(*v->incs));
	if (!v->members || !v->incs)
		goto fail;
	memcpy(v->members, members, size * sizeof(*members));
	for (uint32_t r = 0; r < size; r++)
		v->incs[r] = incs ? incs[r] : 1;
	v->self = grp_view_rank(v, g->spec.rank);
	if (v->self == UINT32_MAX) {
		err = -EINVAL;
		goto fail;
	}
	grp_join_op_init(&v->jop, size, g->spec.size);
	v->rx_value = malloc(v->jop.op.value_size);
	v->contribution = malloc(v->jop.op.value_size);
	if (!v->rx_value || !v->contribution)
		goto fail;
	if (g->attr.engine == FTNL_GROUP_ENGINE_ERA &&
	    g->attr.topology == FTNL_GROUP_TOPO_HIER) {
		host_of = view_host_map(g, members, size);
		if (!host_of)
			goto fail;
	}
	if (g->attr.engine != FTNL_GROUP_ENGINE_ERA) {
		struct vall_config vc = {
			.group = v->era_id,
			.nranks = size,
			.self = v->self,
			.op = &v->jop.op,
			.semantics = g->attr.engine ==
				     FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE ?
				     VALL_LOOSE : VALL_STRICT,
			.window = g->attr.window,
		};

		v->rx_desc = malloc(era_bitmap_words(size) * sizeof(uint64_t));
		if (!v->rx_desc)
			goto fail;
		err = vall_group_create(&vc, &v->vall);
		if (err)
			goto fail;
		v->vsink = (struct vall_sink){ .send = view_vall_send,
					       .decided = view_decided,
					       .ctx = v };
	} else {
		cfg = (struct era_config){
			.group = v->era_id,
			.nranks = size,
			.self = v->self,
			.op = &v->jop.op,
			.topo = era_topo(g->attr.topology),
			.inter = era_topo(g->attr.inter),
			.intra = era_topo(g->attr.intra),
			.host_of = host_of,
			.window = g->attr.window,
			.rebalance = !g->attr.no_rebalance,
		};
		err = era_group_create(&cfg, &v->era);
		free(host_of);		/* the engine copied it */
		host_of = NULL;
		if (err)
			goto fail;
		v->sink = (struct era_sink){ .send = view_send,
					     .decided = view_decided,
					     .ctx = v };
	}
	/* Deaths known before the view existed. */
	for (uint32_t r = 0; r < size; r++)
		if (r != v->self && grp_is_dead_inc(g, members[r], v->incs[r]))
			grp_view_failure(v, r);
	*out = v;
	return 0;
fail:
	free(host_of);
	grp_view_destroy(v);
	return err;
}

void grp_view_destroy(struct grp_view *v)
{
	if (!v)
		return;
	era_group_destroy(v->era);
	vall_group_destroy(v->vall);
	free(v->rx_desc);
	free(v->rx_value);
	free(v->contribution);
	free(v->members);
	free(v->incs);
	free(v);
}

int grp_view_start(struct grp_view *v, uint64_t id, const void *value)
{
	if (v->vall)
		return vall_start(v->vall, id, value, &v->vsink);
	return era_start(v->era, id, value, &v->sink);
}

void grp_view_failure(struct grp_view *v, uint32_t rank)
{
	if (v->vall)
		vall_on_failure(v->vall, rank, &v->vsink);
	else
		era_on_failure(v->era, rank, &v->sink);
}

uint64_t grp_view_returned(const struct grp_view *v)
{
	if (v->vall)
		return vall_returned_upto(v->vall);
	return era_returned_upto(v->era);
}

/* ---- incoming messages -------------------------------------------------- */

static void deliver(struct grp_view *v, uint32_t from, const uint8_t *buf,
		    size_t len)
{
	struct ftnl_group *g = v->group;
	uint32_t vfrom = grp_view_rank(v, from);
	struct era_msg msg;

	if (vfrom == UINT32_MAX || vfrom == v->self) {
		g->dropped++;
		return;
	}
	if (v->vall) {
		struct vall_msg vmsg;

		if (vall_msg_decode(&v->jop.op, v->size, buf, len, &vmsg,
				    v->rx_desc, v->rx_value) ||
		    vall_on_message(v->vall, vfrom, &vmsg, &v->vsink)) {
			g->dropped++;
			return;
		}
	} else if (era_msg_decode(&v->jop.op, buf, len, &msg, v->rx_value) ||
		   era_on_message(v->era, vfrom, &msg, &v->sink)) {
		g->dropped++;
		return;
	}
	grp_settle_engines(g);
}

static void keep_early(struct ftnl_group *g, uint32_t from,
		       const uint8_t *buf, size_t len)
{
	struct grp_early_msg *m;

	if (g->early_bytes + len > GRP_EARLY_MAX_BYTES) {
		g->dropped++;
		return;
	}
	m = malloc(sizeof(*m) + len);
	if (!m) {
		g->fatal = -ENOMEM;
		return;
	}
	m->next = NULL;
	m->from = from;
	m->len = len;
	memcpy(m->bytes, buf, len);
	*g->early_tail = m;
	g->early_tail = &m->next;
	g->early_bytes += len;
}

/* A view this process left and already freed: late, harmless. */
static bool of_freed_view(const struct ftnl_group *g, uint64_t era_id)
{
	const struct grp_view *oldest = g->view;

	while (oldest->older)
		oldest = oldest->older;
	for (uint64_t id = 0; id < oldest->id; id++)
		if (grp_era_id(g->spec.job, id) == era_id)
			return true;
	return false;
}

void grp_on_frame(void *ctx, uint32_t from, const uint8_t *buf, size_t len)
{
	struct ftnl_group *g = ctx;
	uint64_t era_id;

	g->msgs_received++;
	if (len && buf[0] == GRP_JOIN_MAGIC0) {
		if (grp_join_frame(g, from, buf, len))
			g->dropped++;
		return;
	}
	if (len < ERA_MSG_REQUEST_LEN) {
		g->dropped++;
		return;
	}
	if (!g->view) {
		/*
		 * A joiner let in, whose welcome comes on another
		 * connection: keep its view's messages until then.
		 */
		if (g->joining)
			keep_early(g, from, buf, len);
		else
			g->dropped++;
		return;
	}
	era_id = bytes_get_le64(buf + 8);
	for (struct grp_view *v = g->view; v; v = v->older) {
		if (v->era_id == era_id) {
			deliver(v, from, buf, len);
			return;
		}
	}
	if (era_id == grp_era_id(g->spec.job, g->view->id + 1))
		keep_early(g, from, buf, len);
	else if (!of_freed_view(g, era_id))
		g->dropped++;
}

void grp_replay_early(struct ftnl_group *g)
{
	struct grp_early_msg *m = g->early;

	g->early = NULL;
	g->early_tail = &g->early;
	g->early_bytes = 0;
	while (m) {
		struct grp_early_msg *next = m->next;

		if (bytes_get_le64(m->bytes + 8) == g->view->era_id)
			deliver(g->view, m->from, m->bytes, m->len);
		else
			g->dropped++;
		free(m);
		m = next;
	}
}

void grp_free_early(struct ftnl_group *g)
{
	while (g->early) {
		struct grp_early_msg *next = g->early->next;

		free(g->early);
		g->early = next;
	}
	g->early_tail = &g->early;
	g->early_bytes = 0;
}
