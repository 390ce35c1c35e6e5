// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The radix membership simulator: events in a time-ordered heap, the real
 * engine in every process, messages through the real codec, and the
 * property checks of sim.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "../tree.h"
#include "evheap.h"
#include "sim.h"

#define PAIR_MAX 256	/* per-channel FIFO state up to this many ids */

/* ---- randomness ---------------------------------------------------------- */

static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint64_t *state, uint32_t bound)
{
	return bound ? (uint32_t)(splitmix(state) % bound) : 0;
}

static uint32_t rnd_in(uint64_t *state, uint32_t lo, uint32_t hi)
{
	return lo + rnd(state, hi - lo + 1);
}

/* ---- events ---------------------------------------------------------------- */

enum ev_type { EV_MSG, EV_NOTIFY, EV_CRASH, EV_CRASH_ROOT, EV_SPAWN,
	       EV_BOUNCE };

struct ev {
	uint64_t time, seq;
	uint8_t type;
	uint32_t to, to_inc;	/* where it happens */
	uint32_t from, from_inc;/* MSG: sender; NOTIFY: the dead; BOUNCE:
				 * the unreachable id */
	uint32_t off, len;	/* MSG: bytes in the arena */
	uint64_t pseq;		/* MSG: position on its channel */
};

EVHEAP_CHECK(struct ev);

/* ---- the simulated system -------------------------------------------------- */

/* A view as the checks keep it (ids < RSIM_MAX_CHECKED). */
struct vrec {
	uint64_t seq;
	uint32_t root;
	uint64_t mask;
	uint32_t inc[RSIM_MAX_CHECKED];
};

/* One process: an incarnation of an id, from start to crash or the end. */
struct life {
	uint32_t id, inc;
	bool alive;
	struct vrec *v;
	uint32_t n, cap;
};

struct proc {
	struct radix_node *node;	/* NULL: no live process */
	uint32_t inc;			/* of the last process of this id */
	uint32_t life;			/* index in sim->lives */
	uint64_t sends;
	uint64_t crash_after;		/* 0: none (first process only) */
	uint64_t respawn_delay;		/* 0: none */
};

struct sim {
	const struct rsim_cfg *cfg;
	struct rsim_result *res;
	uint64_t rng, now;
	struct evheap heap;
	uint8_t *arena;
	size_t arena_len, arena_cap;
	struct radix_inbox inbox;
	struct proc *proc;
	struct life *lives;
	uint32_t nlives, clives;
	struct radix_member *deaths;	/* every crash so far */
	uint32_t ndeaths, cdeaths;
	uint32_t cur;			/* the process running an event */
	uint64_t busy;			/* its computation before sending */
	uint64_t *last_arrival, *sent_seq, *arrived_seq, *cut; /* pairs */
	int32_t *open_round;		/* per id: its round being run */
	struct radix_view scratch;
	struct radix_node *zombie[4];	/* crashed during this step */
	uint32_t nzombies;
	int err;
};

static void __attribute__((format(printf, 2, 3)))
violation(struct sim *sim, const char *fmt, ...)
{
	va_list ap;

	if (!sim->res->ok)
		return;
	sim->res->ok = false;
	va_start(ap, fmt);
	vsnprintf(sim->res->why, sizeof(sim->res->why), fmt, ap);
	va_end(ap);
	if (sim->cfg->trace)
		printf("# t=%" PRIu64 " VIOLATION: %s\n", sim->now,
		       sim->res->why);
}

