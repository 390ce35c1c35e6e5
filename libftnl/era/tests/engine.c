// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ERA engine's API, one rule at a time, on small hand-driven groups:
 * configuration checks, the allocator, early return and results served
 * after it, the window, garbage collection, rebalancing, a new root asking
 * for a previous decision, dropped messages, and an op without failure
 * hooks. The properties over random schedules are era-sim's job.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "../ulfm.h"
#include "tap.h"

#define MAXN 16
#define VALUE_WORDS ERA_ULFM_VALUE_WORDS(MAXN)
#define MAXQ 4096

/* ---- a FIFO network of MAXN processes, delivered by hand --------------- */

struct packet {
	uint32_t from, to;
	uint8_t type;
	uint64_t id, gc;
	uint64_t value[VALUE_WORDS];
};

struct net {
	struct era_ulfm ulfm;
	struct era_group *g[MAXN];
	uint32_t n;
	struct packet q[MAXQ];
	size_t head, tail;
	uint32_t current;
	bool decided[MAXN][8];
	uint64_t result[MAXN][8][VALUE_WORDS];
	unsigned int sent[4];
};

static void net_send(void *ctx, uint32_t to, const struct era_msg *m)
{
	struct net *net = ctx;
	struct packet *p = &net->q[net->tail++ % MAXQ];

	*p = (struct packet){ .from = net->current, .to = to, .type = m->type,
			      .id = m->id, .gc = m->gc };
	if (m->value)
		memcpy(p->value, m->value, net->ulfm.op.value_size);
	net->sent[m->type]++;
}

static void net_decided(void *ctx, uint64_t id, const void *value)
{
	struct net *net = ctx;

	net->decided[net->current][id] = true;
	memcpy(net->result[net->current][id], value, net->ulfm.op.value_size);
}

static struct era_sink sink_of(struct net *net, uint32_t current)
{
	net->current = current;
	return (struct era_sink){ .send = net_send, .decided = net_decided,
				  .ctx = net };
}

static int net_init_quirks(struct net *net, uint32_t n, uint32_t window,
			   bool rebalance, uint32_t quirks)
{
	memset(net, 0, sizeof(*net));
	net->n = n;
	era_ulfm_init(&net->ulfm, n);
	for (uint32_t r = 0; r < n; r++) {
		struct era_config cfg = {
			.group = 99, .nranks = n, .self = r,
			.op = &net->ulfm.op, .window = window,
			.rebalance = rebalance, .quirks = quirks,
		};
		int err = era_group_create(&cfg, &net->g[r]);

		if (err)
			return err;
	}
	return 0;
}

static int net_init(struct net *net, uint32_t n, uint32_t window,
		    bool rebalance)
{
	return net_init_quirks(net, n, window, rebalance, 0);
}

static void net_fini(struct net *net)
{
	for (uint32_t r = 0; r < net->n; r++)
		era_group_destroy(net->g[r]);
}

static bool alive(uint64_t dead, uint32_t r)
{
	return !((dead >> r) & 1);
}

/* Deliver everything in order; messages to or from @dead are lost. */
static void net_run(struct net *net, uint64_t dead)
{
	while (net->head != net->tail) {
		struct packet p = net->q[net->head++ % MAXQ];
		struct era_msg m = { .type = p.type, .group = 99, .id = p.id,
				     .gc = p.gc, .value = p.value };
		struct era_sink out = sink_of(net, p.to);

		if (!alive(dead, p.to) || !alive(dead, p.from))
			continue;
		if (p.type == ERA_MSG_RESULT_REQUEST)
			m.value = NULL;
		TAP_CHECK_INT(era_on_message(net->g[p.to], p.from, &m, &out),
			      0);
	}
}

static void net_start(struct net *net, uint32_t r, uint64_t id,
		      uint64_t flag)
{
	uint64_t v[VALUE_WORDS];
	struct era_sink out = sink_of(net, r);

	era_ulfm_value_init(&net->ulfm, v, flag);
	TAP_CHECK_INT(era_start(net->g[r], id, v, &out), 0);
}

