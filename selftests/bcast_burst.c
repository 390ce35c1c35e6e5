// SPDX-License-Identifier: GPL-2.0
/*
 * A burst of failures keeps exactly-once delivery (issue 10, item 5;
 * Documentation/bcast.rst), on a 16-node cluster (st_vcluster.h), for each
 * broadcast algorithm:
 *
 *   1. a job of 16 ranks per node on all 16 nodes (256 registered
 *      processes, one handle each, a child process per node holding them)
 *      is aborted at once: every child exits together, so each node sees
 *      its 16 sockets released and broadcasts their deaths, all nodes at
 *      the same time;
 *   2. once every node has every rank's death, 4 nodes are killed within
 *      a few milliseconds (far within one d): 3, 7, 11, 15, no two
 *      adjacent, so that each is found by its own observer (4, 8, 12, 16)
 *      and the four broadcasts run at the same time.
 *
 * Checked:
 *   - every node publishes each of the 256 process deaths exactly once
 *     (no loss: FCG used to drop a 17th concurrent broadcast; no second
 *     delivery);
 *   - every survivor publishes exactly one failure event about each killed
 *     node, and none about a survivor anywhere (no false suspicion);
 *   - counters, per survivor: bcast_delivered grew by exactly the number
 *     of broadcasts the other nodes started (each broadcast delivered once:
 *     a late copy delivered again would count twice); no tx error, no
 *     event lost; for the dual hypercube and BMG, bcast_forwarded stays
 *     within one overlay fan-out per delivered broadcast and cube (a
 *     re-delivered broadcast is forwarded again).
 *
 * Times: h = 100 ms, d = 1 s (as proc_register.c); the waits are generous
 * for QEMU TCG and bound nothing the test asserts.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_vcluster.h"
#include "ftnl_selftest.h"
#include "bcast/topology.h"	/* kmod/bcast: the overlays the module runs */
#include "ksft.h"

#define N		16
#define RANKS		16		/* per node */
#define CLUSTER		0x6262		/* "bb" */
#define H_US		100000u
#define D_US		1000000u
#define JOB		0x6275727374ull	/* "burst" */
#define NVICTIMS	4
#define MAX_PE		(2 * N * N * RANKS)
#define MAX_FAIL	256

static const uint32_t victims[NVICTIMS] = { 3, 7, 11, 15 };

struct pe {
	uint32_t at;
	struct ftnl_event_proc_exit e;
};

struct fail {
	uint32_t at;
	struct ftnl_event_failure f;
};

FIXTURE(bb) {
	struct st_vc vc;
	struct pe *pe;			/* MAX_PE, on the heap */
	size_t npe;
	size_t pe_dropped;
	struct fail fail[MAX_FAIL];
	size_t nfail;
	size_t overruns;
	pid_t child[N + 1];
	int cmd[N + 1];
};

FIXTURE_VARIANT(bb) {
	uint8_t algo;
};

FIXTURE_VARIANT_ADD(bb, hypercube) {
	.algo = FTNL_BCAST_HYPERCUBE,
};

FIXTURE_VARIANT_ADD(bb, bmg) {
	.algo = FTNL_BCAST_BMG,
};

FIXTURE_VARIANT_ADD(bb, fcg) {
	.algo = FTNL_BCAST_FCG,
};

static bool is_victim(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < NVICTIMS; i++)
		if (victims[i] == id)
			return true;
	return false;
}

/* Read every pending event of every live node, waiting up to @ms first. */
static int collect(FIXTURE_DATA(bb) *self, int ms)
{
	struct pollfd pfd[N];
	uint32_t ids[N];
	struct ftnl_event ev;
	nfds_t nfd = 0, i;
	uint32_t id;
	int r;

	for (id = 1; id <= N; id++) {
		if (!self->vc.node[id].ev)
			continue;
		pfd[nfd].fd = ftnl_events_fd(self->vc.node[id].ev);
		pfd[nfd].events = POLLIN;
		ids[nfd++] = id;
	}
	if (ms > 0 && poll(pfd, nfd, ms) < 0 && errno != EINTR)
		return -errno;
	for (i = 0; i < nfd; i++) {
		id = ids[i];
		while ((r = ftnl_events_read(self->vc.node[id].ev, &ev)) == 1) {
			if (ev.type == FTNL_EVENT_PROC_EXIT) {
				if (self->npe == MAX_PE) {
					self->pe_dropped++;
					continue;
				}
				self->pe[self->npe].at = id;
				self->pe[self->npe++].e = ev.proc_exit;
			} else if (ev.type == FTNL_EVENT_FAILURE) {
				if (self->nfail == MAX_FAIL)
					continue;
				self->fail[self->nfail].at = id;
				self->fail[self->nfail++].f = ev.failure;
			} else if (ev.type == FTNL_EVENT_OVERRUN) {
				self->overruns++;
			}
		}
		if (r < 0)
			return r;
	}
	return 0;
}

