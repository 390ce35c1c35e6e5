// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-bench-hbtrace: where each late heartbeat of one node lost its time
 * (issue 10 item 7), read from an ftrace text trace of that node's CPU.
 *
 * The lateness histogram says how late heartbeats were, not why. With the
 * node alone on its CPU (ftnl-bench lateness --own-cpu) and the stall probe
 * waking there every 1 ms, bench-guest.sh traces that CPU only, on the
 * monotonic clock: every hrtimer's arming and expiry (timer:hrtimer_start,
 * hrtimer_expire_entry; the heartbeat's is function ftnl_ring_hb_kick),
 * every softirq handler's entry and exit (irq:softirq_entry, _exit: the
 * heartbeat is sent from the HI tasklet that timer schedules), every local
 * timer interrupt (irq_vectors:local_timer_entry) and every task switch
 * (sched:sched_switch). Each heartbeat's way from its deadline to the end
 * of its HI handler is cut into:
 *
 *   irq      deadline -> the timer's interrupt: the CPU took no interrupt
 *   netrx    the interrupt -> the HI handler, inside the network receive
 *            softirq (NET_RX: the node's received datagrams, broadcasts
 *            among them)
 *   softirq  ... inside another softirq handler
 *   other    ... outside any, cut by the task that ran: ksoftirqd (the
 *            softirqs were left to it), a kworker or any other task (with
 *            bottom halves off: ftnl's netlink commands and its process
 *            exits' broadcasts run so), a real-time task (the stall probe
 *            itself, which never turns bottom halves off), idle
 *   handler  the HI handler itself (the heartbeat, ring lock included, and
 *            what the handler sends after it)
 *
 * Stalls are times the CPU took no interrupt (the vCPU did not run, or had
 * interrupts off): from a hard timer's expiry to its interrupt when that
 * came TIMER_LATE_MIN_NS or more late, and a gap of twice the tick or
 * more between the CPU's local timer interrupts, less the tick expected
 * (--tick-us: ticker.h's period, which keeps a timer interrupt coming
 * whatever runs; 1 ms without it, the stall probe's, whose thread cannot
 * re-arm its timer while a softirq handler runs: a stall there is then
 * seen only if another timer falls due in it). The timer interrupts' own
 * handling (irq_vectors:local_timer_entry to _exit) counts with stalls:
 * the ticker's, the probe's and the tick's are the bed's, and the
 * heartbeat timer's only schedules the tasklet.
 *
 * What can be the node's own work (ftnl's, or the kernel's on its behalf)
 * is netrx, softirq, other but idle and real-time, and handler, outside
 * stalls: a late heartbeat is "covered" when that is under the lateness
 * threshold. The rest cannot be: irq (a hard timer's interrupt waits only
 * for the vCPU and for interrupts to be on, and ftnl never turns them off),
 * a HI softirq pending while the CPU idles or the probe runs (neither keeps
 * bottom halves off: nothing in the guest held it), and stalls. Seen
 * stalls cover only part of the emulator's, so "work" is an upper bound.
 * Only the probe's window counts (--from, --to: CLOCK_MONOTONIC
 * nanoseconds, the trace's clock). Usage:
 *
 *   ftnl-bench-hbtrace [--cpu C] [--late-us T] [--from NS --to NS]
 *                      [--tick-us P] TRACE
 *
 * prints one RESULT test=hbtrace line and, on stderr, the late heartbeats
 * that are not covered (at most 10; the trace lines of the first 3).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS			1000000ULL
#define TIMER_LATE_MIN_NS	(200 * 1000ULL)
#define MAX_TIMERS		64
#define MAX_SEGS		256
#define MAX_REPORTED		10
#define MAX_DUMPED		3	/* their trace lines, too */
#define KEPT_LINES		512
#define HB_FUNCTION		"function=ftnl_ring_hb_kick "
#define VEC_HI			0	/* softirq numbers, as traced */
#define VEC_NET_RX		3

enum part { P_IRQ, P_NETRX, P_SOFTIRQ, P_OTHER, P_HANDLER, P_COUNT };

static const char *const part_name[P_COUNT] = {
	"irq", "netrx", "softirq", "other", "handler",
};

/* The task running on the CPU, for the other part. */
enum task { T_KSOFTIRQD, T_KWORKER, T_RT, T_IDLE, T_TASK, T_COUNT };

static const char *const task_name[T_COUNT] = {
	"ksoftirqd", "kworker", "rt", "idle", "task",
};

struct seg {
	uint64_t from, to;
	enum part part;
	enum task task;
};

