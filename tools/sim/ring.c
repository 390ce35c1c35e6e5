// SPDX-License-Identifier: GPL-2.0
/*
 * The observation ring and its broadcast, event by event (see ring.h).
 *
 * What is simulated and how:
 *  - Failures are drawn before the run (so a node's death time is known
 *    when its sends are queued; a node sends nothing once dead, and a
 *    message to a dead node is lost: "all channels to p are emptied").
 *  - Every node runs the module's own Algorithm 1, the detector of
 *    kmod/ring/core.c (struct ftnl_ring_detector): T2, T3's expiry and
 *    reconnection (FindEmitter, NEW_OBSERVER, 2d), T4, and the repair
 *    when a broadcast reveals the emitter's death. D stays in the
 *    simulator's compact form (below), materialized as a bitmap for the
 *    detector's calls.
 *  - Heartbeats (T1/T2) are a schedule, not events: node p emits at
 *    phase(p) + k h to its current observer, plus once at once when a
 *    NEW_OBSERVER reaches it (T4: the detector sends it). A live emitter
 *    is never suspected (d > h + t), so its heartbeats are given to the
 *    observer's detector only when it dies: the last one that reached the
 *    observer after it started observing p, whose arrival + d (else the
 *    2d of T3) is then the detector's deadline, where T3 runs. As in the
 *    paper's simulator, heartbeats do not occupy the one port (h >> t).
 *  - T3's broadcast carries the observer's D (a message of the overlay in
 *    kmod/bcast/topology.c). T5: D += dead and forward once per cube. With
 *    ftnl's semantics (kmod/bcast/bcast.c) a node unions the message's
 *    whole D into its own, and a failure learned from the broadcast
 *    reconnects the ring at once when it was the emitter.
 *  - One port: a node's messages leave one at a time in FIFO order, each
 *    taking a time uniform in (0, t]. Because the order is FIFO, a message's
 *    send and arrival times are fixed when it is queued: no event is needed
 *    for the port, and a message to a node that has already forwarded in
 *    that cube (a no-op on arrival) needs no event either. That keeps a
 *    262,144-node flood (about 9 million messages) to a few million events.
 *  - D is a 64-bit mask of failure indices per node: a run has at most
 *    RING_MAX_FAILURES failures, and a position bitmap is built from it
 *    only to call FindEmitter and to freeze a broadcast's D, once per
 *    broadcast, shared by all its messages and freed with its last one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/bcast/topology.h"
#include "../../kmod/ring/core.h"
#include "../../kmod/ring/order.h"
#include "heap.h"
#include "ring.h"
#include "rng.h"
#include "view.h"

#define NEG_INF		(INT64_MIN / 4)
#define POS_INF		INT64_MAX
#define NO_NODE		UINT32_MAX
#define NO_FAIL		0xff

enum {
	EV_FAIL,	/* node dies */
	EV_SUSPECT,	/* node's SUSP-TIMEOUT (arg: epoch) */
	EV_NEWOBS,	/* NEW_OBSERVER reaches node (arg: sender) */
	EV_BCAST,	/* broadcast message reaches node (arg: bcast, arg2: from label | cube << 31) */
};

struct ring_bcast {
	struct sim_view view;
	unsigned long *dead;	/* the message's D, by position */
	int64_t *first[2];	/* earliest arrival queued in cube c, by label */
	uint64_t dmask;		/* the message's D as failure indices */
	uint32_t fail;		/* failure index it announces */
	uint32_t pending;	/* its messages still in the event queue */
	uint32_t next_free;
};

struct ring_sim {
	const struct ring_cfg *cfg;
	uint32_t n;
	struct sim_rng rng;
	struct sim_heap heap;
	struct ring_result *res;

	/* Per node. */
	uint64_t *dmask;	/* D as failure indices */
	struct ftnl_ring_detector *det;	/* Algorithm 1 (kmod/ring/core.c) */
	uint32_t *watcher;	/* who last chose this node as emitter */
	uint32_t *epoch;	/* bumps invalidate queued suspicions */
	int64_t *emitter_since;	/* when the current emitter was chosen */
	int64_t *obs_since;	/* when the current observer announced itself */
	int64_t *extra_hb;	/* arrival of T4's immediate heartbeat */
	int64_t *port_free;	/* one port: when the last queued send ends */
	int64_t *death;
	int64_t *learn0;	/* when it learned failure 0 */
	uint8_t *fidx;		/* failure index of a victim, NO_FAIL otherwise */