static void __attribute__((format(printf, 2, 3)))
trace(struct sim *sim, const char *fmt, ...)
{
	va_list ap;

	if (!sim->cfg->trace)
		return;
	printf("# t=%" PRIu64 " ", sim->now);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void push(struct sim *sim, struct ev ev)
{
	if (evheap_push(&sim->heap, &ev))
		sim->err = -ENOMEM;
}

static size_t pair(const struct sim *sim, uint32_t from, uint32_t to)
{
	return (size_t)from * sim->cfg->cap + to;
}

static uint64_t delay(struct sim *sim)
{
	return rnd_in(&sim->rng, sim->cfg->delay_min, sim->cfg->delay_max);
}

static uint64_t fd_delay(struct sim *sim)
{
	return rnd_in(&sim->rng, sim->cfg->fd_min, sim->cfg->fd_max);
}

/* The engines' counters, summed over every process that ever ran. */
static void add_stats(struct rsim_stats *sum, const struct radix_stats *st)
{
	sum->takeovers += st->takeovers;
	sum->adopted += st->adopted;
	sum->duplicates += st->duplicates;
	sum->stale += st->stale;
	sum->from_dead += st->from_dead;
	sum->redirects += st->redirects;
	sum->stepped_down += st->stepped_down;
	sum->refusals += st->refusals;
	sum->recollections += st->recollections;
	sum->catchups += st->catchups;
	sum->proofs += st->proofs;
}

static void crash(struct sim *sim, uint32_t id)
{
	struct proc *pr = &sim->proc[id];
	uint32_t inc = pr->inc;

	if (!pr->node)
		return;
	if (id == sim->cfg->survivor)
		return;
	trace(sim, "CRASH %u.%u", id, inc);
	{
		struct radix_stats st;

		radix_get_stats(pr->node, &st);
		add_stats(&sim->res->stats, &st);
		if (st.errors)
			violation(sim, "%u.%u: %" PRIu64 " protocol errors: %s",
				  id, inc, st.errors, st.last_error);
	}
	/* It may be inside an engine call (crashing after a send). */
	sim->zombie[sim->nzombies++] = pr->node;
	pr->node = NULL;
	sim->lives[pr->life].alive = false;
	sim->res->stats.crashed++;
	if (sim->ndeaths == sim->cdeaths) {
		uint32_t cap = sim->cdeaths ? 2 * sim->cdeaths : 16;
		struct radix_member *d = realloc(sim->deaths,
						 cap * sizeof(*d));

		if (!d) {
			sim->err = -ENOMEM;
			return;
		}
		sim->deaths = d;
		sim->cdeaths = cap;
	}
	sim->deaths[sim->ndeaths++] = (struct radix_member){ id, inc };
	for (uint32_t i = 0; i < sim->res->stats.nrounds; i++)
		sim->res->stats.rounds[i].quiet &=
			sim->res->stats.rounds[i].stable != 0;
	for (uint32_t q = 0; q < sim->cfg->cap; q++) {
		if (sim->last_arrival && q != id) {
			size_t p = pair(sim, id, q);
			uint64_t flying = sim->sent_seq[p] - sim->arrived_seq[p];

			sim->cut[p] = sim->arrived_seq[p] +
				      rnd(&sim->rng, (uint32_t)flying + 1);
		}
		if (sim->proc[q].node)
			push(sim, (struct ev){
				.time = sim->now + fd_delay(sim),
				.type = EV_NOTIFY, .to = q,
				.to_inc = sim->proc[q].inc, .from = id,
				.from_inc = inc });
	}
	if (pr->respawn_delay) {
		push(sim, (struct ev){ .time = sim->now + pr->respawn_delay,
				       .type = EV_SPAWN, .to = id });
		pr->respawn_delay = 0;
	}
}

/* ---- sinks ------------------------------------------------------------------ */

static void sink_send(void *ctx, uint32_t to, const struct radix_msg *msg)
{
	struct sim *sim = ctx;
	uint32_t p = sim->cur;
	struct proc *pr = &sim->proc[p];
	size_t len = radix_msg_size(msg);
	uint64_t at;

	if (!pr->node)
		return;
	if (to >= sim->cfg->cap) {
		violation(sim, "%u sends to id %u", p, to);
		return;
	}
	if (sim->arena_len + len > sim->arena_cap) {
		size_t cap = sim->arena_cap ? 2 * sim->arena_cap : 65536;
		uint8_t *a;

		while (cap < sim->arena_len + len)
			cap *= 2;
		a = realloc(sim->arena, cap);
		if (!a) {
			sim->err = -ENOMEM;
			return;
		}
		sim->arena = a;
		sim->arena_cap = cap;
	}
	if (!len || radix_msg_encode(msg, sim->arena + sim->arena_len,
				     len) != len) {
		violation(sim, "%u: %s does not encode", p,
			  radix_msg_type_name(msg->type));
		return;
	}
	sim->res->stats.messages++;
	sim->res->stats.bytes += len;
	sim->res->stats.by_type[msg->type]++;
	at = sim->now + sim->busy + delay(sim);
	if (msg->view || msg->term || msg->seq)
		trace(sim, "%u -> %u %s term=%" PRIx64 " seq=%" PRIu64
		      " floor=%" PRIu64 " chain=%" PRIu64 "..%" PRIu64
		      " arrives t=%" PRIu64, p, to,
		      radix_msg_type_name(msg->type), msg->term,
		      msg->view ? msg->view->seq : msg->seq, msg->floor,
		      msg->chain && msg->chain->n ? msg->chain->v[0].seq : 0,
		      msg->chain && msg->chain->n ?
		      msg->chain->v[msg->chain->n - 1].seq : 0, at);
	else
		trace(sim, "%u -> %u %s(%d.%u) arrives t=%" PRIu64, p, to,
		      radix_msg_type_name(msg->type), (int)msg->who.id,
		      msg->who.inc, at);
	if (!sim->proc[to].node) {
		push(sim, (struct ev){ .time = at + delay(sim),
				       .type = EV_BOUNCE, .to = p,
				       .to_inc = pr->inc, .from = to });
	} else {
		uint64_t pseq = 0;

		if (sim->last_arrival) {
			size_t pi = pair(sim, p, to);

			if (at < sim->last_arrival[pi])
				at = sim->last_arrival[pi];
			sim->last_arrival[pi] = at;
			pseq = ++sim->sent_seq[pi];
		}
		push(sim, (struct ev){
			.time = at, .type = EV_MSG, .to = to,
			.to_inc = sim->proc[to].inc, .from = p,
			.from_inc = pr->inc, .off = (uint32_t)sim->arena_len,
			.len = (uint32_t)len, .pseq = pseq });
		sim->arena_len += len;
	}
	if (++pr->sends == pr->crash_after)
		crash(sim, p);
}

static void sink_view(void *ctx, const struct radix_view *v)
{
	struct sim *sim = ctx;
	struct life *l = &sim->lives[sim->proc[sim->cur].life];
	struct vrec *r;

	if (!sim->proc[sim->cur].node)
		return;		/* it crashed in this very step */

	sim->res->stats.views++;
	trace(sim, "%u INSTALLS view %" PRIu64 " root %u, %u members",
	      sim->cur, v->seq, v->root, v->count);
	if (!sim->cfg->check)
		return;
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 8;
		struct vrec *p = realloc(l->v, cap * sizeof(*p));

		if (!p) {
			sim->err = -ENOMEM;
			return;
		}
		l->v = p;
		l->cap = cap;
	}
	r = &l->v[l->n++];
	memset(r, 0, sizeof(*r));
	r->seq = v->seq;
	r->root = v->root;
	for (uint32_t id = radix_view_next(v, 0); id != RADIX_NONE;
	     id = radix_view_next(v, id + 1)) {
		r->mask |= 1ull << id;
		r->inc[id] = radix_view_inc(v, id);
	}
	if (r->inc[l->id] != l->inc)
		violation(sim, "self inclusion: %u.%u installs view %" PRIu64
			  " without itself", l->id, l->inc, v->seq);
	if (l->n > 1 && r->seq != l->v[l->n - 2].seq + 1)
		violation(sim, "%u.%u installs view %" PRIu64 " after %"
			  PRIu64, l->id, l->inc, r->seq, l->v[l->n - 2].seq);
}