static size_t count_pe(const FIXTURE_DATA(bb) *self, uint32_t at,
		       uint32_t node, uint32_t rank)
{
	size_t i, n = 0;

	for (i = 0; i < self->npe; i++)
		n += self->pe[i].at == at && self->pe[i].e.job == JOB &&
		     self->pe[i].e.node_id == node && self->pe[i].e.rank == rank;
	return n;
}

static size_t count_fail(const FIXTURE_DATA(bb) *self, uint32_t at,
			 uint32_t node)
{
	size_t i, n = 0;

	for (i = 0; i < self->nfail; i++)
		n += (!at || self->fail[i].at == at) &&
		     self->fail[i].f.node_id == node;
	return n;
}

/* Rank r of node id is id * RANKS + r. */
static uint32_t rank_of(uint32_t id, uint32_t r)
{
	return id * RANKS + r;
}

/*
 * A child in node @id's netns registers its RANKS ranks on as many
 * handles, reports how many succeeded, and exits (releasing them all)
 * when told.
 */
static pid_t start_ranks(struct st_vc *vc, uint32_t id, int *cmd_fd,
			 int *ok_out)
{
	struct ftnl_handle *h[RANKS];
	int cmd[2], rep[2], ok = 0;
	uint32_t r;
	char c;
	pid_t pid;

	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		if (st_setns(vc->node[id].ns))
			_exit(10);
		for (r = 0; r < RANKS; r++)
			ok += !ftnl_open(&h[r]) &&
			      !ftnl_proc_register(h[r], JOB, rank_of(id, r));
		if (write(rep[1], &ok, sizeof(ok)) != sizeof(ok))
			_exit(11);
		if (read(cmd[0], &c, 1) < 0)
			_exit(12);
		_exit(0);	/* the abort: every socket released at once */
	}
	close(cmd[0]);
	close(rep[1]);
	if (read(rep[0], &ok, sizeof(ok)) != sizeof(ok))
		ok = -1;
	close(rep[0]);
	*cmd_fd = cmd[1];
	*ok_out = ok;
	return pid;
}

FIXTURE_SETUP(bb)
{
	char why[256] = "";
	uint32_t id;

	self->pe = calloc(MAX_PE, sizeof(*self->pe));
	ASSERT_NE(NULL, self->pe);
	memset(self->child, 0, sizeof(self->child));
	for (id = 0; id <= N; id++)
		self->cmd[id] = -1;
	st_wait_quiet_machine(1000, 10000, NULL);
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	self->vc.cfg.has_bcast_algo = true;
	self->vc.cfg.bcast_algo = variant->algo;
	if (variant->algo == FTNL_BCAST_FCG) {
		/* the four kills may land in one broadcast */
		self->vc.cfg.has_fcg_f = true;
		self->vc.cfg.fcg_f = NVICTIMS;
	}
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 20000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_EQ(0, collect(self, 0));
	ASSERT_EQ(0u, self->nfail) {
		TH_LOG("failure event while the cluster settled");
		ST_VC_LOG_STALL(&self->vc);
	}
}

FIXTURE_TEARDOWN(bb)
{
	uint32_t id;

	for (id = 1; id <= N; id++) {
		if (self->cmd[id] >= 0)
			close(self->cmd[id]);
		if (self->child[id] > 0)
			st_wait_pid(self->child[id], 5000);
	}
	st_vc_fini(&self->vc);
	free(self->pe);
}

