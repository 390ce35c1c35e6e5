// SPDX-License-Identifier: GPL-2.0
/*
 * Pair keys: one member cannot speak for another (issue 10 item 3,
 * Documentation/admin-guide.rst "Security model").
 *
 * A 5-node cluster (st_vcluster.h, h = 100 ms, d = 1 s; ring 1..5), and
 * the attack of a member that wants a live node gone: node 5 ("the
 * member") forges a LEAVE "from" node 2 to node 2's observer, node 3. If
 * node 3 takes it, node 2 is declared left cluster-wide while it runs.
 * The datagram leaves the outsider's netns with node 2's address and port
 * (ftnl_forge --as-sender, past the source check); what it carries is
 * what the member can sign it with:
 *
 *   cluster_key_member_forges: with one cluster key the member holds the
 *	key every datagram is signed with, and the forgery works: node 3
 *	reports node 2 left. This is the limit pair keys remove (and what
 *	the tests below would show without them);
 *   member_cannot_forge: with pair keys the member holds only the keys of
 *	its own pairs (5,2) and (5,3), and the cluster secret is not on any
 *	node: signed with either, the LEAVE is dropped (MAC) at node 3, and
 *	no node reports anything. Control: the same LEAVE signed with the
 *	key of the pair (2,3), which only nodes 2 and 3 hold, is taken, so
 *	the drops are the keys', not a datagram lost on the way;
 *   pair_keys_detect: a cluster on pair keys forms its ring, reports
 *	the pair keys (cluster get), and a node killed is reported by every
 *	survivor (heartbeats, probes and broadcasts all signed per pair);
 *   rolling_to_pair_keys: a running cluster moves from the cluster key to
 *	pair keys node by node (the update grace: each peer's previous key
 *	is its own), with no failure event and the ring intact;
 *   bad_keys: a cluster key and pair keys, a node without its pair key,
 *	a key on this node's own entry: refused with a message, nothing
 *	installed.
 *
 * A broadcast is forwarded hop by hop, each hop signed with that hop's
 * pair key, so pair keys alone do not say who wrote it. The member's
 * second attack: a BCAST "from" node 3 (node 2's observer) saying node 2
 * died, sent to node 1 under the member's own pair key (5,1):
 *
 *   member_forges_broadcast: pair keys, unsigned broadcasts: node 1 takes
 *	it and holds node 2 dead (the limit signed broadcasts remove);
 *   member_cannot_forge_broadcast: signed broadcasts: the forgery
 *	unsigned, or signed with the member's own seed, is dropped at node 1
 *	("signature"), and nobody reports anything. Control: signed with
 *	node 3's seed, which only node 3 holds, it is taken;
 *   signed_detect_*: a cluster on signed broadcasts reports it (cluster
 *	get) and a node killed is reported by every survivor, with each
 *	broadcast algorithm (hypercube, BMG, FCG), no signature refused;
 *   rolling_to_signed: a running cluster on pair keys moves to signed
 *	broadcasts node by node; halfway, a node not updated and one updated
 *	are killed: every survivor reports both (an updated node takes an
 *	unsigned broadcast from a node not updated yet, which takes a
 *	signed one), and no other event;
 *   rolling_new_secret: the same with a new secret (new pair and signing
 *	keys): an updated node signs with its previous key too, so that a
 *	node not updated yet can check it; no signature is refused.
 *
 * Checking a signature costs a fraction of a millisecond (milliseconds in
 * an emulated guest), once per copy received, and the heartbeat timer
 * takes the ring's lock (issue 10 item 7):
 *
 *   slow_verification_holds_no_heartbeat: every verification made to
 *	take VERIFY_DELAY_MS more (the module's test_verify_delay_ms), four
 *	process-exit broadcasts: each reaches every other node, none is
 *	refused, nobody is suspected, and no heartbeat waited for the lock
 *	as long as half a verification (the stats' hb_lock_wait_max_ns).
 *	With the verification under the lock, heartbeats waited for it.
 *   slow_signing_holds_no_heartbeat: the same for signing, at the origin:
 *	every signature made to take SIGN_DELAY_MS more (the module's
 *	test_sign_delay_ms), twelve process-exit broadcasts from four
 *	origins, each signing on both CPUs: each is delivered everywhere,
 *	none is refused, nobody is suspected, and no heartbeat waited half a
 *	signature for the lock. With the signing under the lock (before it
 *	moved to the flush that follows it), the origins' heartbeats waited
 *	for it;
 *   slow_signing_fcg_holds_no_heartbeat: the same with corrected gossip,
 *	whose origin starts a broadcast once it is signed.
 */
