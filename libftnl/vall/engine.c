// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Validate-all (Buntinas, section 4). Functions are named after what they
 * implement; Documentation/validate-all.rst has the full table:
 *
 *	root_broadcast()	Figure 1 (1): a broadcast initiated at root
 *	recv_bcast()		(2) and (6): a BCAST arrives
 *	recv_ack()		(3): ACK (ACCEPT_ACK, REJECT_ACK) from a child
 *	child_failed()		(4): a child fails while DOWN
 *	recv_nak()		(5): NAK (FORCED_NAK) from a child
 *	vall_compute_children()	compute_children
 *	forward(), reply()	the bodies those rules share
 *	root_complete()		section 4.2: the root's phase transitions
 *	root_act(), root_wait()	new ballots (rebroadcasts) on NAK, REJECT or
 *				new failures; a new root's first action
 *
 * Per operation, struct vall_slot holds Figure 1's variables (bcast_num,
 * direction, parent, the children and which ones still owe an ACK) and
 * section 4.2's (phase, ballot, committed ballot, the root's state).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "era/bitmap.h"
#include "era/carve.h"
#include "vall/engine.h"

#define VALL_MAX_RANKS	(1u << 24)
#define VALL_MAX_WINDOW	1024
#define ROOT_SHIFT	40	/* broadcast number: root rank, then count */

enum vall_phase {
	PHASE_BALLOTING,
	PHASE_COMMIT,
	PHASE_ALL_COMMIT,
};

enum vall_root {
	ROOT_NONE,		/* not root of this operation (yet) */
	ROOT_RUNNING,		/* our broadcast is under way */
	ROOT_WAITING,		/* it failed: wait for news of a failure */
	ROOT_DONE,		/* the last broadcast of the phase completed */
};

/**
 * struct vall_slot - one operation
 * @id: operation id, 0 if the slot is free
 * @started: the local process called it (contribution set)
 * @returned: decided callback given
 * @phase: enum vall_phase
 * @bnum: Figure 1's bcast_num, 0 for bottom
 * @down: Figure 1's direction == DOWN
 * @kind: the BCAST type of broadcast @bnum
 * @parent: its sender, VALL_NO_RANK if we are its root
 * @pending: a BALLOT_BCAST (@bnum, @parent, @desc, @ballot) waits for
 *	the local call
 * @all_accept: every child's vote so far was ACCEPT_ACK
 * @root: enum vall_root
 * @snapshot: failures known when our latest root broadcast began
 * @gc: the lowest "returned up to" among the ACCEPT_ACKs received
 * @committed_gc: the gc of the committed ballot (every live member had
 *	returned every operation up to it when it voted)
 * @children: the children of broadcast @bnum
 * @awaited: those whose ACK has not come
 * @desc: the pending ballot's descendant set
 * @ballot: the ballot of the ballot broadcast @bnum
 * @votes: F of the values of the ACCEPT_ACKs received
 * @contribution: the local process's value
 * @committed: phase >= COMMIT: the committed ballot, the returned value
 */
struct vall_slot {
	uint64_t id;
	bool started;
	bool returned;
	uint8_t phase;
	uint64_t bnum;
	bool down;
	uint8_t kind;
	uint32_t parent;
	bool pending;
	bool all_accept;
	uint8_t root;
	uint64_t snapshot;
	uint64_t gc;
	uint64_t committed_gc;
	uint64_t *children;
	uint64_t *awaited;
	uint64_t *desc;
	void *ballot;
	void *votes;
	void *contribution;
	void *committed;
};

struct vall_group {
	struct vall_config cfg;
	const struct era_op *op;
	struct era_alloc alloc;
	size_t alloc_size;
	uint32_t nranks;
	uint32_t self;
	uint32_t window;
	bool loose;
	uint32_t quirks;

