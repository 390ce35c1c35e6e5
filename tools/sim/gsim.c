// SPDX-License-Identifier: GPL-2.0
/*
 * LogP simulation of one broadcast (see gsim.h).
 *
 * Gossip algorithms: every node is a struct ftnl_gossip_node of the pure
 * code. A message sent in the slot starting at s arrives at s + lat + 2
 * (O to send, L in flight, O to receive), which is the clock the receiver
 * adopts (gossip.h). A node has at most one pending step; a message that
 * wakes it earlier supersedes it.
 *
 * Floods: a node forwards on its first receipt (per hypercube for the dual
 * hypercube) to its overlay neighbors, one send per slot in FIFO order, so
 * send and arrival slots are fixed when the sends are queued.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/bcast/topology.h"
#include "gsim.h"
#include "heap.h"
#include "rng.h"

#define ALIVE	INT64_MAX

enum {
	EV_STEP,	/* a gossip node's next slot */
	EV_MSG,		/* a gossip message arrives (arg: pool slot) */
	EV_FLOOD,	/* a flood message arrives (arg2: from | cube << 31) */
	EV_FAIL,	/* a node fails (online failure) */
};

struct gsim_pooled {
	struct ftnl_gossip_msg msg;
	uint32_t from;
	uint32_t next_free;
};

struct gsim {
	const struct gsim_cfg *cfg;
	struct gsim_result *res;
	struct sim_rng rng;
	struct sim_heap heap;
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node *nodes;
	int64_t *next_step;	/* slot of the pending step, -1 if none */
	int64_t *death;
	int64_t *delivered;	/* slot of delivery, -1 if none */
	int64_t *done;		/* slot of exit / last activity, -1 if none */
	int64_t *port_free;	/* floods: when the node's queued sends end */
	uint8_t *fwd;		/* floods: bit c = forwarded in cube c */
	struct gsim_pooled *pool;
	uint32_t pool_len;
	uint32_t pool_cap;
	uint32_t pool_free;
};

static const char *const gsim_names[__GSIM_ALGO_MAX] = {
	[GSIM_GOS] = "gos", [GSIM_OCG] = "ocg", [GSIM_CCG] = "ccg",
	[GSIM_FCG] = "fcg", [GSIM_BIG] = "big", [GSIM_HCUBE] = "hcube",
	[GSIM_BMG] = "bmg",
};

const char *gsim_algo_name(int algo)
{
	return algo >= 0 && algo < __GSIM_ALGO_MAX ? gsim_names[algo] : "?";
}

int gsim_algo_parse(const char *name)
{
	for (int i = 0; i < __GSIM_ALGO_MAX; i++)
		if (!strcmp(name, gsim_names[i]))
			return i;
	return -1;
}

static bool gsim_is_flood(int algo)
{
	return algo == GSIM_BIG || algo == GSIM_HCUBE || algo == GSIM_BMG;
}

static bool gsim_alive(const struct gsim *g, uint32_t node, int64_t t)
{
	return g->death[node] > t;
}

