// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-bench: the ring benchmark's driver, run inside the VM in the root
 * netns of a virtual cluster made by ftnl-bench-guest (netns PREFIX-1..N,
 * node I at NET.I, its veth's bridge side named VETH<I>).
 *
 *   ftnl-bench detect   OPTIONS --trials K [--budget-s S]
 *   ftnl-bench lateness OPTIONS --duration-s S --label L [--warmup-s W]
 *                       [--uring-port P] [--no-uring] [--bcast-rate B]
 *                       [--attribute [--backlog-probe]]   (the quiet
 *                       runs: quiet.c)
 *   ftnl-bench bcast    OPTIONS --algo hypercube|bmg|fcg --trials K
 *                       [--budget-s S] [--fcg-f F] [--gossip-t-us T]
 *                       [--predict-runs R]
 *   ftnl-bench predict  --nodes N --algo A [--fcg-f F] [--gossip-t-us T]
 *                       [--predict-runs R]   (no VM needed)
 *   ftnl-bench tipc     OPTIONS --tolerance-ms T --trials K [--budget-s S]
 *                       [--rate-s R]   (TIPC beside ftnl: tipc.c)
 *   ftnl-bench adapt    OPTIONS --label PATTERN --duration-s S --trials K
 *                       [--budget-s B] [--adaptive-min-ms M [--nines N]]
 *                       [--model-base-us U] [--model-jitter-us J]
 *                       [--model-loss-ppm L] [--model-spike-ppm P]
 *                       [--model-spike-us Q] [--model-beats B]
 *                       (fixed against adaptive timeouts: adapt.c)
 *
 *   OPTIONS: --prefix P --veth V --nodes N --net A.B.C --port P
 *            --hb-ms H --timeout-ms D [--seed S] [--quorum on|off]
 *
 * detect: K times, configure the kernel ring on every node (delete, then
 * set: a fresh ring, fresh incarnations and a new cluster id everywhere),
 * wait until it is steady, silence one node by setting its bridge-side veth
 * down (immediate: nothing crosses a down port; CLOCK_MONOTONIC is read just
 * before), and wait for its observer's failure event. Detection latency =
 * the event's mono_ns (stamped by the kernel when task T3 ran) - silence.
 * When the module broadcasts failures, also wait for every survivor to
 * learn it. A live node declared dead is a false suspicion (see
 * on_trial_failure()).
 *
 * bcast: as detect, with every node broadcasting with the given algorithm;
 * per trial, when every survivor knows, wait until the survivors' broadcast
 * counters stop moving and sum them: the datagrams one notification cost.
 * Times from the silence and from the observer's detection to the last
 * survivor's event (all event stamps are the one guest's CLOCK_MONOTONIC).
 * Also prints what the algorithm's analysis predicts (predict.c).
 *
 * lateness: start one ftnl-uring (the same ring in a process) per node in
 * its netns, let them warm up, then restart them (SIGUSR1) and configure the
 * kernel ring at the same moment; after S seconds under whatever load the
 * caller started, read the kernel's stats (lateness histogram, max,
 * suspicions) and the userspace rings' reports, and summarize both the same
 * way. With --bcast-rate B (usually with --no-uring), broadcasts run during
 * the window: one process per node, in its netns, registers a process of
 * a job and closes its handle, over and over, so that the nodes together
 * start B process-exit broadcasts per second; the kernel ring's line is
 * then "test=bcastlat", with the broadcasts counted, to show whether
 * broadcast work delays heartbeats (Documentation/bench.rst). With
 * --own-cpu NODE, that node runs on CPU 0 alone and everything else on CPU
 * 1 (the caller steers receive work and turns timer migration off), and
 * its line (cpu=own) comes apart from the others' (cpu=shared), with the
 * stalls of 2 ms or more a probe on its CPU saw (cpu_stalls). With
 * --attribute, every failure event is read as it comes and each false
 * suspicion attributed to a measured stall or to ftnl (quiet.c), in one
 * more line, "test=quiet".
 *
 * Results are "RESULT key=value ..." lines on stdout (one per
 * configuration, one per ring for lateness), progress goes to stderr.
 * Exit status: 0 when the measurement ran (whatever it measured), 1 when it
 * could not (setup failure).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ftnl/ftnl.h>

#include "bench.h"
#include "quiet.h"
#include "hist.h"
#include "intervals.h"
#include "predict.h"
#include "stall.h"
#include "ticker.h"

/*
 * Every configuration the benchmark installs gets its own cluster id, so
 * that a datagram of a previous one still in flight (e.g. heartbeats a
 * silenced node queued behind ARP, delivered once its link is back) is
 * dropped as another cluster's instead of reaching the fresh ring.
 */
#define CLUSTER_ID_BASE	0x10000000U
/* After a detection, how long survivors may take to learn it by broadcast. */
#define BCAST_WAIT_NS	(2 * 1000000000ULL)




void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ftnl-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* xorshift64*: reproducible victims and phases from --seed. */
uint64_t rng_state;

uint64_t rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest-rank quantile of sorted @v (n > 0). */
uint64_t quantile(const uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p * (double)n);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

