// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-bench adapt: a fixed timeout against timeouts that adapt, under the
 * network pattern the caller put on every node's link (bench-guest.sh sets
 * netem on each node's eth0), next to the simulator's model of the same
 * link (issue 11, item 4).
 *
 *   ftnl-bench adapt OPTIONS --label PATTERN --duration-s S --trials K
 *                    [--budget-s B] [--adaptive-min-ms M [--nines N]]
 *                    [--model-base-us U] [--model-jitter-us J]
 *                    [--model-loss-ppm L] [--model-spike-ppm P]
 *                    [--model-spike-us Q] [--model-beats B]
 *
 * Without --adaptive-min-ms the ring waits the fixed d (--timeout-ms);
 * with it, every observer's timeout adapts between M and d for a target
 * rate of 10^-N false suspicions per heartbeat (kmod/ring/adaptive.c).
 *
 * False suspicions: a fresh ring on every node, warmed up until every
 * observer's estimator has its window (32 gaps) and d_max more, then a
 * window of S seconds in which nobody fails. Over it, from every node's
 * counters: heartbeats taken from the emitter, timeouts that expired on a
 * live emitter and that its answer to the probe refuted
 * (suspicions_refuted), and live emitters declared dead (suspicions: the
 * probe did not save them). A timeout that expired is what the model
 * counts as a false suspicion; the module probes before it accuses, so
 * only the declared ones reach applications.
 *
 * Detection: K times, a fresh ring, warmed up the same way, then one node
 * silenced at a random phase (its bridge port down, as in "detect"), and
 * the time from the silence to the first failure event about it with cause
 * "observed" (its observer, whichever node that is then), stamped by the
 * kernel.
 *
 * Model: the simulator's one-link model (tools/sim/adapt.c) with the same
 * h, d, d_min and target, the delays and losses given by --model-*: its
 * false suspicions over B heartbeats and the crash-to-suspicion times.
 *
 * Prints one "RESULT test=adapt ..." line; bench-guest.sh makes the table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "../../kmod/ring/adaptive.h"
#include "../sim/adapt.h"
#include "bench.h"

#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL

/* Heartbeats the victim's observer takes before a trial: a full window. */
#define WARM_BEATS	(FTNL_ADAPT_WINDOW + 8)
/*
 * A stall of the detecting node: its heartbeat timer ran 8.2 ms late or
 * more (lateness buckets from [8192, 16384) us on) between the silence
 * and the detection. Its own timers, T3 among them, were late as much.
 */
#define STALL_BUCKET	14

static uint64_t late_expiries(const struct ftnl_stats *st)
{
	uint64_t sum = 0;
	int i;

	for (i = STALL_BUCKET; i < FTNL_LATENESS_BUCKETS; i++)
		sum += st->lateness[i];
	return sum;
}

struct adapt_run {
	struct cluster *c;
	unsigned int victim;	/* 0 in the window: nobody fails */
	uint64_t silence_ns;
	bool detected;
	uint64_t latency_ns;
	unsigned int detector;
	unsigned int declared;	/* live nodes declared dead (observed) */
	unsigned int learned;	/* ... and learned so by broadcast */
};

static void on_failure(void *arg, unsigned int idx,
		       const struct ftnl_event_failure *f, uint64_t read_ns)
{
	struct adapt_run *r = arg;
	unsigned int id = idx + 1;
	bool after = r->silence_ns && f->time_mono_ns >= r->silence_ns;

	(void)read_ns;
	if (r->victim && after && id == r->victim)
		return;		/* cut off, it suspects its own emitter */
	if (r->victim && after && f->node_id == r->victim) {
		if (f->cause == FTNL_CAUSE_OBSERVED && !r->detected) {
			r->detected = true;
			r->latency_ns = f->time_mono_ns - r->silence_ns;
			r->detector = id;
		}
		return;
	}
	if (f->cause == FTNL_CAUSE_OBSERVED)
		r->declared++;
	else
		r->learned++;
}