	uint64_t *dead;
	uint64_t ndead;
	bool is_root;			/* every lower rank is dead */
	bool self_dead;			/* a decision listed this process */
	uint64_t counter;		/* root broadcasts started here */
	uint64_t max_seen;		/* VALL_QUIRK_PLAIN_BCAST_NUM */

	struct vall_slot *slots;	/* operation id % nslots */
	uint32_t nslots;
	uint64_t last_started;
	uint64_t returned;
	uint64_t known_done;		/* every live member returned up to it */

	uint32_t *children;		/* scratch */
	uint64_t *desc_tmp;
	uint64_t *child_tmp;
	void *value_tmp;
	struct vall_stats stats;
};

/* ---- allocation: one block, carved twice (era/carve.h) -------------- */

static void layout(struct vall_group *g, struct era_carver *c)
{
	size_t map = era_bitmap_words(g->nranks) * sizeof(uint64_t);
	size_t vsz = g->op->value_size;

	g->dead = era_carve(c, map);
	g->desc_tmp = era_carve(c, map);
	g->child_tmp = era_carve(c, map);
	g->children = era_carve(c, (size_t)g->nranks * sizeof(uint32_t));
	g->value_tmp = era_carve(c, vsz);
	g->slots = era_carve(c, g->nslots * sizeof(*g->slots));
	for (uint32_t i = 0; i < g->nslots; i++) {
		struct vall_slot s = {
			.children = era_carve(c, map),
			.awaited = era_carve(c, map),
			.desc = era_carve(c, map),
			.ballot = era_carve(c, vsz),
			.votes = era_carve(c, vsz),
			.contribution = era_carve(c, vsz),
			.committed = era_carve(c, vsz),
		};

		if (g->slots)
			g->slots[i] = s;
	}
}

int vall_group_create(const struct vall_config *cfg, struct vall_group **out)
{
	static const struct era_alloc std_alloc = {
		.alloc = era_default_alloc,
		.free = era_default_free,
	};
	struct vall_group proto = { 0 }, *g;
	struct era_carver c = { 0 };
	const struct era_op *op = cfg->op;

	*out = NULL;
	if (!cfg->nranks || cfg->nranks > VALL_MAX_RANKS ||
	    cfg->self >= cfg->nranks || cfg->window > VALL_MAX_WINDOW ||
	    (cfg->semantics != VALL_STRICT && cfg->semantics != VALL_LOOSE))
		return -EINVAL;
	if (!op || !op->value_size || !op->identity || !op->combine ||
	    !op->wire_size || !op->encode || !op->decode || !op->add_dead ||
	    !op->is_dead)
		return -EINVAL;
	proto.cfg = *cfg;
	proto.op = op;
	proto.alloc = cfg->alloc ? *cfg->alloc : std_alloc;
	proto.nranks = cfg->nranks;
	proto.self = cfg->self;
	proto.window = cfg->window ? cfg->window : 1;
	proto.loose = cfg->semantics == VALL_LOOSE;
	proto.quirks = cfg->quirks;
	/*
	 * Live ids lie in (last_started - 2 window, last_started + window]:
	 * see slot_get().
	 */
	proto.nslots = 3 * proto.window + 1;

	era_carve(&c, sizeof(*g));
	layout(&proto, &c);
	proto.alloc_size = c.off;
	g = proto.alloc.alloc(proto.alloc.ctx, proto.alloc_size);
	if (!g)
		return -ENOMEM;
	memset(g, 0, proto.alloc_size);
	*g = proto;
	c = (struct era_carver){ .base = (uint8_t *)g };
	era_carve(&c, sizeof(*g));
	layout(g, &c);
	g->is_root = g->self == 0;
	*out = g;
	return 0;
}

void vall_group_destroy(struct vall_group *g)
{
	if (g)
		g->alloc.free(g->alloc.ctx, g, g->alloc_size);
}

/* ---- compute_children (Figure 1) --------------------------------------- */