static void net_fail(struct net *net, uint64_t dead, uint32_t victim)
{
	for (uint32_t r = 0; r < net->n; r++) {
		struct era_sink out = sink_of(net, r);

		if (alive(dead, r))
			TAP_CHECK_INT(era_on_failure(net->g[r], victim, &out),
				      0);
	}
}

/* ---- cases --------------------------------------------------------------- */

static void test_config(const void *arg)
{
	struct era_ulfm u;
	struct era_group *g = (void *)1;
	uint32_t hosts[4] = { 0, 0, 1, 4 };
	struct era_config ok, c;
	struct era_op no_dead;

	(void)arg;
	era_ulfm_init(&u, 4);
	ok = (struct era_config){ .group = 1, .nranks = 4, .self = 3,
				  .op = &u.op };
	c = ok;
	TAP_CHECK_INT(era_group_create(&c, &g), 0);
	era_group_destroy(g);
	c.nranks = 0;
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	TAP_CHECK(!g);
	c = ok;
	c.self = 4;
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	c = ok;
	c.op = NULL;
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	c = ok;
	c.topo = ERA_TOPO_HIER;			/* no host map */
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	c.host_of = hosts;			/* host 4 >= nranks */
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	hosts[3] = 1;
	TAP_CHECK_INT(era_group_create(&c, &g), 0);
	era_group_destroy(g);
	c.inter = ERA_TOPO_HIER;		/* X must be flat */
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	c = ok;
	c.topo = 7;
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	c = ok;
	no_dead = u.op;
	no_dead.is_dead = NULL;
	c.op = &no_dead;
	c.rebalance = true;			/* needs the agreed failures */
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
	c = ok;
	c.quirks = ERA_QUIRK_DOWN_FROM_PARENT | ERA_QUIRK_DOWN_FROM_ANYONE;
	TAP_CHECK_INT(era_group_create(&c, &g), -EINVAL);
}

struct counting {
	unsigned int allocs, frees, fail_after;
	size_t bytes;
};

static void *count_alloc(void *ctx, size_t size)
{
	struct counting *c = ctx;

	if (c->allocs++ >= c->fail_after)
		return NULL;
	c->bytes += size;
	return malloc(size);
}

static void count_free(void *ctx, void *ptr, size_t size)
{
	struct counting *c = ctx;

	c->frees++;
	c->bytes -= size;
	free(ptr);
}

/* All memory at creation, through the caller's allocator, none later. */
static void test_allocator(const void *arg)
{
	struct counting cnt = { .fail_after = 0 };
	struct era_alloc alloc = { count_alloc, count_free, &cnt };
	struct era_ulfm u;
	struct era_config cfg;
	struct era_group *g;
	struct net net;
	uint64_t v[VALUE_WORDS];
	struct era_sink out;

	(void)arg;
	era_ulfm_init(&u, 3);
	cfg = (struct era_config){ .group = 99, .nranks = 3, .self = 0,
				   .op = &u.op, .window = 2, .rebalance = true,
				   .alloc = &alloc };
	TAP_CHECK_INT(era_group_create(&cfg, &g), -ENOMEM);
	cnt = (struct counting){ .fail_after = 1 };
	if (!TAP_CHECK_INT(era_group_create(&cfg, &g), 0))
		return;
	TAP_CHECK_UINT(cnt.allocs, 1);

	/* Drive it as rank 0 of a 3-process group: no allocation. */
	memset(&net, 0, sizeof(net));
	net.ulfm = u;
	net.n = 1;
	out = sink_of(&net, 0);
	era_ulfm_value_init(&u, v, 1);
	TAP_CHECK_INT(era_start(g, 1, v, &out), 0);
	TAP_CHECK_INT(era_on_failure(g, 1, &out), 0);
	TAP_CHECK_INT(era_on_failure(g, 2, &out), 0);
	TAP_CHECK(net.decided[0][1]);
	TAP_CHECK_INT(era_start(g, 2, v, &out), 0);
	TAP_CHECK_UINT(cnt.allocs, 1);
	era_group_destroy(g);
	TAP_CHECK_UINT(cnt.frees, 1);
	TAP_CHECK_UINT(cnt.bytes, 0);
}

