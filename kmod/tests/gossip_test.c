// SPDX-License-Identifier: GPL-2.0
/*
 * Corrected gossip (kmod/bcast/gossip.c) in userspace, under ASan/UBSan,
 * driven slot by slot by a small network of its own (independent of
 * tools/sim): a message sent in slot s reaches its receiver at s + lat + 2,
 * failed nodes stop at a chosen slot. Checked, from the paper's claims:
 *   - every message goes to another, existing rank; nodes deliver at most
 *     once; every colored live node exits (Corollary 2);
 *   - CCG and FCG reach every live node when nobody fails during the
 *     broadcast, whatever failed before (Claims 3 and 4, Corollary 3);
 *   - FCG is all-or-none among live nodes with up to f failures during
 *     the broadcast, struck at nodes that hold the message, on random
 *     schedules and exhaustively for one failure on small rings (Claim 4);
 *   - FCG needs no SOS with f^2 + f + 1 g-nodes and no failure (Claim 5),
 *     and its SOS and c-node timeout paths save the broadcast when every
 *     g-node dies, where CCG is not consistent (section III.C);
 *   - OCG with a correction as long as the ring reaches everyone;
 *   - malformed messages change nothing; a run replays from its seed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../bcast/gossip.h"

#define NEVER	UINT32_MAX

struct flight {
	u32 from;
	u32 to;
	struct ftnl_gossip_msg msg;
};

/* Messages in flight, bucketed by arrival slot modulo lat + 3. */
struct bucket {
	struct flight *v;
	u32 len;
	u32 cap;
};

struct net {
	u32 n;
	u32 lat;
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node *node;
	u32 *die_at;		/* the node is dead from this slot on */
	u32 *delivers;
	bool *done;
	struct bucket *bucket;
	u32 nbucket;
	u32 inflight;
	u64 sent;
	u64 hash;		/* of every send, for replay checks */
	u32 sos;
	u32 gnodes;
	u32 bad_sends;		/* to self or off the ring */
	u32 slot;		/* the last slot run */
	/* Online failures striking nodes that hold the message. */
	u32 nkill;
	u32 kill_slot[FTNL_GOSSIP_MAX_F + 1];
	unsigned int seed;
};

static void net_init(struct net *net, u8 algo, u32 n, u32 lat, u8 f, u32 T,
		     u64 seed)
{
	memset(net, 0, sizeof(*net));
	net->n = n;
	net->lat = lat;
	ftnl_gossip_params_init(&net->par, algo, n, 0, lat, f);
	if (T) {
		u32 corr = net->par.corr_end - (net->par.gossip_end + lat + 1);

		net->par.gossip_end = T;
		net->par.corr_end = T + lat + 1 + corr;
	}
	net->node = calloc(n, sizeof(*net->node));
	net->die_at = malloc(n * sizeof(u32));
	net->delivers = calloc(n, sizeof(u32));
	net->done = calloc(n, sizeof(bool));
	net->nbucket = lat + 3;
	net->bucket = calloc(net->nbucket, sizeof(*net->bucket));
	if (!net->node || !net->die_at || !net->delivers || !net->done ||
	    !net->bucket)
		abort();
	for (u32 i = 0; i < n; i++) {
		ftnl_gossip_init(&net->node[i], &net->par, i, seed);
		net->die_at[i] = NEVER;
	}
	net->seed = (unsigned int)seed;
}

static void net_free(struct net *net)
{
	for (u32 b = 0; b < net->nbucket; b++)
		free(net->bucket[b].v);
	free(net->bucket);
	free(net->node);
	free(net->die_at);
	free(net->delivers);
	free(net->done);
}

static bool net_alive(const struct net *net, u32 i, u32 slot)
{
	return slot < net->die_at[i];
}

static void net_handle(struct net *net, u32 i, const struct ftnl_gossip_out *out,
		       u32 slot)
{
	if (out->flags & FTNL_GOSSIP_OUT_DELIVER) {
		net->delivers[i]++;
		net->gnodes += net->node[i].gnode;
	}
	if (out->flags & FTNL_GOSSIP_OUT_DONE)
		net->done[i] = true;
	if (out->flags & FTNL_GOSSIP_OUT_SOS)
		net->sos++;
	if (out->flags & FTNL_GOSSIP_OUT_SEND) {
		u32 arrive = out->msg.time + net->lat + 1;
		struct bucket *b = &net->bucket[arrive % net->nbucket];

		net->sent++;
		net->hash = (net->hash ^ ((u64)i << 32 | out->to)) * 0x100000001b3ULL;
		if (out->to >= net->n || out->to == i || arrive != slot + net->lat + 2) {
			net->bad_sends++;
			return;
		}
		if (b->len == b->cap) {
			b->cap = b->cap ? 2 * b->cap : 64;
			b->v = realloc(b->v, b->cap * sizeof(*b->v));
			if (!b->v)
				abort();
		}
		b->v[b->len++] = (struct flight){ .from = i, .to = out->to,
						  .msg = out->msg };
		net->inflight++;
	}
}

