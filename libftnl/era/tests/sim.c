// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ERA simulator: events in a time-ordered heap, messages through the
 * real wire format, the real engine in every process, and the checks of
 * the paper's section 2.1 on every decision and every message served:
 *
 * Termination	 "Every living process eventually decides": when the run
 *		 ends (no event left), every process that did not crash has
 *		 decided every agreement.
 * Irrevocability "Once a living process decides a value, it remains
 *		 decided on that value": a process decides an agreement at
 *		 most once, every DOWN it sends afterwards (the decision
 *		 served after early return) carries that value, it never
 *		 contributes again, and era_result() still gives it at the end.
 * Agreement	 "No two living processes decide differently", in Theorem
 *		 2's form: if p decided v1 and q decides v2 later while p is
 *		 alive, v1 = v2. A process that decided and then crashed may
 *		 differ (footnote 1: the agreement is non-uniform); such
 *		 decisions are counted, not failed.
 * Participation "When a process decides upon a value, it contributed to
 *		 the decided value", with "p has contributed to v' if for the
 *		 value v proposed by p, F(v', v) = v'": checked for the decider
 *		 at once, and at the end for every survivor in every survivor's
 *		 decision.
 *
 * and two more on the ULFM value: the decided flag combines only values
 * that were proposed (process p proposes flag ~(1 << p), so the flag names
 * its contributors), and every rank in the decided failed set crashed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tree.h"
#include "../ulfm.h"
#include "evheap.h"
#include "sim.h"

#define SIM_VALUE_WORDS ERA_ULFM_VALUE_WORDS(SIM_MAX_N)

/* ---- deterministic randomness ------------------------------------------ */

static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint64_t *state, uint32_t bound)	/* [0, bound) */
{
	return bound ? (uint32_t)(splitmix(state) % bound) : 0;
}

static uint32_t rnd_in(uint64_t *state, uint32_t lo, uint32_t hi)
{
	return lo + rnd(state, hi - lo + 1);
}

/* ---- events ------------------------------------------------------------ */

enum ev_type { EV_MSG, EV_NOTIFY, EV_CRASH, EV_START };

struct ev {
	uint64_t time;
	uint64_t seq;
	uint8_t type;
	uint32_t to;		/* the process the event happens at */
	uint32_t from;		/* EV_MSG: sender; EV_NOTIFY: the dead */
	uint32_t off, len;	/* EV_MSG: bytes in the arena */
	uint64_t pseq;		/* EV_MSG: position on its channel */
};

EVHEAP_CHECK(struct ev);

/* ---- the simulated system ------------------------------------------------ */

struct proc {
	struct era_group *g;
	bool crashed;
	uint64_t sends;
	uint64_t crash_after_sends;	/* 0: none */
	uint64_t crash_after_decide;	/* 0: none */
	uint64_t crash_forwarding;	/* 0: none; see SIM_CRASH_FORWARDING */
	uint32_t downs[SIM_MAX_K + 1];	/* DOWNs sent, per agreement */
	uint64_t next_start;
	bool start_pending;
	uint64_t known_dead;		/* detector reports received */
	bool started[SIM_MAX_K + 1];
	uint64_t started_at[SIM_MAX_K + 1];
	bool decided[SIM_MAX_K + 1];
	bool gc_known[SIM_MAX_K + 1];	/* seen in a DOWN it served */
	uint64_t decided_gc[SIM_MAX_K + 1];
	uint64_t decided_at[SIM_MAX_K + 1];
	uint64_t proposal[SIM_MAX_K + 1][SIM_VALUE_WORDS];	/* ULFM */
	uint64_t result[SIM_MAX_K + 1][SIM_VALUE_WORDS];
};

struct sim {
	const struct sim_cfg *cfg;
	struct sim_result *res;
	uint64_t rng;
	uint64_t now;
	struct evheap heap;
	uint8_t *arena;
	size_t arena_len, arena_cap;
	struct era_ulfm ulfm;
	struct proc proc[SIM_MAX_N];
	uint32_t current;		/* the process running an event */
	uint64_t crashed_mask;
	/* channels from -> to */
	uint64_t last_arrival[SIM_MAX_N][SIM_MAX_N];
	uint64_t sent_seq[SIM_MAX_N][SIM_MAX_N];
	uint64_t arrived_seq[SIM_MAX_N][SIM_MAX_N];
	uint64_t cut[SIM_MAX_N][SIM_MAX_N];	/* after a crash: last kept */
	int err;			/* -ENOMEM during the run */
};

