// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-bench tipc: TIPC's link supervision beside ftnl's ring, in the same
 * virtual cluster, at the same time, under the same fault (issue 11 item 1).
 *
 *   ftnl-bench tipc OPTIONS --tolerance-ms T --trials K [--budget-s S]
 *                   [--rate-s R]
 *
 * Every node 1..N gets a TIPC bearer on its eth0 (the veth whose other end
 * is its bridge port), with address 1.1.I and the eth media's link
 * tolerance set to T before the bearer is enabled (set afterwards, it does
 * not apply to the bearer), and the ftnl ring with h, d. This process
 * subscribes to every node's TIPC topology server (node state) and to
 * every node's ftnl events, so both detectors report to one reader on one
 * clock (CLOCK_MONOTONIC, read when the event is read: TIPC's events carry
 * no time of their own; ftnl's kernel stamp is kept too).
 *
 * Frames: one shared tc block on every bridge port's ingress counts what
 * the nodes send, by ethertype: TIPC (0x88ca), and ftnl's UDP (IPv4) plus
 * its ARP. Measured over R seconds with both running and nobody failing:
 * background frames per node per second of each.
 *
 * Per trial: a fresh ftnl ring, a full TIPC mesh (every node's link to
 * every other up), then the victim's bridge port goes down (nothing it
 * sends gets out, nothing reaches it: the same silence for both systems)
 * and, per system, the time from the silence to the first and to the last
 * survivor that knows is taken: TIPC's "node down" event at a survivor,
 * ftnl's failure event about the victim (its observer's detection, or the
 * broadcast). A live node reported down by a live node, by either system,
 * at any time, is a false suspicion. The victim's port comes back up and
 * its TIPC links re-establish before the next trial.
 *
 * Prints one "RESULT test=tipc ..." line; bench-guest.sh makes the table.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/tipc.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "intervals.h"
#include "stall.h"

/* The tc block counting frames on the bridge ports, and its filters. */
#define FRAMES_BLOCK		7411
#define PREF_TIPC		1
#define PREF_IP			2
#define PREF_ARP		3
/* epoll data of a TIPC topology socket: this bit plus the node index. */
#define TIPC_TAG		0x80000000U
/* TIPC addresses 1.1.I: zone 1, cluster 1, node I. */
#define TIPC_ADDR(id)		((1U << 24) | (1U << 12) | (id))
/* Longest wait for every TIPC link of the mesh to be up. */
#define MESH_WAIT_NS		(60 * 1000000000ULL)
/* False suspicions shown one by one per run, of each system. */
#define FALSE_SHOWN		50
/* Frame count windows tried until one has no false suspicion in it. */
#define RATE_TRIES		5

struct side_by_side {
	struct cluster *c;
	unsigned int n;
	int *tipc_fd;		/* per node: its topology server connection */
	bool *up;		/* [i * n + j]: node i has node j up (TIPC) */
	unsigned int links_up;
	/* The trial in progress. */
	unsigned int victim;	/* id; 0: none */
	unsigned int excused;	/* id whose downs, and whose own, are no fault */
	uint64_t silence_ns;
	uint64_t *tipc_knew;	/* per node: read time of its "down", 0: none */
	uint64_t *ftnl_knew;	/* per node: read time of its failure event */
	uint64_t *ftnl_stamp;	/* ... and the kernel's stamp in it */
	unsigned int tipc_count, ftnl_count;
	unsigned int tipc_false, ftnl_false, ftnl_false_bcast;
	uint64_t *ftnl_false_at;	/* when each ftnl false suspicion was taken */
	unsigned int ftnl_false_max;
	const char *phase;	/* what runs now, for the false suspicions */
	uint64_t phase_ns;	/* ... since when */
};

static void set_phase(struct side_by_side *s, const char *phase)
{
	s->phase = phase;
	s->phase_ns = mono_ns();
}

/* When a false suspicion happened, for its message. */
static const char *when(const struct side_by_side *s, uint64_t t, char *buf,
			size_t len)
{
	if (s->silence_ns && t >= s->silence_ns)
		snprintf(buf, len, "%s, %.1f ms after the silence", s->phase,
			 (double)(t - s->silence_ns) / 1e6);
	else
		snprintf(buf, len, "%s, %+.1f ms", s->phase,
			 ((double)t - (double)s->phase_ns) / 1e6);
	return buf;
}