static int gsim_pool_get(struct gsim *g, uint32_t *idx)
{
	if (g->pool_free != UINT32_MAX) {
		*idx = g->pool_free;
		g->pool_free = g->pool[*idx].next_free;
		return 0;
	}
	if (g->pool_len == g->pool_cap) {
		uint32_t cap = g->pool_cap ? 2 * g->pool_cap : 1024;
		struct gsim_pooled *grown = realloc(g->pool, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		g->pool = grown;
		g->pool_cap = cap;
	}
	*idx = g->pool_len++;
	return 0;
}

static void gsim_pool_put(struct gsim *g, uint32_t idx)
{
	g->pool[idx].next_free = g->pool_free;
	g->pool_free = idx;
}

static void gsim_mark_delivered(struct gsim *g, uint32_t node, int64_t t)
{
	if (g->delivered[node] >= 0)
		g->res->dup++;
	else
		g->delivered[node] = t;
}

/* Carry out what a gossip node asked for at slot @t. */
static int gsim_handle(struct gsim *g, uint32_t node,
		       const struct ftnl_gossip_out *out, int64_t t)
{
	int64_t wake;

	if (out->flags & FTNL_GOSSIP_OUT_DELIVER) {
		gsim_mark_delivered(g, node, t);
		if (g->nodes[node].gnode)
			g->res->gnodes++;
	}
	if (out->flags & FTNL_GOSSIP_OUT_SOS)
		g->res->sos++;
	if (out->flags & FTNL_GOSSIP_OUT_SEND) {
		uint32_t idx;

		g->res->messages++;
		g->res->gossip_msgs += out->msg.type == FTNL_GOSSIP_MSG_GOSSIP;
		g->res->sos_msgs += out->msg.type == FTNL_GOSSIP_MSG_SOS;
		/* To a node dead from the start: nobody will ever read it. */
		if (g->death[out->to] >= 0) {
			if (gsim_pool_get(g, &idx))
				return -ENOMEM;
			g->pool[idx].msg = out->msg;
			g->pool[idx].from = node;
			if (sim_heap_push(&g->heap, out->msg.time + g->cfg->lat + 1,
					  EV_MSG, out->to, idx, 0))
				return -ENOMEM;
		}
	}
	if (out->flags & FTNL_GOSSIP_OUT_DONE)
		g->done[node] = t;
	if (out->wake == FTNL_GOSSIP_NO_WAKE)
		return 0;
	wake = out->wake > t ? out->wake : t;
	if (g->next_step[node] >= 0 && g->next_step[node] <= wake)
		return 0;
	g->next_step[node] = wake;
	return sim_heap_push(&g->heap, wake, EV_STEP, node, 0, 0);
}

/*
 * BIG's neighbors p + 2^x, 0 <= x < floor(log2 n), subtree first: a node
 * that heard from p - 2^x sends to p + 2^(x-1), ..., p + 1 (its children in
 * the binomial tree rooted at the source), then to the others, farthest
 * first. The fault-free flood is then the binomial tree the paper's
 * T_BIG = (2O + L) log2 P + O log2 P assumes.
 */
static void gsim_big_neighbors(uint32_t n, uint32_t node, uint32_t from,
			       uint32_t *to, uint32_t *count)
{
	uint32_t k = 0, x, arrival, dist = (node + n - from) % n;

	while ((2U << k) <= n)
		k++;	/* floor(log2 n) */
	arrival = k;	/* the source: all of them are its children */
	for (x = 0; x < k; x++)
		if (dist == 1U << x)
			arrival = x;
	*count = 0;
	for (x = arrival; x-- > 0; )
		to[(*count)++] = (node + (1U << x)) % n;
	for (x = k; x-- > arrival; )
		if ((node + (1U << x)) % n != node)
			to[(*count)++] = (node + (1U << x)) % n;
}

/* A flood node's first receipt (in @cube): queue its forwards. */
static int gsim_flood_forward(struct gsim *g, uint32_t node, uint32_t cube,
			      uint32_t from, int64_t t)
{
	uint32_t to[FTNL_BCAST_MAX_FANOUT], count, i, n = g->cfg->n;

	if (g->cfg->algo == GSIM_BIG)
		gsim_big_neighbors(n, node, from, to, &count);
	else if (g->cfg->algo == GSIM_BMG)
		count = ftnl_bmg_forward(n, node, to);
	else
		count = ftnl_hcube_forward(n, cube, node, from, to);
	for (i = 0; i < count; i++) {
		int64_t start = g->port_free[node] > t ? g->port_free[node] : t;

		if (!gsim_alive(g, node, start))
			break;
		g->port_free[node] = start + 1;
		g->res->messages++;
		if (start + 1 > g->done[node])
			g->done[node] = start + 1;
		if (g->death[to[i]] >= 0 &&
		    sim_heap_push(&g->heap, start + 1 + g->cfg->lat + 1, EV_FLOOD,
				  to[i], 0, node | cube << 31))
			return -ENOMEM;
	}
	return 0;
}

static int gsim_on_flood(struct gsim *g, uint32_t node, uint32_t arg2,
			 int64_t t)
{
	uint32_t from = arg2 & 0x7fffffff, cube = arg2 >> 31;

	if (!gsim_alive(g, node, t))
		return 0;
	if (t > g->done[node])
		g->done[node] = t;
	if (g->delivered[node] < 0)
		gsim_mark_delivered(g, node, t);
	if (g->fwd[node] >> cube & 1)
		return 0;
	g->fwd[node] |= 1U << cube;
	return gsim_flood_forward(g, node, cube, from, t);
}

/* An online failure strikes: possibly pick the victim among active nodes. */
static void gsim_on_fail(struct gsim *g, uint32_t node, int64_t t)
{
	uint32_t n = g->cfg->n, tries;

	if (g->cfg->online_active && !gsim_is_flood(g->cfg->algo)) {
		for (tries = 0; tries < 8 * n; tries++) {
			uint32_t v = (uint32_t)sim_rng_below(&g->rng, n);
			uint8_t st = g->nodes[v].state;

			if (gsim_alive(g, v, t) && st != FTNL_GOSSIP_IDLE &&
			    st != FTNL_GOSSIP_DONE) {
				node = v;
				break;
			}
		}
	}
	if (gsim_alive(g, node, t))
		g->death[node] = t;
}

static int gsim_draw_failures(struct gsim *g)
{
	const struct gsim_cfg *cfg = g->cfg;
	uint32_t k, v, n = cfg->n;

	if (cfg->pre_failed + cfg->online >= n)
		return -EINVAL;
	for (k = 0; k < cfg->pre_failed; k++) {
		do {
			v = 1 + (uint32_t)sim_rng_below(&g->rng, n - 1);
		} while (g->death[v] != ALIVE);
		g->death[v] = -1;
	}
	for (k = 0; k < cfg->online; k++) {
		int64_t t = cfg->online_window ?
			    (int64_t)sim_rng_below(&g->rng, cfg->online_window) : 0;

		do {
			v = (uint32_t)sim_rng_below(&g->rng, n);
		} while (g->death[v] != ALIVE);
		if (!cfg->online_active || gsim_is_flood(cfg->algo))
			g->death[v] = t;	/* known now: floods need it */
		if (sim_heap_push(&g->heap, t, EV_FAIL, v, 0, 0))
			return -ENOMEM;
	}
	return 0;
}

static void gsim_free(struct gsim *g)
{
	free(g->nodes);
	free(g->next_step);
	free(g->death);
	free(g->delivered);
	free(g->done);
	free(g->port_free);
	free(g->fwd);
	free(g->pool);
	sim_heap_free(&g->heap);
}

static int gsim_alloc(struct gsim *g, uint32_t n)
{
	uint32_t i;

	g->nodes = malloc(n * sizeof(*g->nodes));
	g->next_step = malloc(n * sizeof(int64_t));
	g->death = malloc(n * sizeof(int64_t));
	g->delivered = malloc(n * sizeof(int64_t));
	g->done = malloc(n * sizeof(int64_t));
	g->port_free = calloc(n, sizeof(int64_t));
	g->fwd = calloc(n, 1);
	g->pool_free = UINT32_MAX;
	if (!g->nodes || !g->next_step || !g->death || !g->delivered ||
	    !g->done || !g->port_free || !g->fwd || sim_heap_init(&g->heap, 4 * n))
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		g->next_step[i] = -1;
		g->death[i] = ALIVE;
		g->delivered[i] = -1;
		g->done[i] = -1;
	}
	return 0;
}