struct stall {
	uint64_t from, to;
};

/* A hrtimer of the CPU, by its (hashed) address, and its expiry. */
struct timer {
	uint64_t addr, expires;
	bool soft;
};

enum hb_state { HB_IDLE, HB_WAIT, HB_HANDLER };

/* One heartbeat's way, cut into segments. */
struct beat {
	uint64_t due, end;
	struct seg seg[MAX_SEGS];
	unsigned int nseg;
	bool overflow;
	bool pending;		/* done, waiting for the stalls it may hide */
};

struct tracer {
	int cpu;
	uint64_t late_ns;
	uint64_t from, to;	/* the window: heartbeats due and done in it */
	uint64_t tick_ns;	/* timer interrupts come at least this often */
	/*
	 * The heartbeat under way, and the last one done: a stall is known
	 * only at the next timer interrupt, so a heartbeat is judged at the
	 * end of the first timer interrupt after its own end.
	 */
	enum hb_state state;
	uint64_t next_due, cursor;
	bool has_next_due;
	struct beat cur, done;
	/* The CPU's softirq handler running now, -1 none; its task. */
	int vec;
	enum task task;
	/* Stalls (disjoint, in order), from the timer interrupts. */
	struct stall *stall;
	size_t nstall, stall_cap;
	uint64_t last_timer, gap_max_ns;
	struct timer timer[MAX_TIMERS];
	unsigned int ntimer;
	unsigned long late_timers, gaps;
	uint64_t timer_late_max_ns;
	/* Results. */
	unsigned long beats, late, covered, unknown_due, seg_overflows;
	uint64_t sum[P_COUNT], live[P_COUNT], live_max[P_COUNT];
	uint64_t other_live[T_COUNT];	/* of live[P_OTHER] */
	/* The network receive softirq's runs in the window. */
	uint64_t netrx_since, netrx_busy_ns, netrx_run_max_ns;
	unsigned long netrx_runs;
	uint64_t work_max_ns;	/* of a late heartbeat */
	unsigned int reported;
	/* The last lines read and their times, for a late heartbeat's dump. */
	char kept[KEPT_LINES][256];
	uint64_t kept_ts[KEPT_LINES];
	unsigned int nkept;
};

static void die(const char *what)
{
	fprintf(stderr, "ftnl-bench-hbtrace: %s\n", what);
	exit(1);
}

static void add_seg(struct tracer *t, uint64_t from, uint64_t to,
		    enum part part)
{
	if (to <= from)
		return;
	if (t->cur.nseg == MAX_SEGS) {
		t->cur.overflow = true;
		return;
	}
	t->cur.seg[t->cur.nseg++] = (struct seg){ from, to, part, t->task };
}

/* Of [@from, @to), the time outside every stall. */
static uint64_t outside_stalls(const struct tracer *t, uint64_t from,
			       uint64_t to)
{
	uint64_t len = to - from;
	size_t i = t->nstall;

	while (i--) {
		const struct stall *s = &t->stall[i];
		uint64_t a, b;

		if (s->to <= from)
			break;
		a = s->from > from ? s->from : from;
		b = s->to < to ? s->to : to;
		if (b > a)
			len -= b - a;
	}
	return len;
}

/* Can @s be the node's own work? (See the top of the file.) */
static bool may_be_work(const struct seg *s)
{
	return s->part != P_IRQ &&
	       !(s->part == P_OTHER && (s->task == T_IDLE || s->task == T_RT));
}