/* Run @cmd in node @id's netns (0: the root netns); its exit status. */
static int run_in(struct cluster *c, unsigned int id, const char *cmd)
{
	int rc;

	if (id && setns(c->nodes[id - 1].nsfd, CLONE_NEWNET))
		return -errno;
	rc = system(cmd);
	if (id && setns(c->rootfd, CLONE_NEWNET))
		return -errno;
	return rc;
}

/* TIPC on node @id's eth0 with link tolerance @tol_ms, or off (0). */
static int tipc_bearer(struct cluster *c, unsigned int id, unsigned int tol_ms)
{
	char cmd[160];

	run_in(c, id, "tipc bearer disable media eth device eth0 >/dev/null 2>&1");
	if (!tol_ms)
		return 0;
	/* Refused once set: the first pass sets it, later ones find it. */
	snprintf(cmd, sizeof(cmd), "tipc node set address 1.1.%u >/dev/null 2>&1",
		 id);
	run_in(c, id, cmd);
	snprintf(cmd, sizeof(cmd), "tipc media set tolerance %u media eth && "
		 "tipc bearer enable media eth device eth0", tol_ms);
	if (run_in(c, id, cmd)) {
		msg("node %u: TIPC bearer with tolerance %u ms failed", id, tol_ms);
		return -EIO;
	}
	return 0;
}

static int frames_setup(struct cluster *c, bool on)
{
	char cmd[320];
	unsigned int i;

	for (i = 1; i <= c->o->nodes; i++) {
		snprintf(cmd, sizeof(cmd), "tc qdisc del dev %s%u clsact "
			 ">/dev/null 2>&1", c->o->veth, i);
		run_in(c, 0, cmd);
		if (!on)
			continue;
		snprintf(cmd, sizeof(cmd), "tc qdisc add dev %s%u ingress_block %u "
			 "clsact", c->o->veth, i, FRAMES_BLOCK);
		if (run_in(c, 0, cmd))
			return -EIO;
	}
	if (!on)
		return 0;
	snprintf(cmd, sizeof(cmd),
		 "tc filter add block %u pref %u protocol 0x88ca matchall action pass && "
		 "tc filter add block %u pref %u protocol ip matchall action pass && "
		 "tc filter add block %u pref %u protocol arp matchall action pass",
		 FRAMES_BLOCK, PREF_TIPC, FRAMES_BLOCK, PREF_IP, FRAMES_BLOCK,
		 PREF_ARP);
	return run_in(c, 0, cmd) ? -EIO : 0;
}

/* The frames counted so far, by filter preference (index 1..3). */
static int frames_read(uint64_t pkts[4])
{
	char cmd[80], line[256];
	unsigned int pref = 0, p;
	unsigned long long bytes, count;
	FILE *f;

	memset(pkts, 0, 4 * sizeof(*pkts));
	snprintf(cmd, sizeof(cmd), "tc -s filter show block %u", FRAMES_BLOCK);
	f = popen(cmd, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *s = strstr(line, " pref ");

		if (!strncmp(line, "filter ", 7) && s &&
		    sscanf(s, " pref %u", &p) == 1)
			pref = p;
		else if (sscanf(line, " Sent %llu bytes %llu pkt", &bytes,
				&count) == 2 && pref >= 1 && pref <= 3)
			pkts[pref] = count;
	}
	return pclose(f) ? -EIO : 0;
}

static int tipc_subscribe(int fd)
{
	struct tipc_subscr sub;

	memset(&sub, 0, sizeof(sub));
	sub.seq.type = htonl(TIPC_NODE_STATE);
	sub.seq.lower = htonl(0);
	sub.seq.upper = htonl(~0U);
	sub.timeout = htonl(TIPC_WAIT_FOREVER);
	sub.filter = htonl(TIPC_SUB_PORTS);
	return send(fd, &sub, sizeof(sub), 0) == (ssize_t)sizeof(sub) ? 0 : -errno;
}