/* What the window's figures are made of, summed over the nodes. */
struct adapt_counts {
	uint64_t hb;
	uint64_t refuted;
	uint64_t declared;
};

/* A node that cannot answer (its ring gone) counts nothing. */
static void read_counts(struct cluster *c, struct ftnl_stats *st)
{
	unsigned int i;

	for (i = 0; i < c->o->nodes; i++) {
		if (ftnl_stats_get(c->nodes[i].h, &st[i])) {
			msg("node %u: stats: %s", i + 1, ftnl_errmsg(c->nodes[i].h));
			memset(&st[i], 0, sizeof(st[i]));
		}
	}
}

/* A counter across the window; a node whose ring restarted counts anew. */
static uint64_t delta(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : after;
}

static void sum_counts(const struct cluster *c, const struct ftnl_stats *a,
		       const struct ftnl_stats *b, struct adapt_counts *sum)
{
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < c->o->nodes; i++) {
		sum->hb += delta(a[i].hb_from_emitter, b[i].hb_from_emitter);
		sum->refuted += delta(a[i].suspicions_refuted,
				      b[i].suspicions_refuted);
		sum->declared += delta(a[i].suspicions, b[i].suspicions);
	}
}

/*
 * Until node @observer took WARM_BEATS heartbeats of its emitter (the
 * adaptive window is full), then d_max more; at most 10 s.
 */
static int warm_up(struct cluster *c, unsigned int observer)
{
	uint64_t h = c->o->hb_ms * NS_PER_MS, deadline;
	struct ftnl_stats st;
	int err;

	deadline = mono_ns() + 10 * NS_PER_S;
	do {
		sleep_ns(4 * h);
		err = ftnl_stats_get(c->nodes[observer - 1].h, &st);
		if (err)
			return err;
		if (st.hb_from_emitter >= WARM_BEATS) {
			sleep_ns(c->o->timeout_ms * NS_PER_MS);
			return 0;
		}
	} while (mono_ns() < deadline);
	return -ETIMEDOUT;
}

static int wait_events(struct cluster *c, struct adapt_run *r, uint64_t until)
{
	struct epoll_event ev[64];
	uint64_t now;
	int n, i;

	while ((now = mono_ns()) < until) {
		if (r->victim && r->detected)
			return 0;
		n = epoll_wait(c->epfd, ev, 64, (int)((until - now) / NS_PER_MS) + 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < n; i++)
			drain_node(c, ev[i].data.u32, on_failure, r);
	}
	return 0;
}

/* No ring anywhere, and node @prev (if any) on the network again. */
static int no_ring(struct cluster *c, unsigned int prev)
{
	int err = cluster_del_all(c);

	if (!err && prev)
		err = link_set(c, prev, true);
	if (!err && prev)
		err = neigh_reset(c, prev);
	if (err)
		msg("resetting the cluster: %s", strerror(-err));
	drain_all(c, NULL, NULL);
	return err;
}

/* A fresh ring everywhere (see cluster_set_all()). */
static int fresh_ring(struct cluster *c, unsigned int prev)
{
	int err = no_ring(c, prev);

	return err ? err : cluster_set_all(c);
}

static void model(const struct opts *o, struct adapt_side *side)
{
	struct adapt_cfg cfg = {
		.name = o->label,
		.h_ns = o->hb_ms * (int64_t)NS_PER_MS,
		.d_ns = o->timeout_ms * (int64_t)NS_PER_MS,
		.nines = o->adapt_min_ms ? o->nines : FTNL_ADAPT_NINES_MAX,
		.base_ns = o->model_base_us * 1000LL,
		.jitter_ns = o->model_jitter_us * 1000LL,
		.loss = o->model_loss_ppm / 1e6,
		.spike = o->model_spike_ppm / 1e6,
		.spike_ns = o->model_spike_us * 1000LL,
		.beats = o->model_beats,
		.seed = o->seed,
	};
	struct adapt_result res;

	/* The model always runs two adaptive detectors: the same one twice. */
	cfg.dmin_ns = o->adapt_min_ms ? o->adapt_min_ms * (int64_t)NS_PER_MS : cfg.d_ns;
	cfg.dmin2_ns = cfg.dmin_ns;
	if (adapt_run(&cfg, &res)) {
		memset(side, 0, sizeof(*side));
		return;
	}
	*side = res.side[o->adapt_min_ms ? 1 : 0];
}