uint64_t median(const uint64_t *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* --- the virtual cluster --------------------------------------------------- */

int cluster_open(struct cluster *c, const struct opts *o)
{
	struct epoll_event ev = { .events = EPOLLIN };
	char path[128];
	unsigned int i;
	int err;

	memset(c, 0, sizeof(*c));
	c->o = o;
	c->rootfd = c->epfd = c->ifsock = -1;
	c->nodes = calloc(o->nodes, sizeof(*c->nodes));
	c->cfg.nodes = calloc(o->nodes, sizeof(*c->cfg.nodes));
	if (!c->nodes || !c->cfg.nodes) {
		msg("out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < o->nodes; i++)
		c->nodes[i].nsfd = -1;
	c->rootfd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	c->ifsock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (c->rootfd < 0 || c->epfd < 0 || c->ifsock < 0) {
		msg("setup: %s", strerror(errno));
		return -errno;
	}

	/* Milliseconds since boot: every set takes longer than 1 ms, so ids
	 * never repeat within one boot, across invocations too. */
	c->cfg.cluster_id = CLUSTER_ID_BASE + (uint32_t)(mono_ns() / 1000000);
	c->cfg.hb_period_us = o->hb_ms * 1000;
	c->cfg.timeout_us = o->timeout_ms * 1000;
	c->cfg.node_count = o->nodes;
	c->cfg.has_bcast_algo = o->has_algo;
	c->cfg.bcast_algo = o->algo;
	c->cfg.has_fcg_f = o->has_fcg_f;
	c->cfg.fcg_f = o->fcg_f;
	c->cfg.has_gossip_t = o->has_gossip_t;
	c->cfg.gossip_t_us = o->gossip_t_us;
	c->cfg.has_quorum = o->has_quorum;
	c->cfg.quorum = o->quorum;
	if (getrandom(c->cfg.key, sizeof(c->cfg.key), 0) != sizeof(c->cfg.key)) {
		msg("getrandom: %s", strerror(errno));
		return -EIO;
	}
	for (i = 0; i < o->nodes; i++) {
		struct ftnl_node *n = &c->cfg.nodes[i];
		struct node *nd = &c->nodes[i];
		char addr[32];

		n->id = i + 1;
		n->family = AF_INET;
		n->port = (uint16_t)o->port;
		snprintf(addr, sizeof(addr), "%s.%u", o->net, i + 1);
		if (inet_pton(AF_INET, addr, &n->addr.v4) != 1) {
			msg("bad address %s", addr);
			return -EINVAL;
		}

		nd->id = i + 1;
		snprintf(path, sizeof(path), "/run/netns/%s-%u", o->prefix, i + 1);
		nd->nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nd->nsfd < 0) {
			msg("%s: %s", path, strerror(errno));
			return -errno;
		}
		/* Handles talk to the netns the thread is in when opened. */
		if (setns(nd->nsfd, CLONE_NEWNET)) {
			msg("setns %s: %s", path, strerror(errno));
			return -errno;
		}
		err = ftnl_open(&nd->h);
		if (!err)
			err = ftnl_events_open(&nd->ev);
		if (setns(c->rootfd, CLONE_NEWNET)) {
			msg("setns back: %s", strerror(errno));
			return -errno;
		}
		if (err) {
			msg("node %u: ftnl_open: %s", i + 1, strerror(-err));
			return err;
		}
		ev.data.u32 = i;
		if (epoll_ctl(c->epfd, EPOLL_CTL_ADD, ftnl_events_fd(nd->ev), &ev)) {
			msg("epoll_ctl: %s", strerror(errno));
			return -errno;
		}
	}
	return 0;
}

void cluster_close(struct cluster *c)
{
	unsigned int i;

	for (i = 0; c->nodes && i < c->o->nodes; i++) {
		ftnl_events_close(c->nodes[i].ev);
		ftnl_close(c->nodes[i].h);
		if (c->nodes[i].nsfd >= 0)
			close(c->nodes[i].nsfd);
	}
	free(c->nodes);
	free(c->cfg.nodes);
	if (c->rootfd >= 0)
		close(c->rootfd);
	if (c->epfd >= 0)
		close(c->epfd);
	if (c->ifsock >= 0)
		close(c->ifsock);
}

int cluster_del_all(struct cluster *c)
{
	unsigned int i;
	int err;

	for (i = 0; i < c->o->nodes; i++) {
		err = ftnl_cluster_del(c->nodes[i].h);
		if (err && err != -ENOENT) {
			msg("node %u: cluster del: %s", i + 1,
			    ftnl_errmsg(c->nodes[i].h));
			return err;
		}
	}
	return 0;
}

/*
 * --own-cpu: the node under test gets CPU OWN_CPU to itself, every other
 * node and the driver share SHARED_CPU. A ring's heartbeat timer runs on
 * the CPU that configured it (the guest script turns timer migration off)
 * and its receive work where its device's RPS map sends it (the guest
 * script steers it), so the node's CPU carries only its own share of a
 * broadcast, as a real node's does, instead of all 64 nodes' at once.
 */
#define OWN_CPU		0
#define SHARED_CPU	1

static int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		msg("sched_setaffinity to CPU %d: %s", cpu, strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * A fresh ring everywhere: delete first (new incarnations, no datagram of
 * an old ring can be taken for the new one), then set. Replacing in place
 * would not do: a replaced ring restarts its sequence numbers with the same
 * incarnation, and a neighbor still on the old ring drops them as replays.
 */
int cluster_set_all(struct cluster *c)
{
	struct ftnl_cluster_info info;
	unsigned int i;
	int err;

	c->cfg.cluster_id++;
	for (i = 0; i < c->o->nodes; i++) {
		bool own = c->o->own_cpu_node == i + 1;

		c->cfg.self_id = i + 1;
		if (own) {
			err = pin_to_cpu(OWN_CPU);
			if (err)
				return err;
		}
		err = ftnl_cluster_set(c->nodes[i].h, &c->cfg);
		if (own && pin_to_cpu(SHARED_CPU))
			return -EIO;
		if (!err)
			err = ftnl_cluster_get(c->nodes[i].h, &info);
		if (err) {
			msg("node %u: cluster set: %s", i + 1,
			    ftnl_errmsg(c->nodes[i].h));
			return err;
		}
		c->nodes[i].generation = info.generation;
	}
	return 0;
}

int link_set(struct cluster *c, unsigned int id, bool up)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s%u", c->o->veth, id);
	if (ioctl(c->ifsock, SIOCGIFFLAGS, &ifr))
		return -errno;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return ioctl(c->ifsock, SIOCSIFFLAGS, &ifr) ? -errno : 0;
}

/*
 * Forget what node @id's netns learned while it was cut off: its neighbor
 * entries of the nodes it tried to reach then are left INCOMPLETE, retried
 * only every second, and a datagram to them would wait for the next retry.
 * Setting its eth0 down and up flushes them (and changes nothing else: the
 * address and its route come back with the link).
 */
int neigh_reset(struct cluster *c, unsigned int id)
{
	struct ifreq ifr;
	int sock, err = 0;

	if (setns(c->nodes[id - 1].nsfd, CLONE_NEWNET))
		return -errno;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "eth0");
	if (sock < 0 || ioctl(sock, SIOCGIFFLAGS, &ifr)) {
		err = -errno;
	} else {
		ifr.ifr_flags &= ~IFF_UP;
		if (ioctl(sock, SIOCSIFFLAGS, &ifr))
			err = -errno;
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(sock, SIOCSIFFLAGS, &ifr) && !err)
			err = -errno;
	}
	if (sock >= 0)
		close(sock);
	if (setns(c->rootfd, CLONE_NEWNET))
		return -errno;
	return err;
}

/* --- events ---------------------------------------------------------------- */

/*
 * What a node's subscription had pending: failure events of its current
 * configuration are handed to @fn, everything else (cluster changes,
 * failures of a previous configuration) is dropped. Returns overruns seen.
 */

unsigned int drain_node(struct cluster *c, unsigned int idx,
			       failure_fn fn, void *arg)
{
	struct node *nd = &c->nodes[idx];
	struct ftnl_event e;
	unsigned int overruns = 0;
	int n;

	while ((n = ftnl_events_read(nd->ev, &e)) > 0) {
		if (e.type == FTNL_EVENT_OVERRUN)
			overruns++;
		if (e.type != FTNL_EVENT_FAILURE ||
		    e.failure.generation != nd->generation)
			continue;
		if (fn)
			fn(arg, idx, &e.failure, mono_ns());
	}
	if (n < 0)
		msg("node %u: events: %s", idx + 1, strerror(-n));
	return overruns;
}

unsigned int drain_all(struct cluster *c, failure_fn fn, void *arg)
{
	unsigned int i, overruns = 0;

	for (i = 0; i < c->o->nodes; i++)
		overruns += drain_node(c, i, fn, arg);
	return overruns;
}

/* --- detect ---------------------------------------------------------------- */

struct trial {
	struct cluster *c;
	unsigned int n;
	unsigned int victim;	/* ids */
	unsigned int observer;
	uint64_t silence_ns;
	bool detected;
	uint64_t latency_ns;
	uint64_t delivery_ns;	/* event stamped -> read by this process */
	bool *learned;		/* by index: knows the victim failed */
	unsigned int learned_count;
	uint64_t all_ns;	/* last survivor learned it (silence-relative) */
	unsigned int false_susp;	/* live nodes declared dead here */
	unsigned int false_bcast;	/* ... and learned so by broadcast */
	bool *bcast_seen;	/* the module broadcasts failures (run-wide) */
	bool bcast_known;	/* an earlier trial told whether it does */
};

/* What a node's counters say, for the diagnosis of a false suspicion. */
void print_stats(unsigned int id, const struct ftnl_stats *st)
{
	char drops[256] = "";
	size_t used = 0;
	int r, n;

	for (r = 0; r <= FTNL_DROP_MAX; r++) {
		if (!st->drops[r])
			continue;
		n = snprintf(drops + used, sizeof(drops) - used, " %s=%" PRIu64,
			     ftnl_drop_reason_name((unsigned int)r), st->drops[r]);
		if (n < 0 || (size_t)n >= sizeof(drops) - used)
			break;
		used += (size_t)n;
	}
	msg("    node %u: hb sent %" PRIu64 " from emitter %" PRIu64
	    " suspicions %" PRIu64 " new_observer sent %" PRIu64 " recv %"
	    PRIu64 " tx errors %" PRIu64 " lateness max %.1f ms"
	    " stall waits %" PRIu64 " probes deferred %" PRIu64 " drops:%s",
	    id, st->hb_sent, st->hb_from_emitter, st->suspicions,
	    st->new_observer_sent, st->new_observer_recv, st->tx_errors,
	    (double)st->lateness_max_ns / 1e6, st->stall_waits,
	    st->probes_deferred, used ? drops : " none");
}