#include <alloca.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ftnl_selftest.h"
#include "st_vcluster.h"
#include "wire.h"		/* kmod/wire.h: FTNL_MSG_LEAVE */
#include "bcast/message.h"	/* the BCAST payload, encoded by the module's code */
#include "bcast/signature.h"
#include "ksft.h"

#define N		5
#define CLUSTER		0x706b		/* "pk" */
#define H_US		100000u
#define D_US		1000000u
#define TARGET		2		/* the live node to be rid of */
#define OBSERVER	3		/* its observer */
#define MEMBER		5		/* the forger */
#define WAIT_MS		5000
#define JOB		0x706b
#define VERIFY_PARAM	"test_verify_delay_ms"
/*
 * Long beside a lock hold (microseconds) or a host's preemption of a vCPU
 * (a few ms), short beside d: a broadcast's copies, verified one after
 * another on one CPU (eight here), keep it busy 8 x 60 ms < d.
 */
#define VERIFY_DELAY_MS	60
#define SIGN_PARAM	"test_sign_delay_ms"
/*
 * Longer than h: a heartbeat timer on another CPU than the signing comes
 * due while it runs, whichever the phase.
 */
#define SIGN_DELAY_MS	150

#define ADDR(id) st_vc_addr(id, (char[16]){ 0 }, 16)
#define U(v) ({ char *_b = alloca(24); snprintf(_b, 24, "%llu", (unsigned long long)(v)); (const char *)_b; })

FIXTURE(pk) {
	struct st_vc vc;
	uint64_t inc[N + 1];
};

static void start_signed(struct __test_metadata *_metadata,
			 FIXTURE_DATA(pk) *self, bool pair_keys, bool signs)
{
	struct ftnl_cluster_info ci;
	char why[256] = "";
	uint32_t id;

	self->vc.pair_keys = pair_keys;
	self->vc.signs = signs;
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	for (id = 1; id <= N; id++) {
		ASSERT_EQ(0, ftnl_cluster_get(self->vc.node[id].h, &ci));
		self->inc[id] = ci.incarnation;
		EXPECT_EQ(pair_keys, ci.pair_keys);
		EXPECT_EQ(signs, ci.signs);
	}
}

static void start(struct __test_metadata *_metadata, FIXTURE_DATA(pk) *self,
		  bool pair_keys)
{
	start_signed(_metadata, self, pair_keys, false);
}

FIXTURE_SETUP(pk)
{
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	ASSERT_EQ(0, st_vc_add_outsider(&self->vc));
}

FIXTURE_TEARDOWN(pk)
{
	st_param_set(VERIFY_PARAM, 0);
	st_vc_fini(&self->vc);
}

/* The LEAVE "from" TARGET to OBSERVER, MACed with @key (hex). */
static void forge_leave(struct __test_metadata *_metadata,
			FIXTURE_DATA(pk) *self, const char *key, uint64_t seq)
{
	const char *a[] = { "send", ADDR(OBSERVER), "7600", "--type",
			    U(FTNL_MSG_LEAVE), "--cluster", U(CLUSTER),
			    "--sender", U(TARGET), "--dest", U(OBSERVER),
			    "--inc", U(self->inc[TARGET]), "--echo",
			    U(self->inc[OBSERVER]), "--seq", U(seq), "--key", key,
			    "--as-sender", "10.99.0.0:7600", NULL };

	ASSERT_EQ(0, st_vc_forge(&self->vc, ST_VC_OUTSIDER_HOST, a));
}