/* A node that holds the message and has not exited, or n if none. */
static u32 net_pick_active(struct net *net, u32 slot)
{
	for (u32 tries = 0; tries < 4 * net->n; tries++) {
		u32 v = (u32)rand_r(&net->seed) % net->n;
		u8 st = net->node[v].state;

		if (net_alive(net, v, slot) && st != FTNL_GOSSIP_IDLE &&
		    st != FTNL_GOSSIP_DONE)
			return v;
	}
	return net->n;
}

/* Run the broadcast to quiescence. */
static void net_run(struct net *net)
{
	struct ftnl_gossip_out out;
	u32 slot;

	ftnl_gossip_start(&net->node[net->par.root], &out);
	net_handle(net, net->par.root, &out, 0);
	for (slot = 0;; slot++) {
		struct bucket *b = &net->bucket[slot % net->nbucket];
		u32 next_wake = NEVER, k, i;

		for (k = 0; k < net->nkill; k++) {
			u32 v;

			if (net->kill_slot[k] != slot)
				continue;
			v = net_pick_active(net, slot);
			if (v < net->n)
				net->die_at[v] = slot;
		}
		for (k = 0; k < b->len; k++) {
			struct flight *fl = &b->v[k];

			if (!net_alive(net, fl->to, slot))
				continue;
			ftnl_gossip_recv(&net->node[fl->to], fl->from, &fl->msg, &out);
			net_handle(net, fl->to, &out, slot);
		}
		net->inflight -= b->len;
		b->len = 0;
		for (i = 0; i < net->n; i++) {
			struct ftnl_gossip_node *node = &net->node[i];

			if (!net_alive(net, i, slot) || node->wake == FTNL_GOSSIP_NO_WAKE)
				continue;
			if (node->wake <= slot) {
				ftnl_gossip_step(node, slot, &out);
				net_handle(net, i, &out, slot);
			}
			if (node->wake != FTNL_GOSSIP_NO_WAKE && node->wake < next_wake)
				next_wake = node->wake;
		}
		if (net->inflight)
			continue;
		/* Only timers left: jump to the next one, or stop. */
		for (k = 0; k < net->nkill; k++)
			if (net->kill_slot[k] > slot && net->kill_slot[k] < next_wake)
				next_wake = net->kill_slot[k];
		if (next_wake == NEVER)
			break;
		if (next_wake > slot + 1)
			slot = next_wake - 1;
	}
	net->slot = slot;
}

struct tally {
	u32 live;
	u32 reached;
	u32 dup;
	u32 unfinished;
};

static struct tally net_tally(const struct net *net)
{
	struct tally t = { 0 };

	for (u32 i = 0; i < net->n; i++) {
		if (net->die_at[i] != NEVER)
			continue;
		t.live++;
		if (net->delivers[i])
			t.reached++;
		if (net->delivers[i] > 1)
			t.dup++;
		if (net->delivers[i] && !net->done[i])
			t.unfinished++;
	}
	return t;
}

/* Mark @count random non-root nodes dead from the start. */
static void net_prefail(struct net *net, u32 count)
{
	while (count && net->n > 1) {
		u32 v = 1 + (u32)rand_r(&net->seed) % (net->n - 1);

		if (net->die_at[v] == NEVER) {
			net->die_at[v] = 0;
			count--;
		}
	}
}

static bool check_sane(const struct net *net, const struct tally *t,
		       const char *what, u32 n, u64 seed)
{
	if (net->bad_sends || t->dup || t->unfinished) {
		tap_diag("%s n=%u seed=%llu: bad sends %u, duplicates %u, unfinished %u",
			 what, n, (unsigned long long)seed, net->bad_sends, t->dup,
			 t->unfinished);
		return TAP_CHECK(false);
	}
	return true;
}

