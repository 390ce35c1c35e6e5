// SPDX-License-Identifier: GPL-2.0
/*
 * The quiet runs (issue 11 item 2): a lateness run of the kernel ring in
 * which every node stays alive, with the stall probe (stall.h) running and
 * every failure event kept, then each false suspicion attributed.
 *
 *   ftnl-bench lateness OPTIONS --attribute [--no-uring] ...
 *
 * Every node is alive from the first to the last second, so every failure
 * event is false. An event of cause "observed" or "restarted" is a node's
 * own suspicion; "broadcast" is another node's suspicion reaching it, not
 * attributed on its own. A node that expels itself (it lost the majority,
 * or hears nobody: FTNL_EVENT_EXPELLED, reason quorum or deaf) declares a
 * live node dead too, itself: such events count as suspicions of the node
 * about itself. An expulsion it was told of follows someone's suspicion,
 * already counted. Each suspicion, in time order, is
 *
 *   stall:  the probe measured a stall of d - h or more overlapping
 *           [t - d, t + 10 ms] (t the event's kernel stamp): long enough by
 *           itself to starve an emitter's heartbeats or its observer's
 *           reading of them for a whole timeout;
 *   full:   not a stall, but the backlog probe (backlog_probe.h) saw a
 *           CPU's input backlog drop datagrams for d - h or more in that
 *           window. Not excused: in this one-kernel bed the backlog
 *           carries every node's datagrams, ftnl's own among them, so
 *           these are counted apart from stalls, and printed;
 *   follow: within 3d after an earlier suspicion, whose class it takes
 *           (an accused node is expelled and the ring re-forms around it:
 *           its neighbours' next suspicions are that one's consequences);
 *   other:  none of these. These are ftnl's own, and each is printed with
 *           the counters of both nodes.
 *
 * The probe cannot tell a vCPU the host did not run from guest work that
 * kept a CPU busy for d - h with interrupts or softirqs: a stall excuses
 * both (Documentation/bench.rst, "Quiet runs").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "bench.h"
#include "quiet.h"
#include "intervals.h"
#include "backlog_probe.h"
#include "stall.h"

/* Suspicions printed one by one; the rest are only counted. */
#define QUIET_SHOWN		20
/* The probe stamps a stall when its thread wakes: that late at most. */
#define QUIET_STALL_SLACK_NS	(10 * 1000000ULL)

enum quiet_class { QUIET_STALL, QUIET_FOLLOW_STALL, QUIET_FULL,
		   QUIET_FOLLOW_FULL, QUIET_FOLLOW_OTHER, QUIET_OTHER,
		   QUIET_CLASSES };

struct suspicion {
	uint64_t at;		/* the kernel's stamp (CLOCK_MONOTONIC) */
	unsigned int by, whom;	/* ids; the same for a self-expulsion */
	const char *why;	/* the event's cause, or expulsion reason */
};

/*
 * Datagrams the kernel dropped because a CPU's input backlog was full
 * (/proc/net/softnet_stat, second column, summed over CPUs): in a
 * one-kernel cluster every node's datagrams share those queues
 * (net.core.netdev_max_backlog), which a real node's do not.
 */
static uint64_t softnet_dropped(void)
{
	unsigned int processed, dropped;
	uint64_t sum = 0;
	char line[512];
	FILE *f;

	f = fopen("/proc/net/softnet_stat", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x", &processed, &dropped) == 2)
			sum += dropped;
	fclose(f);
	return sum;
}

enum { CPU_USER, CPU_SYS, CPU_IRQ, CPU_SOFTIRQ, CPU_IDLE, CPU_STEAL,
       CPU_TOTAL };

/*
 * Where the guest's CPU time went (/proc/stat, all CPUs): at n = 64 one
 * kernel carries every node's datagrams, and its timers fall behind when
 * that work fills the CPUs, which a real node's would not.
 */
static void cpu_times(uint64_t cpu[7])
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	int i;

	memset(cpu, 0, 7 * sizeof(*cpu));
	if (!f)
		return;
	/* user nice system idle iowait irq softirq steal */
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
		cpu[CPU_USER] = v[0] + v[1];
		cpu[CPU_SYS] = v[2];
		cpu[CPU_IDLE] = v[3] + v[4];
		cpu[CPU_IRQ] = v[5];
		cpu[CPU_SOFTIRQ] = v[6];
		cpu[CPU_STEAL] = v[7];
		for (i = 0; i < CPU_TOTAL; i++)
			cpu[CPU_TOTAL] += cpu[i];
	}
	fclose(f);
}