/* Wait until OBSERVER counts @want MAC drops (or WAIT_MS passed). */
static uint64_t mac_drops_reach(struct __test_metadata *_metadata,
				FIXTURE_DATA(pk) *self, uint64_t want)
{
	uint64_t deadline = st_mono_ns() + WAIT_MS * 1000000ull;
	struct ftnl_stats s;

	for (;;) {
		EXPECT_EQ(0, st_vc_stats(&self->vc, OBSERVER, &s));
		if (s.drops[FTNL_DROP_MAC] >= want || st_mono_ns() > deadline)
			return s.drops[FTNL_DROP_MAC];
		st_msleep(20);
	}
}

/* TARGET's state as node @at holds it. */
static int state_at(FIXTURE_DATA(pk) *self, uint32_t at)
{
	return st_vc_state_at(&self->vc, at, TARGET, NULL);
}

static void expect_target_left(struct __test_metadata *_metadata,
			       FIXTURE_DATA(pk) *self)
{
	uint64_t deadline = st_mono_ns() + WAIT_MS * 1000000ull;

	while (state_at(self, OBSERVER) != FTNL_NODE_STATE_LEFT &&
	       st_mono_ns() < deadline)
		st_msleep(20);
	EXPECT_EQ(FTNL_NODE_STATE_LEFT, state_at(self, OBSERVER)) {
		TH_LOG("the forged LEAVE was not taken: node %u is %s at node %u",
		       TARGET, ftnl_node_state_name(state_at(self, OBSERVER)),
		       OBSERVER);
	}
}

TEST_F(pk, cluster_key_member_forges)
{
	char key[2 * FTNL_KEY_LEN + 1];
	int i;

	start(_metadata, self, false);
	for (i = 0; i < FTNL_KEY_LEN; i++)
		snprintf(key + 2 * i, 3, "%02x", st_vc_key()[i]);
	forge_leave(_metadata, self, key, 1000000);
	expect_target_left(_metadata, self);
}

TEST_F(pk, member_cannot_forge)
{
	char k53[2 * FTNL_KEY_LEN + 1], k52[2 * FTNL_KEY_LEN + 1];
	char k23[2 * FTNL_KEY_LEN + 1];
	struct ftnl_stats s0;
	uint32_t id;

	start(_metadata, self, true);
	ASSERT_EQ(0, st_vc_stats(&self->vc, OBSERVER, &s0));
	st_vc_pair_key(&self->vc, MEMBER, OBSERVER, k53);
	st_vc_pair_key(&self->vc, MEMBER, TARGET, k52);
	forge_leave(_metadata, self, k53, 1000000);
	forge_leave(_metadata, self, k52, 1000001);
	EXPECT_EQ(s0.drops[FTNL_DROP_MAC] + 2,
		  mac_drops_reach(_metadata, self, s0.drops[FTNL_DROP_MAC] + 2));
	/* A LEAVE taken would be broadcast within a few ms; give it d. */
	st_msleep(D_US / 1000);
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
	for (id = 1; id <= N; id++)
		EXPECT_EQ(FTNL_NODE_STATE_ALIVE, state_at(self, id)) {
			TH_LOG("node %u holds node %u %s", id, TARGET,
			       ftnl_node_state_name(state_at(self, id)));
		}

	/* Control: the pair's own key, which the member does not hold. */
	st_vc_pair_key(&self->vc, TARGET, OBSERVER, k23);
	forge_leave(_metadata, self, k23, 1000002);
	expect_target_left(_metadata, self);
}

TEST_F(pk, pair_keys_detect)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	uint64_t deadline;
	struct ftnl_stats s;
	char why[256] = "";
	uint32_t id;

	start(_metadata, self, true);
	for (id = 1; id <= N; id++)
		live[id] = true;
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 5000, why, sizeof(why))) {
		TH_LOG("ring not formed on pair keys: %s", why);
	}
	ASSERT_EQ(0, st_vc_kill(&self->vc, 4, NULL));
	live[4] = false;
	deadline = st_mono_ns() + 10ull * D_US * 1000;
	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		EXPECT_EQ(0, st_vc_wait_event(&self->vc, id, 4, 1, deadline)) {
			TH_LOG("node %u never reported node 4", id);
		}
	}
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 5000, why, sizeof(why))) {
		TH_LOG("ring not reconnected: %s", why);
	}
	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s));
		EXPECT_EQ(0u, s.drops[FTNL_DROP_MAC]) {
			TH_LOG("node %u dropped %" PRIu64 " datagrams of members as bad MACs",
			       id, s.drops[FTNL_DROP_MAC]);
		}
	}
	EXPECT_EQ((size_t)(N - 1), st_vc_count_events(&self->vc, 0, 4, -1));
	EXPECT_EQ((size_t)(N - 1), self->vc.nevents);
}