void dump_stats(struct cluster *c, unsigned int id)
{
	struct ftnl_stats st;

	if (id < 1 || id > c->o->nodes || ftnl_stats_get(c->nodes[id - 1].h, &st))
		return;
	print_stats(id, &st);
}

/*
 * Classify one failure event of the current configuration. The victim's
 * observer detecting it (task T3) is the measurement; every other survivor
 * learning of it (broadcast) tells when all survivors knew. The victim,
 * cut off from everybody, legitimately suspects its own emitter. Anything
 * else declares a live node dead: a false suspicion where it was decided,
 * a false notification where it was only learned by broadcast.
 */
static void on_trial_failure(void *arg, unsigned int idx,
			     const struct ftnl_event_failure *f,
			     uint64_t read_ns)
{
	struct trial *t = arg;
	unsigned int id = idx + 1;
	/* Events are read late: what counts is when the kernel stamped it. */
	bool after = t->silence_ns && f->time_mono_ns >= t->silence_ns;

	if (f->cause == FTNL_CAUSE_BROADCAST)
		*t->bcast_seen = true;
	if (after && id == t->victim)
		return;
	if (after && f->node_id == t->victim) {
		if (id == t->observer && f->cause == FTNL_CAUSE_OBSERVED &&
		    !t->detected) {
			t->detected = true;
			t->latency_ns = f->time_mono_ns - t->silence_ns;
			t->delivery_ns = read_ns - f->time_mono_ns;
		}
		if (!t->learned[idx]) {
			t->learned[idx] = true;
			t->learned_count++;
			if (f->time_mono_ns - t->silence_ns > t->all_ns)
				t->all_ns = f->time_mono_ns - t->silence_ns;
		}
		return;
	}
	if (f->cause == FTNL_CAUSE_BROADCAST) {
		t->false_bcast++;
		return;
	}
	t->false_susp++;
	msg("  false suspicion: node %u declared live node %u dead (%s)%s", id,
	    f->node_id, ftnl_event_cause_name(f->cause),
	    after ? "" : " before the silence");
	if (t->false_susp <= 2) {
		dump_stats(t->c, id);
		dump_stats(t->c, f->node_id);
	}
}

/* Wait until the observer has taken a few heartbeats of the victim. */
static int wait_steady(struct cluster *c, const struct trial *t)
{
	uint64_t h = c->o->hb_ms * 1000000ULL, deadline;
	struct ftnl_stats st;
	int err;

	deadline = mono_ns() + 10 * 1000000000ULL + 20 * h;
	do {
		sleep_ns(h);
		err = ftnl_stats_get(c->nodes[t->observer - 1].h, &st);
		if (err)
			return err;
		if (st.hb_from_emitter >= 3 && !st.suspicions)
			return 0;
	} while (mono_ns() < deadline);
	return -ETIMEDOUT;
}

static int run_trial(struct cluster *c, struct trial *t)
{
	const struct opts *o = c->o;
	uint64_t h = o->hb_ms * 1000000ULL, d = o->timeout_ms * 1000000ULL;
	uint64_t until, now;
	struct epoll_event ev[64];
	int err, n, i;

	err = cluster_set_all(c);
	if (err)
		return err;
	err = wait_steady(c, t);
	if (err)
		return err;
	/* Steady for a whole timeout, and nobody suspected anybody. */
	sleep_ns(d);
	drain_all(c, on_trial_failure, t);

	sleep_ns(rng_next() % h);	/* random phase against the heartbeats */
	t->silence_ns = mono_ns();
	err = link_set(c, t->victim, false);
	if (err) {
		msg("veth of node %u down: %s", t->victim, strerror(-err));
		return err;
	}

	/*
	 * Far beyond d + h: a late detection is a measurement, not a hang.
	 * Once detected, and if the module broadcasts failures, wait a while
	 * longer for every survivor to learn it.
	 */
	until = t->silence_ns + 2 * d + h + 5 * 1000000000ULL;
	while ((now = mono_ns()) < until) {
		if (t->detected && ((t->bcast_known && !*t->bcast_seen) ||
				    t->learned_count == o->nodes - 1))
			break;
		if (t->detected && until > now + BCAST_WAIT_NS)
			until = now + BCAST_WAIT_NS;
		n = epoll_wait(c->epfd, ev, 64, (int)((until - now) / 1000000) + 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < n; i++)
			drain_node(c, ev[i].data.u32, on_trial_failure, t);
	}
	return 0;
}

static int cmd_detect(const struct opts *o)
{
	uint64_t *lat, *dlv, *all, start = mono_ns(), d = o->timeout_ms * 1000000ULL;
	uint64_t h = o->hb_ms * 1000000ULL, sum = 0;
	unsigned int early = 0, late = 0, all_count = 0, false_bcast = 0;
	unsigned int k, done = 0, detected = 0, unsteady = 0, false_susp = 0;
	const char *verdict = "ok";
	bool *learned, bcast_seen = false;
	struct cluster c;
	int err, prev_victim = 0;

	lat = calloc(o->trials, sizeof(*lat));
	dlv = calloc(o->trials, sizeof(*dlv));
	all = calloc(o->trials, sizeof(*all));
	learned = calloc(o->nodes, sizeof(*learned));
	if (!lat || !dlv || !all || !learned) {
		msg("out of memory");
		free(lat);
		free(dlv);
		free(all);
		free(learned);
		return 1;
	}
	err = cluster_open(&c, o);
	if (err)
		goto out;

	/* Trials that never got steady are retried, up to as many again. */
	for (k = 0; done < o->trials; k++) {
		struct trial t = { 0 };

		if (o->budget_s && mono_ns() - start > o->budget_s * 1000000000ULL) {
			verdict = "budget";
			msg("n=%u h=%ums: time budget of %us spent after %u trials",
			    o->nodes, o->hb_ms, o->budget_s, done);
			break;
		}
		memset(learned, 0, o->nodes * sizeof(*learned));
		t.c = &c;
		t.n = o->nodes;
		t.learned = learned;
		t.bcast_seen = &bcast_seen;
		t.bcast_known = done > 0;
		t.victim = 1 + (unsigned int)(rng_next() % o->nodes);
		t.observer = t.victim % o->nodes + 1;

		err = cluster_del_all(&c);
		if (!err && prev_victim)
			err = link_set(&c, (unsigned int)prev_victim, true);
		if (!err && prev_victim)
			err = neigh_reset(&c, (unsigned int)prev_victim);
		if (err) {
			msg("resetting node %d: %s", prev_victim, strerror(-err));
			goto out;
		}
		prev_victim = (int)t.victim;
		drain_all(&c, NULL, NULL);

		err = run_trial(&c, &t);
		if (err == -ETIMEDOUT) {
			msg("n=%u h=%ums trial %u: the ring never got steady "
			    "(observer %u did not hear node %u)", o->nodes,
			    o->hb_ms, k + 1, t.observer, t.victim);
			if (++unsteady > o->trials) {
				verdict = "unsteady";
				break;
			}
			continue;
		}
		if (err)
			goto out;
		done++;
		false_susp += t.false_susp;
		false_bcast += t.false_bcast;
		if (t.learned_count == o->nodes - 1)
			all[all_count++] = t.all_ns;
		else if (bcast_seen)
			msg("n=%u h=%ums trial %u: %u of %u survivors learned that "
			    "node %u failed", o->nodes, o->hb_ms, k + 1,
			    t.learned_count, o->nodes - 1, t.victim);
		if (!t.detected) {
			msg("n=%u h=%ums trial %u: node %u silenced, no detection",
			    o->nodes, o->hb_ms, k + 1, t.victim);
			continue;
		}
		/* The model puts it in (d - h, d + t], t << h here. */
		early += t.latency_ns <= d - h;
		late += t.latency_ns > d + h;
		lat[detected] = t.latency_ns;
		dlv[detected] = t.delivery_ns;
		sum += t.latency_ns;
		detected++;
		msg("n=%u h=%ums trial %u: node %u silenced, observer %u "
		    "detected it after %.2f ms (event read %.2f ms later)",
		    o->nodes, o->hb_ms, k + 1, t.victim, t.observer,
		    (double)t.latency_ns / 1e6, (double)t.delivery_ns / 1e6);
	}
	err = cluster_del_all(&c);
	if (!err && prev_victim)
		err = link_set(&c, (unsigned int)prev_victim, true);
	if (!err && prev_victim)
		err = neigh_reset(&c, (unsigned int)prev_victim);
	if (err)
		goto out;

	printf("RESULT test=detect n=%u h_ms=%u d_ms=%u trials=%u detected=%u "
	       "false=%u false_bcast=%u unsteady=%u verdict=%s", o->nodes,
	       o->hb_ms, o->timeout_ms, done, detected, false_susp,
	       false_bcast, unsteady, verdict);
	if (detected) {
		qsort(lat, detected, sizeof(*lat), cmp_u64);
		qsort(dlv, detected, sizeof(*dlv), cmp_u64);
		printf(" min_us=%" PRIu64 " median_us=%" PRIu64 " mean_us=%" PRIu64
		       " p99_us=%" PRIu64 " max_us=%" PRIu64
		       " early=%u late=%u"
		       " delivery_median_us=%" PRIu64 " delivery_max_us=%" PRIu64,
		       lat[0] / 1000, median(lat, detected) / 1000,
		       sum / detected / 1000, quantile(lat, detected, 0.99) / 1000,
		       lat[detected - 1] / 1000,
		       early, late,
		       median(dlv, detected) / 1000, dlv[detected - 1] / 1000);
	}
	printf(" all_notified=%u", all_count);
	if (all_count) {
		qsort(all, all_count, sizeof(*all), cmp_u64);
		printf(" all_median_us=%" PRIu64 " all_max_us=%" PRIu64,
		       median(all, all_count) / 1000, all[all_count - 1] / 1000);
	}
	printf(" elapsed_s=%.0f\n", (double)(mono_ns() - start) / 1e9);
	fflush(stdout);
out:
	cluster_close(&c);
	free(lat);
	free(dlv);
	free(all);
	free(learned);
	return err ? 1 : 0;
}