	/* Failures. */
	uint32_t nfail;
	uint32_t fail_pos[RING_MAX_FAILURES];
	int64_t fail_time[RING_MAX_FAILURES];
	uint32_t struck;
	uint32_t alive;
	uint64_t known_pairs;	/* sum over live nodes of |D| */
	bool stabilized;

	unsigned long *scratch;	/* position bitmap of one node's D */
	struct ring_bcast *bc;
	uint32_t nbc;
	uint32_t free_bc;

	/* The detector's datagrams go out from this node, now. */
	uint32_t sending;
	int64_t send_now;
	int send_err;
};

static int64_t ring_delay(struct ring_sim *sim)
{
	return 1 + (int64_t)sim_rng_below(&sim->rng, sim->cfg->t_ns);
}

/* Heartbeat phase of @node in [0, h): a hash, so it needs no memory. */
static int64_t ring_phase(const struct ring_sim *sim, uint32_t node)
{
	struct sim_rng r = { .state = sim->cfg->seed * 0x9e3779b97f4a7c15ULL + node };

	return (int64_t)sim_rng_below(&r, sim->cfg->h_ns);
}

static bool ring_alive(const struct ring_sim *sim, uint32_t node, int64_t t)
{
	return sim->death[node] > t;
}

/* Alive at the end of the run. */
static bool ring_survivor(const struct ring_sim *sim, uint32_t node)
{
	return sim->death[node] == POS_INF;
}

static int ring_push(struct ring_sim *sim, int64_t t, uint16_t type,
		     uint32_t node, uint32_t arg, uint32_t arg2)
{
	return sim_heap_push(&sim->heap, t, type, node, arg, arg2);
}

/*
 * Queue a message on @from's port at @now. Return: its arrival time, or
 * POS_INF when @from is dead before the port frees up.
 */
static int64_t ring_send(struct ring_sim *sim, uint32_t from, int64_t now)
{
	int64_t start = sim->port_free[from] > now ? sim->port_free[from] : now;

	if (start >= sim->death[from])
		return POS_INF;
	sim->port_free[from] = start + ring_delay(sim);
	return sim->port_free[from];
}

/* Materialize @node's D as a position bitmap in sim->scratch, or clear it. */
static void ring_scratch(struct ring_sim *sim, uint32_t node, bool set)
{
	uint64_t mask = sim->dmask[node];

	while (mask) {
		uint32_t k = __builtin_ctzll(mask);

		mask &= mask - 1;
		if (set)
			ftnl_bit_set(sim->scratch, sim->fail_pos[k]);
		else
			ftnl_bit_clear(sim->scratch, sim->fail_pos[k]);
	}
}

static void ring_check_stable(struct ring_sim *sim, int64_t now)
{
	bool all_struck = sim->cfg->mode == RING_MTBF ? sim->struck > 0 :
			  sim->struck == sim->nfail;

	/* RING_BURST and RING_SEGMENT: all the failures, known by all. */

	if (sim->stabilized || !all_struck ||
	    sim->known_pairs != (uint64_t)sim->struck * sim->alive)
		return;
	sim->stabilized = true;
	sim->res->t_all_ns = now;
	sim->res->failures = sim->struck;
	/* Figure 5 stops at the first stable configuration. */
	for (uint32_t k = sim->struck; k < sim->nfail; k++)
		sim->death[sim->fail_pos[k]] = POS_INF;
}

static void ring_learn(struct ring_sim *sim, uint32_t node, uint32_t fail,
		       int64_t now)
{
	if (sim->dmask[node] >> fail & 1)
		return;
	sim->dmask[node] |= 1ULL << fail;
	sim->known_pairs++;
	if (fail == 0)
		sim->learn0[node] = now;
	ring_check_stable(sim, now);
}