static void sink_round(void *ctx, const struct radix_msg *m, bool stable)
{
	struct sim *sim = ctx;
	struct rsim_stats *st = &sim->res->stats;
	int32_t open = sim->open_round[sim->cur];

	if (!sim->proc[sim->cur].node)
		return;
	if (stable) {
		if (open >= 0 && st->rounds[open].type == m->type) {
			st->rounds[open].stable = sim->now;
			trace(sim, "%u: %s stable after %" PRIu64, sim->cur,
			      radix_msg_type_name(m->type),
			      sim->now - st->rounds[open].issued);
		}
		sim->open_round[sim->cur] = -1;
		return;
	}
	sim->busy = sim->cfg->ocp;	/* the root recalculates first */
	if (st->nrounds == RSIM_MAX_ROUNDS) {
		sim->open_round[sim->cur] = -1;
		return;
	}
	{
		struct rsim_round *r = &st->rounds[st->nrounds];
		bool quiet = true;

		if (radix_view_copy(&sim->scratch, m->view)) {
			sim->err = -ENOMEM;
			return;
		}
		for (uint32_t i = 0; i < m->failed->n; i++)
			if (radix_view_inc(&sim->scratch, m->failed->v[i].id) ==
			    m->failed->v[i].inc)
				radix_view_del(&sim->scratch,
					       m->failed->v[i].id);
		for (uint32_t id = radix_view_next(&sim->scratch, 0);
		     id != RADIX_NONE && quiet;
		     id = radix_view_next(&sim->scratch, id + 1))
			quiet = sim->proc[id].node &&
				sim->proc[id].inc ==
				radix_view_inc(&sim->scratch, id);
		*r = (struct rsim_round){
			.type = m->type, .issued = sim->now,
			.height = radix_height(&sim->scratch,
					       sim->cfg->fanout),
			.nodes = sim->scratch.count, .quiet = quiet,
		};
		sim->open_round[sim->cur] = (int32_t)st->nrounds++;
	}
}