/* Node @id's topology server, watched through the cluster's epoll. */
static int tipc_open(struct side_by_side *s, unsigned int id)
{
	struct sockaddr_tipc srv = { .family = AF_TIPC };
	struct epoll_event ev = { .events = EPOLLIN };
	struct cluster *c = s->c;
	int fd, err = 0;

	srv.addrtype = TIPC_SERVICE_ADDR;
	srv.addr.name.name.type = TIPC_TOP_SRV;
	srv.addr.name.name.instance = TIPC_TOP_SRV;
	if (setns(c->nodes[id - 1].nsfd, CLONE_NEWNET))
		return -errno;
	fd = socket(AF_TIPC, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&srv, sizeof(srv)))
		err = -errno;
	if (setns(c->rootfd, CLONE_NEWNET) && !err)
		err = -errno;
	if (!err)
		err = tipc_subscribe(fd);
	ev.data.u32 = TIPC_TAG | (id - 1);
	if (!err && epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev))
		err = -errno;
	if (err) {
		msg("node %u: TIPC topology server: %s", id, strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	s->tipc_fd[id - 1] = fd;
	return 0;
}

/*
 * A down that no fault explains: the victim reports everyone, everyone
 * reports the victim, from the silence until the mesh is whole again.
 */
static bool excused(const struct side_by_side *s, unsigned int who,
		    unsigned int whom)
{
	return s->excused && (who == s->excused || whom == s->excused);
}

static void tipc_event(struct side_by_side *s, unsigned int idx)
{
	struct tipc_event ev;
	uint64_t now;
	unsigned int addr, peer;
	char buf[80];
	bool up;
	ssize_t r;

	r = recv(s->tipc_fd[idx], &ev, sizeof(ev), MSG_DONTWAIT);
	now = mono_ns();
	if (r != (ssize_t)sizeof(ev)) {
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			msg("node %u: TIPC topology server: %s", idx + 1,
			    strerror(errno));
		return;
	}
	if (ntohl(ev.event) == TIPC_SUBSCR_TIMEOUT)
		return;
	up = ntohl(ev.event) == TIPC_PUBLISHED;
	addr = ntohl(ev.found_lower);
	peer = addr & 0xfff;
	if ((addr & ~0xfffU) != TIPC_ADDR(0) || peer < 1 || peer > s->n ||
	    peer == idx + 1)
		return;	/* not one of ours (nodes above n from an earlier pass) */
	if (s->up[idx * s->n + peer - 1] != up) {
		s->up[idx * s->n + peer - 1] = up;
		if (up)
			s->links_up++;
		else
			s->links_up--;
	}
	if (up)
		return;
	if (s->silence_ns && peer == s->victim && idx + 1 != s->victim) {
		if (!s->tipc_knew[idx]) {
			s->tipc_knew[idx] = now;
			s->tipc_count++;
		}
		return;
	}
	if (excused(s, idx + 1, peer))
		return;
	/* The first ones tell the story; thousands would load the guest. */
	if (++s->tipc_false <= FALSE_SHOWN)
		msg("  TIPC false suspicion: node %u lost live node %u (%s)%s",
		    idx + 1, peer, when(s, now, buf, sizeof(buf)),
		    s->tipc_false == FALSE_SHOWN ? "; no more shown" : "");
}

static void ftnl_event(void *arg, unsigned int idx,
		       const struct ftnl_event_failure *f, uint64_t read_ns)
{
	struct side_by_side *s = arg;
	bool after = s->silence_ns && f->time_mono_ns >= s->silence_ns;
	char buf[80];

	if (after && f->node_id == s->victim && idx + 1 != s->victim) {
		if (!s->ftnl_knew[idx]) {
			s->ftnl_knew[idx] = read_ns;
			s->ftnl_stamp[idx] = f->time_mono_ns;
			s->ftnl_count++;
		}
		return;
	}
	if (excused(s, idx + 1, f->node_id))
		return;
	if (f->cause == FTNL_CAUSE_BROADCAST) {
		s->ftnl_false_bcast++;
		return;
	}
	if (s->ftnl_false < s->ftnl_false_max)
		s->ftnl_false_at[s->ftnl_false] = f->time_mono_ns;
	if (++s->ftnl_false > FALSE_SHOWN)
		return;
	msg("  ftnl false suspicion: node %u declared live node %u dead (%s; %s)%s",
	    idx + 1, f->node_id, ftnl_event_cause_name(f->cause),
	    when(s, f->time_mono_ns, buf, sizeof(buf)),
	    s->ftnl_false == FALSE_SHOWN ? "; no more shown" : "");
	if (s->ftnl_false <= 2) {
		dump_stats(s->c, idx + 1);
		dump_stats(s->c, f->node_id);
	}
}

/*
 * Take both systems' events until @until (CLOCK_MONOTONIC), or until
 * @done says so. Returns 0, or -errno.
 */
static int pump(struct side_by_side *s, uint64_t until,
		bool (*done)(const struct side_by_side *s))
{
	struct epoll_event ev[64];
	uint64_t now;
	int n, i;

	while ((now = mono_ns()) < until) {
		if (done && done(s))
			return 0;
		n = epoll_wait(s->c->epfd, ev, 64,
			       (int)((until - now) / 1000000) + 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		for (i = 0; i < n; i++) {
			if (ev[i].data.u32 & TIPC_TAG)
				tipc_event(s, ev[i].data.u32 & ~TIPC_TAG);
			else
				drain_node(s->c, ev[i].data.u32, ftnl_event, s);
		}
	}
	return 0;
}

static bool mesh_whole(const struct side_by_side *s)
{
	return s->links_up == s->n * (s->n - 1);
}

static bool all_know(const struct side_by_side *s)
{
	return s->tipc_count == s->n - 1 && s->ftnl_count == s->n - 1;
}

static int wait_mesh(struct side_by_side *s)
{
	int err = pump(s, mono_ns() + MESH_WAIT_NS, mesh_whole);

	if (!err && !mesh_whole(s)) {
		msg("TIPC: %u of %u links up after %llu s", s->links_up,
		    s->n * (s->n - 1), MESH_WAIT_NS / 1000000000ULL);
		return -ETIMEDOUT;
	}
	return err;
}

/*
 * A fresh ring (see cluster_set_all()), taken as steady once @observer has
 * had three heartbeats of its emitter, and then d more.
 */
static int ftnl_fresh(struct side_by_side *s, unsigned int observer)
{
	const struct opts *o = s->c->o;
	uint64_t h = o->hb_ms * 1000000ULL, deadline;
	struct ftnl_stats st;
	int err;

	err = cluster_del_all(s->c);
	if (err)
		return err;
	drain_all(s->c, NULL, NULL);
	set_phase(s, "ftnl ring starting");
	err = cluster_set_all(s->c);
	if (err)
		return err;
	deadline = mono_ns() + 10 * 1000000000ULL + 20 * h;
	do {
		err = pump(s, mono_ns() + h, NULL);
		if (!err)
			err = ftnl_stats_get(s->c->nodes[observer - 1].h, &st);
		if (err)
			return err;
		if (st.hb_from_emitter >= 3) {
			set_phase(s, "ftnl ring steady");
			return pump(s, mono_ns() + o->timeout_ms * 1000000ULL, NULL);
		}
	} while (mono_ns() < deadline);
	return -ETIMEDOUT;
}

/* First and last survivor that knew, from the silence; false if nobody. */
static bool first_last(const struct side_by_side *s, const uint64_t *knew,
		       uint64_t *first, uint64_t *last)
{
	unsigned int i;
	bool any = false;

	for (i = 0; i < s->n; i++) {
		if (!knew[i])
			continue;
		if (!any || knew[i] < *first)
			*first = knew[i];
		if (!any || knew[i] > *last)
			*last = knew[i];
		any = true;
	}
	if (any) {
		*first -= s->silence_ns;
		*last -= s->silence_ns;
	}
	return any;
}

static void print_times(const char *name, uint64_t *v, unsigned int n)
{
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_u64);
	printf(" %s_median_us=%" PRIu64 " %s_max_us=%" PRIu64, name,
	       median(v, n) / 1000, name, v[n - 1] / 1000);
}

int cmd_tipc(const struct opts *o)
{
	uint64_t *tf, *tl, *ff, *fl, *fs, start = mono_ns();
	uint64_t h = o->hb_ms * 1000000ULL, d = o->timeout_ms * 1000000ULL;
	uint64_t tol = o->tolerance_ms * 1000000ULL;
	uint64_t f0[4], f1[4], t0, t1, first, last;
	unsigned int k, i, done = 0, unsteady = 0, tipc_all = 0, ftnl_all = 0;
	unsigned int tipc_any = 0, ftnl_any = 0;
	double secs = 0;
	unsigned int rate_tries, rate_disturbed = 0;
	uint64_t r0[4] = { 0 }, r1[4] = { 0 };
	unsigned int stalled_false = 0, follow_false = 0;
	struct interval_summary st;
	bool probing;
	const char *verdict = "ok";
	struct side_by_side s;
	struct cluster c;
	int err;

	memset(&s, 0, sizeof(s));
	s.c = &c;
	s.n = o->nodes;
	s.tipc_fd = calloc(s.n, sizeof(*s.tipc_fd));
	s.up = calloc((size_t)s.n * s.n, sizeof(*s.up));
	s.tipc_knew = calloc(s.n, sizeof(*s.tipc_knew));
	s.ftnl_knew = calloc(s.n, sizeof(*s.ftnl_knew));
	s.ftnl_stamp = calloc(s.n, sizeof(*s.ftnl_stamp));
	s.ftnl_false_max = 4096;
	s.ftnl_false_at = calloc(s.ftnl_false_max, sizeof(*s.ftnl_false_at));
	tf = calloc(o->trials, sizeof(*tf));
	tl = calloc(o->trials, sizeof(*tl));
	ff = calloc(o->trials, sizeof(*ff));
	fl = calloc(o->trials, sizeof(*fl));
	fs = calloc(o->trials, sizeof(*fs));
	memset(&c, 0, sizeof(c));
	if (!s.tipc_fd || !s.up || !s.tipc_knew || !s.ftnl_knew ||
	    !s.ftnl_stamp || !s.ftnl_false_at || !tf || !tl || !ff || !fl || !fs) {
		msg("out of memory");
		err = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < s.n; i++)
		s.tipc_fd[i] = -1;
	/* Without it the run still counts; its false suspicions stay "other". */
	probing = !stall_probe_start();
	if (!probing)
		msg("tipc: no stall probe");
	err = cluster_open(&c, o);
	if (!err)
		err = frames_setup(&c, true);
	for (i = 1; !err && i <= s.n; i++)
		err = tipc_bearer(&c, i, o->tolerance_ms);
	set_phase(&s, "TIPC starting");
	for (i = 1; !err && i <= s.n; i++)
		err = tipc_open(&s, i);
	if (!err)
		err = wait_mesh(&s);
	if (err == -ETIMEDOUT) {
		/* A finding, not a failure: TIPC cannot keep its mesh here. */
		printf("RESULT test=tipc n=%u tol_ms=%u h_ms=%u d_ms=%u trials=0 "
		       "verdict=nomesh links_up=%u links=%u tipc_false=%u "
		       "elapsed_s=%.0f\n", s.n, o->tolerance_ms, o->hb_ms,
		       o->timeout_ms, s.links_up, s.n * (s.n - 1), s.tipc_false,
		       (double)(mono_ns() - start) / 1e9);
		fflush(stdout);
		err = 0;
		goto out;
	}
	if (err)
		goto out;
	msg("tipc n=%u: TIPC mesh of %u links up after %.1f s", s.n,
	    s.links_up, (double)(mono_ns() - start) / 1e9);

	/*
	 * Background frames, both systems running, nobody failing: a window
	 * with a false suspicion in it (a node declared dead stops being
	 * watched, an expelled one stops sending) is taken again, up to
	 * RATE_TRIES times; then the least disturbed one is kept.
	 */
	for (rate_tries = 1; ; rate_tries++) {
		unsigned int before = s.tipc_false + s.ftnl_false +
				      s.ftnl_false_bcast, disturbed;

		err = ftnl_fresh(&s, 1);
		if (!err)
			err = frames_read(f0);
		set_phase(&s, "frame count");
		t0 = mono_ns();
		if (!err)
			err = pump(&s, t0 + o->rate_s * 1000000000ULL, NULL);
		if (!err)
			err = frames_read(f1);
		t1 = mono_ns();
		if (err == -ETIMEDOUT && rate_tries < RATE_TRIES)
			continue;
		if (err == -ETIMEDOUT) {
			/* As much a finding as a TIPC mesh that never forms. */
			printf("RESULT test=tipc n=%u tol_ms=%u h_ms=%u d_ms=%u "
			       "trials=0 verdict=unsteady tipc_false=%u "
			       "ftnl_false=%u elapsed_s=%.0f\n", s.n,
			       o->tolerance_ms, o->hb_ms, o->timeout_ms,
			       s.tipc_false, s.ftnl_false,
			       (double)(mono_ns() - start) / 1e9);
			fflush(stdout);
			err = 0;
			goto out;
		}
		if (err) {
			msg("tipc n=%u: frame count: %s", s.n, strerror(-err));
			goto out;
		}
		disturbed = s.tipc_false + s.ftnl_false + s.ftnl_false_bcast -
			    before;
		if (rate_tries == 1 || disturbed < rate_disturbed) {
			memcpy(r0, f0, sizeof(r0));
			memcpy(r1, f1, sizeof(r1));
			secs = (double)(t1 - t0) / 1e9;
			rate_disturbed = disturbed;
		}
		if (!disturbed)
			break;
		if (rate_tries == RATE_TRIES) {
			msg("tipc n=%u: frame count disturbed by false suspicions "
			    "%u times: kept the least disturbed", s.n, rate_tries);
			break;
		}
	}

	for (k = 0; done < o->trials; k++) {
		unsigned int observer;

		if (o->budget_s && mono_ns() - start > o->budget_s * 1000000000ULL) {
			verdict = "budget";
			msg("tipc n=%u: time budget of %us spent after %u trials",
			    s.n, o->budget_s, done);
			break;
		}
		if (s.victim) {
			/* The last victim back; its downs excused till whole. */
			set_phase(&s, "victim back, TIPC links re-forming");
			err = link_set(&c, s.victim, true);
			if (!err)
				err = neigh_reset(&c, s.victim);
			if (!err)
				err = wait_mesh(&s);
			if (err == -ETIMEDOUT && ++unsteady <= o->trials)
				continue;
			if (err)
				goto out;
		}
		s.excused = 0;
		s.silence_ns = 0;
		s.victim = 1 + (unsigned int)(rng_next() % s.n);
		observer = s.victim % s.n + 1;
		s.tipc_count = s.ftnl_count = 0;
		memset(s.tipc_knew, 0, s.n * sizeof(*s.tipc_knew));
		memset(s.ftnl_knew, 0, s.n * sizeof(*s.ftnl_knew));
		memset(s.ftnl_stamp, 0, s.n * sizeof(*s.ftnl_stamp));

		err = ftnl_fresh(&s, observer);
		if (err == -ETIMEDOUT) {
			msg("tipc n=%u trial %u: the ftnl ring never got steady",
			    s.n, k + 1);
			if (++unsteady > o->trials) {
				verdict = "unsteady";
				err = 0;
				break;
			}
			s.victim = 0;
			continue;
		}
		if (err)
			goto out;
		if (!mesh_whole(&s)) {
			msg("tipc n=%u trial %u: TIPC mesh broke (%u links)", s.n,
			    k + 1, s.links_up);
			s.victim = 0;
			if (++unsteady > o->trials) {
				verdict = "unsteady";
				break;
			}
			err = wait_mesh(&s);
			if (err)
				goto out;
			continue;
		}

		pump(&s, mono_ns() + rng_next() % h, NULL);
		s.silence_ns = mono_ns();
		s.excused = s.victim;
		set_phase(&s, "victim silenced");
		err = link_set(&c, s.victim, false);
		if (err) {
			msg("veth of node %u down: %s", s.victim, strerror(-err));
			goto out;
		}
		err = pump(&s, s.silence_ns + 3 * (tol > d ? tol : d) + h +
			   5 * 1000000000ULL, all_know);
		if (err)
			goto out;
		/* Late events of this trial still count as knowing. */
		pump(&s, mono_ns() + 10 * 1000000ULL, NULL);

		if (first_last(&s, s.tipc_knew, &first, &last)) {
			tipc_any++;
			if (s.tipc_count == s.n - 1) {
				tf[tipc_all] = first;
				tl[tipc_all++] = last;
			}
		}
		msg("tipc n=%u tol=%ums h=%ums trial %u: node %u silenced; TIPC "
		    "%u/%u knew, first %.1f ms, last %.1f ms", s.n,
		    o->tolerance_ms, o->hb_ms, k + 1, s.victim, s.tipc_count,
		    s.n - 1, s.tipc_count ? (double)first / 1e6 : 0,
		    s.tipc_count ? (double)last / 1e6 : 0);
		if (first_last(&s, s.ftnl_knew, &first, &last)) {
			ftnl_any++;
			if (s.ftnl_count == s.n - 1) {
				ff[ftnl_all] = first;
				fl[ftnl_all] = last;
				first_last(&s, s.ftnl_stamp, &first, &last);
				fs[ftnl_all++] = last;
			}
		}
		msg("tipc n=%u tol=%ums h=%ums trial %u: ftnl %u/%u knew, first "
		    "%.1f ms, last %.1f ms", s.n, o->tolerance_ms, o->hb_ms,
		    k + 1, s.ftnl_count, s.n - 1,
		    s.ftnl_count ? (double)first / 1e6 : 0,
		    s.ftnl_count ? (double)last / 1e6 : 0);
		done++;
	}
	if (s.victim && s.silence_ns) {
		err = link_set(&c, s.victim, true);
		if (!err)
			err = neigh_reset(&c, s.victim);
		if (err)
			goto out;
	}
	err = cluster_del_all(&c);
	if (err)
		goto out;

	printf("RESULT test=tipc n=%u tol_ms=%u h_ms=%u d_ms=%u trials=%u "
	       "unsteady=%u verdict=%s rate_s=%.1f rate_tries=%u "
	       "rate_disturbed=%u", s.n, o->tolerance_ms, o->hb_ms,
	       o->timeout_ms, done, unsteady, verdict, secs, rate_tries,
	       rate_disturbed);
	printf(" tipc_fps=%.1f ftnl_fps=%.1f ftnl_arp_fps=%.1f",
	       (double)(r1[PREF_TIPC] - r0[PREF_TIPC]) / secs / s.n,
	       (double)(r1[PREF_IP] - r0[PREF_IP] + r1[PREF_ARP] -
			r0[PREF_ARP]) / secs / s.n,
	       (double)(r1[PREF_ARP] - r0[PREF_ARP]) / secs / s.n);
	printf(" tipc_any=%u tipc_all=%u ftnl_any=%u ftnl_all=%u tipc_false=%u "
	       "ftnl_false=%u ftnl_false_bcast=%u", tipc_any, tipc_all,
	       ftnl_any, ftnl_all, s.tipc_false, s.ftnl_false,
	       s.ftnl_false_bcast);
	print_times("tipc_first", tf, tipc_all);
	print_times("tipc_last", tl, tipc_all);
	print_times("ftnl_first", ff, ftnl_all);
	print_times("ftnl_last", fl, ftnl_all);
	print_times("ftnl_stamp_last", fs, ftnl_all);
	stall_summary(d - h, &st);
	/*
	 * Each ftnl false suspicion: after a stall of d - h or more (the
	 * emulator's), or within 3d of an earlier one (a follow-on: the ring
	 * re-forming around a live node declared dead), or neither.
	 */
	qsort(s.ftnl_false_at, s.ftnl_false < s.ftnl_false_max ?
	      s.ftnl_false : s.ftnl_false_max, sizeof(uint64_t), cmp_u64);
	for (i = 0; i < s.ftnl_false && i < s.ftnl_false_max; i++) {
		uint64_t at = s.ftnl_false_at[i];

		if (stall_within(at - d, at + 10 * 1000000ULL, d - h))
			stalled_false++;
		else if (i && s.ftnl_false_at[i - 1] + 3 * d >= at)
			follow_false++;
	}
	printf(" stalls=%u stalls_ge_d_h=%u stall_max_us=%" PRIu64
	       " ftnl_false_stalled=%u ftnl_false_follow=%u", st.count,
	       st.long_count, st.max_ns / 1000, stalled_false, follow_false);
	printf(" elapsed_s=%.0f\n", (double)(mono_ns() - start) / 1e9);
	fflush(stdout);
out:
	for (i = 0; i < s.n; i++) {
		if (s.tipc_fd[i] >= 0)
			close(s.tipc_fd[i]);
	}
	if (c.nodes) {
		for (i = 1; i <= s.n; i++)
			tipc_bearer(&c, i, 0);
		frames_setup(&c, false);
	}
	cluster_close(&c);
	if (probing)
		stall_probe_stop();
out_free:
	free(s.tipc_fd);
	free(s.up);
	free(s.tipc_knew);
	free(s.ftnl_knew);
	free(s.ftnl_stamp);
	free(tf);
	free(tl);
	free(ff);
	free(fl);
	free(fs);
	return err ? 1 : 0;
}