/* The detector's datagrams (struct ftnl_ring_sink). */
static void ring_sink_send(void *ctx, uint32_t to, uint8_t type)
{
	struct ring_sim *sim = ctx;
	uint32_t from = sim->sending;
	int64_t now = sim->send_now, arr;

	if (type == FTNL_MSG_HEARTBEAT) {
		/* T4's immediate heartbeat; heartbeats take no port. */
		sim->extra_hb[from] = now + ring_delay(sim);
		return;
	}
	/* NEW_OBSERVER of T3 */
	arr = ring_send(sim, from, now);
	if (arr == POS_INF)
		return;
	sim->res->newobs_msgs++;
	if (ring_alive(sim, to, arr) &&
	    ring_push(sim, arr, EV_NEWOBS, to, from, 0))
		sim->send_err = -ENOMEM;
}

static void ring_sink_failed(void *ctx, uint32_t pos, bool originate)
{
	(void)ctx;
	(void)pos;
	(void)originate;
}

static const struct ftnl_ring_sink *ring_sink(struct ring_sim *sim,
					      uint32_t from, int64_t now,
					      struct ftnl_ring_sink *out)
{
	sim->sending = from;
	sim->send_now = now;
	*out = (struct ftnl_ring_sink){
		.send = ring_sink_send,
		.failed = ring_sink_failed,
		.ctx = sim,
	};
	return out;
}

/*
 * @p, @q's emitter, is in @q's D: the detector reconnects (lines 19-23 of
 * Algorithm 1, ftnl_ring_det_lost()). An emitter that is already dead
 * will never heartbeat: its suspicion comes at the detector's 2d.
 */
static int ring_reconnect(struct ring_sim *sim, uint32_t q, uint32_t p,
			  int64_t now)
{
	struct ftnl_ring_detector *det = &sim->det[q];
	struct ftnl_ring_sink out;
	uint32_t e;

	sim->send_err = 0;
	ring_scratch(sim, q, true);
	ftnl_ring_det_lost(det, sim->scratch, p, false, (uint64_t)now,
			   ring_sink(sim, q, now, &out));
	ring_scratch(sim, q, false);
	if (sim->send_err)
		return sim->send_err;

	e = det->emitter;
	sim->epoch[q]++;
	sim->emitter_since[q] = now;
	if (!det->observing)
		return 0;	/* every other node is in D */
	sim->watcher[e] = q;
	if (!ring_alive(sim, e, now))
		return ring_push(sim, (int64_t)det->susp_deadline, EV_SUSPECT,
				 q, sim->epoch[q], 0);
	return 0;
}

static void ring_bcast_free(struct ring_sim *sim, uint32_t id)
{
	struct ring_bcast *b = &sim->bc[id];

	sim_view_free(&b->view);
	free(b->dead);
	free(b->first[0]);
	free(b->first[1]);
	b->dead = NULL;
	b->first[0] = b->first[1] = NULL;
	b->next_free = sim->free_bc;
	sim->free_bc = id;
}

/* Send @node's Neighbors(s, D) in @cube, on first receipt there. */
static int ring_forward(struct ring_sim *sim, uint32_t id, uint32_t node,
			uint32_t label, uint32_t cube, uint32_t from_label,
			int64_t now)
{
	struct ring_bcast *b = &sim->bc[id];
	uint32_t to[FTNL_BCAST_MAX_FANOUT], count, i, n = b->view.view.n;

	if (sim->cfg->overlay == FTNL_OVERLAY_BMG)
		count = ftnl_bmg_forward(n, label, to);
	else
		count = ftnl_hcube_forward(n, cube, label, from_label, to);
	for (i = 0; i < count; i++) {
		int64_t arr = ring_send(sim, node, now);
		uint32_t pos;

		if (arr == POS_INF)
			break;
		sim->res->bcast_msgs++;
		/*
		 * A node acts on its first receipt in a cube only: a message
		 * arriving after one already queued there changes nothing.
		 */
		if (arr >= b->first[cube][to[i]])
			continue;
		pos = sim_view_pos(&b->view, to[i]);
		if (!ring_alive(sim, pos, arr))
			continue;
		b->first[cube][to[i]] = arr;
		if (ring_push(sim, arr, EV_BCAST, pos, id,
			      label | cube << 31))
			return -ENOMEM;
		b->pending++;
	}
	return 0;
}