static void test_layout(const void *arg)
{
	(void)arg;
	TAP_CHECK_UINT(sizeof(struct ftnl_gossip_msg), 8 + 4 * FTNL_GOSSIP_MAX_KNOWN);
	TAP_CHECK_UINT(FTNL_GOSSIP_MAX_KNOWN, FTNL_GOSSIP_MAX_F + 1);
}

static void test_defaults(const void *arg)
{
	(void)arg;
	for (u8 algo = 0; algo < __FTNL_GOSSIP_ALGO_MAX; algo++) {
		u32 prev = 0;

		for (u32 n = 1; n <= (1U << 20); n *= 2) {
			struct ftnl_gossip_params par;

			ftnl_gossip_params_init(&par, algo, n, 0, 2, 9);
			TAP_CHECK(par.gossip_end >= 1 && par.gossip_end >= prev);
			TAP_CHECK(par.corr_end > par.gossip_end + par.lat + 1);
			TAP_CHECK(par.sos_timeout >= 4 * n);
			TAP_CHECK_UINT(par.f, FTNL_GOSSIP_MAX_F);
			prev = par.gossip_end;
		}
		/* A long L / O only lengthens the gossip. */
		TAP_CHECK(ftnl_gossip_default_gossip_end(algo, 4096, 40) >=
			  ftnl_gossip_default_gossip_end(algo, 4096, 2));
	}
}

/* No failure: every algorithm sane; CCG and FCG reach all; Claim 5. */
static void test_no_failure(const void *arg)
{
	(void)arg;
	for (u8 algo = 0; algo < __FTNL_GOSSIP_ALGO_MAX; algo++) {
		for (u32 n = 1; n <= 300; n += (n < 40 ? 1 : 37)) {
			for (u64 seed = 1; seed <= 4; seed++) {
				u8 f = (u8)(1 + seed % 3);
				struct net net;
				struct tally t;
				u32 T;

				net_init(&net, algo, n, 1 + (u32)(seed % 3), f, 0, seed * 131 + n);
				/* From a lone root to the default T. */
				T = 1 + (u32)(seed - 1) * net.par.gossip_end / 3;
				net.par.gossip_end = T;
				net.par.corr_end = T + net.lat + 1 + n;	/* OCG covers all */
				net_run(&net);
				t = net_tally(&net);
				if (!check_sane(&net, &t, "no failure", n, seed))
					goto out;
				/*
				 * Claim 5: f^2 + f + 1 g-nodes complete without SOS.
				 * Its proof lets no sweep turn to SOS on coming full
				 * circle (footnote 1), which Algorithm 3 does; on
				 * rings of a few dozen nodes a sweep can come round
				 * before the news of far g-nodes, so the check
				 * starts at 64 nodes.
				 */
				if ((algo != FTNL_GOSSIP_GOS && t.reached != t.live) ||
				    (algo == FTNL_GOSSIP_FCG && n >= 64 &&
				     net.gnodes >= (u32)f * f + f + 1 && net.sos)) {
					tap_diag("algo %u n=%u T=%u f=%u: reached %u of %u, %u g-nodes, SOS %u",
						 algo, n, T, f, t.reached, t.live, net.gnodes,
						 net.sos);
					TAP_CHECK(false);
					goto out;
				}
out:
				net_free(&net);
			}
		}
	}
}

/* Failures before the broadcast only: CCG and FCG still reach every live node. */
static void test_prefailed(const void *arg)
{
	(void)arg;
	for (u8 algo = FTNL_GOSSIP_CCG; algo <= FTNL_GOSSIP_FCG; algo++) {
		for (u64 seed = 1; seed <= 300; seed++) {
			u32 n = 2 + (u32)(seed * 7919 % 400);
			struct net net;
			struct tally t;

			net_init(&net, algo, n, 2, 1, 0, seed);
			net.par.gossip_end = 1 + (u32)(seed % 5) * net.par.gossip_end / 4;
			net_prefail(&net, (u32)(seed % (n / 2 + 1)));
			net_run(&net);
			t = net_tally(&net);
			if (check_sane(&net, &t, "prefailed", n, seed) && t.reached != t.live) {
				tap_diag("algo %u n=%u seed=%llu: reached %u of %u live",
					 algo, n, (unsigned long long)seed, t.reached, t.live);
				TAP_CHECK(false);
			}
			net_free(&net);
			if (tap_state.failed_checks)
				return;
		}
	}
}