/* Failure-free: 2(n - 1) messages, everyone decides the AND. */
static void test_failure_free(const void *arg)
{
	struct net net;

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 7, 1, false), 0))
		return;
	for (uint32_t r = 0; r < 7; r++)
		net_start(&net, r, 1, ~(1ull << r));
	net_run(&net, 0);
	for (uint32_t r = 0; r < 7; r++) {
		TAP_CHECK(net.decided[r][1]);
		TAP_CHECK_UINT(era_ulfm_flag(net.result[r][1]), ~0x7full);
		TAP_CHECK_UINT(era_ulfm_failed_count(&net.ulfm,
						     net.result[r][1]), 0);
	}
	TAP_CHECK_UINT(net.sent[ERA_MSG_UP], 6);
	TAP_CHECK_UINT(net.sent[ERA_MSG_DOWN], 6);
	TAP_CHECK_UINT(net.sent[ERA_MSG_RESULT_REQUEST], 0);
	net_fini(&net);
}

/*
 * Early return: rank 1 decides and returns; later its child 3 loses
 * contact (rank 1 is told nothing) and asks again: the result is served.
 */
static void test_served_after_return(const void *arg)
{
	struct net net;
	struct era_msg m = { .type = ERA_MSG_UP, .group = 99, .id = 1 };
	struct era_sink out;
	uint64_t v[VALUE_WORDS];

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 4, 1, false), 0))
		return;
	for (uint32_t r = 0; r < 4; r++)
		net_start(&net, r, 1, 0xff);
	net_run(&net, 0);
	TAP_CHECK(net.decided[1][1]);
	TAP_CHECK_INT(era_result(net.g[1], 1, v), 1);
	TAP_CHECK_MEM(v, net.result[1][1], net.ulfm.op.value_size);

	era_ulfm_value_init(&net.ulfm, v, 0);	/* a different value... */
	m.value = v;
	out = sink_of(&net, 1);
	TAP_CHECK_INT(era_on_message(net.g[1], 3, &m, &out), 0);
	TAP_CHECK_UINT(net.tail - net.head, 1);
	TAP_CHECK_UINT(net.q[net.head % MAXQ].type, ERA_MSG_DOWN);
	TAP_CHECK_UINT(net.q[net.head % MAXQ].to, 3);
	/* ...changes nothing: the decision is served as it was. */
	TAP_CHECK_MEM(net.q[net.head % MAXQ].value, net.result[1][1],
		      net.ulfm.op.value_size);
	m.type = ERA_MSG_RESULT_REQUEST;
	m.value = NULL;
	TAP_CHECK_INT(era_on_message(net.g[1], 0, &m, &out), 0);
	TAP_CHECK_UINT(net.q[(net.tail - 1) % MAXQ].type, ERA_MSG_DOWN);
	net_fini(&net);
}

/* Deliver in order until @r decides agreement 1. */
static void run_until(struct net *net, uint32_t r)
{
	while (net->head != net->tail && !net->decided[r][1]) {
		struct packet p = net->q[net->head++ % MAXQ];
		struct era_msg m = { .type = p.type, .group = 99, .id = p.id,
				     .gc = p.gc, .value = p.value };
		struct era_sink out = sink_of(net, p.to);

		if (p.type == ERA_MSG_RESULT_REQUEST)
			m.value = NULL;
		TAP_CHECK_INT(era_on_message(net->g[p.to], p.from, &m, &out),
			      0);
	}
}