/* --- bcast ----------------------------------------------------------------- */

/* How often the survivors' broadcast counters are read until they settle. */
#define BCAST_SETTLE_NS		(100 * 1000000ULL)
/* ... and for how long at most. */
#define BCAST_SETTLE_MAX_NS	(3 * 1000000000ULL)

struct bcast_sums {
	uint64_t sent;
	uint64_t originated;
	uint64_t forwarded;
	uint64_t delivered;
	uint64_t duplicates;
};

/*
 * The survivors' broadcast counters, summed. The victim's are left out:
 * whatever it sends after the silence (it suspects its own emitter, then
 * the next, ...) goes into a link that is down.
 */
static int bcast_sum(struct cluster *c, unsigned int victim,
		     struct bcast_sums *s)
{
	struct ftnl_stats st;
	unsigned int i;
	int err;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < c->o->nodes; i++) {
		if (i + 1 == victim)
			continue;
		err = ftnl_stats_get(c->nodes[i].h, &st);
		if (err) {
			msg("node %u: stats: %s", i + 1, ftnl_errmsg(c->nodes[i].h));
			return err;
		}
		s->sent += st.bcast_sent;
		s->originated += st.bcast_originated;
		s->forwarded += st.bcast_forwarded;
		s->delivered += st.bcast_delivered;
		s->duplicates += st.bcast_duplicates;
	}
	return 0;
}

/*
 * Wait until the survivors' counters stop moving: a flood is over when the
 * last node forwarded, but FCG's correction phase goes on for a while after
 * every node delivered. Returns -ETIMEDOUT if they never settle.
 */
static int bcast_settle(struct cluster *c, unsigned int victim,
			struct bcast_sums *s)
{
	uint64_t deadline = mono_ns() + BCAST_SETTLE_MAX_NS;
	struct bcast_sums prev;
	int err;

	err = bcast_sum(c, victim, &prev);
	while (!err) {
		sleep_ns(BCAST_SETTLE_NS);
		err = bcast_sum(c, victim, s);
		if (err)
			return err;
		if (!memcmp(s, &prev, sizeof(*s)))
			return 0;
		if (mono_ns() > deadline)
			return -ETIMEDOUT;
		prev = *s;
	}
	return err;
}

static void print_stats_u64(const char *name, uint64_t *v, size_t n,
			    uint64_t div)
{
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	printf(" %s_min=%" PRIu64 " %s_median=%" PRIu64 " %s_max=%" PRIu64,
	       name, v[0] / div, name, median(v, n) / div, name,
	       v[n - 1] / div);
}