static uint32_t count_below(const uint64_t *map, uint32_t upper)
{
	uint32_t count = 0, w;

	for (w = 0; w < upper / 64; w++)
		count += (uint32_t)__builtin_popcountll(map[w]);
	if (upper % 64)
		count += (uint32_t)__builtin_popcountll(map[w] &
				(((uint64_t)1 << (upper % 64)) - 1));
	return count;
}

uint32_t vall_compute_children(const uint64_t *desc, uint32_t nranks,
			       uint32_t *children)
{
	uint32_t n = 0, upper = nranks, count, child, r;

	/* The remaining descendants are those of @desc below @upper. */
	while ((count = count_below(desc, upper))) {
		uint32_t k = count / 2;

		era_bitmap_for_each(r, desc, upper) {
			if (!k--)
				break;
		}
		child = r;
		children[n++] = child;
		/* descendants_child: every remaining rank above child */
		upper = child;
	}
	return n;
}

void vall_child_desc(const uint64_t *desc, uint32_t nranks,
		     const uint32_t *children, uint32_t i, uint64_t *out)
{
	uint32_t lo = children[i], hi = i ? children[i - 1] : nranks, r;

	era_bitmap_zero(out, nranks);
	era_bitmap_for_each(r, desc, hi)
		if (r > lo)
			era_bit_set(out, r);
}

/* ---- helpers ------------------------------------------------------------ */

static bool is_dead(const struct vall_group *g, uint32_t rank)
{
	return era_bit_test(g->dead, rank);
}

static bool stale_id(const struct vall_group *g, uint64_t id)
{
	return id + 2 * (uint64_t)g->window <= g->last_started;
}

/*
 * The slot of @id, created if need be. Live ids: a peer that sends for
 * operation b started b, hence returned b - window, whose ballot every
 * live member accepted: every member started b - window and returned
 * b - 2 window. So b <= last_started + window, and every id <=
 * last_started - 2 window is returned everywhere (stale_id()).
 */
static struct vall_slot *slot_get(struct vall_group *g, uint64_t id, int *err)
{
	struct vall_slot *s = &g->slots[id % g->nslots];
	size_t map = era_bitmap_words(g->nranks) * sizeof(uint64_t);

	*err = 0;
	if (id > g->last_started + g->window) {
		*err = -ERANGE;
		return NULL;
	}
	if (s->id == id)
		return s;
	if (s->id && !stale_id(g, s->id)) {
		*err = -ERANGE;		/* cannot happen within the window */
		return NULL;
	}
	s->id = id;
	s->started = false;
	s->returned = false;
	s->phase = PHASE_BALLOTING;
	s->bnum = 0;
	s->down = false;
	s->kind = 0;
	s->parent = VALL_NO_RANK;
	s->pending = false;
	s->all_accept = true;
	s->root = ROOT_NONE;
	s->snapshot = 0;
	s->gc = UINT64_MAX;
	s->committed_gc = 0;
	memset(s->children, 0, map);
	memset(s->awaited, 0, map);
	return s;
}

static struct vall_slot *slot_find(const struct vall_group *g, uint64_t id)
{
	struct vall_slot *s = &g->slots[id % g->nslots];

	return s->id == id ? s : NULL;
}

static void send_msg(struct vall_group *g, const struct vall_sink *out,
		     uint32_t to, uint8_t type, const struct vall_slot *s,
		     uint64_t bnum, const uint64_t *desc, const void *value,
		     uint64_t gc)
{
	struct vall_msg msg = {
		.type = type,
		.group = g->cfg.group,
		.id = s->id,
		.bnum = bnum,
		.gc = gc,
		.desc = desc,
		.value = value,
	};

	g->stats.sent[type]++;
	out->send(out->ctx, to, &msg);
}

/*
 * "A number larger than any broadcast number it has seen": the root's
 * rank, then a count. Roots only move up (the lowest live rank; nobody
 * recovers), so a new root's numbers exceed every number a dead root ever
 * used, even those it never saw, and rule (6) turns a dead root's late
 * broadcasts away everywhere the new root's one arrived first.
 */
