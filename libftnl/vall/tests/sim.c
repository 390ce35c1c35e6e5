// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The validate-all simulator: events in a time-ordered heap, messages
 * through the real wire format, the real engine in every process, the
 * properties of sim.h checked on every return and at the end. The
 * network model is that of libftnl/era/tests/sim.c, the heap tools/testing/evheap.h.
 *
 * Process p proposes flag ~(1 << p): the returned flag names its
 * contributors. At its call, p contributes as a ULFM caller does: every
 * failure it knows of, failed and acknowledged.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "era/ulfm.h"
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

static uint32_t rnd(uint64_t *state, uint32_t bound)
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
	uint32_t to;
	uint32_t from;
	uint32_t off, len;
	uint64_t pseq;
};

EVHEAP_CHECK(struct ev);

/* ---- the simulated system ------------------------------------------------ */

struct proc {
	struct vall_group *g;
	bool crashed;
	uint64_t sends;
	uint64_t crash_after_sends;
	uint64_t crash_after_return;
	uint64_t crash_after_type;	/* 0: none */
	uint32_t type_count;
	uint64_t next_start;
	bool start_pending;
	uint64_t known_dead;
	bool started[SIM_MAX_K + 1];
	uint64_t started_at[SIM_MAX_K + 1];
	uint64_t known_at_start[SIM_MAX_K + 1];
	bool returned[SIM_MAX_K + 1];
	uint64_t returned_at[SIM_MAX_K + 1];
	uint64_t proposal[SIM_MAX_K + 1][SIM_VALUE_WORDS];
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
	uint32_t current;
	uint64_t crashed_mask;
	uint64_t last_arrival[SIM_MAX_N][SIM_MAX_N];
	uint64_t sent_seq[SIM_MAX_N][SIM_MAX_N];
	uint64_t arrived_seq[SIM_MAX_N][SIM_MAX_N];
	uint64_t cut[SIM_MAX_N][SIM_MAX_N];
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

static bool value_eq(const struct sim *sim, const void *a, const void *b)
{
	return !memcmp(a, b, sim->ulfm.op.value_size);
}

static uint64_t failed_mask(const struct sim *sim, const void *v)
{
	uint64_t m = 0;

	for (uint32_t r = 0; r < sim->cfg->n; r++)
		if (era_ulfm_failed(&sim->ulfm, v, r))
			m |= 1ull << r;
	return m;
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

static void sink_send(void *ctx, uint32_t to, const struct vall_msg *msg)
{
	struct sim *sim = ctx;
	uint32_t p = sim->current;
	struct proc *pr = &sim->proc[p];
	size_t len;
	uint64_t at;

	if (pr->crashed)
		return;
	if (to >= sim->cfg->n || to == p || !msg->id ||
	    msg->id > sim->cfg->ops) {
		violation(sim, "%u sends %s to %u for operation %" PRIu64, p,
			  vall_msg_type_name(msg->type), to, msg->id);
		return;
	}
	if ((msg->type == VALL_MSG_COMMIT_BCAST ||
	     msg->type == VALL_MSG_FORCED_NAK) && pr->returned[msg->id] &&
	    !value_eq(sim, msg->value, pr->result[msg->id]))
		violation(sim, "irrevocability: %u returned operation %" PRIu64
			  " and sends %s with another value", p, msg->id,
			  vall_msg_type_name(msg->type));
	if (msg->type == VALL_MSG_ACCEPT_ACK && !pr->started[msg->id])
		violation(sim, "%u votes in operation %" PRIu64
			  " before calling it", p, msg->id);

	len = vall_msg_size(&sim->ulfm.op, sim->cfg->n, msg);
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
	if (vall_msg_encode(&sim->ulfm.op, sim->cfg->n, msg,
			    sim->arena + sim->arena_len, len) != len) {
		violation(sim, "%u: message does not encode", p);
		return;
	}
	at = sim->now + msg_delay(sim);
	if (sim->cfg->fifo && at < sim->last_arrival[p][to])
		at = sim->last_arrival[p][to];
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
	trace(sim, "%u -> %u %s(%" PRIu64 ", b=%" PRIx64 ") arrives t=%"
	      PRIu64, p, to, vall_msg_type_name(msg->type), msg->id,
	      msg->bnum, at);
	if (++pr->sends == pr->crash_after_sends)
		crash(sim, p);
	if (pr->crash_after_type &&
	    msg->id == (uint32_t)pr->crash_after_type &&
	    msg->type == (uint8_t)(pr->crash_after_type >> 48) &&
	    ++pr->type_count == (uint16_t)(pr->crash_after_type >> 32))
		crash(sim, p);
}

static bool may_start(const struct sim *sim, const struct proc *pr)
{
	uint64_t id = pr->next_start;

	if (id > sim->cfg->ops || pr->crashed)
		return false;
	return id <= sim->cfg->window || pr->returned[id - sim->cfg->window];
}

static void schedule_start(struct sim *sim, uint32_t p, uint64_t delay)
{
	struct proc *pr = &sim->proc[p];

	if (pr->start_pending || !may_start(sim, pr))
		return;
	pr->start_pending = true;
	push(sim, (struct ev){ .time = sim->now + delay, .type = EV_START,
			       .to = p });
}

/* What a return must satisfy, given what other processes returned. */
static void check_return(struct sim *sim, uint32_t p, uint64_t id,
			 const void *value)
{
	const struct sim_cfg *c = sim->cfg;
	uint64_t failed = failed_mask(sim, value);
	uint64_t flag = era_ulfm_flag(value);

	if (failed & ~sim->crashed_mask)
		violation(sim, "validity: %u returns operation %" PRIu64
			  " with live processes failed (%" PRIx64 ")", p, id,
			  failed & ~sim->crashed_mask);
	if ((sim->proc[p].known_at_start[id] & failed) !=
	    sim->proc[p].known_at_start[id])
		violation(sim, "validity: %u returns operation %" PRIu64
			  " without failures it knew of at its call", p, id);
	if (flag & (1ull << p))
		violation(sim, "validity: %u's own proposal is not in "
			  "operation %" PRIu64, p, id);
	if (c->n < 64 && ~flag >> c->n)
		violation(sim, "validity: operation %" PRIu64 " flag %" PRIx64
			  " holds no proposal", id, flag);
	for (uint32_t q = 0; q < c->n; q++) {
		const struct proc *qr = &sim->proc[q];

		if (q == p || !qr->returned[id] ||
		    value_eq(sim, qr->result[id], value))
			continue;
		if (!qr->crashed) {
			violation(sim, "agreement: %u returns operation %"
				  PRIu64 " unlike %u, alive", p, id, q);
		} else if (c->semantics == VALL_STRICT) {
			violation(sim, "uniformity: %u returns operation %"
				  PRIu64 " unlike %u, which returned and "
				  "crashed", p, id, q);
		} else {
			sim->res->stats.nonuniform++;
			trace(sim, "NON-UNIFORM: %u returns %" PRIu64
			      " unlike crashed %u", p, id, q);
		}
	}
}

static void sink_decided(void *ctx, uint64_t id, const void *value)
{
	struct sim *sim = ctx;
	uint32_t p = sim->current;
	struct proc *pr = &sim->proc[p];

	if (pr->crashed)
		return;
	if (!id || id > sim->cfg->ops) {
		violation(sim, "%u returns unknown operation %" PRIu64, p, id);
		return;
	}
	if (pr->returned[id]) {
		violation(sim, "%u returns operation %" PRIu64 " twice", p, id);
		return;
	}
	if (!pr->started[id])
		violation(sim, "%u returns operation %" PRIu64
			  " before calling it", p, id);
	pr->returned[id] = true;
	pr->returned_at[id] = sim->now;
	memcpy(pr->result[id], value, sim->ulfm.op.value_size);
	sim->res->stats.returns++;
	trace(sim, "%u RETURNS %" PRIu64 " flag=%016" PRIx64 " failed=%"
	      PRIx64, p, id, era_ulfm_flag(value), failed_mask(sim, value));
	check_return(sim, p, id, value);
	if (may_start(sim, pr))
		schedule_start(sim, p, rnd_in(&sim->rng, 0,
					      sim->cfg->start_jitter));
	if (pr->crash_after_return == id)
		crash(sim, p);
}

static void do_start(struct sim *sim, uint32_t p, const struct vall_sink *out)
{
	struct proc *pr = &sim->proc[p];
	uint64_t id = pr->next_start;
	int err;

	pr->start_pending = false;
	if (pr->crashed || !may_start(sim, pr))
		return;
	era_ulfm_value_init(&sim->ulfm, pr->proposal[id], ~(1ull << p));
	for (uint32_t r = 0; r < sim->cfg->n; r++)
		if ((pr->known_dead >> r) & 1) {
			era_ulfm_set_failed(&sim->ulfm, pr->proposal[id], r);
			era_ulfm_set_acked(&sim->ulfm, pr->proposal[id], r);
		}
	pr->started[id] = true;
	pr->started_at[id] = sim->now;
	pr->known_at_start[id] = pr->known_dead;
	pr->next_start++;
	trace(sim, "%u CALLS %" PRIu64, p, id);
	err = vall_start(pr->g, id, pr->proposal[id], out);
	if (err)
		violation(sim, "%u: vall_start(%" PRIu64 ") = %d", p, id, err);
	if (may_start(sim, pr))
		schedule_start(sim, p, rnd_in(&sim->rng, 0,
					      sim->cfg->start_jitter));
}

static void deliver(struct sim *sim, const struct ev *ev,
		    const struct vall_sink *out)
{
	struct proc *to = &sim->proc[ev->to];
	uint64_t value[SIM_VALUE_WORDS], desc[1];
	struct vall_msg msg;
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
	err = vall_msg_decode(&sim->ulfm.op, sim->cfg->n, sim->arena + ev->off,
			      ev->len, &msg, desc, value);
	if (err) {
		violation(sim, "message %u -> %u does not decode: %d",
			  ev->from, ev->to, err);
		return;
	}
	trace(sim, "%u <- %u %s(%" PRIu64 ", b=%" PRIx64 ")", ev->to,
	      ev->from, vall_msg_type_name(msg.type), msg.id, msg.bnum);
	err = vall_on_message(to->g, ev->from, &msg, out);
	if (err)
		violation(sim, "%u: vall_on_message() = %d", ev->to, err);
}

static void step(struct sim *sim, const struct ev *ev,
		 const struct vall_sink *out)
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
		err = vall_on_failure(pr->g, ev->from, out);
		if (err)
			violation(sim, "%u: vall_on_failure() = %d", ev->to,
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

static void add_stats(struct vall_stats *sum, const struct vall_stats *st)
{
	for (int t = 0; t < VALL_MSG_NTYPES; t++) {
		sum->sent[t] += st->sent[t];
		sum->received[t] += st->received[t];
	}
	for (int k = 0; k < 4; k++)
		sum->broadcasts[k] += st->broadcasts[k];
	sum->from_dead += st->from_dead;
	sum->stale += st->stale;
	sum->ignored += st->ignored;
	sum->nak_bcast += st->nak_bcast;
	sum->ballots_rejected += st->ballots_rejected;
	sum->forced += st->forced;
	sum->commit_changed += st->commit_changed;
	sum->errors += st->errors;
}

static void final_checks(struct sim *sim)
{
	const struct sim_cfg *c = sim->cfg;
	int first = -1;

	for (uint32_t p = 0; p < c->n; p++) {
		struct proc *pr = &sim->proc[p];
		struct vall_stats st;

		vall_get_stats(pr->g, &st);
		add_stats(&sim->res->stats.engine, &st);
		if (st.errors)
			violation(sim, "%u: %" PRIu64 " engine errors", p,
				  st.errors);
		if (pr->crashed)
			continue;
		if (first < 0)
			first = (int)p;
		for (uint64_t a = 1; a <= c->ops; a++) {
			uint64_t v[SIM_VALUE_WORDS];
			const struct proc *fr = &sim->proc[first];

			if (!pr->returned[a]) {
				violation(sim, "termination: %u never returns "
					  "operation %" PRIu64, p, a);
				continue;
			}
			if (pr->returned_at[a] - pr->started_at[a] >
			    sim->res->stats.latency[a])
				sim->res->stats.latency[a] =
					pr->returned_at[a] - pr->started_at[a];
			if (vall_result(pr->g, a, v) == 1 &&
			    !value_eq(sim, v, pr->result[a]))
				violation(sim, "%u holds another result for %"
					  PRIu64, p, a);
			if (!value_eq(sim, pr->result[a], fr->result[a]))
				violation(sim, "agreement: survivors %d and "
					  "%u returned operation %" PRIu64
					  " differently", first, p, a);
			/* Every survivor's call: its knowledge, its flag. */
			if ((failed_mask(sim, fr->result[a]) &
			     pr->known_at_start[a]) != pr->known_at_start[a])
				violation(sim, "validity: operation %" PRIu64
					  " lacks a failure %u knew of at its "
					  "call", a, p);
			if (era_ulfm_flag(fr->result[a]) & (1ull << p))
				violation(sim, "validity: survivor %u's "
					  "proposal is not in operation %"
					  PRIu64, p, a);
		}
	}
}

int sim_run(const struct sim_cfg *c, struct sim_result *res)
{
	struct sim *sim;
	struct vall_sink out;
	struct ev ev;
	int err = 0;

	memset(res, 0, sizeof(*res));
	res->ok = true;
	if (c->n < 1 || c->n > SIM_MAX_N || c->ops < 1 ||
	    c->ops > SIM_MAX_K || c->ncrashes >= c->n || !c->window ||
	    c->fd_min > c->fd_max || !c->delay_min ||
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
	out = (struct vall_sink){
		.send = sink_send, .decided = sink_decided, .ctx = sim,
	};
	for (uint32_t p = 0; p < c->n; p++) {
		struct vall_config vc = {
			.group = 0x7a1100000000000ull | c->seed,
			.nranks = c->n,
			.self = p,
			.op = &sim->ulfm.op,
			.semantics = c->semantics,
			.window = c->window,
			.quirks = c->quirks,
		};

		err = vall_group_create(&vc, &sim->proc[p].g);
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
		else if (k->kind == SIM_CRASH_AFTER_RETURN)
			pr->crash_after_return = k->arg;
		else
			pr->crash_after_type = k->arg;
	}
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
		vall_group_destroy(sim->proc[p].g);
	evheap_free(&sim->heap);
	free(sim->arena);
	free(sim);
	return err;
}

/* ---- schedules --------------------------------------------------------- */

void sim_describe(const struct sim_cfg *c, char *buf, size_t len)
{
	static const char *const kinds[] = { "t", "sends", "return", "after" };
	int off;

	off = snprintf(buf, len, "%s n=%u ops=%u W=%u",
		       c->semantics == VALL_LOOSE ? "loose" : "strict", c->n,
		       c->ops, c->window);
	for (uint32_t i = 0; i < c->ncrashes && off > 0 && (size_t)off < len;
	     i++) {
		const struct sim_crash *k = &c->crashes[i];

		if (k->kind == SIM_CRASH_AFTER_TYPE)
			off += snprintf(buf + off, len - off,
					"%s%u@%s#%u.op%u", i ? "," : " crash ",
					k->rank,
					vall_msg_type_name((uint8_t)(k->arg >> 48)),
					(uint16_t)(k->arg >> 32),
					(uint32_t)k->arg);
		else
			off += snprintf(buf + off, len - off,
					"%s%u@%s=%" PRIu64, i ? "," :
					" crash ", k->rank, kinds[k->kind],
					k->arg);
	}
	if (off > 0 && (size_t)off < len)
		snprintf(buf + off, len - off, "%s%s", c->fifo ? " fifo" : "",
			 c->quirks ? " quirks" : "");
}

void sim_unit_cfg(struct sim_cfg *c, uint32_t n, uint32_t ops,
		  enum vall_semantics semantics)
{
	memset(c, 0, sizeof(*c));
	c->seed = 1;
	c->n = n;
	c->semantics = semantics;
	c->ops = ops;
	c->window = 1;
	c->fifo = true;
	c->delay_min = c->delay_max = 1;
	c->fd_min = c->fd_max = 1;
	c->max_events = 10000000;
}

/* Children of rank 0 in the first tree (compute_children on 1..n-1). */
static uint32_t root_children(uint32_t n, uint32_t *children)
{
	uint64_t desc[1] = { 0 };

	for (uint32_t r = 1; r < n; r++)
		desc[0] |= 1ull << r;
	return vall_compute_children(desc, n, children);
}

static void pick_victims(struct sim_cfg *c, uint64_t *rng, uint32_t f,
			 uint32_t *victims)
{
	uint64_t chosen = 0;
	uint32_t k = 0, mode = rnd(rng, 4), kids[SIM_MAX_N], nk;

	if (mode == 1) {			/* the successive roots */
		for (; k < f; k++)
			victims[k] = k;
	} else if (mode == 2) {			/* the root first */
		victims[k++] = 0;
	} else if (mode == 3) {			/* inner nodes */
		nk = root_children(c->n, kids);
		for (uint32_t i = 0; i < nk && k < f; i++)
			if (rnd(rng, 2))
				victims[k++] = kids[i];
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

void sim_random_cfg(struct sim_cfg *c, uint64_t seed,
		    enum vall_semantics semantics)
{
	static const uint8_t types[] = {
		VALL_MSG_BALLOT_BCAST, VALL_MSG_COMMIT_BCAST,
		VALL_MSG_COMMIT_BCAST, VALL_MSG_ALL_COMMIT_BCAST,
		VALL_MSG_ACCEPT_ACK, VALL_MSG_ACK, VALL_MSG_FORCED_NAK,
	};
	uint64_t rng = seed, t_est;
	uint32_t u, f, victims[SIM_MAX_N], depth = 1;
	bool together;

	memset(c, 0, sizeof(*c));
	c->seed = seed;
	c->semantics = semantics;
	u = rnd(&rng, 100);
	c->n = u < 60 ? rnd_in(&rng, 1, 12) : u < 90 ? rnd_in(&rng, 13, 32) :
	       rnd_in(&rng, 33, SIM_MAX_N);
	c->ops = rnd_in(&rng, 1, 6);
	c->window = rnd_in(&rng, 1, c->ops < 3 ? c->ops : 3);
	c->fifo = rnd(&rng, 2);
	c->delay_min = 1;
	c->delay_max = rnd_in(&rng, 1, 20);
	if (!rnd(&rng, 3)) {
		c->slow_pct = rnd_in(&rng, 1, 20);
		c->slow_max = c->delay_max * rnd_in(&rng, 5, 25);
	}
	u = rnd(&rng, 3);
	c->fd_min = rnd_in(&rng, 1, u ? 10 : 2);
	c->fd_max = c->fd_min + (u ? rnd(&rng, rnd(&rng, 5) ? 60 : 1000) :
				 rnd(&rng, c->delay_max));
	c->fd_slow_pct = rnd(&rng, 2) ? 20 : 0;
	c->start_jitter = rnd(&rng, 2 * c->delay_max + 1);
	c->max_events = 3000000;

	u = rnd(&rng, 100);
	f = c->n < 2 ? 0 : u < 10 ? 0 : u < 40 ? 1 : u < 65 ?
	    rnd_in(&rng, 2, 3) : rnd_in(&rng, 1, c->n - 1);
	if (f > c->n - 1)
		f = c->n - 1;
	c->ncrashes = f;
	pick_victims(c, &rng, f, victims);
	while ((1u << depth) < c->n)
		depth++;
	/* Roughly how long the operations take, to aim crashes inside. */
	t_est = (uint64_t)c->ops * 5 * depth * (c->delay_max + 1) / 2 +
		c->ops * c->start_jitter + 1;
	together = !rnd(&rng, 4);
	for (uint32_t i = 0; i < f; i++) {
		struct sim_crash *k = &c->crashes[i];

		k->rank = victims[i];
		k->kind = (uint8_t)rnd(&rng, 4);
		if (together && i) {
			k->kind = c->crashes[0].kind;
			k->arg = c->crashes[0].arg;
		} else if (k->kind == SIM_CRASH_AT_TIME) {
			k->arg = rnd(&rng, (uint32_t)t_est);
		} else if (k->kind == SIM_CRASH_AFTER_SENDS) {
			k->arg = rnd_in(&rng, 1, 12);
		} else if (k->kind == SIM_CRASH_AFTER_RETURN) {
			k->arg = rnd_in(&rng, 1, c->ops);
		} else {
			k->arg = rnd_in(&rng, 1, c->ops) |
				 (uint64_t)rnd_in(&rng, 1, 3) << 32 |
				 (uint64_t)types[rnd(&rng, sizeof(types))] << 48;
		}
	}
}