TEST_F(pk, rolling_to_pair_keys)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_cluster_info ci;
	char why[256] = "";
	uint32_t id;

	start(_metadata, self, false);
	for (id = 1; id <= N; id++)
		live[id] = true;
	self->vc.pair_keys = true;
	/* One node every 2 d: each runs a while beside the others. */
	for (id = 1; id <= N; id++) {
		ASSERT_EQ(0, st_vc_configure(&self->vc, id));
		st_msleep(2 * D_US / 1000);
		ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
		ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
	}
	for (id = 1; id <= N; id++) {
		ASSERT_EQ(0, ftnl_cluster_get(self->vc.node[id].h, &ci));
		EXPECT_TRUE(ci.pair_keys);
		EXPECT_TRUE(ci.has_prev_key) {
			TH_LOG("node %u keeps no previous key for its grace", id);
		}
	}
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 5000, why, sizeof(why))) {
		TH_LOG("ring not intact on pair keys: %s", why);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
}

static u64 target_incarnation(void *ctx, u32 pos)
{
	(void)pos;	/* D holds TARGET alone */
	return *(const uint64_t *)ctx;
}

/*
 * The BCAST "from" OBSERVER that TARGET died (D: TARGET), broadcast number
 * @bseq, signed with node @signer's seed (0: unsigned), as hex.
 */
static void forged_bcast(FIXTURE_DATA(pk) *self, uint32_t signer,
			 uint64_t bseq, char *hex, size_t *len)
{
	struct ftnl_bcast_dead_incs incs = { target_incarnation,
					     &self->inc[TARGET] };
	unsigned long dead[1] = { 1ul << (TARGET - 1) };	/* ring = ids */
	struct ftnl_bcast_msg msg = { 0 };
	uint8_t buf[512], seed[FTNL_SIGN_SEED_LEN];
	struct ftnl_ed25519_key key;
	struct ftnl_ed25519_ctx ctx;
	struct timespec ts;
	size_t i;

	clock_gettime(CLOCK_REALTIME, &ts);
	msg.overlay = FTNL_BCAST_HYPERCUBE;
	msg.origin_id = OBSERVER;
	msg.origin_incarnation = self->inc[OBSERVER];
	msg.seq = bseq;
	msg.origin_time_ns = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
	msg.npos = N;
	msg.ndeaths = 1;
	msg.deaths[0] = (struct ftnl_bcast_death){
		.node_id = TARGET, .observer_id = OBSERVER,
		.incarnation = self->inc[TARGET], .cause = FTNL_CAUSE_OBSERVED,
		.state = FTNL_NODE_STATE_DEAD,
	};
	*len = ftnl_bcast_msg_encode(buf, sizeof(buf) - FTNL_BCAST_SIG_LEN,
				     &msg, dead, &incs);
	if (signer) {
		st_vc_sign_seed(&self->vc, signer, seed);
		ftnl_ed25519_key_from_seed(&ctx, &key, seed);
		ftnl_bcast_sig_flag(FTNL_MSG_BCAST, buf, 1);
		ftnl_bcast_sig_make(&ctx, FTNL_MSG_BCAST, buf, *len, &key,
				    buf + *len);
		*len += FTNL_BCAST_SIG_LEN;
	}
	for (i = 0; i < *len; i++)
		snprintf(hex + 2 * i, 3, "%02x", buf[i]);
}