static int cmd_bcast(const struct opts *o)
{
	uint64_t *det, *from_silence, *from_detect, *msgs, *dups;
	uint64_t start = mono_ns();
	unsigned int k, done = 0, timed = 0, counted = 0, unsteady = 0;
	unsigned int missed = 0, disturbed = 0, unsettled = 0, unclean = 0;
	unsigned int i, shown;
	unsigned int false_susp = 0, false_bcast = 0;
	struct bench_prediction pred;
	const char *verdict = "ok";
	bool *learned, bcast_seen = false;
	struct cluster c;
	int err, prev_victim = 0;

	err = bench_predict(o->algo, o->nodes, o->has_fcg_f ? o->fcg_f : 1,
			    o->has_gossip_t ? o->gossip_t_us : 0,
			    o->predict_runs, &pred);
	if (err) {
		msg("prediction for n=%u: %s", o->nodes, strerror(-err));
		memset(&pred, 0, sizeof(pred));
	}

	det = calloc(o->trials, sizeof(*det));
	from_silence = calloc(o->trials, sizeof(*from_silence));
	from_detect = calloc(o->trials, sizeof(*from_detect));
	msgs = calloc(o->trials, sizeof(*msgs));
	dups = calloc(o->trials, sizeof(*dups));
	learned = calloc(o->nodes, sizeof(*learned));
	memset(&c, 0, sizeof(c));
	if (!det || !from_silence || !from_detect || !msgs || !dups ||
	    !learned) {
		msg("out of memory");
		err = -ENOMEM;
		goto out_free;
	}
	err = cluster_open(&c, o);
	if (err)
		goto out;

	for (k = 0; done < o->trials; k++) {
		struct trial t = { 0 };
		struct bcast_sums sums;

		if (o->budget_s && mono_ns() - start > o->budget_s * 1000000000ULL) {
			verdict = "budget";
			msg("bcast %s n=%u: time budget of %us spent after %u trials",
			    ftnl_bcast_algo_name(o->algo), o->nodes, o->budget_s,
			    done);
			break;
		}
		memset(learned, 0, o->nodes * sizeof(*learned));
		t.c = &c;
		t.n = o->nodes;
		t.learned = learned;
		t.bcast_seen = &bcast_seen;
		t.bcast_known = false;	/* it does broadcast: wait for all */
		t.victim = 1 + (unsigned int)(rng_next() % o->nodes);
		t.observer = t.victim % o->nodes + 1;

		err = cluster_del_all(&c);
		if (!err && prev_victim)
			err = link_set(&c, (unsigned int)prev_victim, true);
		if (!err && prev_victim)
			err = neigh_reset(&c, (unsigned int)prev_victim);
		if (err) {
			msg("resetting node %d: %s", prev_victim, strerror(-err));
			goto out;
		}
		prev_victim = (int)t.victim;
		drain_all(&c, NULL, NULL);

		err = run_trial(&c, &t);
		if (err == -ETIMEDOUT) {
			msg("bcast n=%u trial %u: the ring never got steady",
			    o->nodes, k + 1);
			if (++unsteady > o->trials) {
				verdict = "unsteady";
				err = 0;
				break;
			}
			continue;
		}
		if (err)
			goto out;
		done++;
		if (!t.detected || t.learned_count != o->nodes - 1) {
			/*
			 * Live nodes declared dead (a stall of the guest, see
			 * Documentation/bench.rst) change every node's D: not
			 * a broadcast that failed, a trial that was disturbed.
			 */
			if (t.false_susp || t.false_bcast)
				disturbed++;
			else
				missed++;
			msg("bcast %s n=%u trial %u: node %u silenced, %s, %u of "
			    "%u survivors learned it",
			    ftnl_bcast_algo_name(o->algo), o->nodes, k + 1,
			    t.victim, t.detected ? "detected" : "not detected",
			    t.learned_count, o->nodes - 1);
			if (t.false_susp || t.false_bcast)
				msg("  (%u false suspicions and %u false notifications "
				    "meanwhile)", t.false_susp, t.false_bcast);
			/* Why: the counters of the first survivors left out. */
			for (i = 0, shown = 0; i < o->nodes && shown < 2; i++) {
				if (learned[i] || i + 1 == t.victim)
					continue;
				dump_stats(&c, i + 1);
				shown++;
			}
			false_susp += t.false_susp;
			false_bcast += t.false_bcast;
			continue;
		}
		det[timed] = t.latency_ns;
		from_silence[timed] = t.all_ns;
		from_detect[timed] = t.all_ns - t.latency_ns;
		timed++;

		err = bcast_settle(&c, t.victim, &sums);
		/* Whatever else happened meanwhile (false suspicions). */
		drain_all(&c, on_trial_failure, &t);
		false_susp += t.false_susp;
		false_bcast += t.false_bcast;
		if (err == -ETIMEDOUT) {
			unsettled++;
			msg("bcast n=%u trial %u: counters never settled", o->nodes,
			    k + 1);
			err = 0;
			continue;
		}
		if (err)
			goto out;
		/* One broadcast, started by the observer, and nothing else. */
		if (sums.originated != 1 || t.false_susp || t.false_bcast) {
			unclean++;
			msg("bcast n=%u trial %u: %" PRIu64 " broadcasts started, "
			    "%u false suspicions: messages not counted",
			    o->nodes, k + 1, sums.originated, t.false_susp);
			continue;
		}
		msgs[counted] = sums.sent;
		dups[counted] = sums.duplicates;
		counted++;
		msg("bcast %s n=%u trial %u: node %u silenced, observer %u after "
		    "%.1f ms, last survivor %.1f ms later; %" PRIu64
		    " datagrams, %" PRIu64 " duplicates",
		    ftnl_bcast_algo_name(o->algo), o->nodes, k + 1, t.victim,
		    t.observer, (double)t.latency_ns / 1e6,
		    (double)(t.all_ns - t.latency_ns) / 1e6, sums.sent,
		    sums.duplicates);
	}
	err = cluster_del_all(&c);
	if (!err && prev_victim)
		err = link_set(&c, (unsigned int)prev_victim, true);
	if (!err && prev_victim)
		err = neigh_reset(&c, (unsigned int)prev_victim);
	if (err)
		goto out;

	printf("RESULT test=bcast algo=%s n=%u h_ms=%u d_ms=%u trials=%u "
	       "timed=%u counted=%u missed=%u disturbed=%u unsettled=%u unclean=%u "
	       "false=%u false_bcast=%u unsteady=%u verdict=%s",
	       ftnl_bcast_algo_name(o->algo), o->nodes, o->hb_ms, o->timeout_ms,
	       done, timed, counted, missed, disturbed, unsettled, unclean,
	       false_susp,
	       false_bcast, unsteady, verdict);
	if (o->algo == FTNL_BCAST_FCG)
		printf(" fcg_f=%u gossip_t_us=%u", o->has_fcg_f ? o->fcg_f : 1,
		       pred.gossip_t_slots * 20);
	print_stats_u64("detect_us", det, timed, 1000);
	print_stats_u64("silence_us", from_silence, timed, 1000);
	print_stats_u64("bcast_us", from_detect, timed, 1000);
	print_stats_u64("msgs", msgs, counted, 1);
	print_stats_u64("dups", dups, counted, 1);
	if (pred.runs)
		printf(" pred_msgs=%.1f pred_runs=%u pred_sos=%u", pred.messages,
		       pred.runs, pred.sos_runs);
	printf(" nlogn=%.1f elapsed_s=%.0f\n",
	       (double)o->nodes * log2((double)o->nodes),
	       (double)(mono_ns() - start) / 1e9);
	fflush(stdout);
out:
	cluster_close(&c);
out_free:
	free(det);
	free(from_silence);
	free(from_detect);
	free(msgs);
	free(dups);
	free(learned);
	return err ? 1 : 0;
}

/* --- lateness -------------------------------------------------------------- */

struct ring_sum {
	struct lat_hist hist;
	struct lat_hist lock_wait;	/* kernel ring: waits for its lock */
	struct lat_hist start_late;	/* kernel ring: its timer's starts */
	uint64_t fires;		/* timer expiries (histogram entries) */
	uint64_t expected;	/* periods elapsed over all nodes */
	uint64_t hb_sent;
	uint64_t suspicions;
	uint64_t warmup_suspicions;	/* userspace ring, before the window */
	uint64_t stall_waits;	/* kernel ring: local health rule waits */
	uint64_t host_rx_drops;	/* kernel ring: the most any node saw (the
				 * kernel's backlog drops while it ran) */
	uint64_t events;	/* failure events (kernel ring) */
	uint64_t drops;
	uint64_t drop_reason[FTNL_DROP_MAX + 1];	/* kernel ring */
	uint64_t overruns;	/* userspace ring: periods skipped */
	uint64_t tx_errors;
	uint64_t bcast_originated;	/* kernel ring, --bcast-rate */
	uint64_t bcast_delivered;
	uint64_t bcast_sent;
	unsigned int reports;	/* nodes that reported */
	bool cpu_probed;	/* --own-cpu: its CPU's stall probe ran */
	unsigned int cpu_stalls;	/* ... and saw these stalls */
	uint64_t cpu_stall_max_ns;
	/* ... from and to (CLOCK_MONOTONIC: a trace's window, hbtrace.c) */
	uint64_t cpu_probe_from_ns, cpu_probe_to_ns;
	uint64_t tick_ns;	/* ticker.h's period there, 0: it did not start */
};

/*
 * --own-cpu: the node under test's CPU is probed for stalls this long or
 * more (its heartbeats' p99 bucket at rest is under 1 ms), so that a
 * lateness its own work did not cause shows as a stall beside it.
 */
#define OWN_STALL_MIN_NS	(2 * 1000000ULL)
/*
 * ... and takes a timer interrupt this often (ticker.h), so that a trace of
 * it sees stalls of more than that (hbtrace.c); 0.5 ms costs the emulated
 * CPU about 2,000 interrupts a second.
 */
#define OWN_TICK_NS		(500 * 1000ULL)

static void count_event(void *arg, unsigned int idx,
			const struct ftnl_event_failure *f, uint64_t read_ns)
{
	struct ring_sum *k = arg;

	(void)read_ns;
	k->events++;
	msg("  kernel ring: node %u suspected live node %u (%s)", idx + 1,
	    f->node_id, ftnl_event_cause_name(f->cause));
}