static uint64_t next_bnum(struct vall_group *g)
{
	if (g->quirks & VALL_QUIRK_PLAIN_BCAST_NUM) {
		g->max_seen++;
		return g->max_seen << 24 | g->self;
	}
	return (uint64_t)g->self << ROOT_SHIFT | ++g->counter;
}

static void saw_bnum(struct vall_group *g, uint64_t bnum)
{
	if ((g->quirks & VALL_QUIRK_PLAIN_BCAST_NUM) && bnum >> 24 > g->max_seen)
		g->max_seen = bnum >> 24;
}

/* ---- returning ---------------------------------------------------------- */

static void do_return(struct vall_group *g, struct vall_slot *s,
		      const struct vall_sink *out)
{
	struct vall_slot *next;

	if (s->returned)
		return;
	s->returned = true;
	if (g->op->is_dead(g->op, s->committed, g->self))
		g->self_dead = true;
	out->decided(out->ctx, s->id, s->committed);
	while ((next = slot_find(g, g->returned + 1)) && next->returned)
		g->returned++;
}

/* Enter (or stay in) the COMMIT phase with @value; loose: return. */
static void commit(struct vall_group *g, struct vall_slot *s,
		   const void *value, uint64_t gc, const struct vall_sink *out)
{
	s->committed_gc = gc;
	if (gc > g->known_done)
		g->known_done = gc;
	if (s->phase >= PHASE_COMMIT) {
		if (memcmp(s->committed, value, g->op->value_size)) {
			g->stats.commit_changed++;
			if (s->returned)
				g->stats.errors++;	/* see the DST */
		}
	} else {
		s->phase = PHASE_COMMIT;
	}
	if (value != s->committed)
		memcpy(s->committed, value, g->op->value_size);
	if (g->loose)
		do_return(g, s, out);
}

/* ---- Figure 1 ----------------------------------------------------------- */

static void root_complete(struct vall_group *g, struct vall_slot *s,
			  const struct vall_sink *out);
static void root_wait(struct vall_group *g, struct vall_slot *s,
		      const struct vall_sink *out);

/*
 * Garbage collection, as ERA's (paper section 4): a vote carries the
 * lowest "returned up to" of the voters below and ours; the committed
 * ballot's is then returned by every live member (they all voted).
 */
static uint64_t vote_gc(const struct vall_group *g, const struct vall_slot *s)
{
	return s->gc < g->returned ? s->gc : g->returned;
}

/* The ballot is acceptable: no known failure outside it, nor below. */
static bool accepts(const struct vall_group *g, const struct vall_slot *s)
{
	uint32_t r;

	if (!s->all_accept)
		return false;
	era_bitmap_for_each(r, g->dead, g->nranks)
		if (!g->op->is_dead(g->op, s->ballot, r))
			return false;
	return true;
}

static bool commit_unacked(const struct vall_group *g, const struct vall_slot *s)
{
	return g->loose && s->kind == VALL_MSG_COMMIT_BCAST &&
	       (g->quirks & VALL_QUIRK_LOOSE_NO_COMMIT_ACK);
}

/*
 * Every child acknowledged (or there is none): (3), or the leaf case of
 * (2). Votes: ACCEPT_ACK with F(our contribution, the children's values)
 * if we accept and every child did, else REJECT_ACK.
 */