static void finish_beat(struct tracer *t, struct beat *b)
{
	uint64_t part_all[P_COUNT] = { 0 }, part_live[P_COUNT] = { 0 };
	uint64_t other_live[T_COUNT] = { 0 };
	uint64_t total = b->end - b->due, total_live = 0;
	unsigned int i;

	b->pending = false;
	if (b->due < t->from || b->end > t->to)
		return;
	t->beats++;
	if (b->overflow)
		t->seg_overflows++;
	for (i = 0; i < b->nseg; i++) {
		const struct seg *s = &b->seg[i];
		uint64_t live = outside_stalls(t, s->from, s->to);

		part_all[s->part] += s->to - s->from;
		part_live[s->part] += live;
		if (s->part == P_OTHER)
			other_live[s->task] += live;
		if (may_be_work(s))
			total_live += live;
	}
	if (total < t->late_ns)
		return;
	t->late++;
	for (i = 0; i < P_COUNT; i++) {
		t->sum[i] += part_all[i];
		t->live[i] += part_live[i];
		if (part_live[i] > t->live_max[i])
			t->live_max[i] = part_live[i];
	}
	for (i = 0; i < T_COUNT; i++)
		t->other_live[i] += other_live[i];
	if (total_live > t->work_max_ns)
		t->work_max_ns = total_live;
	if (total_live < t->late_ns) {
		t->covered++;
		return;
	}
	if (t->reported++ < MAX_REPORTED) {
		fprintf(stderr, "hbtrace: due %" PRIu64 ".%06" PRIu64
			" late %" PRIu64 " us, work %" PRIu64 " us:",
			b->due / 1000000000, b->due % 1000000000 / 1000,
			total / 1000, total_live / 1000);
		for (i = 0; i < P_COUNT; i++)
			fprintf(stderr, " %s %" PRIu64 "/%" PRIu64, part_name[i],
				part_live[i] / 1000, part_all[i] / 1000);
		fprintf(stderr, " (other:");
		for (i = 0; i < T_COUNT; i++)
			if (other_live[i])
				fprintf(stderr, " %s %" PRIu64, task_name[i],
					other_live[i] / 1000);
		fprintf(stderr, ")\n");
	}
	if (t->reported <= MAX_DUMPED) {
		unsigned int n = t->nkept < KEPT_LINES ? t->nkept : KEPT_LINES;

		for (i = t->nkept - n; i < t->nkept; i++)
			if (t->kept_ts[i % KEPT_LINES] + MS / 2 >= b->due)
				fprintf(stderr, "hbtrace:   %s\n",
					t->kept[i % KEPT_LINES]);
	}
}

/*
 * Adds [@from, @to) to the stalls, which stay disjoint and in order. A
 * stall ends about when the event that shows it comes, so it overlaps
 * only the last ones, if any: they merge.
 */
static void add_stall(struct tracer *t, uint64_t from, uint64_t to)
{
	if (to <= from)
		return;
	while (t->nstall && from <= t->stall[t->nstall - 1].to) {
		if (t->stall[t->nstall - 1].from < from)
			from = t->stall[t->nstall - 1].from;
		/* A late timer's expiry time may precede the interrupt's. */
		if (t->stall[t->nstall - 1].to > to)
			to = t->stall[t->nstall - 1].to;
		t->nstall--;
	}
	if (t->nstall == t->stall_cap) {
		t->stall_cap = t->stall_cap ? 2 * t->stall_cap : 1024;
		t->stall = realloc(t->stall, t->stall_cap * sizeof(*t->stall));
		if (!t->stall)
			die("out of memory");
	}
	t->stall[t->nstall++] = (struct stall){ from, to };
}

static struct timer *find_timer(struct tracer *t, uint64_t addr, bool add)
{
	unsigned int i;

	for (i = 0; i < t->ntimer; i++)
		if (t->timer[i].addr == addr)
			return &t->timer[i];
	if (!add)
		return NULL;
	/* More timers than that on one CPU: the oldest entry goes. */
	if (t->ntimer == MAX_TIMERS)
		memmove(t->timer, t->timer + 1,
			--t->ntimer * sizeof(t->timer[0]));
	t->timer[t->ntimer] = (struct timer){ .addr = addr };
	return &t->timer[t->ntimer++];
}

/* A hard timer's interrupt late: the CPU took none from its expiry on. */
static void on_timer_expiry(struct tracer *t, uint64_t addr, uint64_t now)
{
	const struct timer *tm = find_timer(t, addr, false);

	if (!tm || tm->soft || !tm->expires || now < tm->expires ||
	    now - tm->expires < TIMER_LATE_MIN_NS ||
	    tm->expires < t->from || now > t->to)
		return;
	t->late_timers++;
	if (now - tm->expires > t->timer_late_max_ns)
		t->timer_late_max_ns = now - tm->expires;
	add_stall(t, tm->expires, now);
}

static void on_local_timer(struct tracer *t, uint64_t ts)
{
	if (t->last_timer && t->last_timer >= t->from && ts <= t->to &&
	    ts - t->last_timer >= 2 * t->tick_ns) {
		t->gaps++;
		add_stall(t, t->last_timer + t->tick_ns, ts);
		if (ts - t->last_timer > t->gap_max_ns)
			t->gap_max_ns = ts - t->last_timer;
	}
	t->last_timer = ts;
}

/* The wait's part that a softirq handler @vec, or none (-1), spent. */
static enum part wait_part(int vec)
{
	if (vec < 0)
		return P_OTHER;
	return vec == VEC_NET_RX ? P_NETRX : P_SOFTIRQ;
}