/* That BCAST to node 1, from the member under their pair key (5,1). */
static void forge_bcast(struct __test_metadata *_metadata,
			FIXTURE_DATA(pk) *self, uint32_t signer, uint64_t seq)
{
	char key[2 * FTNL_KEY_LEN + 1], hex[1024], poke[4][160];
	const char *a[40];
	size_t len, off, n = 0, i;

	st_vc_pair_key(&self->vc, MEMBER, 1, key);
	forged_bcast(self, signer, seq, hex, &len);
	a[n++] = "send";
	a[n++] = ADDR(1);
	a[n++] = "7600";
	a[n++] = "--type";
	a[n++] = U(FTNL_MSG_BCAST);
	a[n++] = "--plen";
	a[n++] = U(len);
	/* ftnl_forge takes 64 bytes per --poke. */
	for (off = 0, i = 0; off < len && i < 4; off += 64, i++) {
		snprintf(poke[i], sizeof(poke[i]), "%zu:%.128s", off,
			 hex + 2 * off);
		a[n++] = "--poke";
		a[n++] = poke[i];
	}
	ASSERT_GE(256u, len);
	a[n++] = "--cluster";
	a[n++] = U(CLUSTER);
	a[n++] = "--sender";
	a[n++] = U(MEMBER);
	a[n++] = "--dest";
	a[n++] = "1";
	a[n++] = "--inc";
	a[n++] = U(self->inc[MEMBER]);
	a[n++] = "--echo";
	a[n++] = U(self->inc[1]);
	a[n++] = "--seq";
	a[n++] = U(seq);
	a[n++] = "--key";
	a[n++] = key;
	a[n++] = "--as-sender";
	a[n++] = "10.99.0.0:7600";
	a[n] = NULL;
	ASSERT_EQ(0, st_vc_forge(&self->vc, ST_VC_OUTSIDER_HOST, a));
}

static void expect_target_dead_at_1(struct __test_metadata *_metadata,
				    FIXTURE_DATA(pk) *self)
{
	uint64_t deadline = st_mono_ns() + WAIT_MS * 1000000ull;

	while (st_vc_state_at(&self->vc, 1, TARGET, NULL) !=
	       FTNL_NODE_STATE_DEAD && st_mono_ns() < deadline)
		st_msleep(20);
	EXPECT_EQ(FTNL_NODE_STATE_DEAD,
		  st_vc_state_at(&self->vc, 1, TARGET, NULL)) {
		TH_LOG("the forged broadcast was not taken: node 1 holds node %u %s",
		       TARGET, ftnl_node_state_name(st_vc_state_at(&self->vc, 1,
								   TARGET, NULL)));
	}
}

TEST_F(pk, member_forges_broadcast)
{
	start(_metadata, self, true);
	forge_bcast(_metadata, self, 0, 1000000);
	expect_target_dead_at_1(_metadata, self);
}

TEST_F(pk, member_cannot_forge_broadcast)
{
	uint64_t deadline = st_mono_ns() + WAIT_MS * 1000000ull;
	struct ftnl_stats s0, s;
	uint32_t id;

	start_signed(_metadata, self, true, true);
	ASSERT_EQ(0, st_vc_stats(&self->vc, 1, &s0));
	forge_bcast(_metadata, self, 0, 1000000);
	forge_bcast(_metadata, self, MEMBER, 1000001);
	do {
		st_msleep(20);
		ASSERT_EQ(0, st_vc_stats(&self->vc, 1, &s));
	} while (s.drops[FTNL_DROP_SIGNATURE] < s0.drops[FTNL_DROP_SIGNATURE] + 2 &&
		 st_mono_ns() < deadline);
	EXPECT_EQ(s0.drops[FTNL_DROP_SIGNATURE] + 2, s.drops[FTNL_DROP_SIGNATURE]);
	EXPECT_EQ(s0.drops[FTNL_DROP_MAC], s.drops[FTNL_DROP_MAC]);
	/* A broadcast taken would be forwarded within a few ms; give it d. */
	st_msleep(D_US / 1000);
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
	for (id = 1; id <= N; id++)
		EXPECT_EQ(FTNL_NODE_STATE_ALIVE, state_at(self, id)) {
			TH_LOG("node %u holds node %u %s", id, TARGET,
			       ftnl_node_state_name(state_at(self, id)));
		}

	/* Control: the origin's own seed, which the member does not hold. */
	forge_bcast(_metadata, self, OBSERVER, 1000002);
	expect_target_dead_at_1(_metadata, self);
}