/* Deliver in order until @r decides; then keep only its DOWN to @to. */
static void run_until_decided(struct net *net, uint32_t r, uint32_t to)
{
	size_t kept = net->tail;

	run_until(net, r);
	for (size_t i = net->head; i != net->tail; i++)
		if (net->q[i % MAXQ].from == r && net->q[i % MAXQ].to == to)
			kept = i;
	if (TAP_CHECK(kept != net->tail)) {
		net->q[net->head % MAXQ] = net->q[kept % MAXQ];
		net->tail = net->head + 1;
	}
}

/*
 * Root 0 decides and tells 1 only; 1 decides and tells 3 only; 0 and 1
 * die. Rank 2 becomes root (Part 4), asks its children - 5 and 6, and 3
 * and 4 adopted through Eld - and 3 answers with the decision it got:
 * every survivor ends with root 0's value.
 */
static void test_new_root(const void *arg)
{
	struct net net;
	uint64_t dead = 1u << 0 | 1u << 1;

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 7, 1, false), 0))
		return;
	for (uint32_t r = 0; r < 7; r++)
		net_start(&net, r, 1, ~(1ull << r));
	run_until_decided(&net, 0, 1);
	run_until_decided(&net, 1, 3);
	net_run(&net, 0);
	TAP_CHECK(net.decided[3][1] && !net.decided[2][1]);
	net_fail(&net, dead, 0);
	net_fail(&net, dead, 1);
	TAP_CHECK_UINT(net.sent[ERA_MSG_RESULT_REQUEST], 4);
	net_run(&net, dead);
	for (uint32_t r = 2; r < 7; r++) {
		TAP_CHECK(net.decided[r][1]);
		TAP_CHECK_MEM(net.result[r][1], net.result[0][1],
			      net.ulfm.op.value_size);
	}
	net_fini(&net);
}

/* Remove the queued message @from -> @to into @p; false if none. */
static bool net_take(struct net *net, uint32_t from, uint32_t to,
		     struct packet *p)
{
	for (size_t i = net->head; i != net->tail; i++) {
		if (net->q[i % MAXQ].from != from || net->q[i % MAXQ].to != to)
			continue;
		*p = net->q[i % MAXQ];
		for (; i + 1 != net->tail; i++)
			net->q[i % MAXQ] = net->q[(i + 1) % MAXQ];
		net->tail--;
		return true;
	}
	return false;
}

static void net_deliver(struct net *net, const struct packet *p)
{
	struct era_msg m = { .type = p->type, .group = 99, .id = p->id,
			     .gc = p->gc, .value = p->value };
	struct era_sink out = sink_of(net, p->to);

	if (p->type == ERA_MSG_RESULT_REQUEST)
		m.value = NULL;
	TAP_CHECK_INT(era_on_message(net->g[p->to], p->from, &m, &out), 0);
}

static void net_tell(struct net *net, uint32_t r, uint32_t victim)
{
	struct era_sink out = sink_of(net, r);

	TAP_CHECK_INT(era_on_failure(net->g[r], victim, &out), 0);
}

/*
 * Tree 0; 1 2; 3 4 5 6. Root 0 decides v1, tells 2 only, dies; 2 sends v1
 * to 5 - a slow message - and dies. New root 1 asks 5, which answers UP;
 * 1 decides v2, tells 3, 4 and 6, and dies before telling 5. When 5 hears
 * that 1 died, it must not turn back to its old parent 2 and take its
 * stale v1: 1's RESULT_REQUEST told it that 2 was dead. With the paper's
 * text (only the ranks before 1 marked dead), 5 decides v1 while 3, 4 and
 * 6, alive, decided v2. Found by the soak (era-sim regression, seed
 * 724767).
 */