/* Line 24: BCASTMSG(dead, i, D) to Neighbors(i, D). */
static int ring_bcast_start(struct ring_sim *sim, uint32_t src, uint32_t fail,
			    int64_t now)
{
	size_t longs = ftnl_bitmap_longs(sim->n);
	struct ring_bcast *b;
	uint32_t id, c, cubes, i;
	int err;

	if (sim->free_bc != NO_NODE) {
		id = sim->free_bc;
		sim->free_bc = sim->bc[id].next_free;
	} else {
		struct ring_bcast *grown = realloc(sim->bc, (sim->nbc + 1) * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		sim->bc = grown;
		id = sim->nbc++;
	}
	b = &sim->bc[id];
	memset(b, 0, sizeof(*b));
	b->fail = fail;
	b->dmask = sim->dmask[src];
	b->dead = calloc(longs, sizeof(long));
	if (!b->dead)
		goto nomem;
	ring_scratch(sim, src, true);
	memcpy(b->dead, sim->scratch, longs * sizeof(long));
	ring_scratch(sim, src, false);
	if (sim_view_init(&b->view, b->dead, sim->n, src))
		goto nomem;
	cubes = sim->cfg->overlay == FTNL_OVERLAY_BMG ? 1 : 2;
	for (c = 0; c < cubes; c++) {
		b->first[c] = malloc(b->view.view.n * sizeof(int64_t));
		if (!b->first[c])
			goto nomem;
		for (i = 0; i < b->view.view.n; i++)
			b->first[c][i] = POS_INF;
	}
	sim->res->broadcasts++;

	for (c = 0; c < cubes; c++) {
		b->first[c][0] = now;
		err = ring_forward(sim, id, src, 0, c, 0, now);
		if (err)
			return err;
	}
	if (!sim->bc[id].pending)
		ring_bcast_free(sim, id);
	return 0;
nomem:
	ring_bcast_free(sim, id);
	return -ENOMEM;
}

/* Floor division for the heartbeat schedule (times can be negative). */
static int64_t ring_floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b && (a < 0) != (b < 0)) ? q - 1 : q;
}

/*
 * @p died at @x: its observer @q's detector gets the last heartbeat that
 * reached it while it observed p (T2), and times out at its deadline.
 */
static int ring_schedule_suspect(struct ring_sim *sim, uint32_t q, uint32_t p,
				 int64_t x)
{
	struct ftnl_ring_detector *det = &sim->det[q];
	int64_t h = sim->cfg->h_ns, deadline;

	if (sim->det[p].observer == q) {
		int64_t phase = ring_phase(sim, p);
		/* Last periodic heartbeat strictly before the death. */
		int64_t e = phase + ring_floor_div(x - 1 - phase, h) * h;
		int64_t last = NEG_INF;

		if (e >= sim->obs_since[p])
			last = e + ring_delay(sim);
		if (sim->extra_hb[p] > last)
			last = sim->extra_hb[p];
		/* Heartbeats count once q observes p (T2 counts from the emitter only). */
		if (last != NEG_INF && last >= sim->emitter_since[q])
			ftnl_ring_det_heartbeat(det, p, (uint64_t)last);
	}
	deadline = (int64_t)det->susp_deadline;
	/* Steady state from the start: no T3 ever set a deadline. */
	if (sim->emitter_since[q] == NEG_INF && !det->heard_emitter)
		deadline = NEG_INF;
	if (deadline < x)
		deadline = x;
	return ring_push(sim, deadline, EV_SUSPECT, q, sim->epoch[q], 0);
}

static int ring_on_fail(struct ring_sim *sim, uint32_t p, int64_t x)
{
	uint32_t q = sim->watcher[p];

	if (sim->death[p] != x)
		return 0;	/* cancelled after stabilization */
	sim->struck++;
	sim->alive--;
	sim->known_pairs -= __builtin_popcountll(sim->dmask[p]);
	if (q != NO_NODE && ring_alive(sim, q, x) && sim->det[q].observing &&
	    sim->det[q].emitter == p)
		return ring_schedule_suspect(sim, q, p, x);
	return 0;
}