static void reply(struct vall_group *g, struct vall_slot *s,
		  const struct vall_sink *out)
{
	s->down = false;
	if (s->parent == VALL_NO_RANK) {
		root_complete(g, s, out);
		return;
	}
	if (commit_unacked(g, s))
		return;
	if (s->kind != VALL_MSG_BALLOT_BCAST) {
		send_msg(g, out, s->parent, VALL_MSG_ACK, s, s->bnum, NULL,
			 NULL, 0);
	} else if (accepts(g, s)) {
		memcpy(g->value_tmp, s->contribution, g->op->value_size);
		g->op->combine(g->op, g->value_tmp, s->votes);
		send_msg(g, out, s->parent, VALL_MSG_ACCEPT_ACK, s, s->bnum,
			 NULL, g->value_tmp, vote_gc(g, s));
	} else {
		send_msg(g, out, s->parent, VALL_MSG_REJECT_ACK, s, s->bnum,
			 NULL, NULL, 0);
	}
}

/* (4): a child of broadcast bnum failed while DOWN. */
static void child_failed(struct vall_group *g, struct vall_slot *s,
			 const struct vall_sink *out)
{
	s->down = false;
	if (s->parent != VALL_NO_RANK)
		send_msg(g, out, s->parent, VALL_MSG_NAK, s, s->bnum, NULL,
			 NULL, 0);
	else
		root_wait(g, s, out);
}

/*
 * "Compute set of children, send BCAST to children, direction = DOWN",
 * shared by (1) and (2); with no child, reply at once (UP).
 */
static void forward(struct vall_group *g, struct vall_slot *s,
		    const uint64_t *desc, const struct vall_sink *out)
{
	uint32_t n = vall_compute_children(desc, g->nranks, g->children);
	const void *value = s->kind == VALL_MSG_BALLOT_BCAST ? s->ballot :
			    s->kind == VALL_MSG_COMMIT_BCAST ? s->committed :
			    NULL;
	bool dead_child = false;

	era_bitmap_zero(s->children, g->nranks);
	era_bitmap_zero(s->awaited, g->nranks);
	s->all_accept = true;
	s->gc = UINT64_MAX;
	g->op->identity(g->op, s->votes);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t child = g->children[i];

		era_bit_set(s->children, child);
		era_bit_set(s->awaited, child);
		if (is_dead(g, child)) {
			dead_child = true;	/* as if lost on the way */
			continue;
		}
		vall_child_desc(desc, g->nranks, g->children, i, g->child_tmp);
		send_msg(g, out, child, s->kind, s, s->bnum, g->child_tmp,
			 value, s->committed_gc);
	}
	if (commit_unacked(g, s)) {
		s->down = false;
		if (s->parent == VALL_NO_RANK)
			s->root = ROOT_DONE;
		return;
	}
	if (!n) {
		reply(g, s, out);
		return;
	}
	s->down = true;
	if (dead_child)
		child_failed(g, s, out);	/* (4) is enabled at once */
}

/* (1): a broadcast initiated at root, over every live rank but us. */
static void root_broadcast(struct vall_group *g, struct vall_slot *s,
			   uint8_t kind, const struct vall_sink *out)
{
	s->bnum = next_bnum(g);
	s->kind = kind;
	s->parent = VALL_NO_RANK;
	s->pending = false;
	s->root = ROOT_RUNNING;
	s->snapshot = g->ndead;
	g->stats.broadcasts[kind]++;
	if (kind == VALL_MSG_BALLOT_BCAST) {
		/* The ballot: the failed processes the root knows of. */
		g->op->identity(g->op, s->ballot);
		g->op->add_dead(g->op, s->ballot, g->dead, g->nranks);
	}
	era_bitmap_zero(g->desc_tmp, g->nranks);
	for (uint32_t r = 0; r < g->nranks; r++)
		if (r != g->self && !is_dead(g, r))
			era_bit_set(g->desc_tmp, r);
	forward(g, s, g->desc_tmp, out);
}