static void stale_parent(struct net *net, bool elders_only)
{
	uint64_t dead = 1u << 0 | 1u << 2;
	struct packet stale, p;

	if (!TAP_CHECK_INT(net_init_quirks(net, 7, 1, false, elders_only ?
					   ERA_QUIRK_ELDERS_ONLY : 0), 0))
		return;
	for (uint32_t r = 0; r < 7; r++)
		net_start(net, r, 1, ~(1ull << r));
	run_until_decided(net, 0, 2);
	run_until_decided(net, 2, 5);
	TAP_CHECK(net_take(net, 2, 5, &stale));
	for (uint32_t v = 0; v < 3; v += 2)	/* 1 learns 0 and 2 died */
		net_tell(net, 1, v);
	run_until(net, 1);
	TAP_CHECK(net->decided[1][1] && !net->decided[5][1]);
	/* 1 told 3, 4, 6 - not 5 - before it died. */
	TAP_CHECK(net_take(net, 1, 5, &p));
	net_run(net, dead);
	dead |= 1u << 1;
	net_tell(net, 5, 1);
	net_deliver(net, &stale);
	for (uint32_t r = 3; r < 7; r++)
		for (uint32_t v = 0; v < 3; v++)
			if (!era_is_dead(net->g[r], v))
				net_tell(net, r, v);
	net_run(net, dead);
}

static void test_stale_parent(const void *arg)
{
	struct net net;

	(void)arg;
	stale_parent(&net, true);		/* the paper's text: refuted */
	TAP_CHECK(net.decided[5][1] &&
		  memcmp(net.result[5][1], net.result[3][1],
			 net.ulfm.op.value_size));
	net_fini(&net);
	stale_parent(&net, false);
	for (uint32_t r = 3; r < 7; r++) {
		TAP_CHECK(net.decided[r][1]);
		TAP_CHECK_MEM(net.result[r][1], net.result[1][1],
			      net.ulfm.op.value_size);
	}
	net_fini(&net);
}

/* A root dead before contributing: excluded, listed failed, rebalanced. */
static void test_failure_and_rebalance(const void *arg)
{
	struct net net;
	uint64_t dead = 1u << 1;
	unsigned int ups;

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 8, 1, true), 0))
		return;
	for (uint32_t r = 0; r < 8; r++)
		if (r != 1)
			net_start(&net, r, 1, 1);
	net_run(&net, dead);
	TAP_CHECK(!net.decided[0][1]);		/* waits for 1's subtree */
	net_fail(&net, dead, 1);
	net_run(&net, dead);
	for (uint32_t r = 0; r < 8; r++) {
		if (r == 1)
			continue;
		TAP_CHECK(net.decided[r][1]);
		TAP_CHECK(era_ulfm_failed(&net.ulfm, net.result[r][1], 1));
		TAP_CHECK_UINT(era_ulfm_failed_count(&net.ulfm,
						     net.result[r][1]), 1);
	}
	/* Agreement 2: a balanced tree over the 7 others (window 1). */
	ups = net.sent[ERA_MSG_UP];
	for (uint32_t r = 0; r < 8; r++)
		if (r != 1)
			net_start(&net, r, 2, 1);
	/* Rank 4: position 3 of {0 2 3 4 5 6 7}, child of rank 2. */
	for (size_t i = net.head; i != net.tail; i++)
		if (net.q[i % MAXQ].from == 4)
			TAP_CHECK_UINT(net.q[i % MAXQ].to, 2);
	net_run(&net, dead);
	TAP_CHECK_UINT(net.sent[ERA_MSG_UP] - ups, 6);
	for (uint32_t r = 0; r < 8; r++)
		TAP_CHECK(r == 1 || net.decided[r][2]);
	net_fini(&net);
}

/* The window and the order of agreement ids. */
static void test_window(const void *arg)
{
	struct net net;
	uint64_t v[VALUE_WORDS];
	struct era_sink out;

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 2, 2, false), 0))
		return;
	out = sink_of(&net, 0);
	era_ulfm_value_init(&net.ulfm, v, 1);
	TAP_CHECK_INT(era_start(net.g[0], 2, v, &out), -EINVAL);
	TAP_CHECK_INT(era_start(net.g[0], 1, v, &out), 0);
	TAP_CHECK_INT(era_start(net.g[0], 2, v, &out), 0);
	TAP_CHECK_INT(era_start(net.g[0], 3, v, &out), -EBUSY);
	net_start(&net, 1, 1, 1);
	net_run(&net, 0);
	TAP_CHECK(net.decided[0][1] && !net.decided[0][2]);
	TAP_CHECK_INT(era_start(net.g[0], 3, v, &out), 0);
	TAP_CHECK_INT(era_result(net.g[0], 2, NULL), 0);
	TAP_CHECK_UINT(era_returned_upto(net.g[0]), 1);
	net_fini(&net);
}