/* Task T3: the detector's deadline passed. */
static int ring_on_suspect(struct ring_sim *sim, uint32_t q, uint32_t epoch,
			   int64_t now)
{
	struct ftnl_ring_detector *det = &sim->det[q];
	uint32_t p = det->emitter, fail;
	int err;

	if (!ring_alive(sim, q, now) || epoch != sim->epoch[q] || !det->observing)
		return 0;
	if (ftnl_ring_det_expire(det, (uint64_t)now) != FTNL_RING_SUSPECT)
		return -EPROTO;	/* the event and the detector disagree */
	fail = sim->fidx[p];
	if (fail == NO_FAIL)
		return -EPROTO;	/* a live node suspected: the model is broken */
	sim->res->suspicions++;
	ring_learn(sim, q, fail, now);
	err = ring_reconnect(sim, q, p, now);
	if (err)
		return err;
	return ring_bcast_start(sim, q, fail, now);
}

/* Task T4. */
static void ring_on_newobs(struct ring_sim *sim, uint32_t e, uint32_t q,
			   int64_t now)
{
	struct ftnl_ring_sink out;

	if (!ring_alive(sim, e, now))
		return;
	ftnl_ring_det_new_observer(&sim->det[e], q, ring_sink(sim, e, now, &out));
	sim->obs_since[e] = now;
}

/*
 * Task T5. Algorithm 1 adds the announced death to D. ftnl (kmod/bcast/
 * bcast.c) unions the message's whole D into the node's own on first
 * receipt and lets the ring re-evaluate the emitter at once (core.c's
 * ftnl_ring_det_lost()).
 */
static int ring_on_bcast(struct ring_sim *sim, uint32_t node, uint32_t id,
			 uint32_t arg2, int64_t now)
{
	struct ring_bcast *b = &sim->bc[id];
	uint32_t cube = arg2 >> 31, from_label = arg2 & 0x7fffffff, label;
	int err = 0;

	b->pending--;
	if (ring_alive(sim, node, now)) {
		uint32_t emitter = sim->det[node].emitter;
		uint64_t news = sim->cfg->paper_t5 ? 1ULL << b->fail : b->dmask;

		news &= ~sim->dmask[node];
		while (news) {
			ring_learn(sim, node, __builtin_ctzll(news), now);
			news &= news - 1;
		}
		if (!sim->cfg->paper_t5 && sim->det[node].observing &&
		    sim->fidx[emitter] != NO_FAIL &&
		    (sim->dmask[node] >> sim->fidx[emitter] & 1)) {
			err = ring_reconnect(sim, node, emitter, now);
			if (err)
				return err;
		}
		label = sim_view_label(&b->view, node);
		/* The first receipt in this cube is the one queued earliest. */
		if (b->first[cube][label] == now)
			err = ring_forward(sim, id, node, label, cube,
					   from_label, now);
	}
	if (!b->pending)
		ring_bcast_free(sim, id);
	return err;
}

/*
 * RING_RACK: the ring positions of every node of domain @rack_id, through
 * the same ring order the module computes from a table naming domains.
 */
static int ring_rack_positions(const struct ring_cfg *cfg, uint32_t rack_id,
			       uint32_t *pos, uint32_t count)
{
	struct ftnl_ring_member *members = NULL;
	uint32_t *ring = NULL, *scratch = NULL, i, k = 0;
	char (*names)[12] = NULL;
	int err = -ENOMEM;

	members = malloc(cfg->n * sizeof(*members));
	ring = malloc(cfg->n * sizeof(*ring));
	scratch = malloc(cfg->n * sizeof(*scratch));
	names = malloc(cfg->n * sizeof(*names));
	if (!members || !ring || !scratch || !names)
		goto out;
	for (i = 0; i < cfg->n; i++) {
		snprintf(names[i], sizeof(names[i]), "r%u", i / cfg->rack);
		members[i].id = i;
		members[i].domain = cfg->domains ? names[i] : NULL;
	}
	ftnl_ring_order(members, cfg->n, ring, scratch);
	for (i = 0; i < cfg->n && k < count; i++)
		if (ring[i] / cfg->rack == rack_id)
			pos[k++] = i;
	err = k == count ? 0 : -EINVAL;
out:
	free(names);
	free(scratch);
	free(ring);
	free(members);
	return err;
}