/* Kill @victim; every node in @live reports it by @deadline. */
static void kill_and_expect(struct __test_metadata *_metadata,
			    FIXTURE_DATA(pk) *self, bool *live,
			    uint32_t victim)
{
	uint64_t deadline;
	uint32_t id;

	ASSERT_EQ(0, st_vc_kill(&self->vc, victim, NULL));
	live[victim] = false;
	deadline = st_mono_ns() + 10ull * D_US * 1000;
	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		EXPECT_EQ(0, st_vc_wait_event(&self->vc, id, victim, 1,
					      deadline)) {
			TH_LOG("node %u never reported node %u", id, victim);
		}
	}
}

/* No node in @live refused a broadcast's signature. */
static void expect_no_signature_refused(struct __test_metadata *_metadata,
					FIXTURE_DATA(pk) *self, const bool *live)
{
	struct ftnl_stats s;
	uint32_t id;

	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s));
		EXPECT_EQ(0u, s.drops[FTNL_DROP_SIGNATURE]) {
			TH_LOG("node %u refused %" PRIu64 " signatures", id,
			       s.drops[FTNL_DROP_SIGNATURE]);
		}
	}
}

/*
 * A rollout halfway: nodes 1 to 3 take the configuration @self->vc now
 * gives, 2d apart, with no event; then node 4 (its observer, 5, not
 * updated) and node 1 (its observer, 2, updated) die, and every survivor
 * reports both.
 */
static void rollout_halfway_kill(struct __test_metadata *_metadata,
				 FIXTURE_DATA(pk) *self, bool *live)
{
	uint32_t id;

	for (id = 1; id <= N; id++)
		live[id] = true;
	for (id = 1; id <= 3; id++) {
		ASSERT_EQ(0, st_vc_configure(&self->vc, id));
		st_msleep(2 * D_US / 1000);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
	kill_and_expect(_metadata, self, live, 4);
	kill_and_expect(_metadata, self, live, 1);
	EXPECT_EQ((size_t)4, st_vc_count_events(&self->vc, 0, 4, -1));
	EXPECT_EQ((size_t)3, st_vc_count_events(&self->vc, 0, 1, -1));
	EXPECT_EQ((size_t)(4 + 3), self->vc.nevents);
}

/* A signed cluster broadcasting with @algo reports a node killed. */
static void signed_detect(struct __test_metadata *_metadata,
			  FIXTURE_DATA(pk) *self, uint8_t algo)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_stats s;
	uint32_t id;

	self->vc.cfg.has_bcast_algo = true;
	self->vc.cfg.bcast_algo = algo;
	start_signed(_metadata, self, true, true);
	for (id = 1; id <= N; id++)
		live[id] = true;
	kill_and_expect(_metadata, self, live, 4);
	EXPECT_EQ((size_t)(N - 1), self->vc.nevents);
	expect_no_signature_refused(_metadata, self, live);
	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s));
		EXPECT_EQ(0u, s.drops[FTNL_DROP_TYPE]);
	}
}

TEST_F(pk, signed_detect_hypercube)
{
	signed_detect(_metadata, self, FTNL_BCAST_HYPERCUBE);
}

TEST_F(pk, signed_detect_bmg)
{
	signed_detect(_metadata, self, FTNL_BCAST_BMG);
}

TEST_F(pk, signed_detect_fcg)
{
	signed_detect(_metadata, self, FTNL_BCAST_FCG);
}

TEST_F(pk, rolling_to_signed)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_cluster_info ci;
	uint32_t id;

	start(_metadata, self, true);
	self->vc.signs = true;
	/*
	 * Nodes 1 to 3 sign, 4 and 5 do not yet. Node 5, not updated,
	 * broadcasts node 4's death unsigned; node 2, updated, node 1's
	 * signed.
	 */
	rollout_halfway_kill(_metadata, self, live);
	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		ASSERT_EQ(0, ftnl_cluster_get(self->vc.node[id].h, &ci));
		EXPECT_EQ(id <= 3, ci.signs);
	}
}

