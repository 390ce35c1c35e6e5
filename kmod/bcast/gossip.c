// SPDX-License-Identifier: GPL-2.0
/*
 * Corrected gossip (Hoefler et al., Appendix A, Algorithms 1-3) and plain
 * gossip, as event-driven state machines. Pure code: compat.h only.
 *
 * The pseudo-code's loops become states; one ftnl_gossip_step() is one
 * iteration that sends (one slot), and "check for receive" becomes
 * ftnl_gossip_recv(), which only updates state. Where the pseudo-code is
 * garbled or silent, the reading taken is stated at the place it matters:
 *
 *  - Sides. A FWD message travels to self + off, so its receiver learns of
 *    g-nodes *behind* it (the sender, and the sender's own list of g-nodes
 *    behind); a BWD message tells of g-nodes *ahead*. FCG's k_> is thus
 *    known[BWD] (behind) and k_< is known[FWD] (ahead), and a FWD message
 *    carries known[BWD] ("send (dir, k_dir, data)").
 *  - Stopping (CCG, FCG line 25). The sweep towards a side stops once it
 *    has sent to the (f+1)-th nearest g-node known on that side (f = 0 for
 *    CCG: the nearest). Any such g-node sweeps towards this node in order,
 *    so the nodes in between are covered whatever message told of it.
 *  - Final round (FCG line 24). Once f + 1 g-nodes are known behind, the
 *    forward sweep restarts at distance 1 as the final round, carrying them
 *    (frozen from then on, the "!f_t" guard of line 22); likewise backward.
 *  - SOS (FCG line 28). A sweep that would reach this node itself while it
 *    still lacks f + 1 g-nodes on that side turns the node to SOS; so does
 *    an SOS message, and a c-node whose timeout expires.
 *  - Idle slots. As the pseudo-code's loop, a correcting node gives every
 *    other slot to each direction, and spends it idle when that direction
 *    has nothing to send ("analysis assumes we wait O in else").
 *  - Delivery. Every node delivers when first colored: a colored node stays
 *    in the algorithm until it is safe to leave (an FCG c-node until it
 *    knows f + 1 g-nodes, or through SOS), so delivering early does not
 *    weaken Claim 4's all-or-none guarantee for live nodes.
 */

#include "gossip.h"