static void on_softirq(struct tracer *t, uint64_t ts, int vec, bool entry)
{
	if (vec == VEC_NET_RX && entry) {
		t->netrx_since = ts >= t->from ? ts : 0;
	} else if (vec == VEC_NET_RX && t->netrx_since && ts <= t->to) {
		t->netrx_runs++;
		t->netrx_busy_ns += ts - t->netrx_since;
		if (ts - t->netrx_since > t->netrx_run_max_ns)
			t->netrx_run_max_ns = ts - t->netrx_since;
		t->netrx_since = 0;
	}
	if (vec == VEC_HI && entry && t->state == HB_WAIT) {
		add_seg(t, t->cursor, ts, wait_part(t->vec));
		t->cursor = ts;
		t->state = HB_HANDLER;
	} else if (vec == VEC_HI && !entry && t->state == HB_HANDLER) {
		add_seg(t, t->cursor, ts, P_HANDLER);
		if (t->done.pending)
			finish_beat(t, &t->done);
		t->cur.end = ts;
		t->cur.pending = true;
		t->done = t->cur;
		t->state = HB_IDLE;
	} else if (t->state == HB_WAIT) {
		/* Up to now the wait was the running handler's, or nobody's. */
		add_seg(t, t->cursor, ts, wait_part(t->vec));
		t->cursor = ts;
	}
	t->vec = entry ? vec : -1;
}

/* The number after @name in @line, in @base. */
static bool field(const char *line, const char *name, int base, uint64_t *v)
{
	const char *p = strstr(line, name);
	char *end;

	if (!p)
		return false;
	errno = 0;
	*v = strtoull(p + strlen(name), &end, base);
	return !errno && end != p + strlen(name);
}

/* "... ==> next_comm=C next_pid=P next_prio=R". */
static void on_switch(struct tracer *t, uint64_t ts, const char *ev)
{
	const char *next = strstr(ev, "next_comm=");
	uint64_t prio;

	if (!next)
		return;
	if (t->state == HB_WAIT && t->vec < 0) {
		/* The wait so far was the previous task's. */
		add_seg(t, t->cursor, ts, P_OTHER);
		t->cursor = ts;
	}
	next += strlen("next_comm=");
	if (!strncmp(next, "ksoftirqd", 9))
		t->task = T_KSOFTIRQD;
	else if (!strncmp(next, "kworker", 7))
		t->task = T_KWORKER;
	else if (!strncmp(next, "swapper", 7))
		t->task = T_IDLE;
	else if (field(next, "next_prio=", 10, &prio) && prio < 100)
		t->task = T_RT;
	else
		t->task = T_TASK;
}

static void on_hb_expiry(struct tracer *t, uint64_t now)
{
	if (!t->has_next_due) {
		/* The trace began after the timer was armed. */
		t->unknown_due++;
		t->state = HB_IDLE;
		return;
	}
	t->cur.due = t->next_due;
	t->has_next_due = false;
	t->cur.nseg = 0;
	t->cur.overflow = false;
	if (now < t->cur.due)
		now = t->cur.due;
	add_seg(t, t->cur.due, now, P_IRQ);
	t->cursor = now;
	t->state = HB_WAIT;
}

/*
 * "TASK-PID [CPU] FLAGS SECONDS.MICROS: EVENT: ARGS": the timestamp is the
 * word before ": EVENT: ", the CPU the first bracketed number.
 */