/* A root's (next) broadcast, by phase; nothing before the local call. */
static void root_act(struct vall_group *g, struct vall_slot *s,
		     const struct vall_sink *out)
{
	if (!s->started)
		return;
	if (s->id <= g->known_done) {
		/* Returned everywhere: nothing to redo. */
		s->root = ROOT_DONE;
		s->down = false;
		return;
	}
	switch (s->phase) {
	case PHASE_BALLOTING:
		root_broadcast(g, s, VALL_MSG_BALLOT_BCAST, out);
		break;
	case PHASE_COMMIT:
		root_broadcast(g, s, VALL_MSG_COMMIT_BCAST, out);
		break;
	default:
		root_broadcast(g, s, VALL_MSG_ALL_COMMIT_BCAST, out);
		break;
	}
}

/*
 * The root's broadcast failed (NAK, REJECT_ACK, a child died): "the root
 * then waits for its knowledge of failed processes to be updated" and
 * tries again. Every such failure involves a process alive in the root's
 * view when the broadcast began (or a failure a voter knew of), so the
 * perfect detector eventually tells the root something new.
 */
static void root_wait(struct vall_group *g, struct vall_slot *s,
		      const struct vall_sink *out)
{
	s->down = false;
	s->root = ROOT_WAITING;
	if (g->ndead != s->snapshot)
		root_act(g, s, out);
}

/* The root's broadcast completed: every child acknowledged it. */
static void root_complete(struct vall_group *g, struct vall_slot *s,
			  const struct vall_sink *out)
{
	switch (s->kind) {
	case VALL_MSG_BALLOT_BCAST:
		if (!accepts(g, s)) {
			g->stats.ballots_rejected++;
			root_wait(g, s, out);
			return;
		}
		memcpy(g->value_tmp, s->ballot, g->op->value_size);
		g->op->combine(g->op, g->value_tmp, s->contribution);
		g->op->combine(g->op, g->value_tmp, s->votes);
		commit(g, s, g->value_tmp, vote_gc(g, s), out);
		root_broadcast(g, s, VALL_MSG_COMMIT_BCAST, out);
		break;
	case VALL_MSG_COMMIT_BCAST:
		if (g->loose) {
			s->root = ROOT_DONE;
			break;
		}
		/* Every process committed: no other ballot can win now. */
		s->phase = PHASE_ALL_COMMIT;
		do_return(g, s, out);
		root_broadcast(g, s, VALL_MSG_ALL_COMMIT_BCAST, out);
		break;
	default:
		s->root = ROOT_DONE;
		break;
	}
}

/* (2) and (6). Return: 0, or -EINVAL for a descendant set that is wrong. */
static int recv_bcast(struct vall_group *g, struct vall_slot *s, uint32_t from,
		      const struct vall_msg *msg, const struct vall_sink *out)
{
	uint32_t first = era_bitmap_next(msg->desc, g->nranks, 0);

	/* Descendants rank above their ancestors, and we are not our own. */
	if (first <= g->self && first != g->nranks)
		return -EINVAL;
	saw_bnum(g, msg->bnum);
	if (msg->bnum <= s->bnum) {				/* (6) */
		g->stats.nak_bcast++;
		send_msg(g, out, from, VALL_MSG_NAK, s, msg->bnum, NULL, NULL,
			 0);
		return 0;
	}
	if (msg->type != VALL_MSG_BALLOT_BCAST && !s->started) {
		/* A commit needs our vote: nobody can send it yet. */
		g->stats.errors++;
		return 0;
	}
	if (msg->type == VALL_MSG_ALL_COMMIT_BCAST &&
	    s->phase < PHASE_COMMIT) {
		g->stats.errors++;	/* ALL_COMMIT means we committed */
		return 0;
	}
	s->bnum = msg->bnum;
	s->parent = from;
	s->kind = msg->type;
	s->pending = false;
	s->down = false;
	switch (msg->type) {
	case VALL_MSG_BALLOT_BCAST:
		if (s->phase >= PHASE_COMMIT) {
			/* A new root that did not commit: tell it we did. */
			send_msg(g, out, from, VALL_MSG_FORCED_NAK, s, s->bnum,
				 NULL, s->committed, s->committed_gc);
			return 0;
		}
		memcpy(s->ballot, msg->value, g->op->value_size);
		if (!s->started) {
			/* Our vote needs our call: keep the newest ballot. */
			memcpy(s->desc, msg->desc, era_bitmap_words(g->nranks) *
			       sizeof(uint64_t));
			s->pending = true;
			return 0;
		}
		break;
	case VALL_MSG_COMMIT_BCAST:
		commit(g, s, msg->value, msg->gc, out);
		break;
	default:
		s->phase = PHASE_ALL_COMMIT;
		do_return(g, s, out);
		break;
	}
	forward(g, s, msg->desc, out);
	return 0;
}