static int gsim_loop(struct gsim *g)
{
	struct ftnl_gossip_out out;
	struct sim_event ev;
	int err = 0;

	while (!err && sim_heap_pop(&g->heap, &ev)) {
		struct ftnl_gossip_node *node = &g->nodes[ev.node];

		switch (ev.type) {
		case EV_STEP:
			if (g->next_step[ev.node] != ev.time ||
			    !gsim_alive(g, ev.node, ev.time))
				break;
			g->next_step[ev.node] = -1;
			ftnl_gossip_step(node, (u32)ev.time, &out);
			err = gsim_handle(g, ev.node, &out, ev.time);
			break;
		case EV_MSG: {
			struct gsim_pooled *m = &g->pool[ev.arg];

			if (gsim_alive(g, ev.node, ev.time)) {
				ftnl_gossip_recv(node, m->from, &m->msg, &out);
				err = gsim_handle(g, ev.node, &out, ev.time);
			}
			gsim_pool_put(g, ev.arg);
			break;
		}
		case EV_FLOOD:
			err = gsim_on_flood(g, ev.node, ev.arg2, ev.time);
			break;
		case EV_FAIL:
			gsim_on_fail(g, ev.node, ev.time);
			break;
		}
	}
	return err;
}

static void gsim_tally(struct gsim *g)
{
	struct gsim_result *res = g->res;
	uint32_t i;

	for (i = 0; i < g->cfg->n; i++) {
		if (g->death[i] != ALIVE)
			continue;
		res->live++;
		if (g->delivered[i] < 0)
			continue;
		res->reached++;
		if ((uint64_t)g->delivered[i] > res->reach)
			res->reach = g->delivered[i];
		if (g->done[i] < 0 && !gsim_is_flood(g->cfg->algo))
			res->unfinished++;
		else if ((uint64_t)g->done[i] > res->done)
			res->done = g->done[i];
	}
	res->all_or_none = res->reached == 0 || res->reached == res->live;
}