static void on_line(struct tracer *t, const char *line)
{
	static const char *const events[] = {
		": hrtimer_start: ", ": hrtimer_expire_entry: ",
		": softirq_entry: ", ": softirq_exit: ",
		": local_timer_entry: ", ": sched_switch: ",
		": local_timer_exit: ",
	};
	const char *ev = NULL, *p, *bracket;
	unsigned long long sec, usec;
	unsigned int i, which = 0;
	uint64_t ts, v, addr;
	int cpu;

	for (i = 0; i < sizeof(events) / sizeof(events[0]) && !ev; i++) {
		ev = strstr(line, events[i]);
		which = i;
	}
	if (!ev)
		return;
	bracket = strchr(line, '[');
	if (!bracket || sscanf(bracket, "[%d]", &cpu) != 1 || cpu != t->cpu)
		return;
	for (p = ev; p > line && p[-1] != ' '; p--)
		;
	if (sscanf(p, "%llu.%6llu", &sec, &usec) != 2)
		return;
	ts = (uint64_t)sec * 1000000000ULL + (uint64_t)usec * 1000ULL;
	snprintf(t->kept[t->nkept % KEPT_LINES], sizeof(t->kept[0]), "%.*s",
		 (int)strcspn(line, "\n"), line);
	t->kept_ts[t->nkept++ % KEPT_LINES] = ts;
	switch (which) {
	case 0:
		if (!field(ev, "expires=", 10, &v))
			break;
		if (field(ev, "hrtimer=", 16, &addr)) {
			struct timer *tm = find_timer(t, addr, true);

			tm->expires = v;
			tm->soft = strstr(ev, "SOFT");
		}
		if (strstr(ev, HB_FUNCTION)) {
			t->next_due = v;
			t->has_next_due = true;
		}
		break;
	case 1:
		if (!field(ev, "now=", 10, &v))
			break;
		if (field(ev, "hrtimer=", 16, &addr))
			on_timer_expiry(t, addr, v);
		if (strstr(ev, HB_FUNCTION))
			on_hb_expiry(t, v);
		break;
	case 2:
	case 3:
		if (field(ev, "vec=", 10, &v))
			on_softirq(t, ts, (int)v, which == 2);
		break;
	case 4:
		on_local_timer(t, ts);
		break;
	case 5:
		on_switch(t, ts, ev);
		break;
	case 6:
		/* Its own handling, from the entry on_local_timer() noted. */
		if (t->last_timer && t->last_timer >= t->from && ts <= t->to)
			add_stall(t, t->last_timer, ts);
		/* This interrupt showed what stalls reach back past it. */
		if (t->done.pending && ts > t->done.end)
			finish_beat(t, &t->done);
		break;
	}
}

int main(int argc, char **argv)
{
	static struct tracer t = { .late_ns = 1 * MS, .to = UINT64_MAX,
				   .tick_ns = 1 * MS, .vec = -1 };
	const char *path = NULL;
	uint64_t stalled;
	char line[1024];
	unsigned int i;
	FILE *f;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < (unsigned int)argc)
			t.cpu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--late-us") &&
			 i + 1 < (unsigned int)argc)
			t.late_ns = strtoull(argv[++i], NULL, 10) * 1000;
		else if (!strcmp(argv[i], "--from") &&
			 i + 1 < (unsigned int)argc)
			t.from = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--to") && i + 1 < (unsigned int)argc)
			t.to = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--tick-us") &&
			 i + 1 < (unsigned int)argc)
			t.tick_ns = strtoull(argv[++i], NULL, 10) * 1000;
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else {
			path = NULL;
			break;
		}
	}
	if (!path || !t.late_ns || t.from >= t.to || !t.tick_ns) {
		fprintf(stderr,
			"usage: ftnl-bench-hbtrace [--cpu C] [--late-us T] "
			"[--from NS --to NS] [--tick-us P] TRACE\n");
		return 2;
	}
	f = fopen(path, "r");
	if (!f)
		die(strerror(errno));
	while (fgets(line, sizeof(line), f))
		on_line(&t, line);
	fclose(f);
	if (t.done.pending)
		finish_beat(&t, &t.done);
	printf("RESULT test=hbtrace beats=%lu late_us=%" PRIu64
	       " late=%lu covered=%lu", t.beats, t.late_ns / 1000, t.late,
	       t.covered);
	for (i = 0; i < P_COUNT; i++)
		printf(" %s_us=%" PRIu64 " %s_live_us=%" PRIu64
		       " %s_live_max_us=%" PRIu64, part_name[i], t.sum[i] / 1000,
		       part_name[i], t.live[i] / 1000, part_name[i],
		       t.live_max[i] / 1000);
	for (i = 0; i < T_COUNT; i++)
		printf(" other_%s_live_us=%" PRIu64, task_name[i],
		       t.other_live[i] / 1000);
	printf(" netrx_runs=%lu netrx_busy_us=%" PRIu64
	       " netrx_run_max_us=%" PRIu64, t.netrx_runs,
	       t.netrx_busy_ns / 1000, t.netrx_run_max_ns / 1000);
	for (i = 0, stalled = 0; i < t.nstall; i++)
		stalled += t.stall[i].to - t.stall[i].from;
	printf(" work_max_us=%" PRIu64 " stalled_us=%" PRIu64 " gaps=%lu"
	       " gap_max_us=%" PRIu64
	       " tick_us=%" PRIu64 " late_timers=%lu timer_late_max_us=%" PRIu64
	       " unknown_due=%lu seg_overflows=%lu\n", t.work_max_ns / 1000,
	       stalled / 1000, t.gaps, t.gap_max_ns / 1000, t.tick_ns / 1000,
	       t.late_timers,
	       t.timer_late_max_ns / 1000, t.unknown_due, t.seg_overflows);
	free(t.stall);
	return 0;
}