static void __attribute__((format(printf, 2, 3)))
violation(struct sim *sim, const char *fmt, ...)
{
	va_list ap;

	if (!sim->res->ok)
		return;		/* keep the first one */
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

static bool value_eq(const struct sim *sim, const void *a, const void *b)
{
	return !memcmp(a, b, sim->ulfm.op.value_size);
}

static uint64_t fd_delay(struct sim *sim)
{
	const struct sim_cfg *c = sim->cfg;
	uint64_t d = rnd_in(&sim->rng, c->fd_min, c->fd_max);

	if (c->fd_slow_pct && rnd(&sim->rng, 100) < c->fd_slow_pct)
		d *= rnd_in(&sim->rng, 2, 10);
	return d;
}

static void crash(struct sim *sim, uint32_t p)
{
	struct proc *pr = &sim->proc[p];

	if (pr->crashed)
		return;
	pr->crashed = true;
	sim->crashed_mask |= 1ull << p;
	sim->res->stats.crashed++;
	trace(sim, "CRASH %u", p);
	for (uint32_t q = 0; q < sim->cfg->n; q++) {
		if (q == p)
			continue;
		/* FIFO: a suffix of the channel dies with the sender. */
		sim->cut[p][q] = sim->arrived_seq[p][q] +
			rnd(&sim->rng, (uint32_t)(sim->sent_seq[p][q] -
					 sim->arrived_seq[p][q] + 1));
		if (!sim->proc[q].crashed)
			push(sim, (struct ev){
				.time = sim->now + fd_delay(sim),
				.type = EV_NOTIFY, .to = q, .from = p,
			});
	}
}

static uint64_t msg_delay(struct sim *sim)
{
	const struct sim_cfg *c = sim->cfg;

	if (c->slow_pct && rnd(&sim->rng, 100) < c->slow_pct)
		return rnd_in(&sim->rng, c->delay_min, c->slow_max);
	return rnd_in(&sim->rng, c->delay_min, c->delay_max);
}

static void sink_send(void *ctx, uint32_t to, const struct era_msg *msg)
{
	struct sim *sim = ctx;
	uint32_t p = sim->current;
	struct proc *pr = &sim->proc[p];
	size_t len;
	uint64_t at;

	if (pr->crashed)
		return;		/* it died earlier in this very step */
	if (to >= sim->cfg->n || to == p || !msg->id ||
	    msg->id > sim->cfg->agreements) {
		violation(sim, "%u sends %s to %u for agreement %" PRIu64, p,
			  era_msg_type_name(msg->type), to, msg->id);
		return;
	}
	if (msg->type == ERA_MSG_DOWN) {
		if (!pr->decided[msg->id] ||
		    !value_eq(sim, msg->value, pr->result[msg->id]) ||
		    (pr->gc_known[msg->id] &&
		     msg->gc != pr->decided_gc[msg->id]))
			violation(sim, "irrevocability: %u serves agreement %"
				  PRIu64 " with a value it did not decide", p,
				  msg->id);
		/* The agreed gc range is part of the decided value too. */
		for (uint32_t q = 0; q < sim->cfg->n && !pr->gc_known[msg->id];
		     q++)
			if (sim->proc[q].gc_known[msg->id] &&
			    !sim->proc[q].crashed &&
			    sim->proc[q].decided_gc[msg->id] != msg->gc)
				violation(sim, "agreement: %u and %u agreed on "
					  "different gc ranges for %" PRIu64,
					  p, q, msg->id);
		pr->gc_known[msg->id] = true;
		pr->decided_gc[msg->id] = msg->gc;
	}
	if (msg->type == ERA_MSG_UP &&
	    (!pr->started[msg->id] || pr->decided[msg->id]))
		violation(sim, "%u contributes to agreement %" PRIu64
			  " %s", p, msg->id, pr->decided[msg->id] ?
			  "after deciding it" : "before starting it");

	len = era_msg_size(&sim->ulfm.op, msg);
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
	if (era_msg_encode(&sim->ulfm.op, msg, sim->arena + sim->arena_len,
			   len) != len) {
		violation(sim, "%u: message does not encode", p);
		return;
	}
	at = sim->now + msg_delay(sim);
	if (sim->cfg->fifo && at < sim->last_arrival[p][to])
		at = sim->last_arrival[p][to];	/* the heap keeps ties FIFO */
	sim->last_arrival[p][to] = at;
	push(sim, (struct ev){
		.time = at, .type = EV_MSG, .to = to, .from = p,
		.off = (uint32_t)sim->arena_len, .len = (uint32_t)len,
		.pseq = ++sim->sent_seq[p][to],
	});
	sim->arena_len += len;
	sim->res->stats.messages++;
	sim->res->stats.by_type[msg->type]++;
	sim->res->stats.msgs[msg->id]++;
	trace(sim, "%u -> %u %s(%" PRIu64 ") arrives t=%" PRIu64, p, to,
	      era_msg_type_name(msg->type), msg->id, at);
	if (++pr->sends == pr->crash_after_sends)
		crash(sim, p);
	if (msg->type == ERA_MSG_DOWN && pr->crash_forwarding &&
	    (uint32_t)pr->crash_forwarding == msg->id &&
	    ++pr->downs[msg->id] == pr->crash_forwarding >> 32)
		crash(sim, p);
}

static void schedule_start(struct sim *sim, uint32_t p, uint64_t delay)
{
	struct proc *pr = &sim->proc[p];

	if (pr->start_pending || pr->crashed ||
	    pr->next_start > sim->cfg->agreements)
		return;
	pr->start_pending = true;
	push(sim, (struct ev){ .time = sim->now + delay, .type = EV_START,
			       .to = p });
}

/* The window: agreement id may start once id - window has returned. */
static bool may_start(const struct sim *sim, const struct proc *pr)
{
	uint64_t id = pr->next_start;

	return id <= sim->cfg->agreements &&
	       (id <= sim->cfg->window || pr->decided[id - sim->cfg->window]);
}

static void check_decision(struct sim *sim, uint32_t p, uint64_t id,
			   const void *value)
{
	const struct era_op *op = &sim->ulfm.op;
	uint64_t tmp[SIM_VALUE_WORDS], flag = era_ulfm_flag(value);
	uint32_t n = sim->cfg->n;

	/* Participation: F(v', v_p) = v'. */
	memcpy(tmp, value, op->value_size);
	op->combine(op, tmp, sim->proc[p].proposal[id]);
	if (!value_eq(sim, tmp, value))
		violation(sim, "participation: %u decided agreement %" PRIu64
			  " without its own contribution", p, id);
	/* Only proposed values were combined. */
	for (uint32_t r = 0; r < 64; r++) {
		bool cleared = !((flag >> r) & 1);

		if (cleared && (r >= n || !sim->proc[r].started[id]))
			violation(sim, "validity: agreement %" PRIu64
				  " decided by %u holds a contribution of %u,"
				  " which never proposed", id, p, r);
	}
	/* The failed and acknowledged sets name only crashed processes. */
	for (uint32_t r = 0; r < n; r++) {
		if (era_ulfm_failed(&sim->ulfm, value, r) &&
		    !((sim->crashed_mask >> r) & 1))
			violation(sim, "agreement %" PRIu64 " decided by %u "
				  "lists %u as failed, but it is alive", id,
				  p, r);
		if (era_ulfm_acked(&sim->ulfm, value, r) &&
		    !((sim->crashed_mask >> r) & 1))
			violation(sim, "agreement %" PRIu64 " decided by %u "
				  "lists %u as acknowledged, but it is alive",
				  id, p, r);
	}
	/* Agreement (Theorem 2). */
	for (uint32_t q = 0; q < n; q++) {
		const struct proc *qr = &sim->proc[q];

		if (q == p || !qr->decided[id])
			continue;
		if (value_eq(sim, qr->result[id], value))
			continue;
		if (!qr->crashed)
			violation(sim, "agreement: %u decided agreement %"
				  PRIu64 " differently from %u, alive", p,
				  id, q);
		else
			sim->res->stats.nonuniform++;
	}
}

static void sink_decided(void *ctx, uint64_t id, const void *value)
{
	struct sim *sim = ctx;
	uint32_t p = sim->current;
	struct proc *pr = &sim->proc[p];

	if (pr->crashed)
		return;
	if (!id || id > sim->cfg->agreements) {
		violation(sim, "%u decides unknown agreement %" PRIu64, p, id);
		return;
	}
	if (pr->decided[id]) {
		violation(sim, "irrevocability: %u decides agreement %" PRIu64
			  " twice", p, id);
		return;
	}
	if (!pr->started[id])
		violation(sim, "%u decides agreement %" PRIu64
			  " before starting it", p, id);
	pr->decided[id] = true;
	pr->decided_at[id] = sim->now;
	memcpy(pr->result[id], value, sim->ulfm.op.value_size);
	sim->res->stats.decisions++;
	trace(sim, "%u DECIDES %" PRIu64 " flag=%016" PRIx64 " failed=%u", p,
	      id, era_ulfm_flag(value), era_ulfm_failed_count(&sim->ulfm,
							       value));
	check_decision(sim, p, id, value);
	if (sim->now > sim->res->stats.last_decide[id])
		sim->res->stats.last_decide[id] = sim->now;
	sim->res->stats.agreed_failed[id] =
		era_ulfm_failed_count(&sim->ulfm, value);
	if (may_start(sim, pr))
		schedule_start(sim, p, rnd_in(&sim->rng, 0,
					      sim->cfg->start_jitter));
	if (pr->crash_after_decide == id)
		crash(sim, p);
}

static void do_start(struct sim *sim, uint32_t p, const struct era_sink *out)
{
	struct proc *pr = &sim->proc[p];
	uint64_t id = pr->next_start;
	int err;

	pr->start_pending = false;
	if (pr->crashed || !may_start(sim, pr))
		return;
	era_ulfm_value_init(&sim->ulfm, pr->proposal[id], ~(1ull << p));
	for (uint32_t r = 0; r < sim->cfg->n; r++)
		if ((pr->known_dead >> r) & 1) {	/* acknowledged */
			era_ulfm_set_failed(&sim->ulfm, pr->proposal[id], r);
			era_ulfm_set_acked(&sim->ulfm, pr->proposal[id], r);
		}
	pr->started[id] = true;
	pr->started_at[id] = sim->now;
	pr->next_start++;
	if (sim->now < sim->res->stats.first_start[id])
		sim->res->stats.first_start[id] = sim->now;
	trace(sim, "%u STARTS %" PRIu64, p, id);
	err = era_start(pr->g, id, pr->proposal[id], out);
	if (err)
		violation(sim, "%u: era_start(%" PRIu64 ") = %d", p, id, err);
	if (may_start(sim, pr))
		schedule_start(sim, p, rnd_in(&sim->rng, 0,
					      sim->cfg->start_jitter));
}

static void deliver(struct sim *sim, const struct ev *ev,
		    const struct era_sink *out)
{
	struct proc *to = &sim->proc[ev->to];
	uint64_t value[SIM_VALUE_WORDS];
	struct era_msg msg;
	int err;

	sim->arrived_seq[ev->from][ev->to] = ev->pseq;
	if (to->crashed)
		return;
	if (sim->proc[ev->from].crashed &&
	    (sim->cfg->fifo ? ev->pseq > sim->cut[ev->from][ev->to] :
			      rnd(&sim->rng, 2))) {
		trace(sim, "lost with its sender: %u -> %u", ev->from, ev->to);
		return;
	}
	err = era_msg_decode(&sim->ulfm.op, sim->arena + ev->off, ev->len,
			     &msg, value);
	if (err) {
		violation(sim, "message %u -> %u does not decode: %d",
			  ev->from, ev->to, err);
		return;
	}
	trace(sim, "%u <- %u %s(%" PRIu64 ")", ev->to, ev->from,
	      era_msg_type_name(msg.type), msg.id);
	err = era_on_message(to->g, ev->from, &msg, out);
	if (err)
		violation(sim, "%u: era_on_message() = %d", ev->to, err);
}

static void step(struct sim *sim, const struct ev *ev,
		 const struct era_sink *out)
{
	struct proc *pr = &sim->proc[ev->to];
	int err;

	sim->now = ev->time;
	sim->current = ev->to;
	switch (ev->type) {
	case EV_MSG:
		deliver(sim, ev, out);
		break;
	case EV_NOTIFY:
		if (pr->crashed)
			break;
		trace(sim, "%u learns %u is dead", ev->to, ev->from);
		pr->known_dead |= 1ull << ev->from;
		err = era_on_failure(pr->g, ev->from, out);
		if (err)
			violation(sim, "%u: era_on_failure() = %d", ev->to,
				  err);
		break;
	case EV_CRASH:
		crash(sim, ev->to);
		break;
	case EV_START:
		do_start(sim, ev->to, out);
		break;
	}
}

static void add_stats(struct era_stats *sum, const struct era_stats *st)
{
	for (int t = 0; t < 4; t++) {
		sum->sent[t] += st->sent[t];
		sum->received[t] += st->received[t];
	}
	sum->from_dead += st->from_dead;
	sum->stale += st->stale;
	sum->down_ignored += st->down_ignored;
	sum->inferred_dead += st->inferred_dead;
	sum->collected += st->collected;
	sum->errors += st->errors;
}

static void final_checks(struct sim *sim)
{
	const struct sim_cfg *c = sim->cfg;
	const struct era_op *op = &sim->ulfm.op;

	for (uint32_t p = 0; p < c->n; p++) {
		struct proc *pr = &sim->proc[p];
		struct era_stats st;

		era_get_stats(pr->g, &st);
		add_stats(&sim->res->stats.engine, &st);
		if (st.errors)
			violation(sim, "%u: %" PRIu64 " engine errors", p,
				  st.errors);
		if (pr->crashed)
			continue;
		for (uint64_t a = 1; a <= c->agreements; a++) {
			uint64_t v[SIM_VALUE_WORDS];
			int r;

			if (!pr->decided[a]) {
				violation(sim, "termination: %u never "
					  "decides agreement %" PRIu64, p, a);
				continue;
			}
			if (pr->decided_at[a] - pr->started_at[a] >
			    sim->res->stats.latency[a])
				sim->res->stats.latency[a] =
					pr->decided_at[a] - pr->started_at[a];
			r = era_result(pr->g, a, v);
			if (r == 0 || (r == 1 && !value_eq(sim, v,
							pr->result[a])))
				violation(sim, "irrevocability: %u holds a "
					  "different result for %" PRIu64,
					  p, a);
			/* Every survivor contributed to this decision. */
			for (uint32_t q = 0; q < c->n; q++) {
				uint64_t tmp[SIM_VALUE_WORDS];

				if (sim->proc[q].crashed)
					continue;
				memcpy(tmp, pr->result[a], op->value_size);
				op->combine(op, tmp, sim->proc[q].proposal[a]);
				if (!value_eq(sim, tmp, pr->result[a]))
					violation(sim, "participation: %u "
						  "survived but is not in "
						  "%u's decision of %" PRIu64,
						  q, p, a);
			}
		}
	}
}

int sim_run(const struct sim_cfg *c, struct sim_result *res)
{
	struct sim *sim;
	struct era_sink out;
	struct ev ev;
	int err = 0;

	memset(res, 0, sizeof(*res));
	res->ok = true;
	for (uint32_t a = 0; a <= SIM_MAX_K; a++)
		res->stats.first_start[a] = UINT64_MAX;
	if (c->n < 1 || c->n > SIM_MAX_N || c->agreements < 1 ||
	    c->agreements > SIM_MAX_K || c->ncrashes >= c->n ||
	    !c->window || c->fd_min > c->fd_max || !c->delay_min ||
	    c->delay_min > c->delay_max)
		return -EINVAL;
	sim = calloc(1, sizeof(*sim));
	if (!sim)
		return -ENOMEM;
	evheap_init(&sim->heap, sizeof(struct ev));
	sim->cfg = c;
	sim->res = res;
	sim->rng = c->seed ^ 0x5eed5eed5eed5eedull;
	era_ulfm_init(&sim->ulfm, c->n);
	out = (struct era_sink){
		.send = sink_send, .decided = sink_decided, .ctx = sim,
	};

	for (uint32_t p = 0; p < c->n; p++) {
		struct era_config ec = {
			.group = 0xe7a0000000000000ull | c->seed,
			.nranks = c->n,
			.self = p,
			.op = &sim->ulfm.op,
			.topo = c->topo,
			.inter = c->inter,
			.intra = c->intra,
			.host_of = c->topo == ERA_TOPO_HIER ? c->host_of : NULL,
			.window = c->window,
			.rebalance = c->rebalance,
			.quirks = c->quirks,
		};

		err = era_group_create(&ec, &sim->proc[p].g);
		if (err)
			goto out;
		sim->proc[p].next_start = 1;
	}
	for (uint32_t i = 0; i < c->ncrashes; i++) {
		const struct sim_crash *k = &c->crashes[i];
		struct proc *pr = &sim->proc[k->rank];

		if (k->kind == SIM_CRASH_AT_TIME)
			push(sim, (struct ev){ .time = k->arg,
					       .type = EV_CRASH,
					       .to = k->rank });
		else if (k->kind == SIM_CRASH_AFTER_SENDS)
			pr->crash_after_sends = k->arg;
		else if (k->kind == SIM_CRASH_AFTER_DECIDE)
			pr->crash_after_decide = k->arg;
		else
			pr->crash_forwarding = k->arg;
	}

	/* After the crashes: one planned at time 0 precedes any start. */
	for (uint32_t p = 0; p < c->n; p++)
		schedule_start(sim, p, rnd_in(&sim->rng, 0, c->start_jitter));

	while (!sim->err && evheap_pop(&sim->heap, &ev)) {
		if (++res->stats.events > c->max_events) {
			violation(sim, "livelock: more than %" PRIu64
				  " events", c->max_events);
			break;
		}
		step(sim, &ev, &out);
	}
	err = sim->err;
	if (!err && res->ok)
		final_checks(sim);
out:
	for (uint32_t p = 0; p < c->n; p++)
		era_group_destroy(sim->proc[p].g);
	evheap_free(&sim->heap);
	free(sim->arena);
	free(sim);
	return err;
}

/* ---- schedules --------------------------------------------------------- */

static const char *topo_name(enum era_topology t)
{
	static const char *const names[] = { "bin", "star", "string", "hier" };

	return t <= ERA_TOPO_HIER ? names[t] : "?";
}

void sim_describe(const struct sim_cfg *c, char *buf, size_t len)
{
	int off;

	if (c->topo == ERA_TOPO_HIER)
		off = snprintf(buf, len, "n=%u K=%u W=%u %s/%s", c->n,
			       c->agreements, c->window, topo_name(c->inter),
			       topo_name(c->intra));
	else
		off = snprintf(buf, len, "n=%u K=%u W=%u %s", c->n,
			       c->agreements, c->window, topo_name(c->topo));
	for (uint32_t i = 0; i < c->ncrashes && off > 0 && (size_t)off < len;
	     i++) {
		static const char *const kinds[] = { "t", "sends", "decide",
						     "forward" };
		const struct sim_crash *k = &c->crashes[i];

		if (k->kind == SIM_CRASH_FORWARDING)
			off += snprintf(buf + off, len - off,
					"%s%u@forward=%u.%u", i ? "," :
					" crash ", k->rank,
					(uint32_t)k->arg,
					(uint32_t)(k->arg >> 32));
		else
			off += snprintf(buf + off, len - off,
					"%s%u@%s=%" PRIu64, i ? "," :
					" crash ", k->rank, kinds[k->kind],
					k->arg);
	}
	if (off > 0 && (size_t)off < len)
		snprintf(buf + off, len - off, "%s%s%s", c->fifo ? " fifo" : "",
			 c->rebalance ? " rebalance" : "",
			 c->quirks ? " quirks" : "");
}

void sim_unit_cfg(struct sim_cfg *c, uint32_t n, uint32_t agreements,
		  enum era_topology topo)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->n = n;
	c->agreements = agreements;
	c->window = 1;
	c->topo = topo;
	c->inter = ERA_TOPO_BINARY;
	c->intra = ERA_TOPO_BINARY;
	c->fifo = true;
	c->delay_min = c->delay_max = 1;
	c->fd_min = c->fd_max = 1;
	c->max_events = 10000000;
}