/* Draw the failures: who and when (index order = time order). */
static int ring_draw_failures(struct ring_sim *sim)
{
	const struct ring_cfg *cfg = sim->cfg;
	uint32_t k, max = cfg->n > 1 ? cfg->n - 1 : 0;

	uint32_t rack_pos[RING_MAX_FAILURES];

	sim->nfail = cfg->mode == RING_MTBF ? RING_MAX_FAILURES : cfg->nfail;
	if (cfg->mode == RING_RACK) {
		int err;

		if (!cfg->rack || cfg->rack > RING_MAX_FAILURES ||
		    cfg->rack >= cfg->n)
			return -EINVAL;
		sim->nfail = cfg->rack;
		err = ring_rack_positions(cfg, (uint32_t)sim_rng_below(
						  &sim->rng, cfg->n / cfg->rack),
					  rack_pos, cfg->rack);
		if (err)
			return err;
	}
	if (sim->nfail > RING_MAX_FAILURES)
		sim->nfail = RING_MAX_FAILURES;
	if (sim->nfail > max)
		sim->nfail = max;
	if (!sim->nfail)
		return -EINVAL;

	for (k = 0; k < sim->nfail; k++) {
		if (k == 0 || cfg->mode == RING_RACK)
			sim->fail_time[k] = 0;
		else if (cfg->mode != RING_MTBF)
			sim->fail_time[k] = (int64_t)sim_rng_below(&sim->rng, cfg->window_ns);
		else
			sim->fail_time[k] = sim->fail_time[k - 1] +
				(int64_t)(sim_rng_exp(&sim->rng, cfg->mtbf_node_s / cfg->n) * 1e9);
	}
	/* Burst times are i.i.d.: sort them so failure 0 is the one at time 0. */
	for (k = 1; k < sim->nfail; k++) {
		int64_t t = sim->fail_time[k];
		uint32_t j = k;

		while (j > 1 && sim->fail_time[j - 1] > t) {
			sim->fail_time[j] = sim->fail_time[j - 1];
			j--;
		}
		sim->fail_time[j] = t;
	}
	for (k = 0; k < sim->nfail; k++) {
		uint32_t p;

		if (cfg->mode == RING_SEGMENT && k)
			p = ftnl_ring_pred(sim->fail_pos[k - 1], cfg->n);
		else if (cfg->mode == RING_RACK)
			p = rack_pos[k];
		else
			do {
				p = (uint32_t)sim_rng_below(&sim->rng, cfg->n);
			} while (sim->fidx[p] != NO_FAIL);
		sim->fidx[p] = k;
		sim->fail_pos[k] = p;
		sim->death[p] = sim->fail_time[k];
		if (ring_push(sim, sim->fail_time[k], EV_FAIL, p, 0, 0))
			return -ENOMEM;
	}
	return 0;
}

static void ring_free(struct ring_sim *sim)
{
	for (uint32_t i = 0; i < sim->nbc; i++)
		if (sim->bc[i].dead)
			ring_bcast_free(sim, i);
	free(sim->bc);
	free(sim->dmask);
	free(sim->det);
	free(sim->watcher);
	free(sim->epoch);
	free(sim->emitter_since);
	free(sim->obs_since);
	free(sim->extra_hb);
	free(sim->port_free);
	free(sim->death);
	free(sim->learn0);
	free(sim->fidx);
	free(sim->scratch);
	sim_heap_free(&sim->heap);
}