/* Share of the run's CPU time in @which, in percent. */
static double cpu_pct(const struct quiet *q, int which)
{
	return q->cpu[CPU_TOTAL] ?
	       100.0 * (double)q->cpu[which] / (double)q->cpu[CPU_TOTAL] : 0;
}

int quiet_init(struct quiet *q, struct cluster *c, uint64_t h_ns,
	       uint64_t d_ns, bool backlog_probe)
{
	memset(q, 0, sizeof(*q));
	q->c = c;
	q->h_ns = h_ns;
	q->d_ns = d_ns;
	q->backlog_drops = softnet_dropped();
	cpu_times(q->cpu);
	ksoftirqd_read(&q->ksirqd);
	q->probing = !stall_probe_start();
	if (!q->probing) {
		msg("quiet: the stall probe did not start");
		return -EAGAIN;
	}
	/*
	 * Only when asked: with it, or with a probe that sent, the ring ran
	 * clean in windows that without either did not (bench.rst).
	 */
	if (!backlog_probe)
		return 0;
	if (backlog_probe_start()) {
		msg("quiet: the backlog probe did not start");
		stall_probe_stop();
		q->probing = false;
		return -EAGAIN;
	}
	q->backlog_probed = true;
	return 0;
}

/* Keep a suspicion of node @by about node @whom. */
static void quiet_record(struct quiet *q, unsigned int by, unsigned int whom,
			 const char *why, uint64_t at)
{
	struct suspicion *s;

	if (q->count == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 256;

		s = realloc(q->own, cap * sizeof(*s));
		if (!s) {
			q->lost++;
			return;
		}
		q->own = s;
		q->cap = cap;
	}
	s = &q->own[q->count++];
	s->at = at;
	s->by = by;
	s->whom = whom;
	s->why = why;
}

/* Every event of node @idx's subscription, as far as it has any. */
static void quiet_read(struct quiet *q, unsigned int idx)
{
	struct node *nd = &q->c->nodes[idx];
	const struct ftnl_event_expelled *x;
	const struct ftnl_event_failure *f;
	struct ftnl_event e;
	int r;

	while ((r = ftnl_events_read(nd->ev, &e)) > 0) {
		switch (e.type) {
		case FTNL_EVENT_OVERRUN:
			q->overruns++;
			break;
		case FTNL_EVENT_FAILURE:
			f = &e.failure;
			if (f->generation != nd->generation)
				break;
			q->failures++;
			if (f->cause == FTNL_CAUSE_BROADCAST)
				q->learned++;
			else
				quiet_record(q, idx + 1, f->node_id,
					     ftnl_event_cause_name(f->cause),
					     f->time_mono_ns);
			break;
		case FTNL_EVENT_EXPELLED:
			x = &e.expelled;
			if (x->generation != nd->generation)
				break;
			q->expelled++;
			if (x->reason == FTNL_EXPEL_QUORUM ||
			    x->reason == FTNL_EXPEL_DEAF)
				quiet_record(q, idx + 1, idx + 1,
					     ftnl_expel_reason_name(x->reason),
					     x->time_mono_ns);
			break;
		default:
			break;
		}
	}
	if (r < 0)
		msg("node %u: events: %s", idx + 1, strerror(-r));
}

int quiet_pump(struct quiet *q, uint64_t until)
{
	struct epoll_event ev[64];
	uint64_t now;
	int n, i;

	while ((now = mono_ns()) < until) {
		n = epoll_wait(q->c->epfd, ev, 64,
			       (int)((until - now) / 1000000) + 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < n; i++)
			quiet_read(q, ev[i].data.u32);
	}
	return 0;
}

void quiet_drain(struct quiet *q)
{
	unsigned int i;

	for (i = 0; i < q->c->o->nodes; i++)
		quiet_read(q, i);
}

/*
 * Before the ring is deleted: what each node holds at the end (its own
 * state, the others it holds dead) and the counters of events it could
 * not publish, so that a death without an event shows.
 */