/* Claim 4 on random schedules: up to f online failures of active nodes. */
static void test_fcg_random(const void *arg)
{
	u32 runs = 0, sos = 0, none = 0, all = 0;

	(void)arg;
	for (u64 seed = 1; seed <= 4000; seed++) {
		u32 n = 2 + (u32)(seed * 104729 % 250);
		u8 f = (u8)(1 + seed % 4);
		struct net net;
		struct tally t;
		u32 horizon;

		net_init(&net, FTNL_GOSSIP_FCG, n, (u32)(seed % 4), f, 0, seed);
		net.par.gossip_end = 1 + (u32)(seed % 6) * net.par.gossip_end / 5;
		net_prefail(&net, (u32)(seed % 3 < n - 1 ? seed % 3 : 0));
		/* Failures land in the gossip, the correction or the finals. */
		horizon = net.par.gossip_end + 6 * (net.lat + 2) + 2 * n;
		net.nkill = 1 + (u32)(seed / 4 % f);
		for (u32 k = 0; k < net.nkill; k++)
			net.kill_slot[k] = (u32)rand_r(&net.seed) % horizon;
		net_run(&net);
		t = net_tally(&net);
		runs++;
		sos += net.sos > 0;
		none += t.reached == 0;
		all += t.reached == t.live;
		if (!check_sane(&net, &t, "fcg random", n, seed) ||
		    (t.reached && t.reached != t.live)) {
			tap_diag("n=%u f=%u T=%u seed=%llu kills %u: %u of %u live delivered",
				 n, f, net.par.gossip_end, (unsigned long long)seed,
				 net.nkill, t.reached, t.live);
			TAP_CHECK(false);
			net_free(&net);
			return;
		}
		net_free(&net);
	}
	tap_diag("%u runs: all %u, none %u, with SOS %u", runs, all, none, sos);
	TAP_CHECK(sos > 0 && all > none);
}

/*
 * One FCG run where @victim dies at slot @slot: all or none of the live
 * nodes must deliver. Returns false (after reporting) if not.
 */
static bool fcg_single_failure_ok(u32 n, u32 T, u64 seed, u32 victim, u32 slot)
{
	struct net net;
	struct tally t;
	bool ok;

	net_init(&net, FTNL_GOSSIP_FCG, n, 1, 1, T, seed);
	net.die_at[victim] = slot;
	net_run(&net);
	t = net_tally(&net);
	ok = check_sane(&net, &t, "exhaustive", n, seed) &&
	     (!t.reached || t.reached == t.live);
	if (!ok)
		tap_diag("n=%u T=%u seed=%llu: node %u dies at %u: %u of %u",
			 n, T, (unsigned long long)seed, victim, slot, t.reached,
			 t.live);
	net_free(&net);
	return ok;
}

/* Every node failing at every slot of one ring; false at the first miss. */
static bool fcg_every_single_failure_ok(u32 n, u32 T, u64 seed, u32 *runs)
{
	struct net ref;
	u32 horizon;

	/* The failure-free run's length bounds the slots. */
	net_init(&ref, FTNL_GOSSIP_FCG, n, 1, 1, T, seed);
	net_run(&ref);
	horizon = ref.slot + 1;
	net_free(&ref);
	for (u32 victim = 0; victim < n; victim++)
		for (u32 s = 0; s <= horizon; s++, (*runs)++)
			if (!fcg_single_failure_ok(n, T, seed, victim, s))
				return false;
	return true;
}

/* Claim 4 exhaustively: every node failing at every slot, small rings. */
static void test_fcg_exhaustive(const void *arg)
{
	u32 runs = 0;

	(void)arg;
	for (u32 n = 2; n <= 10; n++) {
		for (u32 T = 1; T <= 5; T += 2) {
			for (u64 seed = 1; seed <= 3; seed++) {
				if (!fcg_every_single_failure_ok(n, T, seed, &runs)) {
					TAP_CHECK(false);
					return;
				}
			}
		}
	}
	tap_diag("%u single-failure schedules", runs);
}

/*
 * The root is the only g-node (T = 1) and dies after coloring a few
 * c-nodes: CCG leaves them alone with the message, FCG's c-nodes time out
 * into SOS and bring it to everyone.
 */