/**
 * gsim_run - simulate one broadcast
 * @cfg: the broadcast
 * @res: filled in
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int gsim_run(const struct gsim_cfg *cfg, struct gsim_result *res)
{
	struct ftnl_gossip_out out;
	struct gsim g;
	uint32_t i;
	int err;

	memset(res, 0, sizeof(*res));
	memset(&g, 0, sizeof(g));
	if (cfg->n < 1 || cfg->algo < 0 || cfg->algo >= __GSIM_ALGO_MAX ||
	    cfg->f > FTNL_GOSSIP_MAX_F)
		return -EINVAL;
	g.cfg = cfg;
	g.res = res;
	sim_rng_seed(&g.rng, cfg->seed);
	err = gsim_alloc(&g, cfg->n);
	if (!err)
		err = gsim_draw_failures(&g);
	if (err)
		goto out;

	if (gsim_is_flood(cfg->algo)) {
		g.delivered[0] = 0;
		g.done[0] = 0;
		g.fwd[0] = 3;
		err = gsim_flood_forward(&g, 0, 0, 0, 0);
		if (!err && cfg->algo == GSIM_HCUBE)
			err = gsim_flood_forward(&g, 0, 1, 0, 0);
	} else {
		ftnl_gossip_params_init(&g.par, cfg->algo, cfg->n, 0, cfg->lat,
					cfg->f);
		g.par.gossip_end = cfg->gossip_end;
		g.par.corr_end = cfg->gossip_end + cfg->lat + 1 + cfg->corr_len;
		if (cfg->sos_timeout)
			g.par.sos_timeout = cfg->sos_timeout;
		for (i = 0; i < cfg->n; i++)
			ftnl_gossip_init(&g.nodes[i], &g.par, i,
					 sim_rng_u64(&g.rng));
		ftnl_gossip_start(&g.nodes[0], &out);
		err = gsim_handle(&g, 0, &out, 0);
	}
	if (!err)
		err = gsim_loop(&g);
	if (!err)
		gsim_tally(&g);
out:
	gsim_free(&g);
	return err;
}