TEST_F(pk, rolling_new_secret)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };

	start_signed(_metadata, self, true, true);
	self->vc.secret_gen = 1;
	/*
	 * Nodes 1 to 3 take the new secret's keys, 4 and 5 not yet. Node 5
	 * signs node 4's death with the old key alone, which the updated
	 * nodes know as its previous one; node 2 signs node 1's with both,
	 * and node 5 checks the old key's signature.
	 */
	rollout_halfway_kill(_metadata, self, live);
	expect_no_signature_refused(_metadata, self, live);
}

/* Set @c at node 1 and expect -EINVAL with @msg in the extack. */
static void expect_refused(struct __test_metadata *_metadata,
			   FIXTURE_DATA(pk) *self,
			   const struct ftnl_cluster_config *c, const char *msg)
{
	struct ftnl_handle *h = self->vc.node[1].h;

	EXPECT_EQ(-EINVAL, ftnl_cluster_set(h, c));
	EXPECT_NE(NULL, strstr(ftnl_errmsg(h), msg)) {
		TH_LOG("extack \"%s\", want \"%s\"", ftnl_errmsg(h), msg);
	}
	EXPECT_EQ(-ENOENT, ftnl_cluster_get(h, &(struct ftnl_cluster_info){ 0 }));
}

TEST_F(pk, bad_keys)
{
	struct ftnl_cluster_config *c = &self->vc.cfg;

	c->self_id = 1;
	/* both: the cluster key stays set beside the pair keys */
	self->vc.pair_keys = true;
	ASSERT_EQ(0, st_vc_configure(&self->vc, 1));
	ASSERT_EQ(0, ftnl_cluster_del(self->vc.node[1].h));
	c->unset &= ~FTNL_CONFIG_KEY;
	expect_refused(_metadata, self, c, "give one or the other");
	c->unset |= FTNL_CONFIG_KEY;
	/* node 4 without its pair key */
	c->nodes[3].has_key = false;
	expect_refused(_metadata, self, c, "every node but this one needs");
	c->nodes[3].has_key = true;
	/* a key on this node's own entry */
	c->nodes[0].has_key = true;
	expect_refused(_metadata, self, c, "own entry takes no pair key");
	c->nodes[0].has_key = false;
	/* no key at all */
	for (size_t i = 0; i < N; i++)
		c->nodes[i].has_key = false;
	expect_refused(_metadata, self, c, "missing cluster key");
}

/*
 * A process of job JOB, rank @id, registers at node @id and exits on CPU
 * @cpu (-1: any): node @id broadcasts its exit, from that CPU (the exit's
 * work item runs where it was queued). Return: 0, or what went wrong.
 */
static int rank_exits_on(struct st_vc *vc, uint32_t id, int cpu)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct ftnl_handle *h;
		cpu_set_t set;

		CPU_ZERO(&set);
		if (cpu >= 0)
			CPU_SET(cpu, &set);
		if ((cpu >= 0 && sched_setaffinity(0, sizeof(set), &set)) ||
		    st_setns(vc->node[id].ns) || ftnl_open(&h) ||
		    ftnl_proc_register(h, JOB, id))
			_exit(1);
		_exit(0);	/* the registration ends with the socket */
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

static int rank_exits(struct st_vc *vc, uint32_t id)
{
	return rank_exits_on(vc, id, -1);
}

/* Broadcasts delivered over every node whose stats could be read. */
static uint64_t delivered(FIXTURE_DATA(pk) *self)
{
	struct ftnl_stats s;
	uint64_t sum = 0;
	uint32_t id;

	for (id = 1; id <= N; id++)
		if (!st_vc_stats(&self->vc, id, &s))
			sum += s.bcast_delivered;
	return sum;
}

/* Until @want broadcasts are delivered in all, or 10 d passed. */
static void wait_delivered(FIXTURE_DATA(pk) *self, uint64_t want)
{
	uint64_t deadline = st_mono_ns() + 10ull * D_US * 1000;

	while (delivered(self) < want && st_mono_ns() < deadline)
		st_msleep(100);
}