static void test_lone_gnode(const void *arg)
{
	(void)arg;
	for (u8 algo = FTNL_GOSSIP_CCG; algo <= FTNL_GOSSIP_FCG; algo++) {
		struct net net;
		struct tally t;

		net_init(&net, algo, 64, 2, 1, 1, 9);
		net.die_at[0] = 12;
		net_run(&net);
		t = net_tally(&net);
		check_sane(&net, &t, "lone g-node", 64, 9);
		if (algo == FTNL_GOSSIP_CCG) {
			tap_diag("CCG: %u of %u live nodes delivered", t.reached, t.live);
			TAP_CHECK(t.reached > 0 && t.reached < t.live);
		} else {
			tap_diag("FCG: %u of %u live nodes delivered, %u in SOS", t.reached,
				 t.live, net.sos);
			TAP_CHECK_UINT(t.reached, t.live);
			TAP_CHECK(net.sos > 0);
		}
		net_free(&net);
	}
}

static void test_invalid(const void *arg)
{
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node node, before;
	struct ftnl_gossip_msg msg = { .type = FTNL_GOSSIP_MSG_GOSSIP };
	struct ftnl_gossip_out out;

	(void)arg;
	ftnl_gossip_params_init(&par, FTNL_GOSSIP_FCG, 16, 0, 2, 1);
	ftnl_gossip_init(&node, &par, 5, 1);
	before = node;
	/* From itself, from off the ring. */
	ftnl_gossip_recv(&node, 5, &msg, &out);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_INVALID);
	ftnl_gossip_recv(&node, 16, &msg, &out);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_INVALID);
	/* OCG's type in FCG, an unknown type. */
	msg.type = FTNL_GOSSIP_MSG_CORR;
	ftnl_gossip_recv(&node, 3, &msg, &out);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_INVALID);
	msg.type = 0;
	ftnl_gossip_recv(&node, 3, &msg, &out);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_INVALID);
	/* Too many ranks, a rank off the ring. */
	msg.type = FTNL_GOSSIP_MSG_FWD;
	msg.nknown = 3;
	msg.known[0] = 1;
	msg.known[1] = 2;
	msg.known[2] = 4;
	ftnl_gossip_recv(&node, 3, &msg, &out);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_INVALID);
	msg.nknown = 2;
	msg.known[1] = 99;
	ftnl_gossip_recv(&node, 3, &msg, &out);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_INVALID);
	TAP_CHECK(!memcmp(&node, &before, sizeof(node)));
	/* CCG messages carry no ranks. */
	ftnl_gossip_params_init(&par, FTNL_GOSSIP_CCG, 16, 0, 2, 1);
	msg.nknown = 1;
	msg.known[0] = 1;
	TAP_CHECK(!ftnl_gossip_msg_valid(&par, &msg));
	/* A hostile clock does not wrap. */
	ftnl_gossip_params_init(&par, FTNL_GOSSIP_FCG, 16, 0, 2, 1);
	msg = (struct ftnl_gossip_msg){ .type = FTNL_GOSSIP_MSG_GOSSIP, .time = UINT32_MAX - 1 };
	ftnl_gossip_recv(&node, 3, &msg, &out);
	TAP_CHECK(node.time >= UINT32_MAX - 1);
	TAP_CHECK(out.flags & FTNL_GOSSIP_OUT_DELIVER);
}

/* Side lists: nearest first, capped at f + 1, never self, no duplicate. */
static void test_side_lists(const void *arg)
{
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node node;
	struct ftnl_gossip_msg msg = { .type = FTNL_GOSSIP_MSG_GOSSIP, .time = 1 };
	struct ftnl_gossip_out out;

	(void)arg;
	ftnl_gossip_params_init(&par, FTNL_GOSSIP_FCG, 100, 0, 2, 2);
	ftnl_gossip_init(&node, &par, 10, 1);
	ftnl_gossip_recv(&node, 50, &msg, &out);	/* a g-node now */
	TAP_CHECK(node.gnode);
	/* From behind (FWD): 7 carrying 3, 10 (self) and 95 (15 behind). */
	msg = (struct ftnl_gossip_msg){ .type = FTNL_GOSSIP_MSG_FWD, .time = 5,
					.nknown = 3, .known = { 3, 10, 95 } };
	ftnl_gossip_recv(&node, 7, &msg, &out);
	TAP_CHECK_UINT(node.nknown[FTNL_GOSSIP_BWD], 3);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_BWD][0], 7);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_BWD][1], 3);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_BWD][2], 95);
	/* 9 is nearer: it goes first and 95 falls off; 7 again is ignored. */
	msg.nknown = 1;
	msg.known[0] = 7;
	ftnl_gossip_recv(&node, 9, &msg, &out);
	TAP_CHECK_UINT(node.nknown[FTNL_GOSSIP_BWD], 3);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_BWD][0], 9);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_BWD][1], 7);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_BWD][2], 3);
	/* From ahead (BWD): the other side, by forward distance. */
	msg = (struct ftnl_gossip_msg){ .type = FTNL_GOSSIP_MSG_BWD, .time = 5,
					.nknown = 2, .known = { 12, 5 } };
	ftnl_gossip_recv(&node, 11, &msg, &out);
	TAP_CHECK_UINT(node.nknown[FTNL_GOSSIP_FWD], 3);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_FWD][0], 11);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_FWD][1], 12);
	TAP_CHECK_UINT(node.known[FTNL_GOSSIP_FWD][2], 5);
}