/* Results are kept while a member may ask, and collected afterwards. */
static void test_gc(const void *arg)
{
	struct net net;

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 6, 2, false), 0))
		return;
	for (uint64_t id = 1; id <= 7; id++) {
		for (uint32_t r = 0; r < 6; r++)
			net_start(&net, r, id, id);
		net_run(&net, 0);
	}
	for (uint32_t r = 0; r < 6; r++) {
		TAP_CHECK_UINT(era_returned_upto(net.g[r]), 7);
		/* Agreement 7 saw every member return 6 before it started. */
		TAP_CHECK_UINT(era_collected_upto(net.g[r]), 6);
		TAP_CHECK_INT(era_result(net.g[r], 5, NULL), -ENOENT);
		TAP_CHECK_INT(era_result(net.g[r], 7, NULL), 1);
		TAP_CHECK_UINT(era_held(net.g[r]), 1);
	}
	net_fini(&net);
}

/* What era_on_message() refuses, and what it drops quietly. */
static void test_bad_messages(const void *arg)
{
	struct net net;
	uint64_t v[VALUE_WORDS];
	struct era_msg m = { .type = ERA_MSG_UP, .group = 99, .id = 1,
			     .value = v };
	struct era_sink out;
	struct era_stats st;

	(void)arg;
	if (!TAP_CHECK_INT(net_init(&net, 3, 1, false), 0))
		return;
	out = sink_of(&net, 0);
	era_ulfm_value_init(&net.ulfm, v, 1);
	TAP_CHECK_INT(era_on_message(net.g[0], 0, &m, &out), -EINVAL);
	TAP_CHECK_INT(era_on_message(net.g[0], 3, &m, &out), -EINVAL);
	m.group = 98;
	TAP_CHECK_INT(era_on_message(net.g[0], 1, &m, &out), -EINVAL);
	m.group = 99;
	m.value = NULL;
	TAP_CHECK_INT(era_on_message(net.g[0], 1, &m, &out), -EINVAL);
	m.value = v;
	m.id = 5;				/* beyond 3 * window + 1 */
	TAP_CHECK_INT(era_on_message(net.g[0], 1, &m, &out), -ERANGE);
	m.id = 1;
	m.type = ERA_MSG_DOWN;			/* a decision we did not join */
	TAP_CHECK_INT(era_on_message(net.g[0], 1, &m, &out), 0);
	TAP_CHECK_INT(era_result(net.g[0], 1, NULL), -ENOENT);
	TAP_CHECK_INT(era_on_failure(net.g[0], 2, &out), 0);
	m.type = ERA_MSG_UP;			/* from a known-dead rank */
	TAP_CHECK_INT(era_on_message(net.g[0], 2, &m, &out), 0);
	era_get_stats(net.g[0], &st);
	TAP_CHECK_UINT(st.from_dead, 1);
	TAP_CHECK_UINT(st.errors, 5);
	TAP_CHECK_UINT(st.down_ignored, 1);
	TAP_CHECK_INT(era_on_failure(net.g[0], 0, &out), -EINVAL);
	TAP_CHECK(era_is_dead(net.g[0], 2) && !era_is_dead(net.g[0], 1));
	TAP_CHECK_UINT(net.tail, 0);		/* nothing sent */
	net_fini(&net);
}

/* A generic op: the maximum of a 32-bit value, no failure hooks. */
static void max_identity(const struct era_op *op, void *v)
{
	(void)op;
	*(uint32_t *)v = 0;
}