void quiet_inspect(struct quiet *q)
{
	unsigned int i, n = q->c->o->nodes;
	struct ftnl_node_table t;
	struct ftnl_stats st;
	size_t k;

	/* Kept for quiet_finish(), which runs once the ring is gone. */
	q->stats = calloc(n, sizeof(*q->stats));
	q->stats_read = calloc(n, sizeof(*q->stats_read));
	if (!q->stats || !q->stats_read) {
		free(q->stats);
		free(q->stats_read);
		q->stats = NULL;
		q->stats_read = NULL;
	}
	for (i = 0; i < n; i++) {
		struct ftnl_handle *h = q->c->nodes[i].h;

		if (!ftnl_stats_get(h, &st)) {
			if (q->stats) {
				q->stats[i] = st;
				q->stats_read[i] = true;
			}
			q->events_unpublished += st.events_lost +
						 st.events_queue_overflow +
						 st.events_notify_failed;
			q->expelled_recv += st.expelled_recv;
			q->sent_ring += st.hb_sent + st.new_observer_sent +
					st.leave_sent;
			q->sent_probe += st.probe_req_sent + st.probe_ack_sent;
			q->rx_unread += st.host_rx_unread;
			q->probes_deferred += st.probes_deferred;
			q->asks_held += st.probe_asks_held;
			q->sent_other += st.bcast_sent + st.expelled_sent;
		}
		if (ftnl_node_list(h, &t))
			continue;
		for (k = 0; k < t.count; k++) {
			if (t.nodes[k].self &&
			    t.nodes[k].state != FTNL_NODE_STATE_ALIVE) {
				q->end_not_member++;
				msg("  quiet: node %u ends the run %s", i + 1,
				    ftnl_node_state_name(t.nodes[k].state));
			} else if (!t.nodes[k].self &&
				   t.nodes[k].state != FTNL_NODE_STATE_ALIVE) {
				q->end_held_dead++;
			}
		}
		ftnl_node_table_free(&t);
	}
}

/* Node @id's counters as quiet_inspect() read them, if it could. */
static void quiet_print_stats(const struct quiet *q, unsigned int id)
{
	if (q->stats && id >= 1 && id <= q->c->o->nodes &&
	    q->stats_read[id - 1])
		print_stats(id, &q->stats[id - 1]);
}

static void quiet_stop_probe(struct quiet *q)
{
	if (q->probing)
		stall_probe_stop();
	/* Stopping it twice is harmless. */
	if (q->backlog_probed)
		backlog_probe_stop();
	q->probing = false;
}