/* (3): ACK, ACCEPT_ACK, REJECT_ACK. */
static void recv_ack(struct vall_group *g, struct vall_slot *s, uint32_t from,
		     const struct vall_msg *msg, const struct vall_sink *out)
{
	bool ballot = s->kind == VALL_MSG_BALLOT_BCAST;

	if (msg->bnum != s->bnum || !s->down ||
	    !era_bit_test(s->awaited, from)) {
		g->stats.ignored++;
		return;
	}
	if (ballot != (msg->type != VALL_MSG_ACK)) {
		g->stats.errors++;	/* a vote for a commit, or the reverse */
		return;
	}
	era_bit_clear(s->awaited, from);
	if (msg->type == VALL_MSG_REJECT_ACK)
		s->all_accept = false;
	else if (msg->type == VALL_MSG_ACCEPT_ACK) {
		g->op->combine(g->op, s->votes, msg->value);
		if (msg->gc < s->gc)
			s->gc = msg->gc;
	}
	if (era_bitmap_next(s->awaited, g->nranks, 0) == g->nranks)
		reply(g, s, out);
}

/* (5): NAK or FORCED_NAK from a child; the root acts on it. */
static void recv_nak(struct vall_group *g, struct vall_slot *s, uint32_t from,
		     const struct vall_msg *msg, const struct vall_sink *out)
{
	if (msg->bnum != s->bnum || !s->down ||
	    !era_bit_test(s->children, from)) {
		g->stats.ignored++;
		return;
	}
	if (msg->type == VALL_MSG_FORCED_NAK &&
	    s->kind != VALL_MSG_BALLOT_BCAST) {
		g->stats.errors++;
		return;
	}
	s->down = false;
	if (s->parent != VALL_NO_RANK) {
		send_msg(g, out, s->parent, msg->type, s, s->bnum, NULL,
			 msg->value, msg->gc);
		return;
	}
	if (msg->type == VALL_MSG_FORCED_NAK) {
		/* Someone committed a ballot of a previous root: adopt it. */
		g->stats.forced++;
		commit(g, s, msg->value, msg->gc, out);
		root_broadcast(g, s, VALL_MSG_COMMIT_BCAST, out);
		return;
	}
	if (s->kind == VALL_MSG_BALLOT_BCAST)
		g->stats.ballots_rejected++;
	root_wait(g, s, out);
}

/* ---- entry points ------------------------------------------------------- */

int vall_start(struct vall_group *g, uint64_t id, const void *value,
	       const struct vall_sink *out)
{
	struct vall_slot *s;
	int err;

	if (g->self_dead)
		return -ESTALE;
	if (id != g->last_started + 1)
		return -EINVAL;
	if (id > g->window && g->returned < id - g->window)
		return -EBUSY;
	s = slot_get(g, id, &err);
	if (!s) {
		g->stats.errors++;
		return err;
	}
	s->started = true;
	memcpy(s->contribution, value, g->op->value_size);
	g->last_started = id;
	if (g->is_root) {
		root_act(g, s, out);		/* a pending ballot is stale */
	} else if (s->pending) {
		s->pending = false;
		forward(g, s, s->desc, out);	/* (2), deferred to the call */
	}
	return 0;
}