static void max_combine(const struct era_op *op, void *d, const void *s)
{
	(void)op;
	if (*(const uint32_t *)s > *(uint32_t *)d)
		*(uint32_t *)d = *(const uint32_t *)s;
}

static size_t max_wire_size(const struct era_op *op, const void *v)
{
	(void)op;
	(void)v;
	return 4;
}

static size_t max_encode(const struct era_op *op, const void *v, uint8_t *b)
{
	(void)op;
	memcpy(b, v, 4);
	return 4;
}

static int max_decode(const struct era_op *op, const uint8_t *b, size_t len,
		      void *v)
{
	(void)op;
	if (len != 4)
		return -EBADMSG;
	memcpy(v, b, 4);
	return 0;
}

struct max_net {
	uint32_t decided[5];
	uint32_t from;
	struct { uint32_t from, to; struct era_msg m; uint32_t v; } q[64];
	size_t len;
};

static void max_send(void *ctx, uint32_t to, const struct era_msg *m)
{
	struct max_net *mn = ctx;

	mn->q[mn->len].from = mn->from;
	mn->q[mn->len].to = to;
	mn->q[mn->len].m = *m;
	if (m->value)
		mn->q[mn->len].v = *(const uint32_t *)m->value;
	mn->len++;
}

static void max_decided(void *ctx, uint64_t id, const void *value)
{
	struct max_net *mn = ctx;

	(void)id;
	mn->decided[mn->from] = *(const uint32_t *)value;
}

static void test_generic_op(const void *arg)
{
	static const struct era_op max_op = {
		.value_size = 4, .identity = max_identity,
		.combine = max_combine, .wire_size = max_wire_size,
		.encode = max_encode, .decode = max_decode,
	};
	struct max_net mn = { 0 };
	struct era_sink out = { max_send, max_decided, &mn };
	struct era_group *g[5];

	(void)arg;
	for (uint32_t r = 0; r < 5; r++) {
		struct era_config cfg = { .group = 1, .nranks = 5, .self = r,
					  .op = &max_op,
					  .topo = ERA_TOPO_STRING };

		TAP_CHECK_INT(era_group_create(&cfg, &g[r]), 0);
	}
	for (uint32_t r = 0; r < 5; r++) {
		uint32_t v = 10 * r + 3;

		mn.from = r;
		TAP_CHECK_INT(era_start(g[r], 1, &v, &out), 0);
	}
	for (size_t i = 0; i < mn.len; i++) {
		mn.from = mn.q[i].to;
		mn.q[i].m.value = &mn.q[i].v;
		TAP_CHECK_INT(era_on_message(g[mn.q[i].to], mn.q[i].from,
					     &mn.q[i].m, &out), 0);
	}
	TAP_CHECK_UINT(mn.len, 8);		/* a string: 2 (n - 1) */
	for (uint32_t r = 0; r < 5; r++) {
		TAP_CHECK_UINT(mn.decided[r], 43);
		era_group_destroy(g[r]);
	}
}

int main(void)
{
	tap_add(test_config, NULL, "configuration checks");
	tap_add(test_allocator, NULL,
		"one allocation, through the caller's allocator");
	tap_add(test_failure_free, NULL, "failure-free agreement, n = 7");
	tap_add(test_served_after_return, NULL,
		"decision served after early return");
	tap_add(test_new_root, NULL,
		"a new root learns the dead root's decision");
	tap_add(test_stale_parent, NULL,
		"no return to a dead parent's stale decision");
	tap_add(test_failure_and_rebalance, NULL,
		"failure agreed, next tree rebalanced");
	tap_add(test_window, NULL, "agreement ids and the window");
	tap_add(test_gc, NULL, "results collected once all returned");
	tap_add(test_bad_messages, NULL, "refused and dropped messages");
	tap_add(test_generic_op, NULL, "a generic op (max), string tree");
	return tap_run();
}