static void test_spurious_calls(const void *arg)
{
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node node;
	struct ftnl_gossip_msg msg = { .type = FTNL_GOSSIP_MSG_GOSSIP, .time = 3 };
	struct ftnl_gossip_out out;
	u32 delivered = 0;

	(void)arg;
	ftnl_gossip_params_init(&par, FTNL_GOSSIP_CCG, 32, 0, 2, 0);
	ftnl_gossip_init(&node, &par, 4, 1);
	ftnl_gossip_step(&node, 100, &out);	/* idle: nothing */
	TAP_CHECK_UINT(out.flags, 0);
	TAP_CHECK_UINT(out.wake, FTNL_GOSSIP_NO_WAKE);
	ftnl_gossip_recv(&node, 1, &msg, &out);
	delivered += !!(out.flags & FTNL_GOSSIP_OUT_DELIVER);
	TAP_CHECK_UINT(out.wake, 3 + 2 + 1);
	ftnl_gossip_step(&node, 2, &out);	/* early: nothing */
	TAP_CHECK_UINT(out.flags, 0);
	TAP_CHECK_UINT(out.wake, 6);
	ftnl_gossip_recv(&node, 2, &msg, &out);	/* again: no second delivery */
	delivered += !!(out.flags & FTNL_GOSSIP_OUT_DELIVER);
	for (u32 slot = 6; node.state != FTNL_GOSSIP_DONE && slot < 10000; slot++)
		ftnl_gossip_step(&node, slot, &out);
	TAP_CHECK_UINT(node.state, FTNL_GOSSIP_DONE);
	ftnl_gossip_recv(&node, 2, &msg, &out);	/* exited: ignored */
	delivered += !!(out.flags & FTNL_GOSSIP_OUT_DELIVER);
	TAP_CHECK_UINT(out.flags, 0);
	TAP_CHECK_UINT(delivered, 1);
}

static void test_replay(const void *arg)
{
	u64 hash[2];

	(void)arg;
	for (int i = 0; i < 2; i++) {
		struct net net;

		net_init(&net, FTNL_GOSSIP_FCG, 500, 2, 1, 0, 77);
		net_run(&net);
		hash[i] = net.hash;
		TAP_CHECK(net.sent > 500);
		net_free(&net);
	}
	TAP_CHECK_UINT(hash[0], hash[1]);
}

int main(void)
{
	tap_add(test_layout, NULL, "message layout: 8 bytes + f + 1 ranks");
	tap_add(test_defaults, NULL, "default parameters: T grows with n, C after T, SOS timeout >= 4n");
	tap_add(test_no_failure, NULL,
		"no failure, n <= 300, T from a lone root up: sane; CCG/FCG/OCG(C >= n) reach all; Claim 5 (n >= 64)");
	tap_add(test_prefailed, NULL, "CCG and FCG reach every live node whatever failed before");
	tap_add(test_fcg_random, NULL,
		"FCG all-or-none, f = 1..4, up to f active nodes failing, 4000 random schedules");
	tap_add(test_fcg_exhaustive, NULL,
		"FCG all-or-none, every node failing at every slot, n <= 10");
	tap_add(test_lone_gnode, NULL,
		"lone g-node dies: CCG partial (not consistent), FCG saved by c-node timeout and SOS");
	tap_add(test_invalid, NULL, "malformed messages are ignored");
	tap_add(test_side_lists, NULL, "FCG side lists: nearest first, f + 1 at most, never self");
	tap_add(test_spurious_calls, NULL, "early, idle and late calls are harmless; one delivery");
	tap_add(test_replay, NULL, "same seed, same sends");
	return tap_run();
}