static bool msg_valid(const struct vall_group *g, uint32_t from,
		      const struct vall_msg *msg)
{
	return from < g->nranks && from != g->self && msg->id && msg->bnum &&
	       msg->type && msg->type < VALL_MSG_NTYPES &&
	       msg->group == g->cfg.group &&
	       (!vall_msg_has_value(msg->type) || msg->value) &&
	       (!vall_msg_is_bcast(msg->type) || msg->desc);
}

int vall_on_message(struct vall_group *g, uint32_t from,
		    const struct vall_msg *msg, const struct vall_sink *out)
{
	struct vall_slot *s;
	int err = 0;

	if (!msg_valid(g, from, msg)) {
		g->stats.errors++;
		return -EINVAL;
	}
	if (is_dead(g, from)) {
		g->stats.from_dead++;	/* as if lost with its sender */
		return 0;
	}
	if (stale_id(g, msg->id)) {
		/*
		 * Every live member returned it; a new root may still redo
		 * its last broadcast: let it complete.
		 */
		g->stats.stale++;
		if (msg->type == VALL_MSG_COMMIT_BCAST ||
		    msg->type == VALL_MSG_ALL_COMMIT_BCAST) {
			struct vall_slot tmp = { .id = msg->id };

			send_msg(g, out, from, VALL_MSG_ACK, &tmp, msg->bnum,
				 NULL, NULL, 0);
		}
		return 0;
	}
	s = slot_get(g, msg->id, &err);
	if (!s) {
		g->stats.errors++;
		return err;
	}
	g->stats.received[msg->type]++;
	switch (msg->type) {
	case VALL_MSG_BALLOT_BCAST:
	case VALL_MSG_COMMIT_BCAST:
	case VALL_MSG_ALL_COMMIT_BCAST:
		err = recv_bcast(g, s, from, msg, out);
		if (err)
			g->stats.errors++;
		break;
	case VALL_MSG_ACCEPT_ACK:
	case VALL_MSG_REJECT_ACK:
	case VALL_MSG_ACK:
		recv_ack(g, s, from, msg, out);
		break;
	default:
		recv_nak(g, s, from, msg, out);
		break;
	}
	return err;
}

int vall_on_failure(struct vall_group *g, uint32_t rank,
		    const struct vall_sink *out)
{
	bool was_root = g->is_root;

	if (rank >= g->nranks || rank == g->self)
		return -EINVAL;
	if (is_dead(g, rank))
		return 0;
	era_bit_set(g->dead, rank);
	g->ndead++;
	g->is_root = true;
	for (uint32_t r = 0; r < g->self; r++)
		if (!is_dead(g, r))
			g->is_root = false;

	for (uint32_t i = 0; i < g->nslots; i++) {
		struct vall_slot *s = &g->slots[i];

		if (s->id && s->down && era_bit_test(s->children, rank))
			child_failed(g, s, out);		/* (4) */
	}
	for (uint32_t i = 0; i < g->nslots; i++) {
		struct vall_slot *s = &g->slots[i];

		if (!s->id || !g->is_root)
			continue;
		if (!was_root || s->root == ROOT_WAITING)
			root_act(g, s, out);	/* new root, or news for it */
	}
	return 0;
}

/* ---- queries ------------------------------------------------------------ */

int vall_result(const struct vall_group *g, uint64_t id, void *value)
{
	const struct vall_slot *s;

	if (!id)
		return -ENOENT;
	s = slot_find(g, id);
	if (!s || !s->started)
		return -ENOENT;
	if (!s->returned)
		return 0;
	if (value)
		memcpy(value, s->committed, g->op->value_size);
	return 1;
}

uint64_t vall_returned_upto(const struct vall_group *g)
{
	return g->returned;
}

bool vall_is_dead(const struct vall_group *g, uint32_t rank)
{
	return rank < g->nranks && is_dead(g, rank);
}

void vall_get_stats(const struct vall_group *g, struct vall_stats *stats)
{
	*stats = g->stats;
}