static int ring_alloc(struct ring_sim *sim, uint32_t n)
{
	memset(sim, 0, sizeof(*sim));
	sim->dmask = calloc(n, sizeof(*sim->dmask));
	sim->det = malloc(n * sizeof(*sim->det));
	sim->watcher = malloc(n * sizeof(*sim->watcher));
	sim->epoch = calloc(n, sizeof(*sim->epoch));
	sim->emitter_since = malloc(n * sizeof(int64_t));
	sim->obs_since = malloc(n * sizeof(int64_t));
	sim->extra_hb = malloc(n * sizeof(int64_t));
	sim->port_free = malloc(n * sizeof(int64_t));
	sim->death = malloc(n * sizeof(int64_t));
	sim->learn0 = malloc(n * sizeof(int64_t));
	sim->fidx = malloc(n);
	sim->scratch = calloc(ftnl_bitmap_longs(n), sizeof(long));
	if (!sim->dmask || !sim->det || !sim->watcher ||
	    !sim->epoch || !sim->emitter_since || !sim->obs_since ||
	    !sim->extra_hb || !sim->port_free || !sim->death || !sim->learn0 ||
	    !sim->fidx || !sim->scratch || sim_heap_init(&sim->heap, 1024)) {
		ring_free(sim);
		return -ENOMEM;
	}
	return 0;
}

/* Every survivor observes its closest live predecessor, which knows it. */
static bool ring_reconnected(const struct ring_sim *sim)
{
	for (uint32_t q = 0; q < sim->n; q++) {
		uint32_t e = ftnl_ring_pred(q, sim->n), steps = 0;

		if (!ring_survivor(sim, q))
			continue;
		while (e != q && !ring_survivor(sim, e) && steps++ < sim->n)
			e = ftnl_ring_pred(e, sim->n);
		if ((e == q ? sim->det[q].observing : sim->det[q].emitter != e) ||
		    (e != q && sim->det[e].observer != q))
			return false;
	}
	return true;
}

/**
 * ring_run - one run of the ring and its broadcasts
 * @cfg: the run
 * @res: filled in
 *
 * Return: 0, -ENOMEM, -EINVAL for a bad configuration, -EPROTO if the
 * model ever suspected a live node (d too small for h + t).
 */
int ring_run(const struct ring_cfg *cfg, struct ring_result *res)
{
	struct ring_sim sim;
	struct sim_event ev;
	uint32_t i, n = cfg->n;
	int err;

	memset(res, 0, sizeof(*res));
	res->t_first_ns = res->t_all_ns = -1;
	if (n < 2 || cfg->d_ns <= cfg->h_ns + cfg->t_ns || cfg->t_ns < 1)
		return -EINVAL;
	err = ring_alloc(&sim, n);
	if (err)
		return err;
	sim.cfg = cfg;
	sim.n = n;
	sim.res = res;
	sim.alive = n;
	sim.free_bc = NO_NODE;
	sim_rng_seed(&sim.rng, cfg->seed);
	for (i = 0; i < n; i++) {
		ftnl_ring_det_init(&sim.det[i], n, i, (uint64_t)cfg->h_ns,
				   (uint64_t)cfg->d_ns);
		sim.watcher[i] = ftnl_ring_succ(i, n);
		/* Steady state: heartbeats have always flowed. */
		sim.emitter_since[i] = NEG_INF;
		sim.obs_since[i] = NEG_INF;
		sim.extra_hb[i] = NEG_INF;
		sim.port_free[i] = NEG_INF;
		sim.death[i] = POS_INF;
		sim.learn0[i] = -1;
		sim.fidx[i] = NO_FAIL;
	}
	err = ring_draw_failures(&sim);

	while (!err && sim_heap_pop(&sim.heap, &ev)) {
		res->events++;
		switch (ev.type) {
		case EV_FAIL:
			err = ring_on_fail(&sim, ev.node, ev.time);
			break;
		case EV_SUSPECT:
			err = ring_on_suspect(&sim, ev.node, ev.arg, ev.time);
			break;
		case EV_NEWOBS:
			ring_on_newobs(&sim, ev.node, ev.arg, ev.time);
			break;
		case EV_BCAST:
			err = ring_on_bcast(&sim, ev.node, ev.arg, ev.arg2, ev.time);
			break;
		}
	}
	if (!err) {
		res->stable = sim.stabilized;
		res->reconnected = ring_reconnected(&sim);
		for (i = 0; i < n; i++) {
			if (!ring_survivor(&sim, i))
				continue;
			if (sim.learn0[i] < 0) {
				res->t_first_ns = -1;
				res->stable = false;
				break;
			}
			if (sim.learn0[i] > res->t_first_ns)
				res->t_first_ns = sim.learn0[i];
		}
	}
	ring_free(&sim);
	return err;
}