static int by_time(const void *a, const void *b)
{
	const struct suspicion *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static const char *const class_name[QUIET_CLASSES] = {
	"stall", "follow-on of a stall", "full", "follow-on of a full backlog",
	"follow-on of another", "other",
};

/* The class of a suspicion that follows one of class @c. */
static enum quiet_class follow_of(enum quiet_class c)
{
	switch (c) {
	case QUIET_STALL:
	case QUIET_FOLLOW_STALL:
		return QUIET_FOLLOW_STALL;
	case QUIET_FULL:
	case QUIET_FOLLOW_FULL:
		return QUIET_FOLLOW_FULL;
	default:
		return QUIET_FOLLOW_OTHER;
	}
}

void quiet_finish(struct quiet *q, const char *label, unsigned int n)
{
	unsigned int cls[QUIET_CLASSES] = { 0 }, shown = 0;
	uint64_t long_ns = q->d_ns - q->h_ns, last = 0;
	enum quiet_class last_cls = QUIET_OTHER, k;
	struct interval_summary st, bs;
	uint64_t readings;
	uint64_t cpu_end[7];
	struct ksoftirqd_times ksirqd_end;
	long tick_hz = sysconf(_SC_CLK_TCK);
	size_t i;
	int j;

	quiet_stop_probe(q);
	q->backlog_drops = softnet_dropped() - q->backlog_drops;
	cpu_times(cpu_end);
	for (j = 0; j < 7; j++)
		q->cpu[j] = cpu_end[j] - q->cpu[j];
	ksoftirqd_read(&ksirqd_end);
	ksoftirqd_since(&q->ksirqd, &q->ksirqd, &ksirqd_end);
	if (tick_hz <= 0)
		tick_hz = 100;
	stall_summary(long_ns, &st);
	backlog_probe_summary(long_ns, &bs, &readings);
	if (q->count)
		qsort(q->own, q->count, sizeof(*q->own), by_time);
	for (i = 0; i < q->count; i++) {
		const struct suspicion *s = &q->own[i];

		uint64_t from = s->at - q->d_ns, to = s->at + QUIET_STALL_SLACK_NS;

		if (stall_within(from, to, long_ns))
			k = QUIET_STALL;
		else if (i && s->at <= last + 3 * q->d_ns)
			k = follow_of(last_cls);
		else if (backlog_probe_within(from, to, long_ns))
			k = QUIET_FULL;
		else
			k = QUIET_OTHER;
		cls[k]++;
		last = s->at;
		last_cls = k;
		if (k == QUIET_STALL || k == QUIET_FOLLOW_STALL ||
		    shown >= QUIET_SHOWN)
			continue;
		shown++;
		msg("  quiet: node %u declared live node %u dead (%s) at %.3f s, no stall of %.0f ms or more around it, %s (%s)",
		    s->by, s->whom, s->why,
		    (double)s->at / 1e9, (double)long_ns / 1e6,
		    !q->backlog_probed ? "backlog not probed" :
		    backlog_probe_within(from, to, long_ns) ?
		    "an input backlog dropping that long" :
		    "no input backlog dropping that long", class_name[k]);
		if (shown <= 2) {
			quiet_print_stats(q, s->by);
			quiet_print_stats(q, s->whom);
		}
	}
	quiet_release(q);
	printf("RESULT test=quiet load=%s n=%u h_ms=%" PRIu64 " d_ms=%" PRIu64
	       " suspicions=%zu learned=%" PRIu64 " expelled=%" PRIu64
	       " stalled=%u follow_stalled=%u full=%u follow_full=%u"
	       " follow_other=%u other=%u unrecorded=%" PRIu64
	       " overruns=%" PRIu64 " stalls=%u stalls_ge_d_h=%u"
	       " stall_max_us=%" PRIu64 " stall_total_ms=%" PRIu64
	       " stalls_unrecorded=%u backlog_drops=%" PRIu64 " end_not_member=%u end_held_dead=%u"
	       " events_unpublished=%" PRIu64 " expelled_recv=%" PRIu64
	       " sent_ring=%" PRIu64 " sent_probe=%" PRIu64
	       " sent_other=%" PRIu64 " cpu_user_pct=%.1f cpu_sys_pct=%.1f"
	       " cpu_irq_pct=%.1f cpu_softirq_pct=%.1f cpu_idle_pct=%.1f"
	       " cpu_steal_pct=%.1f cpu_softirq_ms=%" PRIu64
	       " ksoftirqd_threads=%u ksoftirqd_run_ms=%" PRIu64
	       " ksoftirqd_wait_ms=%" PRIu64 " ksoftirqd_runs=%" PRIu64
	       " rx_unread=%" PRIu64 " probes_deferred=%" PRIu64
	       " asks_held=%" PRIu64,
	       label, n, q->h_ns / 1000000, q->d_ns / 1000000, q->count,
	       q->learned, q->expelled, cls[QUIET_STALL], cls[QUIET_FOLLOW_STALL],
	       cls[QUIET_FULL], cls[QUIET_FOLLOW_FULL],
	       cls[QUIET_FOLLOW_OTHER], cls[QUIET_OTHER], q->lost,
	       q->overruns, st.count,
	       st.long_count, st.max_ns / 1000, st.total_ns / 1000000,
	       st.unrecorded, q->backlog_drops, q->end_not_member, q->end_held_dead,
	       q->events_unpublished, q->expelled_recv, q->sent_ring,
	       q->sent_probe, q->sent_other, cpu_pct(q, CPU_USER),
	       cpu_pct(q, CPU_SYS), cpu_pct(q, CPU_IRQ),
	       cpu_pct(q, CPU_SOFTIRQ), cpu_pct(q, CPU_IDLE),
	       cpu_pct(q, CPU_STEAL),
	       q->cpu[CPU_SOFTIRQ] * 1000 / (uint64_t)tick_hz,
	       q->ksirqd.threads, q->ksirqd.run_ns / 1000000,
	       q->ksirqd.wait_ns / 1000000, q->ksirqd.runs, q->rx_unread,
	       q->probes_deferred, q->asks_held);
	/* Without the probe (a control run), no full_* figure at all. */
	if (q->backlog_probed)
		printf(" full_readings=%" PRIu64 " full_episodes=%u"
		       " full_ge_d_h=%u full_longest_us=%" PRIu64
		       " full_total_ms=%" PRIu64 " full_unrecorded=%u",
		       readings, bs.count, bs.long_count, bs.max_ns / 1000,
		       bs.total_ns / 1000000, bs.unrecorded);
	putchar('\n');
}

void quiet_release(struct quiet *q)
{
	quiet_stop_probe(q);
	free(q->own);
	q->own = NULL;
	q->cap = 0;
	free(q->stats);
	q->stats = NULL;
	free(q->stats_read);
	q->stats_read = NULL;
}