static u64 ftnl_gossip_mix(u64 x)
{
	/* splitmix64's finalizer: spreads (seed, rank) over the state. */
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* xorshift64*: the upper 32 bits of the scrambled state. */
static u32 ftnl_gossip_rand(struct ftnl_gossip_node *node)
{
	u64 x = node->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	node->rng = x;
	return (u32)((x * 0x2545f4914f6cdd1dULL) >> 32);
}

/* A uniformly random rank other than self (n >= 2), without division. */
static u32 ftnl_gossip_rand_other(struct ftnl_gossip_node *node)
{
	u32 n = node->par->n;
	u32 r = (u32)(((u64)ftnl_gossip_rand(node) * (n - 1)) >> 32);

	return r >= node->self ? r + 1 : r;
}

/* Ring distance from @node to @rank going in direction @dir. */
static u32 ftnl_gossip_dist(const struct ftnl_gossip_node *node, int dir,
			    u32 rank)
{
	u32 n = node->par->n;

	if (dir == FTNL_GOSSIP_FWD)
		return (rank + n - node->self) % n;
	return (node->self + n - rank) % n;
}

static u32 ftnl_gossip_target(const struct ftnl_gossip_node *node, int dir,
			      u32 off)
{
	u32 n = node->par->n;

	if (dir == FTNL_GOSSIP_FWD)
		return (node->self + off) % n;
	return (node->self + n - off % n) % n;
}

/* How many g-nodes per side FCG needs (f + 1); CCG needs the nearest one. */
static u32 ftnl_gossip_cap(const struct ftnl_gossip_params *par)
{
	return par->algo == FTNL_GOSSIP_FCG ? par->f + 1U : 1U;
}

/*
 * Insert g-node @rank into the list of side @side, kept sorted by distance
 * on that side and cut at @cap entries (line 22: Delta(src u k u k_t)[0..f]).
 */
static void ftnl_gossip_learn_side(struct ftnl_gossip_node *node, int side,
				   u32 rank, u32 cap)
{
	u32 *list = node->known[side];
	u32 count = node->nknown[side], dist, i;

	if (rank == node->self)
		return;
	for (i = 0; i < count; i++)
		if (list[i] == rank)
			return;
	dist = ftnl_gossip_dist(node, side, rank);
	for (i = count; i > 0; i--) {
		if (ftnl_gossip_dist(node, side, list[i - 1]) <= dist)
			break;
		if (i < cap)
			list[i] = list[i - 1];
	}
	if (i < cap) {
		list[i] = rank;
		if (count < cap)
			node->nknown[side] = count + 1;
	}
}

/* An FCG c-node's set of distinct g-nodes (order does not matter). */
static void ftnl_gossip_learn_set(struct ftnl_gossip_node *node, u32 rank,
				  u32 cap)
{
	u32 *set = node->known[0];
	u32 count = node->nknown[0], i;

	if (rank == node->self || count >= cap)
		return;
	for (i = 0; i < count; i++)
		if (set[i] == rank)
			return;
	set[count] = rank;
	node->nknown[0] = count + 1;
}

/*
 * A correction message from @from: a FWD one comes from behind and tells of
 * g-nodes behind, a BWD one of g-nodes ahead.
 */
static void ftnl_gossip_learn(struct ftnl_gossip_node *node, u32 from,
			      const struct ftnl_gossip_msg *msg)
{
	const struct ftnl_gossip_params *par = node->par;
	int side = msg->type == FTNL_GOSSIP_MSG_FWD ? FTNL_GOSSIP_BWD :
						      FTNL_GOSSIP_FWD;
	u32 cap = ftnl_gossip_cap(par), i;

	if (node->state == FTNL_GOSSIP_WAITING) {
		ftnl_gossip_learn_set(node, from, cap);
		for (i = 0; i < msg->nknown; i++)
			ftnl_gossip_learn_set(node, msg->known[i], cap);
		return;
	}
	/* Frozen once the final round carrying this side has begun. */
	if (node->final[side == FTNL_GOSSIP_BWD ? FTNL_GOSSIP_FWD : FTNL_GOSSIP_BWD])
		return;
	ftnl_gossip_learn_side(node, side, from, cap);
	for (i = 0; i < msg->nknown; i++)
		ftnl_gossip_learn_side(node, side, msg->known[i], cap);
}

static void ftnl_gossip_out_clear(struct ftnl_gossip_out *out)
{
	u32 i;

	out->flags = 0;
	out->to = 0;
	out->wake = FTNL_GOSSIP_NO_WAKE;
	out->msg.type = 0;
	out->msg.nknown = 0;
	out->msg.pad = 0;
	out->msg.time = 0;
	for (i = 0; i < FTNL_GOSSIP_MAX_KNOWN; i++)
		out->msg.known[i] = 0;
}

static void ftnl_gossip_deliver(struct ftnl_gossip_node *node,
				struct ftnl_gossip_out *out)
{
	if (!node->delivered) {
		node->delivered = true;
		out->flags |= FTNL_GOSSIP_OUT_DELIVER;
	}
}

static void ftnl_gossip_done(struct ftnl_gossip_node *node,
			     struct ftnl_gossip_out *out)
{
	node->state = FTNL_GOSSIP_DONE;
	node->wake = FTNL_GOSSIP_NO_WAKE;
	out->flags |= FTNL_GOSSIP_OUT_DONE;
}

/* Enter SOS; the next step sends the first SOS message. */
static void ftnl_gossip_enter_sos(struct ftnl_gossip_node *node,
				  struct ftnl_gossip_out *out)
{
	node->state = FTNL_GOSSIP_SOS;
	node->sos_next = 1;
	node->wake = node->time;
	ftnl_gossip_deliver(node, out);
	out->flags |= FTNL_GOSSIP_OUT_SOS;
}

/* Fill @out with a message of @type to @to, taking the slot that starts now. */
static void ftnl_gossip_send(struct ftnl_gossip_node *node, u8 type, u32 to,
			     struct ftnl_gossip_out *out)
{
	node->time++;
	node->wake = node->time;
	out->flags |= FTNL_GOSSIP_OUT_SEND;
	out->to = to;
	out->msg.type = type;
	out->msg.time = node->time;
}

/* The clock at which the correction phase starts: T, then L + O of wait. */
static u32 ftnl_gossip_corr_start(const struct ftnl_gossip_params *par)
{
	return par->gossip_end + par->lat + 1;
}

/*
 * The gossip phase, lines 5-6 of Algorithm 1 ("while time++ < T+L/O+1: if
 * time < T: send to rand"): one random push per slot while the send ends
 * before T, then idle until the correction starts.
 */
static void ftnl_gossip_step_gossip(struct ftnl_gossip_node *node,
				    struct ftnl_gossip_out *out)
{
	const struct ftnl_gossip_params *par = node->par;
	u32 start;

	if (par->n > 1 && node->time + 1 < par->gossip_end) {
		ftnl_gossip_send(node, FTNL_GOSSIP_MSG_GOSSIP,
				 ftnl_gossip_rand_other(node), out);
		return;
	}
	if (par->algo == FTNL_GOSSIP_GOS) {
		ftnl_gossip_done(node, out);
		return;
	}
	node->state = FTNL_GOSSIP_CORRECTING;
	start = ftnl_gossip_corr_start(par);
	node->wake = node->time > start ? node->time : start;
}

/*
 * OCG's correction (Algorithm 1, lines 7-10): alternately to self + off and
 * self - off until the clock reaches C, tagged so that c-nodes stay quiet.
 */
static void ftnl_gossip_step_ocg(struct ftnl_gossip_node *node,
				 struct ftnl_gossip_out *out)
{
	const struct ftnl_gossip_params *par = node->par;
	int dir = node->dir;
	u32 off = node->off[0];

	/* Past distance n/2 both sweeps have met: the ring is covered. */
	if (node->time >= par->corr_end || off > par->n / 2 ||
	    (dir == FTNL_GOSSIP_BWD && 2 * off == par->n)) {
		ftnl_gossip_done(node, out);
		return;
	}
	ftnl_gossip_send(node, FTNL_GOSSIP_MSG_CORR,
			 ftnl_gossip_target(node, dir, off), out);
	if (dir == FTNL_GOSSIP_BWD)
		node->off[0]++;
	node->dir = !dir;
}

/*
 * Lines 24-25 of Algorithm 3 for direction @dir (Algorithm 2 is the case
 * f = 0 without final round). Return: whether @dir has a message to send.
 */
static bool ftnl_gossip_update_dir(struct ftnl_gossip_node *node, int dir)
{
	const struct ftnl_gossip_params *par = node->par;
	u32 cap = ftnl_gossip_cap(par);

	/* Line 24: f + 1 g-nodes known behind a forward sweep: final round. */
	if (par->algo == FTNL_GOSSIP_FCG && node->nknown[!dir] >= cap &&
	    !node->final[dir]) {
		node->final[dir] = true;
		node->off[dir] = 1;
		node->running[dir] = true;
	}
	/* Line 25: passed the (f+1)-th g-node known on the swept side. */
	if (node->running[dir] && node->nknown[dir] >= cap &&
	    node->off[dir] > ftnl_gossip_dist(node, dir,
					      node->known[dir][cap - 1]))
		node->running[dir] = false;
	return node->running[dir] && node->off[dir] < par->n;
}

/* Line 27: the next message of @dir's sweep, with what it tells. */
static void ftnl_gossip_send_dir(struct ftnl_gossip_node *node, int dir,
				 struct ftnl_gossip_out *out)
{
	int other = !dir;
	u32 i;

	ftnl_gossip_send(node, dir == FTNL_GOSSIP_FWD ? FTNL_GOSSIP_MSG_FWD :
							FTNL_GOSSIP_MSG_BWD,
			 ftnl_gossip_target(node, dir, node->off[dir]), out);
	node->off[dir]++;
	if (node->par->algo == FTNL_GOSSIP_FCG) {
		out->msg.nknown = node->nknown[other];
		for (i = 0; i < node->nknown[other]; i++)
			out->msg.known[i] = node->known[other][i];
	}
}

static void ftnl_gossip_step_checked(struct ftnl_gossip_node *node,
				     struct ftnl_gossip_out *out)
{
	const struct ftnl_gossip_params *par = node->par;
	bool ready[2];
	int dir;

	ready[FTNL_GOSSIP_FWD] = ftnl_gossip_update_dir(node, FTNL_GOSSIP_FWD);
	ready[FTNL_GOSSIP_BWD] = ftnl_gossip_update_dir(node, FTNL_GOSSIP_BWD);
	for (dir = 0; dir < 2; dir++) {
		if (!node->running[dir] || node->off[dir] < par->n)
			continue;
		/* Line 28: a sweep came full circle short of f + 1 g-nodes. */
		if (par->algo == FTNL_GOSSIP_FCG && par->n > 1) {
			ftnl_gossip_enter_sos(node, out);
			return;
		}
		node->running[dir] = false;	/* CCG (or alone): ring covered */
	}
	if (!ready[FTNL_GOSSIP_FWD] && !ready[FTNL_GOSSIP_BWD]) {
		ftnl_gossip_done(node, out);
		return;
	}
	/*
	 * Slots alternate between the directions ("for dir in {>, <}"), and
	 * a slot whose direction has nothing to send passes idle ("analysis
	 * assumes we wait O in else"). So every sweep advances one rank per
	 * two slots, no faster than the sweeps whose news it waits for: a
	 * lone sweep at full speed would overshoot, and on a sparse ring come
	 * full circle (and into SOS) before hearing of g-nodes it passed.
	 */
	dir = node->dir;
	node->dir = !dir;
	if (ready[dir]) {
		ftnl_gossip_send_dir(node, dir, out);
		return;
	}
	node->time++;
	node->wake = node->time;
}

/* Lines 8-10 of Algorithm 3: SOS to every other rank, then exit. */
static void ftnl_gossip_step_sos(struct ftnl_gossip_node *node,
				 struct ftnl_gossip_out *out)
{
	if (node->sos_next >= node->par->n) {
		ftnl_gossip_done(node, out);
		return;
	}
	ftnl_gossip_send(node, FTNL_GOSSIP_MSG_SOS,
			 ftnl_gossip_target(node, FTNL_GOSSIP_FWD,
					    node->sos_next),
			 out);
	node->sos_next++;
}

/* Q32 fixed point (1.0 = 1 << 32), values kept below 1.0. */
static u64 ftnl_q32_mul(u64 a, u64 b)
{
	return (a * b) >> 32;
}

static u64 ftnl_q32_pow(u64 base, u32 exp)
{
	u64 res = (1ULL << 32) - 1;

	while (exp) {
		if (exp & 1)
			res = ftnl_q32_mul(res, base);
		base = ftnl_q32_mul(base, base);
		exp >>= 1;
	}
	return res;
}

/* Longest L / O the model follows (slots of history it keeps). */
#define FTNL_GOSSIP_MODEL_LAT	30

/*
 * Uncolored share (Q32) at which each algorithm's correction should start,
 * matched to what the simulator finds (Documentation/simulator.rst): OCG's
 * correction has a fixed length, so the gossip must leave only short
 * uncolored runs (about 2^-9 uncolored, the paper's analytic T for 4096
 * nodes); CCG is fastest with about 1/8 uncolored; FCG's latency is
 * within a few percent of its best at about 1/32 uncolored, for a fifth
 * fewer messages than at its best.
 */
static u64 ftnl_gossip_model_target(u8 algo)
{
	switch (algo) {
	case FTNL_GOSSIP_OCG:
		return 1ULL << 23;	/* 2^-9 */
	case FTNL_GOSSIP_CCG:
		return 1ULL << 29;	/* 2^-3 */
	default:
		return 1ULL << 27;	/* 2^-5 */
	}
}

/**
 * ftnl_gossip_default_gossip_end - a gossip time T for @n nodes
 * @algo: enum ftnl_gossip_algo
 * @n: ring size
 * @lat: L / O
 *
 * Follows the expected share of uncolored nodes u(t) of the gossip phase
 * (the paper's Lemma 1 in integer arithmetic: every sender of slot s
 * misses a given node with probability 1 - 1/(n-1), so u(t) = u(t-1) *
 * (1 - 1/(n-1))^c(t-lat-2)) and returns the T at which the correction
 * starts with u below the algorithm's target. GOS has no correction: it
 * gossips on until about n * 2^-21 nodes are expected uncolored (each
 * slot of a saturated gossip divides u by e, i.e. 1.44 bits).
 *
 * Return: T in slots (at least 1).
 */
u32 ftnl_gossip_default_gossip_end(u8 algo, u32 n, u32 lat)
{
	u32 colored[FTNL_GOSSIP_MODEL_LAT + 2], hist, t, log2n = 0;
	u64 miss, uncolored, target;

	if (n < 2)
		return 1;
	while (log2n < 31 && (1U << log2n) < n)
		log2n++;
	if (lat > FTNL_GOSSIP_MODEL_LAT)
		lat = FTNL_GOSSIP_MODEL_LAT;
	hist = lat + 2;
	miss = (1ULL << 32) - 0xffffffffU / (n - 1);
	uncolored = (1ULL << 32) - 0xffffffffU / n;
	target = algo == FTNL_GOSSIP_GOS ? 1ULL << 24 : ftnl_gossip_model_target(algo);
	for (t = 0; t < hist; t++)
		colored[t] = t ? 0 : 1;	/* colored[t % hist]: c(t), 0 before 0 */

	for (t = 1; t < 64 * (log2n + lat + 2); t++) {
		u32 senders = t >= hist ? colored[(t - hist) % hist] : 0;

		uncolored = ftnl_q32_mul(uncolored, ftnl_q32_pow(miss, senders));
		colored[t % hist] = n - (u32)((uncolored * n) >> 32);
		if (uncolored <= target)
			break;
	}
	if (algo == FTNL_GOSSIP_GOS)
		/* From 2^-8 down to n 2^-21 at 1.44 bits a slot. */
		return t + ((log2n + 13) * 1000 + 1442) / 1443;
	return t > lat + 1 ? t - lat : 1;
}

/**
 * ftnl_gossip_params_init - working parameters for a broadcast
 * @par: filled in
 * @algo: enum ftnl_gossip_algo
 * @n: ring size (>= 1)
 * @root: the root's rank
 * @lat: L / O rounded up (e.g. 2 for L = 2 us, O = 1 us)
 * @f: FCG's tolerance of failures during the broadcast (capped at
 *	FTNL_GOSSIP_MAX_F)
 *
 * T comes from ftnl_gossip_default_gossip_end(). OCG's correction lasts
 * K + L/O + 2 slots, K bounding the longest uncolored run: with 2^-9 of
 * the nodes uncolored, runs longer than K = (log2 n + 21) / 9 occur with
 * probability below the paper's delta (7e-7). The FCG c-node timeout is
 * 4n slots: a g-node sweeps each side at most twice, so no failure-free
 * run can reach it, and a spurious SOS would cost n^2 messages, far more
 * than waiting does in the rare case it is needed.
 */
void ftnl_gossip_params_init(struct ftnl_gossip_params *par, u8 algo, u32 n,
			     u32 root, u32 lat, u8 f)
{
	u32 log2n = 0;

	while (log2n < 31 && (1U << log2n) < n)
		log2n++;
	par->n = n;
	par->root = root;
	par->lat = lat;
	par->algo = algo;
	par->f = f > FTNL_GOSSIP_MAX_F ? FTNL_GOSSIP_MAX_F : f;
	par->gossip_end = ftnl_gossip_default_gossip_end(algo, n, lat);
	par->corr_end = ftnl_gossip_corr_start(par) + lat + 2 +
			(log2n + 21 + 8) / 9;
	par->sos_timeout = n > FTNL_GOSSIP_NO_WAKE / 8 ? FTNL_GOSSIP_NO_WAKE / 2 : 4 * n;
}

/**
 * ftnl_gossip_init - a node that has not heard of the broadcast yet
 * @node: filled in
 * @par: the broadcast's parameters, kept by reference
 * @self: this node's rank (< @par->n)
 * @seed: the caller's seed; with @self it picks the gossip targets, so the
 *	same seed replays the same broadcast
 */
void ftnl_gossip_init(struct ftnl_gossip_node *node,
		      const struct ftnl_gossip_params *par, u32 self, u64 seed)
{
	u32 i;

	node->par = par;
	node->rng = ftnl_gossip_mix(seed ^ ftnl_gossip_mix(self)) | 1;
	node->self = self;
	node->time = 0;
	node->wake = FTNL_GOSSIP_NO_WAKE;
	node->deadline = 0;
	node->off[0] = 1;
	node->off[1] = 1;
	node->sos_next = 1;
	node->state = FTNL_GOSSIP_IDLE;
	node->gnode = false;
	node->delivered = false;
	node->running[0] = true;
	node->running[1] = true;
	node->final[0] = false;
	node->final[1] = false;
	node->dir = FTNL_GOSSIP_FWD;
	node->nknown[0] = 0;
	node->nknown[1] = 0;
	for (i = 0; i < FTNL_GOSSIP_MAX_KNOWN; i++) {
		node->known[0][i] = 0;
		node->known[1][i] = 0;
	}
}

/**
 * ftnl_gossip_start - the root starts the broadcast at clock 0
 * @node: the root's node (fresh from ftnl_gossip_init())
 * @out: DELIVER, and wake = 0
 */
void ftnl_gossip_start(struct ftnl_gossip_node *node,
		       struct ftnl_gossip_out *out)
{
	ftnl_gossip_out_clear(out);
	if (node->state != FTNL_GOSSIP_IDLE) {
		out->wake = node->wake;
		return;
	}
	node->state = FTNL_GOSSIP_GOSSIPING;
	node->gnode = true;
	node->time = 0;
	node->wake = 0;
	ftnl_gossip_deliver(node, out);
	out->wake = node->wake;
}

/**
 * ftnl_gossip_msg_valid - whether a received message is well formed
 * @par: the broadcast's parameters
 * @msg: the message
 *
 * Return: true if its type belongs to the algorithm and every rank it
 * carries is on the ring.
 */
bool ftnl_gossip_msg_valid(const struct ftnl_gossip_params *par,
			   const struct ftnl_gossip_msg *msg)
{
	u32 i;

	switch (msg->type) {
	case FTNL_GOSSIP_MSG_GOSSIP:
		break;
	case FTNL_GOSSIP_MSG_CORR:
		if (par->algo != FTNL_GOSSIP_OCG)
			return false;
		break;
	case FTNL_GOSSIP_MSG_FWD:
	case FTNL_GOSSIP_MSG_BWD:
		if (par->algo != FTNL_GOSSIP_CCG && par->algo != FTNL_GOSSIP_FCG)
			return false;
		break;
	case FTNL_GOSSIP_MSG_SOS:
		if (par->algo != FTNL_GOSSIP_FCG)
			return false;
		break;
	default:
		return false;
	}
	if (msg->nknown > (par->algo == FTNL_GOSSIP_FCG ? par->f + 1 : 0))
		return false;
	for (i = 0; i < msg->nknown; i++)
		if (msg->known[i] >= par->n)
			return false;
	return true;
}

/**
 * ftnl_gossip_recv - a message arrived
 * @node: the receiving node
 * @from: the sender's rank
 * @msg: the message
 * @out: DELIVER when it colors the node, DONE, SOS, INVALID; @out->wake is
 *	when to step the node next. Never SEND: sending takes a step.
 *
 * The first message colors the node: a gossip message makes it a g-node
 * (which gossips and then corrects), any other a c-node, which in OCG and
 * CCG exits at once and in FCG waits for f + 1 g-nodes (Algorithm 3, lines
 * 11-14). Exited nodes ignore everything, colored ones every gossip message.
 */
void ftnl_gossip_recv(struct ftnl_gossip_node *node, u32 from,
		      const struct ftnl_gossip_msg *msg,
		      struct ftnl_gossip_out *out)
{
	const struct ftnl_gossip_params *par = node->par;
	u32 arrival;

	ftnl_gossip_out_clear(out);
	if (from >= par->n || from == node->self ||
	    !ftnl_gossip_msg_valid(par, msg)) {
		out->flags |= FTNL_GOSSIP_OUT_INVALID;
		goto out;
	}
	/* "time += L/O + 1", saturating on a hostile clock. */
	arrival = msg->time + par->lat + 1;
	if (arrival < msg->time)
		arrival = msg->time;

	switch (node->state) {
	case FTNL_GOSSIP_IDLE:
		node->time = arrival;
		ftnl_gossip_deliver(node, out);
		if (msg->type == FTNL_GOSSIP_MSG_GOSSIP) {
			node->gnode = true;
			node->state = FTNL_GOSSIP_GOSSIPING;
			node->wake = node->time;
		} else if (msg->type == FTNL_GOSSIP_MSG_SOS) {
			ftnl_gossip_enter_sos(node, out);
		} else if (par->algo == FTNL_GOSSIP_FCG) {
			node->state = FTNL_GOSSIP_WAITING;
			ftnl_gossip_learn(node, from, msg);
			if (node->nknown[0] >= ftnl_gossip_cap(par)) {
				ftnl_gossip_done(node, out);
				break;
			}
			node->deadline = node->time + par->sos_timeout;
			if (node->deadline < node->time)
				node->deadline = FTNL_GOSSIP_NO_WAKE - 1;
			node->wake = node->deadline;
		} else {
			/* OCG and CCG c-nodes do not send. */
			ftnl_gossip_done(node, out);
		}
		break;
	case FTNL_GOSSIP_GOSSIPING:
	case FTNL_GOSSIP_CORRECTING:
	case FTNL_GOSSIP_WAITING:
		if (msg->type == FTNL_GOSSIP_MSG_SOS) {
			ftnl_gossip_enter_sos(node, out);
		} else if (msg->type == FTNL_GOSSIP_MSG_FWD ||
			   msg->type == FTNL_GOSSIP_MSG_BWD) {
			ftnl_gossip_learn(node, from, msg);
			if (node->state == FTNL_GOSSIP_WAITING &&
			    node->nknown[0] >= ftnl_gossip_cap(par))
				ftnl_gossip_done(node, out);
		}
		break;
	default:
		break;	/* SOS already under way, or exited */
	}
out:
	out->wake = node->wake;
}

/**
 * ftnl_gossip_step - run the node's next slot
 * @node: the node
 * @now: the caller's clock (slots); the node's clock catches up with it
 * @out: SEND (at most one message), DONE, SOS; @out->wake is when to call
 *	again (the next slot after a send)
 */
void ftnl_gossip_step(struct ftnl_gossip_node *node, u32 now,
		      struct ftnl_gossip_out *out)
{
	ftnl_gossip_out_clear(out);
	if (node->state == FTNL_GOSSIP_IDLE || node->state == FTNL_GOSSIP_DONE ||
	    now < node->wake)
		goto out;
	if (node->time < now)
		node->time = now;

	switch (node->state) {
	case FTNL_GOSSIP_GOSSIPING:
		ftnl_gossip_step_gossip(node, out);
		break;
	case FTNL_GOSSIP_CORRECTING:
		if (node->par->algo == FTNL_GOSSIP_OCG)
			ftnl_gossip_step_ocg(node, out);
		else
			ftnl_gossip_step_checked(node, out);
		break;
	case FTNL_GOSSIP_WAITING:
		/* Line 14: the timeout expired short of f + 1 g-nodes. */
		if (node->time >= node->deadline)
			ftnl_gossip_enter_sos(node, out);
		break;
	case FTNL_GOSSIP_SOS:
		ftnl_gossip_step_sos(node, out);
		break;
	}
out:
	out->wake = node->wake;
}