/* ---- steps ------------------------------------------------------------------ */

static void sink_init(struct sim *sim, struct radix_sink *out)
{
	*out = (struct radix_sink){ .send = sink_send, .view = sink_view,
				    .round = sink_round, .ctx = sim };
}

static int new_life(struct sim *sim, uint32_t id, uint32_t inc)
{
	struct life *l;

	if (sim->nlives == sim->clives) {
		uint32_t cap = sim->clives ? 2 * sim->clives : 64;
		struct life *p = realloc(sim->lives, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sim->lives = p;
		sim->clives = cap;
	}
	l = &sim->lives[sim->nlives];
	*l = (struct life){ .id = id, .inc = inc, .alive = true };
	sim->proc[id].life = sim->nlives++;
	return 0;
}

static void spawn(struct sim *sim, uint32_t id, const struct radix_sink *out)
{
	struct proc *pr = &sim->proc[id];
	const struct rsim_cfg *c = sim->cfg;
	struct radix_config rc = {
		.group = 0x7ad1000000000000ull | c->seed, .cap = c->cap,
		.fanout = c->fanout, .self = id, .inc = pr->inc + 1,
		.initial = c->initial, .join = true,
	};
	int err;

	if (pr->node)
		return;		/* still alive: nothing to restart */
	err = radix_create(&rc, &pr->node);
	if (!err)
		err = new_life(sim, id, rc.inc);
	if (err) {
		sim->err = err;
		return;
	}
	pr->inc = rc.inc;
	pr->sends = 0;
	pr->crash_after = 0;
	sim->res->stats.spawned++;
	trace(sim, "SPAWN %u.%u", id, pr->inc);
	/* The detector's dump: every death so far. */
	for (uint32_t i = 0; i < sim->ndeaths; i++)
		push(sim, (struct ev){ .time = sim->now + fd_delay(sim),
				       .type = EV_NOTIFY, .to = id,
				       .to_inc = pr->inc,
				       .from = sim->deaths[i].id,
				       .from_inc = sim->deaths[i].inc });
	sim->cur = id;
	err = radix_start(pr->node, out);
	if (err)
		sim->err = err;
}

static void deliver(struct sim *sim, const struct ev *ev,
		    const struct radix_sink *out)
{
	struct proc *to = &sim->proc[ev->to];
	struct proc *from = &sim->proc[ev->from];
	bool sender_dead = !from->node || from->inc != ev->from_inc;
	int err;

	if (sim->last_arrival)
		sim->arrived_seq[pair(sim, ev->from, ev->to)] = ev->pseq;
	if (!to->node || to->inc != ev->to_inc)
		return;
	if (sender_dead && (!sim->last_arrival ||
			    ev->pseq > sim->cut[pair(sim, ev->from, ev->to)])) {
		trace(sim, "lost with its sender: %u -> %u", ev->from, ev->to);
		return;
	}
	err = radix_msg_decode(sim->arena + ev->off, ev->len, &sim->inbox);
	if (err) {
		violation(sim, "message %u -> %u does not decode: %d",
			  ev->from, ev->to, err);
		return;
	}
	trace(sim, "%u <- %u %s", ev->to, ev->from,
	      radix_msg_type_name(sim->inbox.msg.type));
	if (radix_msg_is_round(sim->inbox.msg.type))
		sim->busy = sim->cfg->ocp;
	err = radix_on_message(to->node, &sim->inbox.msg, out);
	if (err)
		violation(sim, "%u: radix_on_message() = %d", ev->to, err);
}

static void step(struct sim *sim, const struct ev *ev,
		 const struct radix_sink *out)
{
	struct proc *pr = &sim->proc[ev->to];
	int err;

	sim->now = ev->time;
	sim->cur = ev->to;
	sim->busy = 0;
	switch (ev->type) {
	case EV_MSG:
		deliver(sim, ev, out);
		break;
	case EV_NOTIFY:
		if (!pr->node || pr->inc != ev->to_inc)
			break;
		trace(sim, "%u learns %u.%u is dead", ev->to, ev->from,
		      ev->from_inc);
		err = radix_on_failure(pr->node, ev->from, ev->from_inc, out);
		if (err)
			violation(sim, "%u: radix_on_failure() = %d", ev->to,
				  err);
		break;
	case EV_BOUNCE:
		if (pr->node && pr->inc == ev->to_inc)
			radix_on_unreachable(pr->node, ev->from, out);
		break;
	case EV_CRASH:
		if (pr->inc == 1)	/* plans aim at first processes */
			crash(sim, ev->to);
		break;
	case EV_CRASH_ROOT:
		for (uint32_t id = 0; id < sim->cfg->cap; id++)
			if (sim->proc[id].node &&
			    radix_is_root(sim->proc[id].node)) {
				crash(sim, id);
				break;
			}
		break;
	case EV_SPAWN:
		spawn(sim, ev->to, out);
		break;
	}
	while (sim->nzombies)
		radix_destroy(sim->zombie[--sim->nzombies]);
	if (sim->cfg->trace && sim->proc[ev->to].node) {
		struct radix_stats st;

		radix_get_stats(sim->proc[ev->to].node, &st);
		if (st.errors)
			trace(sim, "%u: protocol error: %s", ev->to,
			      st.last_error);
	}
}

/* ---- the checks at the end -------------------------------------------------- */

static bool vrec_eq(const struct vrec *a, const struct vrec *b)
{
	return a->seq == b->seq && a->root == b->root && a->mask == b->mask &&
	       !memcmp(a->inc, b->inc, sizeof(a->inc));
}

static void final_checks(struct sim *sim)
{
	const struct rsim_cfg *c = sim->cfg;
	struct vrec live = { 0 }, *table = NULL;
	uint64_t top = 0;
	uint32_t removed[RSIM_MAX_CHECKED] = { 0 };
	const struct life *first = NULL;

	for (uint32_t id = 0; id < c->cap; id++)
		if (sim->proc[id].node) {
			live.mask |= 1ull << id;
			live.inc[id] = sim->proc[id].inc;
		}
	for (uint32_t i = 0; i < sim->nlives; i++) {
		const struct life *l = &sim->lives[i];

		if (!l->alive)
			continue;
		if (!radix_in_group(sim->proc[l->id].node) || !l->n) {
			violation(sim, "termination: %u.%u never joins",
				  l->id, l->inc);
			return;
		}
		if (l->v[l->n - 1].seq + 1 > top)
			top = l->v[l->n - 1].seq + 1;
		if (!first)
			first = l;
	}
	if (!first) {
		violation(sim, "nobody survives");
		return;
	}
	table = calloc(top, sizeof(*table));
	if (!table) {
		sim->err = -ENOMEM;
		return;
	}
	for (uint64_t s = 0; s < top; s++)
		table[s].seq = UINT64_MAX;
	for (uint32_t i = 0; i < sim->nlives && sim->res->ok; i++) {
		const struct life *l = &sim->lives[i];
		const struct vrec *last;

		if (!l->alive)
			continue;
		last = &l->v[l->n - 1];
		if (last->seq + 1 != top || last->mask != live.mask ||
		    memcmp(last->inc, live.inc, sizeof(live.inc)))
			violation(sim, "termination: %u.%u ends in view %"
				  PRIu64 " (%016" PRIx64 "), the live "
				  "processes are %016" PRIx64 " (last seq %"
				  PRIu64 ")", l->id, l->inc, last->seq,
				  last->mask, live.mask, top - 1);
		for (uint32_t k = 0; k < l->n; k++) {
			const struct vrec *r = &l->v[k];

			if (table[r->seq].seq == UINT64_MAX)
				table[r->seq] = *r;
			else if (!vrec_eq(&table[r->seq], r))
				violation(sim, "agreement: view %" PRIu64
					  " differs at %u.%u (%016" PRIx64
					  " root %u) and another survivor "
					  "(%016" PRIx64 " root %u)", r->seq,
					  l->id, l->inc, r->mask, r->root,
					  table[r->seq].mask,
					  table[r->seq].root);
		}
	}
	/* No process comes back into a view after leaving one. */
	for (uint64_t s = 1; s < top && sim->res->ok; s++) {
		const struct vrec *a = &table[s - 1], *b = &table[s];

		if (a->seq == UINT64_MAX || b->seq == UINT64_MAX)
			continue;
		for (uint32_t id = 0; id < c->cap; id++) {
			if (a->inc[id] && a->inc[id] != b->inc[id] &&
			    a->inc[id] > removed[id])
				removed[id] = a->inc[id];
			if (b->inc[id] && b->inc[id] <= removed[id])
				violation(sim, "view %" PRIu64 " holds %u.%u, "
					  "removed earlier", s, id,
					  b->inc[id]);
		}
	}
	for (uint32_t i = 0; i < sim->nlives; i++) {
		const struct life *l = &sim->lives[i];

		if (l->alive)
			continue;
		for (uint32_t k = 0; k < l->n; k++)
			if (l->v[k].seq < top &&
			    table[l->v[k].seq].seq != UINT64_MAX &&
			    !vrec_eq(&table[l->v[k].seq], &l->v[k]))
				sim->res->stats.nonuniform++;
	}
	free(table);
	/* Stabilization within the model's bound. */
	for (uint32_t i = 0; i < sim->res->stats.nrounds; i++) {
		const struct rsim_round *r = &sim->res->stats.rounds[i];
		uint64_t bound = (uint64_t)c->ocp * r->height +
				 2ull * (r->height - 1) * c->delay_max;

		if (r->quiet && r->stable && r->stable - r->issued > bound)
			violation(sim, "stabilization: a quiet %s round of "
				  "height %u took %" PRIu64 " > %" PRIu64,
				  radix_msg_type_name(r->type), r->height,
				  r->stable - r->issued, bound);
	}
}

/* ---- the run ---------------------------------------------------------------- */

int rsim_run(const struct rsim_cfg *c, struct rsim_result *res)
{
	struct sim *sim;
	struct radix_sink out;
	struct ev ev;
	int err = 0;

	memset(res, 0, sizeof(*res));
	res->ok = true;
	if (!c->initial || c->initial > c->cap || !c->delay_min ||
	    c->delay_min > c->delay_max || c->fd_min > c->fd_max ||
	    !radix_fanout_ok(c->fanout) || c->nplans > RSIM_MAX_PLANS ||
	    (c->check && c->cap > RSIM_MAX_CHECKED) ||
	    (c->cap > PAIR_MAX && c->delay_min != c->delay_max))
		return -EINVAL;
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return -ENOMEM;
	evheap_init(&sim->heap, sizeof(struct ev));
	sim->cfg = c;
	sim->res = res;
	sim->rng = c->seed ^ 0x7ad17ad17ad17ad1ull;
	sink_init(sim, &out);
	sim->proc = calloc(c->cap, sizeof(*sim->proc));
	sim->open_round = malloc(c->cap * sizeof(*sim->open_round));
	if (!sim->proc || !sim->open_round ||
	    radix_inbox_init(&sim->inbox, c->cap) ||
	    radix_view_init(&sim->scratch, c->cap)) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t id = 0; id < c->cap; id++)
		sim->open_round[id] = -1;
	if (c->cap <= PAIR_MAX) {
		size_t n = (size_t)c->cap * c->cap;

		sim->last_arrival = calloc(n, sizeof(uint64_t));
		sim->sent_seq = calloc(n, sizeof(uint64_t));
		sim->arrived_seq = calloc(n, sizeof(uint64_t));
		sim->cut = calloc(n, sizeof(uint64_t));
		if (!sim->last_arrival || !sim->sent_seq ||
		    !sim->arrived_seq || !sim->cut) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (uint32_t id = 0; id < c->initial; id++) {
		struct radix_config rc = {
			.group = 0x7ad1000000000000ull | c->seed,
			.cap = c->cap, .fanout = c->fanout, .self = id,
			.inc = 1, .initial = c->initial,
		};

		err = radix_create(&rc, &sim->proc[id].node);
		if (!err)
			err = new_life(sim, id, 1);
		if (err)
			goto out;
		sim->proc[id].inc = 1;
	}
	for (uint32_t i = 0; i < c->nplans; i++) {
		const struct rsim_plan *p = &c->plans[i];

		if (p->id >= c->cap) {
			err = -EINVAL;
			goto out;
		}
		switch (p->kind) {
		case RSIM_CRASH_AT:
			push(sim, (struct ev){ .time = p->arg,
					       .type = EV_CRASH, .to = p->id });
			break;
		case RSIM_CRASH_AFTER_SENDS:
			sim->proc[p->id].crash_after = p->arg;
			break;
		case RSIM_CRASH_ROOT_AT:
			push(sim, (struct ev){ .time = p->arg,
					       .type = EV_CRASH_ROOT });
			break;
		case RSIM_SPAWN_AT:
			push(sim, (struct ev){ .time = p->arg,
					       .type = EV_SPAWN, .to = p->id });
			break;
		case RSIM_RESPAWN:
			sim->proc[p->id].respawn_delay = p->arg ? p->arg : 1;
			break;
		}
	}
	/* No message at initialization: every member installs view 0. */
	for (uint32_t id = 0; id < c->initial && !sim->err; id++) {
		sim->cur = id;
		err = radix_start(sim->proc[id].node, &out);
		if (err)
			goto out;
	}
	if (res->stats.messages)
		violation(sim, "%" PRIu64 " messages at initialization",
			  res->stats.messages);
	while (!sim->err && evheap_pop(&sim->heap, &ev)) {
		if (++res->stats.events > c->max_events) {
			violation(sim, "livelock: more than %" PRIu64
				  " events", c->max_events);
			break;
		}
		step(sim, &ev, &out);
	}
	res->stats.end = sim->now;
	err = sim->err;
	for (uint32_t id = 0; id < c->cap; id++) {
		struct radix_stats st;

		if (!sim->proc[id].node)
			continue;
		radix_get_stats(sim->proc[id].node, &st);
		add_stats(&res->stats, &st);
		if (st.errors)
			violation(sim, "%u: %" PRIu64 " protocol errors: %s",
				  id, st.errors, st.last_error);
	}
	if (!err && res->ok && c->check)
		final_checks(sim);
out:
	for (uint32_t id = 0; sim->proc && id < c->cap; id++)
		radix_destroy(sim->proc[id].node);
	for (uint32_t i = 0; i < sim->nlives; i++)
		free(sim->lives[i].v);
	free(sim->lives);
	free(sim->deaths);
	free(sim->proc);
	free(sim->open_round);
	free(sim->last_arrival);
	free(sim->sent_seq);
	free(sim->arrived_seq);
	free(sim->cut);
	radix_inbox_free(&sim->inbox);
	radix_view_free(&sim->scratch);
	evheap_free(&sim->heap);
	free(sim->arena);
	free(sim);
	return err;
}

/* ---- schedules -------------------------------------------------------------- */

void rsim_describe(const struct rsim_cfg *c, char *buf, size_t len)
{
	static const char *const kinds[] = { "t", "sends", "root@t", "spawn@t",
					     "respawn+" };
	int off = snprintf(buf, len, "n=%u cap=%u a=%u delay=%u..%u ocp=%u "
			   "fd=%u..%u", c->initial, c->cap, c->fanout,
			   c->delay_min, c->delay_max, c->ocp, c->fd_min,
			   c->fd_max);

	for (uint32_t i = 0; i < c->nplans && off > 0 && (size_t)off < len;
	     i++)
		off += snprintf(buf + off, len - off, "%s%u:%s%" PRIu64,
				i ? "," : " ", c->plans[i].id,
				kinds[c->plans[i].kind], c->plans[i].arg);
}

static void add_plan(struct rsim_cfg *c, uint8_t kind, uint32_t id,
		     uint64_t arg)
{
	if (c->nplans < RSIM_MAX_PLANS)
		c->plans[c->nplans++] = (struct rsim_plan){ kind, id, arg };
}

void rsim_random_cfg(struct rsim_cfg *c, uint64_t seed)
{
	uint64_t rng = seed, horizon;
	uint32_t u, f, spares, n, victims[RSIM_MAX_CHECKED], k = 0;
	uint64_t chosen = 0;
	bool together;

	memset(c, 0, sizeof(*c));
	c->seed = seed;
	u = rnd(&rng, 100);
	n = u < 50 ? rnd_in(&rng, 1, 12) : u < 85 ? rnd_in(&rng, 13, 32) :
	    rnd_in(&rng, 33, 56);
	spares = rnd(&rng, 3) ? rnd_in(&rng, 0, 8) : 0;
	if (n + spares > RSIM_MAX_CHECKED)
		spares = RSIM_MAX_CHECKED - n;
	c->initial = n;
	c->cap = n + spares;
	c->fanout = 1u << rnd_in(&rng, 1, 4);
	c->delay_min = 1;
	c->delay_max = rnd_in(&rng, 1, 20);
	c->ocp = rnd_in(&rng, 0, 3);
	c->fd_min = rnd_in(&rng, 1, 10);
	c->fd_max = c->fd_min + rnd(&rng, rnd(&rng, 4) ? 60 : 400);
	c->max_events = 2000000;
	c->check = true;
	c->survivor = rnd(&rng, n);
	horizon = (uint64_t)(2 * radix_model_height(n, c->fanout) + 2) *
		  (c->delay_max + c->ocp) * 3 + c->fd_max;

	/* Victims among the first processes, never the survivor. */
	u = rnd(&rng, 100);
	f = u < 12 ? 0 : u < 40 ? 1 : u < 65 ? rnd_in(&rng, 2, 3) :
	    rnd_in(&rng, 1, n > 1 ? n - 1 : 1);
	if (f > n - 1)
		f = n - 1;
	u = rnd(&rng, 4);
	if (u == 1) {			/* the successive roots */
		for (uint32_t id = 0; k < f && id < n; id++)
			if (id != c->survivor)
				victims[k++] = id;
	} else if (u == 2) {		/* a whole subtree */
		uint32_t top = rnd(&rng, n), stack[RSIM_MAX_CHECKED], sp = 0;

		stack[sp++] = top;
		while (sp && k < f) {
			uint32_t id = stack[--sp];

			if (id != c->survivor)
				victims[k++] = id;
			for (uint64_t ch = (uint64_t)id * c->fanout + 1;
			     ch <= (uint64_t)id * c->fanout + c->fanout &&
			     ch < n; ch++)
				stack[sp++] = (uint32_t)ch;
		}
	} else if (u == 3 && c->survivor && f) {	/* the root first */
		victims[k++] = 0;
	}
	for (uint32_t i = 0; i < k; i++)
		chosen |= 1ull << victims[i];
	while (k < f) {
		uint32_t id = rnd(&rng, n);

		if (id != c->survivor && !((chosen >> id) & 1)) {
			chosen |= 1ull << id;
			victims[k++] = id;
		}
	}
	together = !rnd(&rng, 4);
	for (uint32_t i = 0; i < k; i++) {
		uint64_t at = together && i ? c->plans[0].arg :
			      rnd(&rng, (uint32_t)horizon);

		if (!together && rnd(&rng, 3) == 0)
			add_plan(c, RSIM_CRASH_AFTER_SENDS, victims[i],
				 rnd_in(&rng, 1, 12));
		else if (together && i && c->plans[0].kind ==
			 RSIM_CRASH_AFTER_SENDS)
			add_plan(c, RSIM_CRASH_AFTER_SENDS, victims[i],
				 c->plans[0].arg);
		else
			add_plan(c, RSIM_CRASH_AT, victims[i], at);
		/* A restarted process rejoins under its id (NODE_ALIVE). */
		if (!rnd(&rng, 3))
			add_plan(c, RSIM_RESPAWN, victims[i],
				 rnd_in(&rng, 1, (uint32_t)horizon));
	}
	/* Whoever is root then fails: the successive roots, in flight. */
	for (uint32_t i = rnd(&rng, 4) ? 0 : rnd_in(&rng, 1, 3); i; i--)
		add_plan(c, RSIM_CRASH_ROOT_AT, 0, rnd(&rng,
						       (uint32_t)horizon));
	/* Spares join (NEW_NODE), concurrently with the failures. */
	for (uint32_t id = n; id < c->cap; id++)
		if (rnd(&rng, 4))
			add_plan(c, RSIM_SPAWN_AT, id,
				 rnd(&rng, (uint32_t)horizon));
}