static pid_t start_uring(struct cluster *c, unsigned int idx)
{
	const struct opts *o = c->o;
	char self[16], nodes[16], port[16], hb[24], to[24], out[64];
	pid_t pid;

	snprintf(self, sizeof(self), "%u", idx + 1);
	snprintf(nodes, sizeof(nodes), "%u", o->nodes);
	snprintf(port, sizeof(port), "%u", o->uring_port);
	snprintf(hb, sizeof(hb), "%u", o->hb_ms * 1000);
	snprintf(to, sizeof(to), "%u", o->timeout_ms * 1000);
	snprintf(out, sizeof(out), "/tmp/ftnl-uring.%u", idx + 1);
	unlink(out);

	pid = fork();
	if (pid)
		return pid;
	if (setns(c->nodes[idx].nsfd, CLONE_NEWNET)) {
		perror("ftnl-bench: setns");
		_exit(127);
	}
	execlp("ftnl-uring", "ftnl-uring", "--self", self, "--nodes", nodes,
	       "--net", o->net, "--port", port, "--hb-us", hb,
	       "--timeout-us", to, "--out", out, (char *)NULL);
	perror("ftnl-bench: ftnl-uring");
	_exit(127);
}

static uint64_t field_u64(const char *line, const char *key)
{
	char pat[48];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? strtoull(p + strlen(pat), NULL, 10) : 0;
}

static int read_uring(unsigned int id, struct ring_sum *u)
{
	char path[64], *line = NULL, *p;
	struct lat_hist hist;
	size_t cap = 0;
	FILE *f;
	int err = -EINVAL;

	snprintf(path, sizeof(path), "/tmp/ftnl-uring.%u", id);
	f = fopen(path, "r");
	if (!f) {
		msg("%s: %s", path, strerror(errno));
		return -errno;
	}
	if (getline(&line, &cap, f) > 0 && (p = strstr(line, " hist=")) &&
	    !lat_hist_parse(&hist, p + 6)) {
		hist.max_ns = field_u64(line, "max_ns");
		lat_hist_merge(&u->hist, &hist);
		u->fires += field_u64(line, "fires");
		u->overruns += field_u64(line, "overruns");
		u->hb_sent += field_u64(line, "hb_sent");
		u->suspicions += field_u64(line, "suspicions");
		u->warmup_suspicions += field_u64(line, "warmup_suspicions");
		u->drops += field_u64(line, "drops");
		u->tx_errors += field_u64(line, "tx_errors");
		u->reports++;
		if (field_u64(line, "suspicions"))
			msg("  userspace ring: %s", line);
		err = 0;
	} else {
		msg("%s: no report", path);
	}
	free(line);
	fclose(f);
	unlink(path);
	return err;
}

/*
 * Node @idx's share of the broadcast load: every n / B seconds, register
 * one process (job BENCH_BCAST_JOB, a new rank each time) and close its
 * handle: the node broadcasts its death. Runs until killed.
 */
#define BENCH_BCAST_JOB	0x62636c6174ULL	/* "bclat" */

static pid_t start_bcast_load(struct cluster *c, unsigned int idx)
{
	const struct opts *o = c->o;
	uint64_t period = 1000000000ULL * o->nodes / o->bcast_rate, next;
	struct ftnl_handle *h;
	uint32_t rank;
	pid_t pid;

	pid = fork();
	if (pid)
		return pid;
	if (setns(c->nodes[idx].nsfd, CLONE_NEWNET)) {
		perror("ftnl-bench: setns");
		_exit(127);
	}
	/* The node under test starts its own broadcasts on its own CPU. */
	if (o->own_cpu_node == idx + 1 && pin_to_cpu(OWN_CPU))
		_exit(127);
	/* Nodes start at different phases, so that the load is even. */
	next = mono_ns() + period * idx / o->nodes;
	for (rank = 0;; rank++) {
		uint64_t now = mono_ns();

		if (next > now)
			sleep_ns(next - now);
		next += period;
		if (ftnl_open(&h))
			continue;
		if (ftnl_proc_register(h, BENCH_BCAST_JOB, idx << 20 | (rank & 0xfffff)))
			msg("node %u: register: %s", idx + 1, ftnl_errmsg(h));
		ftnl_close(h);
	}
}

/*
 * A part of the kernel ring's lateness (its timer's start, its lock wait):
 * PREFIX_p99, PREFIX_p999 and PREFIX_max_us; nothing if the module did not
 * report it.
 */
static void print_lateness_part(const char *prefix, const struct lat_hist *h)
{
	static const double qs[] = { 0.99, 0.999 };
	static const char *const names[] = { "p99", "p999" };
	char bound[24];
	size_t i;

	if (!lat_hist_count(h))
		return;
	for (i = 0; i < 2; i++) {
		lat_bucket_bound(lat_hist_quantile_bucket(h, qs[i]), bound,
				 sizeof(bound));
		printf(" %s_%s=%s", prefix, names[i], bound);
	}
	printf(" %s_max_us=%" PRIu64, prefix, h->max_ns / 1000);
}

/* @cpu: "own" (the --own-cpu node), "shared" (the others) or "all". */
static void print_ring(const struct opts *o, const char *ring,
		       const char *cpu, const struct ring_sum *s,
		       double window_s)
{
	static const double qs[] = { 0.5, 0.99, 0.999 };
	static const char *const names[] = { "p50", "p99", "p999" };
	char bound[24];
	size_t i;

	printf("RESULT test=%s ring=%s cpu=%s load=%s n=%u h_ms=%u d_ms=%u "
	       "window_s=%.0f nodes_reporting=%u fires=%" PRIu64
	       " expected=%" PRIu64,
	       o->has_bcast_rate ? "bcastlat" : "lateness", ring, cpu, o->label,
	       o->nodes, o->hb_ms, o->timeout_ms, window_s, s->reports,
	       s->fires, s->expected);
	if (o->has_bcast_rate)
		printf(" bcast_rate=%u bcast_originated=%" PRIu64
		       " bcast_delivered=%" PRIu64 " bcast_sent=%" PRIu64,
		       o->bcast_rate, s->bcast_originated, s->bcast_delivered,
		       s->bcast_sent);
	for (i = 0; i < 3; i++) {
		lat_bucket_bound(lat_hist_quantile_bucket(&s->hist, qs[i]),
				 bound, sizeof(bound));
		printf(" %s=%s", names[i], bound);
	}
	/* How much of it came before the timer ran, and the ring's lock. */
	print_lateness_part("start", &s->start_late);
	print_lateness_part("lock", &s->lock_wait);
	if (s->cpu_probed)
		printf(" cpu_stalls=%u cpu_stall_max_us=%" PRIu64
		       " probe_from_ns=%" PRIu64 " probe_to_ns=%" PRIu64
		       " tick_us=%" PRIu64, s->cpu_stalls,
		       s->cpu_stall_max_ns / 1000, s->cpu_probe_from_ns,
		       s->cpu_probe_to_ns,
		       s->tick_ns / 1000);
	printf(" max_us=%" PRIu64 " suspicions=%" PRIu64
	       " warmup_suspicions=%" PRIu64 " events=%" PRIu64 " hb_sent=%" PRIu64 " drops=%" PRIu64
	       " tx_errors=%" PRIu64 " stall_waits=%" PRIu64
	       " host_rx_drops=%" PRIu64 "\n", s->hist.max_ns / 1000,
	       s->suspicions, s->warmup_suspicions, s->events, s->hb_sent, s->drops,
	       s->tx_errors, s->stall_waits, s->host_rx_drops);
}