/* The tree every process starts with, to aim crashes at roots and subtrees. */
struct first_tree {
	struct era_view v;
	uint32_t order[SIM_MAX_N], pos_of[SIM_MAX_N], parent[SIM_MAX_N];
	uint32_t first_child[SIM_MAX_N], next_sibling[SIM_MAX_N];
	uint64_t excluded[1];
	uint32_t scratch[ERA_TREE_SCRATCH_WORDS(SIM_MAX_N)];
};

static void first_tree(const struct sim_cfg *c, struct first_tree *t)
{
	struct era_tree_shape shape = {
		.topo = c->topo, .inter = c->inter, .intra = c->intra,
		.host_of = c->host_of, .nranks = c->n,
	};

	t->v = (struct era_view){
		.order = t->order, .pos_of = t->pos_of, .parent = t->parent,
		.first_child = t->first_child,
		.next_sibling = t->next_sibling, .excluded = t->excluded,
	};
	era_view_build(&t->v, &shape, NULL, t->scratch);
}

static enum era_topology flat_shape(uint64_t *rng)
{
	uint32_t u = rnd(rng, 100);

	return u < 60 ? ERA_TOPO_BINARY : u < 80 ? ERA_TOPO_STAR :
	       ERA_TOPO_STRING;
}

/* Victims: distinct ranks, never all of them. */
static void pick_victims(struct sim_cfg *c, uint64_t *rng, uint32_t f,
			 const struct first_tree *t, uint32_t *victims)
{
	uint64_t chosen = 0;
	uint32_t k = 0, mode = rnd(rng, 5);

	if (mode == 4) {		/* a path down from the root */
		if (f < 2 && c->n > 2)
			f = rnd_in(rng, 2, c->n - 1 < 4 ? c->n - 1 : 4);
		c->ncrashes = f;
		for (uint32_t pos = 0; k < f && pos != ERA_NO_POS;) {
			uint32_t nth = rnd(rng, 2);

			victims[k++] = t->order[pos];
			pos = t->first_child[pos];
			while (nth-- && pos != ERA_NO_POS &&
			       t->next_sibling[pos] != ERA_NO_POS)
				pos = t->next_sibling[pos];
		}
	} else if (mode == 1) {		/* the root first */
		victims[k++] = t->order[0];
	} else if (mode == 2) {		/* a whole subtree */
		uint32_t stack[SIM_MAX_N], top = 0;

		stack[top++] = rnd(rng, c->n);
		while (top && k < f) {
			uint32_t pos = stack[--top];

			victims[k++] = t->order[pos];
			for (uint32_t ch = t->first_child[pos];
			     ch != ERA_NO_POS; ch = t->next_sibling[ch])
				stack[top++] = ch;
		}
	} else if (mode == 3) {		/* the successive roots */
		for (uint32_t pos = 0; k < f; pos++)
			victims[k++] = t->order[pos];
	}
	for (uint32_t i = 0; i < k; i++)
		chosen |= 1ull << victims[i];
	while (k < f) {
		uint32_t r = rnd(rng, c->n);

		if (!((chosen >> r) & 1)) {
			chosen |= 1ull << r;
			victims[k++] = r;
		}
	}
}