/*
 * No node's heartbeat waited half of @delay_ms for the ring's lock, nobody
 * was suspected, no signature was refused.
 */
static void expect_no_lock_wait(struct __test_metadata *_metadata,
				FIXTURE_DATA(pk) *self, unsigned int delay_ms)
{
	uint64_t longest = 0;
	uint32_t id, worst = 0;
	struct ftnl_stats s;

	for (id = 1; id <= N; id++) {
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s));
		EXPECT_EQ(0u, s.drops[FTNL_DROP_SIGNATURE]);
		EXPECT_EQ(0u, s.suspicions) {
			ST_VC_LOG_NODE(&self->vc, id);
		}
		EXPECT_LT(s.hb_lock_wait_max_ns, delay_ms * 1000000ull / 2) {
			TH_LOG("node %u: a heartbeat waited %.1f ms for the lock",
			       id, s.hb_lock_wait_max_ns / 1e6);
		}
		if (s.hb_lock_wait_max_ns > longest) {
			longest = s.hb_lock_wait_max_ns;
			worst = id;
		}
	}
	TH_LOG("longest wait of a heartbeat for the lock: %.3f ms (node %u)",
	       longest / 1e6, worst);
}

TEST_F(pk, slow_verification_holds_no_heartbeat)
{
	uint64_t want;
	uint32_t id;

	if (access("/sys/module/ftnl/parameters/" VERIFY_PARAM, W_OK))
		SKIP(return, "the module has no test_verify_delay_ms");
	start_signed(_metadata, self, true, true);
	want = delivered(self) + (uint64_t)4 * (N - 1);
	ASSERT_EQ(0, st_param_set(VERIFY_PARAM, VERIFY_DELAY_MS));
	for (id = 1; id <= 4; id++) {
		ASSERT_EQ(0, rank_exits(&self->vc, id));
		st_msleep(D_US / 1000);
	}
	wait_delivered(self, want);
	ASSERT_EQ(0, st_param_set(VERIFY_PARAM, 0));
	EXPECT_EQ(want, delivered(self));
	expect_no_lock_wait(_metadata, self, VERIFY_DELAY_MS);
}

static void slow_signing(struct __test_metadata *_metadata,
			 FIXTURE_DATA(pk) *self, uint8_t algo)
{
	uint64_t want;
	uint32_t id, round;

	if (access("/sys/module/ftnl/parameters/" SIGN_PARAM, W_OK))
		SKIP(return, "the module has no test_sign_delay_ms");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU: no heartbeat timer runs beside a signing");
	self->vc.cfg.has_bcast_algo = true;
	self->vc.cfg.bcast_algo = algo;
	start_signed(_metadata, self, true, true);
	want = delivered(self) + (uint64_t)3 * 4 * (N - 1);
	ASSERT_EQ(0, st_param_set(SIGN_PARAM, SIGN_DELAY_MS));
	/*
	 * One exit per origin per d: none is batched with the next. Each
	 * origin signs on CPU 0 and on CPU 1, so at least once on another
	 * CPU than its heartbeat timer's (on the same one the timer waits
	 * for the softirq, not the lock).
	 */
	for (round = 0; round < 3; round++) {
		for (id = 1; id <= 4; id++)
			ASSERT_EQ(0, rank_exits_on(&self->vc, id,
						   (id + round) % 2));
		st_msleep(D_US / 1000);
	}
	wait_delivered(self, want);
	ASSERT_EQ(0, st_param_set(SIGN_PARAM, 0));
	EXPECT_EQ(want, delivered(self));
	expect_no_lock_wait(_metadata, self, SIGN_DELAY_MS);
}

TEST_F(pk, slow_signing_holds_no_heartbeat)
{
	slow_signing(_metadata, self, FTNL_BCAST_HYPERCUBE);
}

TEST_F(pk, slow_signing_fcg_holds_no_heartbeat)
{
	slow_signing(_metadata, self, FTNL_BCAST_FCG);
}

TEST_HARNESS_MAIN