/* One node's kernel ring stats into @s. */
static void add_kernel_stats(struct ring_sum *s, const struct ftnl_stats *st)
{
	struct lat_hist hist;
	int r;

	memcpy(hist.bucket, st->lateness, sizeof(hist.bucket));
	hist.max_ns = st->lateness_max_ns;
	lat_hist_merge(&s->hist, &hist);
	s->fires += lat_hist_count(&hist);
	memcpy(hist.bucket, st->hb_lock_wait, sizeof(hist.bucket));
	hist.max_ns = st->hb_lock_wait_max_ns;
	lat_hist_merge(&s->lock_wait, &hist);
	memcpy(hist.bucket, st->hb_start_late, sizeof(hist.bucket));
	hist.max_ns = st->hb_start_late_max_ns;
	lat_hist_merge(&s->start_late, &hist);
	s->hb_sent += st->hb_sent;
	s->suspicions += st->suspicions;
	s->stall_waits += st->stall_waits;
	if (st->host_rx_drops > s->host_rx_drops)
		s->host_rx_drops = st->host_rx_drops;
	s->tx_errors += st->tx_errors;
	s->bcast_originated += st->bcast_originated;
	s->bcast_delivered += st->bcast_delivered;
	s->bcast_sent += st->bcast_sent;
	for (r = 0; r <= FTNL_DROP_MAX; r++) {
		s->drops += st->drops[r];
		s->drop_reason[r] += st->drops[r];
	}
	s->reports++;
}