void sim_random_cfg(struct sim_cfg *c, uint64_t seed)
{
	uint64_t rng = seed, t_est;
	uint32_t u, f, victims[SIM_MAX_N];
	struct first_tree t;
	bool together, forwarding;

	memset(c, 0, sizeof(*c));
	c->seed = seed;
	u = rnd(&rng, 100);
	c->n = u < 55 ? rnd_in(&rng, 2, 16) : u < 90 ? rnd_in(&rng, 17, 40) :
	       rnd_in(&rng, 41, SIM_MAX_N);
	c->agreements = rnd_in(&rng, 1, 6);
	c->window = rnd_in(&rng, 1, c->agreements < 4 ? c->agreements : 4);
	u = rnd(&rng, 100);
	c->topo = u < 45 ? ERA_TOPO_BINARY : u < 60 ? ERA_TOPO_STAR :
		  u < 70 ? ERA_TOPO_STRING : ERA_TOPO_HIER;
	c->inter = flat_shape(&rng);
	c->intra = flat_shape(&rng);
	if (rnd(&rng, 3)) {
		uint32_t per_host = rnd_in(&rng, 1, 8);

		for (uint32_t r = 0; r < c->n; r++)
			c->host_of[r] = r / per_host;
	} else {
		uint32_t hosts = rnd_in(&rng, 1, (c->n + 1) / 2);

		for (uint32_t r = 0; r < c->n; r++)
			c->host_of[r] = rnd(&rng, hosts);
	}
	c->rebalance = rnd(&rng, 2);
	c->fifo = rnd(&rng, 2);
	c->delay_min = 1;
	c->delay_max = rnd_in(&rng, 1, 20);
	if (!rnd(&rng, 3)) {
		c->slow_pct = rnd_in(&rng, 1, 20);
		c->slow_max = c->delay_max * rnd_in(&rng, 5, 25);
	}
	/* One schedule in three has a detector as fast as the messages. */
	u = rnd(&rng, 3);
	c->fd_min = rnd_in(&rng, 1, u ? 10 : 2);
	c->fd_max = c->fd_min + (u ? rnd(&rng, rnd(&rng, 5) ? 60 : 1000) :
				 rnd(&rng, c->delay_max));
	c->fd_slow_pct = rnd(&rng, 2) ? 20 : 0;
	c->start_jitter = rnd(&rng, 2 * c->delay_max + 1);
	c->max_events = 2000000;

	u = rnd(&rng, 100);
	f = u < 12 ? 0 : u < 42 ? 1 : u < 65 ? rnd_in(&rng, 2, 3) :
	    rnd_in(&rng, 1, c->n - 1);
	if (f > c->n - 1)
		f = c->n - 1;
	/*
	 * Processes die while forwarding a decision, leaving stale DOWNs in
	 * flight behind them: the hardest case for Agreement, hardest when
	 * most of the tree dies so, one failed root after another.
	 */
	forwarding = rnd(&rng, 5) < 2;
	if (forwarding && rnd(&rng, 2) && c->n > 2)
		f = rnd_in(&rng, c->n / 2, c->n - 1);
	c->ncrashes = f;
	first_tree(c, &t);
	pick_victims(c, &rng, f, &t, victims);
	/* Roughly when the agreements run, to aim crashes inside them. */
	t_est = (uint64_t)c->agreements * (2 * era_view_depth(&t.v) + 2) *
		(c->delay_max + 1) / 2 + c->agreements * c->start_jitter + 1;
	together = !rnd(&rng, 3);
	for (uint32_t i = 0; i < f; i++) {
		struct sim_crash *k = &c->crashes[i];

		k->rank = victims[i];
		k->kind = (uint8_t)rnd(&rng, 4);
		if (together && i)
			*k = (struct sim_crash){ victims[i],
						 c->crashes[0].kind,
						 c->crashes[0].arg };
		else if (forwarding && i)
			*k = (struct sim_crash){ victims[i],
				SIM_CRASH_FORWARDING,
				(uint32_t)c->crashes[0].arg |
				(uint64_t)rnd_in(&rng, 1, 2) << 32 };
		else if (forwarding)
			*k = (struct sim_crash){ victims[i],
				SIM_CRASH_FORWARDING,
				rnd_in(&rng, 1, c->agreements) |
				(uint64_t)rnd_in(&rng, 1, 2) << 32 };
		else if (k->kind == SIM_CRASH_AT_TIME)
			k->arg = rnd(&rng, (uint32_t)t_est);
		else if (k->kind == SIM_CRASH_AFTER_SENDS)
			k->arg = rnd_in(&rng, 1, 8);
		else if (k->kind == SIM_CRASH_AFTER_DECIDE)
			k->arg = rnd_in(&rng, 1, c->agreements);
		else
			k->arg = rnd_in(&rng, 1, c->agreements) |
				 (uint64_t)rnd_in(&rng, 1, 3) << 32;
	}
}