/* Wait until every node in @want has every rank's death, or @ms passed. */
static bool all_published(FIXTURE_DATA(bb) *self, const bool *want,
			  unsigned int ms, uint32_t *miss_at, uint32_t *miss_rank)
{
	uint64_t end = st_mono_ns() + (uint64_t)ms * 1000000ull;
	uint32_t at, id, r;
	bool all;

	do {
		if (collect(self, 50))
			return false;
		all = true;
		for (at = 1; at <= N && all; at++) {
			if (!want[at])
				continue;
			for (id = 1; id <= N && all; id++)
				for (r = 0; r < RANKS && all; r++)
					if (!count_pe(self, at, id, rank_of(id, r))) {
						all = false;
						*miss_at = at;
						*miss_rank = rank_of(id, r);
					}
		}
	} while (!all && st_mono_ns() < end);
	return all;
}

TEST_F_TIMEOUT(bb, abort_and_kill, 240)
{
	struct ftnl_stats s0[N + 1], s1[N + 1];
	bool everyone[N + 1] = { false }, live[N + 1] = { false };
	uint64_t originated = 0, t_abort, t_published, t_kill0, t_kill1;
	uint32_t id, at, r, miss_at = 0, miss_rank = 0;
	u32 fanout = 0;
	char why[256] = "";
	unsigned int i;
	int ok = 0;

	for (id = 1; id <= N; id++) {
		everyone[id] = true;
		live[id] = !is_victim(id);
	}
	if (variant->algo == FTNL_BCAST_HYPERCUBE)
		fanout = 2 * ftnl_hcube_dim(N);	/* both cubes, at most */
	else if (variant->algo == FTNL_BCAST_BMG)
		for (r = 0; r < N; r++) {	/* p +/- 2^j, the largest */
			u32 to[FTNL_BCAST_MAX_FANOUT], c;

			c = ftnl_bmg_forward(N, r, to);
			if (c > fanout)
				fanout = c;
		}

	for (id = 1; id <= N; id++) {
		self->child[id] = start_ranks(&self->vc, id, &self->cmd[id], &ok);
		ASSERT_LT(0, self->child[id]);
		ASSERT_EQ(RANKS, ok) {
			TH_LOG("node %u: %d of %d ranks registered", id, ok, RANKS);
		}
	}
	for (id = 1; id <= N; id++)
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s0[id]));

	/* 1. the abort: every rank of every node at once */
	t_abort = st_mono_ns();
	for (id = 1; id <= N; id++)
		ASSERT_EQ(1, (int)write(self->cmd[id], "x", 1));
	for (id = 1; id <= N; id++) {
		EXPECT_EQ(0, st_wait_pid(self->child[id], 10000));
		self->child[id] = 0;
		close(self->cmd[id]);
		self->cmd[id] = -1;
	}
	ASSERT_TRUE(all_published(self, everyone, 60000, &miss_at, &miss_rank)) {
		TH_LOG("node %u never published rank %u's death (%zu process deaths seen)",
		       miss_at, miss_rank, self->npe);
		for (id = 1; id <= N; id++) {
			struct ftnl_stats s;

			if (st_vc_stats(&self->vc, id, &s))
				continue;
			TH_LOG("node %u: originated %" PRIu64 ", delivered %" PRIu64 ", duplicates %" PRIu64 ", tx errors %" PRIu64 ", events lost %" PRIu64,
			       id, s.bcast_originated - s0[id].bcast_originated,
			       s.bcast_delivered - s0[id].bcast_delivered,
			       s.bcast_duplicates - s0[id].bcast_duplicates,
			       s.tx_errors - s0[id].tx_errors,
			       s.events_lost - s0[id].events_lost);
			for (r = 0; r <= FTNL_DROP_MAX; r++)
				if (s.drops[r] != s0[id].drops[r])
					TH_LOG("node %u: %" PRIu64 " dropped (%s)", id,
					       s.drops[r] - s0[id].drops[r],
					       ftnl_drop_reason_name(r));
		}
	}
	t_published = st_mono_ns();

	/* The victims' broadcasts are all out: count them now. */
	for (i = 0; i < NVICTIMS; i++) {
		ASSERT_EQ(0, st_vc_stats(&self->vc, victims[i], &s1[victims[i]]));
		originated += s1[victims[i]].bcast_originated -
			      s0[victims[i]].bcast_originated;
	}

	/* 2. four nodes die within milliseconds */
	t_kill0 = st_mono_ns();
	for (i = 0; i < NVICTIMS; i++)
		ASSERT_EQ(0, st_vc_kill(&self->vc, victims[i], i ? NULL : &t_kill0));
	t_kill1 = st_mono_ns();
	TH_LOG("%s: %d process deaths everywhere %.0f ms after the abort; %d nodes killed within %.1f ms",
	       ftnl_bcast_algo_name(variant->algo), N * RANKS,
	       (t_published - t_abort) / 1e6, NVICTIMS,
	       (t_kill1 - t_kill0) / 1e6);

	for (i = 0; i < NVICTIMS; i++)
		for (at = 1; at <= N; at++) {
			uint64_t end = st_mono_ns() + 20000000000ull;

			if (!live[at])
				continue;
			while (!count_fail(self, at, victims[i]) && st_mono_ns() < end)
				ASSERT_EQ(0, collect(self, 50));
			ASSERT_NE(0u, count_fail(self, at, victims[i])) {
				TH_LOG("node %u never learned node %u's death",
				       at, victims[i]);
				ST_VC_LOG_STALL(&self->vc);
			}
		}
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 10000, why, sizeof(why))) {
		TH_LOG("ring not closed around the dead: %s", why);
	}
	/* Late copies and second deliveries would show by now. */
	st_msleep(2 * D_US / 1000);
	ASSERT_EQ(0, collect(self, 0));
	for (id = 1; id <= N; id++)
		if (live[id]) {
			ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s1[id]));
			originated += s1[id].bcast_originated -
				      s0[id].bcast_originated;
		}

	EXPECT_EQ(0u, self->overruns);
	EXPECT_EQ(0u, self->pe_dropped);
	/* Every process death exactly once at every survivor. */
	for (at = 1; at <= N; at++) {
		if (!live[at])
			continue;
		for (id = 1; id <= N; id++)
			for (r = 0; r < RANKS; r++) {
				size_t c = count_pe(self, at, id, rank_of(id, r));

				EXPECT_EQ(1u, c) {
					TH_LOG("node %u published rank %u of node %u %zu times",
					       at, rank_of(id, r), id, c);
				}
			}
	}
	/* Every node death exactly once at every survivor, no false one. */
	for (at = 1; at <= N; at++) {
		if (!live[at])
			continue;
		for (id = 1; id <= N; id++) {
			size_t c = count_fail(self, at, id);

			if (is_victim(id)) {
				EXPECT_EQ(1u, c) {
					TH_LOG("node %u: %zu events about node %u",
					       at, c, id);
				}
			} else {
				EXPECT_EQ(0u, c) {
					TH_LOG("node %u: false suspicion of node %u",
					       at, id);
					ST_VC_LOG_STALL(&self->vc);
				}
			}
		}
	}
	/* Counters: each broadcast delivered once, forwarded at most once. */
	for (id = 1; id <= N; id++) {
		uint64_t delivered, forwarded, own;

		if (!live[id])
			continue;
		delivered = s1[id].bcast_delivered - s0[id].bcast_delivered;
		forwarded = s1[id].bcast_forwarded - s0[id].bcast_forwarded;
		own = s1[id].bcast_originated - s0[id].bcast_originated;
		EXPECT_EQ(originated - own, delivered) {
			TH_LOG("node %u delivered %" PRIu64 " broadcasts; the others started %" PRIu64,
			       id, delivered, originated - own);
		}
		EXPECT_EQ(0u, s1[id].tx_errors - s0[id].tx_errors);
		EXPECT_EQ(0u, s1[id].events_lost - s0[id].events_lost);
		if (fanout)
			EXPECT_GE(delivered * fanout, forwarded) {
				TH_LOG("node %u forwarded %" PRIu64 " datagrams for %" PRIu64 " broadcasts",
				       id, forwarded, delivered);
			}
	}
	for (r = 0; r <= FTNL_DROP_MAX; r++) {
		uint64_t d = 0;

		for (id = 1; id <= N; id++)
			if (live[id])
				d += s1[id].drops[r] - s0[id].drops[r];
		if (d)
			TH_LOG("survivors dropped %" PRIu64 " datagrams (%s)", d,
			       ftnl_drop_reason_name(r));
	}
	TH_LOG("%s: %" PRIu64 " broadcasts in all, node 1 delivered %" PRIu64 ", forwarded %" PRIu64 ", duplicates %" PRIu64,
	       ftnl_bcast_algo_name(variant->algo), originated,
	       s1[1].bcast_delivered - s0[1].bcast_delivered,
	       s1[1].bcast_forwarded - s0[1].bcast_forwarded,
	       s1[1].bcast_duplicates - s0[1].bcast_duplicates);
}

TEST_HARNESS_MAIN