int cmd_adaptive(const struct opts *o)
{
	uint64_t h = o->hb_ms * NS_PER_MS, d = o->timeout_ms * NS_PER_MS;
	uint64_t start = mono_ns(), *lat, *calm, t0, window_late = 0;
	struct ftnl_stats *st0, *st1;
	struct adapt_run win = { 0 };
	struct adapt_counts counts = { 0 };
	unsigned int k, done = 0, detected = 0, unsteady = 0, prev = 0;
	unsigned int trial_declared = 0, trial_learned = 0, ncalm = 0;
	const char *verdict = "ok";
	struct adapt_side side;
	struct cluster c;
	int err;

	lat = calloc(o->trials, sizeof(*lat));
	calm = calloc(o->trials, sizeof(*calm));
	st0 = calloc(o->nodes, sizeof(*st0));
	st1 = calloc(o->nodes, sizeof(*st1));
	if (!lat || !calm || !st0 || !st1) {
		msg("out of memory");
		free(lat);
		free(calm);
		free(st0);
		free(st1);
		return 1;
	}
	/* The model first: a guest this busy measures nothing meanwhile. */
	t0 = mono_ns();
	model(o, &side);
	msg("%s: model of %" PRIu64 " heartbeats in %.1f s: %" PRIu64
	    " false suspicions, detection mean %.1f ms", o->label,
	    o->model_beats, (double)(mono_ns() - t0) / 1e9,
	    side.false_suspicions, side.detect_mean_ns / 1e6);

	err = cluster_open(&c, o);
	if (err)
		goto out;
	if (o->adapt_min_ms) {
		c.cfg.has_timeout_min = true;
		c.cfg.timeout_min_us = o->adapt_min_ms * 1000;
		c.cfg.has_timeout_nines = true;
		c.cfg.timeout_nines = (uint8_t)o->nines;
	}

	/* False suspicions over the window, nobody failing. */
	win.c = &c;
	err = fresh_ring(&c, 0);
	if (!err)
		err = warm_up(&c, 1);
	if (err == -ETIMEDOUT) {
		msg("%s: node 1 never took %u heartbeats", o->label, WARM_BEATS);
		verdict = "unsteady";
	} else if (err) {
		goto out;
	}
	drain_all(&c, NULL, NULL);
	read_counts(&c, st0);
	err = wait_events(&c, &win, mono_ns() + o->duration_s * NS_PER_S);
	if (err)
		goto out;
	read_counts(&c, st1);
	sum_counts(&c, st0, st1, &counts);
	for (k = 0; k < o->nodes; k++)
		window_late += delta(late_expiries(&st0[k]), late_expiries(&st1[k]));
	msg("%s: %" PRIu64 " heartbeats in %us, %" PRIu64 " timeouts refuted, %"
	    PRIu64 " declared (%u events)", o->label, counts.hb, o->duration_s,
	    counts.refuted, counts.declared, win.declared);

	/* Detection of a silenced node. */
	for (k = 0; done < o->trials; k++) {
		struct adapt_run t = { .c = &c };
		bool stalled;

		if (o->budget_s && mono_ns() - start > o->budget_s * NS_PER_S) {
			verdict = "budget";
			msg("%s: time budget of %us spent after %u trials",
			    o->label, o->budget_s, done);
			break;
		}
		t.victim = 1 + (unsigned int)(rng_next() % o->nodes);
		err = fresh_ring(&c, prev);
		if (err)
			goto out;
		prev = t.victim;
		err = warm_up(&c, t.victim % o->nodes + 1);
		if (err == -ETIMEDOUT) {
			if (++unsteady > o->trials) {
				verdict = "unsteady";
				break;
			}
			continue;
		}
		if (err)
			goto out;
		drain_all(&c, on_failure, &t);
		read_counts(&c, st0);
		sleep_ns(rng_next() % h);	/* random phase */
		t.silence_ns = mono_ns();
		err = link_set(&c, t.victim, false);
		if (err) {
			msg("veth of node %u down: %s", t.victim, strerror(-err));
			goto out;
		}
		/* Probe rounds close 2 d_max after they start: far beyond. */
		err = wait_events(&c, &t, t.silence_ns + 4 * d + h + 3 * NS_PER_S);
		if (err)
			goto out;
		done++;
		trial_declared += t.declared;
		trial_learned += t.learned;
		if (!t.detected) {
			msg("%s trial %u: node %u silenced, no detection", o->label,
			    k + 1, t.victim);
			continue;
		}
		lat[detected++] = t.latency_ns;
		stalled = ftnl_stats_get(c.nodes[t.detector - 1].h, &st1[0]) ||
			  late_expiries(&st1[0]) > late_expiries(&st0[t.detector - 1]);
		if (!stalled)
			calm[ncalm++] = t.latency_ns;
		msg("%s trial %u: node %u silenced, node %u detected it after "
		    "%.2f ms%s", o->label, k + 1, t.victim, t.detector,
		    (double)t.latency_ns / 1e6,
		    stalled ? " (its timers ran 8 ms late meanwhile)" : "");
		if (t.latency_ns > d + h)
			dump_stats(&c, t.detector);
	}
	err = no_ring(&c, prev);
	if (err)
		goto out;

	printf("RESULT test=adapt pattern=%s n=%u h_ms=%u d_ms=%u dmin_ms=%u "
	       "nines=%u window_s=%u hb=%" PRIu64 " refuted=%" PRIu64
	       " declared=%" PRIu64 " learned=%u late=%" PRIu64 " trials=%u"
	       " detected=%u unsteady=%u trial_declared=%u trial_learned=%u"
	       " verdict=%s",
	       o->label, o->nodes, o->hb_ms, o->timeout_ms, o->adapt_min_ms,
	       o->adapt_min_ms ? o->nines : 0, o->duration_s, counts.hb,
	       counts.refuted, counts.declared, win.learned, window_late,
	       done, detected,
	       unsteady, trial_declared, trial_learned, verdict);
	if (detected) {
		qsort(lat, detected, sizeof(*lat), cmp_u64);
		printf(" min_us=%" PRIu64 " median_us=%" PRIu64 " max_us=%" PRIu64,
		       lat[0] / 1000, median(lat, detected) / 1000,
		       lat[detected - 1] / 1000);
	}
	printf(" calm=%u", ncalm);
	if (ncalm) {
		qsort(calm, ncalm, sizeof(*calm), cmp_u64);
		printf(" calm_median_us=%" PRIu64 " calm_max_us=%" PRIu64,
		       median(calm, ncalm) / 1000, calm[ncalm - 1] / 1000);
	}
	printf(" model_beats=%" PRIu64 " model_fs=%" PRIu64 " model_mean_us=%.0f"
	       " model_p50_us=%" PRId64 " model_p99_us=%" PRId64
	       " model_max_us=%" PRId64 " elapsed_s=%.0f\n", o->model_beats,
	       side.false_suspicions, side.detect_mean_ns / 1000,
	       side.detect_p50_ns / 1000, side.detect_p99_ns / 1000,
	       side.detect_max_ns / 1000, (double)(mono_ns() - start) / 1e9);
	fflush(stdout);
out:
	cluster_close(&c);
	free(lat);
	free(calm);
	free(st0);
	free(st1);
	return err ? 1 : 0;
}