static int cmd_lateness(const struct opts *o)
{
	uint64_t h = o->hb_ms * 1000000ULL, start, end;
	double window_s;
	struct ring_sum k = { 0 }, u = { 0 }, own = { 0 };
	struct quiet q = { 0 };
	struct cluster c;
	pid_t *pids = NULL, *loads = NULL;
	unsigned int i, started = 0, nloads = 0;
	int err, status, ticker = -1;

	/* Everything but the node under test on the shared CPU, children too. */
	if (o->own_cpu_node && pin_to_cpu(SHARED_CPU))
		return 1;
	err = cluster_open(&c, o);
	if (!err)
		err = cluster_del_all(&c);
	if (!err && o->attribute)
		err = quiet_init(&q, &c, h, o->timeout_ms * 1000000ULL,
				 o->backlog_probe);
	if (err)
		goto out;

	/*
	 * The userspace rings start first and warm up (process creation and
	 * first page faults stay out of the window); SIGUSR1 then restarts
	 * them from a clean ring at the moment the kernel ring is configured,
	 * so that both rings are measured over the same window.
	 */
	if (o->uring) {
		pids = calloc(o->nodes, sizeof(*pids));
		if (!pids) {
			msg("out of memory");
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < o->nodes; i++) {
			pids[i] = start_uring(&c, i);
			if (pids[i] < 0) {
				msg("fork: %s", strerror(errno));
				err = -errno;
				goto out;
			}
			started++;
		}
		sleep_ns(o->warmup_s * 1000000000ULL);
		for (i = 0; i < started; i++)
			kill(pids[i], SIGUSR1);
	}
	start = mono_ns();
	err = cluster_set_all(&c);
	if (err)
		goto out;
	/* The quiet runs' probe watches every CPU already. */
	if (o->own_cpu_node && !o->attribute) {
		err = stall_probe_start_on(OWN_CPU, OWN_STALL_MIN_NS);
		if (err) {
			msg("stall probe: %s", strerror(-err));
			goto out;
		}
		own.cpu_probed = true;
		ticker = ticker_start(OWN_CPU, OWN_TICK_NS);
		if (ticker < 0)
			msg("ticker: %s (a trace sees fewer stalls)",
			    strerror(-ticker));
		else
			own.tick_ns = OWN_TICK_NS;
		own.cpu_probe_from_ns = mono_ns();
	}
	if (o->bcast_rate) {
		loads = calloc(o->nodes, sizeof(*loads));
		if (!loads) {
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < o->nodes; i++) {
			loads[i] = start_bcast_load(&c, i);
			if (loads[i] < 0) {
				msg("fork: %s", strerror(errno));
				err = -errno;
				goto out;
			}
			nloads++;
		}
	}

	if (o->attribute) {
		err = quiet_pump(&q, start + o->duration_s * 1000000000ULL);
		if (err) {
			msg("events: %s", strerror(-err));
			goto out;
		}
	} else {
		sleep_ns(o->duration_s * 1000000000ULL);
	}
	for (i = 0; i < nloads; i++)
		kill(loads[i], SIGKILL);
	for (i = 0; i < nloads; i++)
		waitpid(loads[i], NULL, 0);
	nloads = 0;
	if (own.cpu_probed) {
		struct interval_summary st;

		own.cpu_probe_to_ns = mono_ns();
		ticker_stop(ticker);
		ticker = -1;
		stall_probe_stop();
		stall_summary(OWN_STALL_MIN_NS, &st);
		own.cpu_stalls = st.count;
		own.cpu_stall_max_ns = st.max_ns;
	}

	/* The kernel ring: histogram and counters since it was configured. */
	for (i = 0; i < o->nodes; i++) {
		struct ftnl_stats st;

		err = ftnl_stats_get(c.nodes[i].h, &st);
		if (err) {
			msg("node %u: stats: %s", i + 1, ftnl_errmsg(c.nodes[i].h));
			goto out;
		}
		add_kernel_stats(o->own_cpu_node == i + 1 ? &own : &k, &st);
	}
	end = mono_ns();
	window_s = (double)(end - start) / 1e9;
	/* First expiry at configuration time, then one per period. */
	k.expected = k.reports * ((end - start) / h + 1);
	own.expected = own.reports * ((end - start) / h + 1);
	if (o->attribute) {
		quiet_drain(&q);
		quiet_inspect(&q);
		k.events = q.failures;
	} else {
		drain_all(&c, count_event, &k);
	}

	for (i = 0; i < started; i++)
		kill(pids[i], SIGTERM);
	for (i = 0; i < started; i++) {
		if (waitpid(pids[i], &status, 0) < 0 ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			msg("ftnl-uring of node %u failed (status %#x)", i + 1,
			    status);
	}
	started = 0;
	if (o->uring) {
		for (i = 0; i < o->nodes; i++)
			read_uring(i + 1, &u);
		/* Each knows exactly which periods its timer thread skipped. */
		u.expected = u.fires + u.overruns;
	}
	for (i = 0; i <= FTNL_DROP_MAX; i++)
		if (k.drop_reason[i] + own.drop_reason[i])
			msg("  kernel ring dropped %" PRIu64 " datagrams: %s",
			    k.drop_reason[i] + own.drop_reason[i],
			    ftnl_drop_reason_name(i));
	err = cluster_del_all(&c);
	if (err)
		goto out;

	print_ring(o, "kernel", o->own_cpu_node ? "shared" : "all", &k,
		   window_s);
	if (o->own_cpu_node)
		print_ring(o, "kernel", "own", &own, window_s);
	if (o->uring)
		print_ring(o, "user", "all", &u, window_s);
	if (o->attribute)
		quiet_finish(&q, o->label, o->nodes);
	fflush(stdout);
out:
	ticker_stop(ticker);
	if (own.cpu_probed)
		stall_probe_stop();
	quiet_release(&q);
	for (i = 0; i < started; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	for (i = 0; i < nloads; i++) {
		kill(loads[i], SIGKILL);
		waitpid(loads[i], NULL, 0);
	}
	free(pids);
	free(loads);
	cluster_close(&c);
	return err ? 1 : 0;
}

/* --- main ------------------------------------------------------------------ */

static void usage(void)
{
	fprintf(stderr,
		"usage: ftnl-bench detect|lateness --prefix P --veth V --nodes N "
		"--net A.B.C --port P --hb-ms H --timeout-ms D [--seed S] "
		"[--quorum on|off]\n"
		"       detect:   --trials K [--budget-s S]\n"
		"       lateness: --duration-s S --label L [--warmup-s W] "
		"[--uring-port P] [--no-uring] [--bcast-rate B] [--attribute]\n"
		"                       [--backlog-probe] [--own-cpu NODE]\n"
		"       bcast:    --algo hypercube|bmg|fcg --trials K [--budget-s S] "
		"[--fcg-f F] [--gossip-t-us T] [--predict-runs R]\n"
		"       predict:  --nodes N --algo A [--fcg-f F] [--gossip-t-us T] "
		"[--predict-runs R]\n"
		"       tipc:     --tolerance-ms T --trials K [--budget-s S] "
		"[--rate-s R]\n"
		"       adapt:    --label PATTERN --duration-s S --trials K "
		"[--budget-s B] [--adaptive-min-ms M [--nines N]] "
		"[--model-base-us U] [--model-jitter-us J] [--model-loss-ppm L] "
		"[--model-spike-ppm P] [--model-spike-us Q] [--model-beats B]\n");
	exit(2);
}

static unsigned int parse_uint(const char *text, unsigned int min,
			       unsigned int max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max)
		usage();
	return (unsigned int)v;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "prefix", required_argument, NULL, 'P' },
		{ "veth", required_argument, NULL, 'V' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "net", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "uring-port", required_argument, NULL, 'u' },
		{ "hb-ms", required_argument, NULL, 'h' },
		{ "timeout-ms", required_argument, NULL, 'd' },
		{ "trials", required_argument, NULL, 'k' },
		{ "budget-s", required_argument, NULL, 'b' },
		{ "duration-s", required_argument, NULL, 's' },
		{ "label", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 'S' },
		{ "warmup-s", required_argument, NULL, 'w' },
		{ "no-uring", no_argument, NULL, 'N' },
		{ "bcast-rate", required_argument, NULL, 'B' },
		{ "attribute", no_argument, NULL, 'Q' },
		{ "backlog-probe", no_argument, NULL, 'Z' },
		{ "own-cpu", required_argument, NULL, 'O' },
		{ "quorum", required_argument, NULL, 'q' },
		{ "algo", required_argument, NULL, 'A' },
		{ "fcg-f", required_argument, NULL, 'F' },
		{ "gossip-t-us", required_argument, NULL, 'T' },
		{ "predict-runs", required_argument, NULL, 'R' },
		{ "tolerance-ms", required_argument, NULL, 'L' },
		{ "rate-s", required_argument, NULL, 'r' },
		{ "adaptive-min-ms", required_argument, NULL, 'm' },
		{ "nines", required_argument, NULL, 'K' },
		{ "model-base-us", required_argument, NULL, 'e' },
		{ "model-jitter-us", required_argument, NULL, 'j' },
		{ "model-loss-ppm", required_argument, NULL, 'o' },
		{ "model-spike-ppm", required_argument, NULL, 'x' },
		{ "model-spike-us", required_argument, NULL, 'y' },
		{ "model-beats", required_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = {
		.prefix = "ftnl-b", .veth = "vb", .net = "10.78.0",
		.label = "idle", .port = 7400, .uring_port = 7500,
		.trials = 20, .duration_s = 30, .warmup_s = 3, .uring = true,
		.predict_runs = 200, .tolerance_ms = 1500, .rate_s = 5,
		.nines = 6, .model_base_us = 100, .model_beats = 1000000,
	};
	int c;

	if (argc < 2)
		usage();
	o.mode = argv[1];
	o.seed = (uint64_t)time(NULL);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'P': o.prefix = optarg; break;
		case 'V': o.veth = optarg; break;
		case 'n': o.nodes = parse_uint(optarg, 2, 250); break;
		case 'a': o.net = optarg; break;
		case 'p': o.port = parse_uint(optarg, 1, 65535); break;
		case 'u': o.uring_port = parse_uint(optarg, 1, 65535); break;
		case 'h': o.hb_ms = parse_uint(optarg, 1, 60000); break;
		case 'd': o.timeout_ms = parse_uint(optarg, 2, 600000); break;
		case 'k': o.trials = parse_uint(optarg, 1, 100000); break;
		case 'b': o.budget_s = parse_uint(optarg, 0, 86400); break;
		case 's': o.duration_s = parse_uint(optarg, 1, 86400); break;
		case 'l': o.label = optarg; break;
		case 'S': o.seed = parse_uint(optarg, 0, UINT32_MAX); break;
		case 'w': o.warmup_s = parse_uint(optarg, 0, 3600); break;
		case 'N': o.uring = false; break;
		case 'Q': o.attribute = true; break;
		case 'Z': o.backlog_probe = true; break;
		case 'O': o.own_cpu_node = parse_uint(optarg, 1, 250); break;
		case 'q':
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				usage();
			o.has_quorum = true;
			o.quorum = strcmp(optarg, "on") ? FTNL_QUORUM_OFF :
				   FTNL_QUORUM_ON;
			break;
		case 'B':
			o.bcast_rate = parse_uint(optarg, 0, 100000);
			o.has_bcast_rate = true;
			break;
		case 'A':
			if (ftnl_parse_bcast_algo(optarg, &o.algo))
				usage();
			o.has_algo = true;
			break;
		case 'F':
			o.fcg_f = (uint8_t)parse_uint(optarg, 1, 7);
			o.has_fcg_f = true;
			break;
		case 'T':
			o.gossip_t_us = parse_uint(optarg, 0, 10000000);
			o.has_gossip_t = true;
			break;
		case 'R': o.predict_runs = parse_uint(optarg, 1, 100000); break;
		/* TIPC's own bounds for the link tolerance. */
		case 'L': o.tolerance_ms = parse_uint(optarg, 50, 30000); break;
		case 'r': o.rate_s = parse_uint(optarg, 1, 3600); break;
		case 'm': o.adapt_min_ms = parse_uint(optarg, 1, 60000); break;
		case 'K': o.nines = parse_uint(optarg, 1, 9); break;
		case 'e': o.model_base_us = parse_uint(optarg, 0, 10000000); break;
		case 'j': o.model_jitter_us = parse_uint(optarg, 0, 10000000); break;
		case 'o': o.model_loss_ppm = parse_uint(optarg, 0, 999999); break;
		case 'x': o.model_spike_ppm = parse_uint(optarg, 0, 1000000); break;
		case 'y': o.model_spike_us = parse_uint(optarg, 0, 10000000); break;
		case 'z': o.model_beats = parse_uint(optarg, 1000, UINT32_MAX); break;
		default: usage();
		}
	}
	if (optind != argc || !o.nodes || o.own_cpu_node > o.nodes ||
	    (o.own_cpu_node && sysconf(_SC_NPROCESSORS_ONLN) < 2) ||
	    (strcmp(o.mode, "predict") && (!o.hb_ms || o.timeout_ms <= o.hb_ms)))
		usage();
	rng_state = o.seed * 0x9e3779b97f4a7c15ULL + 1;

	/* Children write nothing to our stdout: no duplicated buffers. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(o.mode, "detect"))
		return cmd_detect(&o);
	if (!strcmp(o.mode, "lateness"))
		return cmd_lateness(&o);
	if (!strcmp(o.mode, "predict")) {
		struct bench_prediction pred;

		if (!o.has_algo || o.nodes < 3 ||
		    bench_predict(o.algo, o.nodes, o.has_fcg_f ? o.fcg_f : 1,
				  o.has_gossip_t ? o.gossip_t_us : 0,
				  o.predict_runs, &pred))
			usage();
		printf("RESULT test=predict algo=%s n=%u pred_msgs=%.1f runs=%u "
		       "incomplete=%u sos=%u gossip_t_us=%u\n",
		       ftnl_bcast_algo_name(o.algo), o.nodes, pred.messages,
		       pred.runs, pred.incomplete, pred.sos_runs,
		       pred.gossip_t_slots * 20);
		return 0;
	}
	if (!strcmp(o.mode, "tipc"))
		return cmd_tipc(&o);
	if (!strcmp(o.mode, "adapt")) {
		/* The module's own rule: h < d_min <= d. */
		if (o.adapt_min_ms && (o.adapt_min_ms <= o.hb_ms ||
				       o.adapt_min_ms > o.timeout_ms))
			usage();
		return cmd_adaptive(&o);
	}
	if (!strcmp(o.mode, "bcast")) {
		if (!o.has_algo || o.nodes < 3)
			usage();
		return cmd_bcast(&o);
	}
	usage();
	return 2;
}
