// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ERA rules (ERA paper, section 2). Functions are named after the part of
 * the algorithm they implement:
 *
 *	era_start()			Procedure Agreement
 *	decision()			Procedure Decision
 *	recv_up(), recv_down(),
 *	recv_result_request()		Part 2, rules on a message
 *	spontaneous()			Part 3, the spontaneous rule (DC)
 *	discovered_dead()		Part 4, rule on a discovered death
 *	collect()			Section 4, garbage collection
 *	view_for()			Section 4, rebalancing
 *
 * Part 1's variables, per agreement a, live in struct era_slot; S_p, the
 * array of dead processes, is the group's @dead bitmap, shared by every
 * agreement of the group.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "carve.h"
#include "engine.h"
#include "tree.h"

#define ERA_MAX_RANKS	(1u << 24)
#define ERA_MAX_WINDOW	1024
#define ERA_NO_GC	UINT64_MAX

enum era_status {			/* Status_p^a */
	ERA_NOT_CONTRIBUTED,
	ERA_GATHERING,
	ERA_BROADCASTING,
};

/**
 * struct era_slot - Part 1's variables for one agreement
 * @id: agreement id, 0 if the slot is free
 * @status: Status_p^a
 * @decided: Result_p^a != bottom
 * @upstream: the rank our latest UP went to: the one whose DOWN we await
 * @gc: the lowest "returned up to" id among the contributions in @value;
 *	once decided, the agreed one
 * @view: the tree of this agreement, from start to decision
 * @value: Current_p^a; once decided, Result_p^a
 * @contributed: Contributed_p^a
 * @requested: RequestedResult_p^a
 */
struct era_slot {
	uint64_t id;
	uint8_t status;
	bool decided;
	uint32_t upstream;
	uint64_t gc;
	struct era_view *view;
	void *value;
	uint64_t *contributed;
	uint64_t *requested;
};

struct era_group {
	struct era_config cfg;
	const struct era_op *op;
	struct era_alloc alloc;
	size_t alloc_size;
	uint32_t nranks;
	uint32_t self;
	uint32_t window;
	uint32_t quirks;
	struct era_tree_shape shape;

	uint64_t *dead;			/* S_p */
	uint64_t *pending;		/* deaths inferred mid-rule */
	bool has_pending;

	struct era_slot *slots;		/* agreement id % nslots */
	uint32_t nslots;
	uint64_t last_started;
	uint64_t returned;		/* every id <= it is decided here */
	uint64_t collected;		/* every id <= it is collected */

	struct era_view *views;
	uint32_t nviews;
	struct era_view *latest;	/* the newest tree drawn */
	uint64_t *excluded_ring;	/* id % window -> its tree's excluded */

	uint32_t *children;		/* scratch: era_view_children() */
	uint32_t *stack;
	uint32_t *build_scratch;
	uint64_t *tmp_map;
	uint64_t *slot_mark;		/* ERA_QUIRK_PARENT_TRIGGER */
	struct era_stats stats;
};

/* ---- allocation: everything in one block, carved twice (carve.h) ---- */

static void layout(struct era_group *g, struct era_carver *c)
{
	size_t words = era_bitmap_words(g->nranks);
	size_t ids = (size_t)g->nranks * sizeof(uint32_t);
	size_t map = words * sizeof(uint64_t);

	g->dead = era_carve(c, map);
	g->pending = era_carve(c, map);
	g->tmp_map = era_carve(c, map);
	g->slot_mark = era_carve(c, era_bitmap_words(g->nslots) * sizeof(uint64_t));
	g->slots = era_carve(c, g->nslots * sizeof(*g->slots));
	for (uint32_t i = 0; i < g->nslots; i++) {
		void *value = era_carve(c, g->op->value_size);
		uint64_t *contributed = era_carve(c, map);
		uint64_t *requested = era_carve(c, map);

		if (g->slots) {
			g->slots[i].value = value;
			g->slots[i].contributed = contributed;
			g->slots[i].requested = requested;
		}
	}
	g->views = era_carve(c, g->nviews * sizeof(*g->views));
	for (uint32_t i = 0; i < g->nviews; i++) {
		struct era_view v = {
			.order = era_carve(c, ids),
			.pos_of = era_carve(c, ids),
			.parent = era_carve(c, ids),
			.first_child = era_carve(c, ids),
			.next_sibling = era_carve(c, ids),
			.excluded = era_carve(c, map),
		};

		if (g->views)
			g->views[i] = v;
	}
	g->excluded_ring = g->cfg.rebalance ?
			   era_carve(c, g->window * map) : NULL;
	g->children = era_carve(c, ids);
	g->stack = era_carve(c, ids);
	g->build_scratch = era_carve(c,
			ERA_TREE_SCRATCH_WORDS(g->nranks) * sizeof(uint32_t));
	if (g->cfg.host_of) {
		uint32_t *host_of = era_carve(c, ids);

		if (host_of) {
			memcpy(host_of, g->cfg.host_of, ids);
			g->shape.host_of = host_of;
		}
	}
}

static bool flat_topo(enum era_topology t)
{
	return t == ERA_TOPO_BINARY || t == ERA_TOPO_STAR ||
	       t == ERA_TOPO_STRING;
}

static bool config_valid(const struct era_config *cfg)
{
	const struct era_op *op = cfg->op;
	uint32_t both = ERA_QUIRK_DOWN_FROM_PARENT | ERA_QUIRK_DOWN_FROM_ANYONE;

	if (!cfg->nranks || cfg->nranks > ERA_MAX_RANKS ||
	    cfg->self >= cfg->nranks || cfg->window > ERA_MAX_WINDOW)
		return false;
	if (!op || !op->value_size || !op->identity || !op->combine ||
	    !op->wire_size || !op->encode || !op->decode)
		return false;
	if (cfg->rebalance && !op->is_dead)
		return false;
	if ((cfg->quirks & both) == both)
		return false;
	if (flat_topo(cfg->topo))
		return true;
	if (cfg->topo != ERA_TOPO_HIER || !cfg->host_of ||
	    !flat_topo(cfg->inter) || !flat_topo(cfg->intra))
		return false;
	for (uint32_t r = 0; r < cfg->nranks; r++)
		if (cfg->host_of[r] >= cfg->nranks)
			return false;
	return true;
}

int era_group_create(const struct era_config *cfg, struct era_group **out)
{
	static const struct era_alloc std_alloc = {
		.alloc = era_default_alloc,
		.free = era_default_free,
	};
	struct era_group proto = { 0 }, *g;
	struct era_carver c = { 0 };

	*out = NULL;
	if (!config_valid(cfg))
		return -EINVAL;
	proto.cfg = *cfg;
	proto.op = cfg->op;
	proto.alloc = cfg->alloc ? *cfg->alloc : std_alloc;
	proto.nranks = cfg->nranks;
	proto.self = cfg->self;
	proto.window = cfg->window ? cfg->window : 1;
	proto.quirks = cfg->quirks;
	/*
	 * Bounded pools. Live ids lie in (collected, collected + 3 window]
	 * (see Documentation/era.rst, "Memory"); a tree is in use by at most
	 * window started, undecided agreements plus the latest one drawn.
	 */
	proto.nslots = 3 * proto.window + 1;
	proto.nviews = cfg->rebalance ? proto.window + 2 : 1;
	proto.shape = (struct era_tree_shape){
		.topo = cfg->topo,
		.inter = cfg->inter,
		.intra = cfg->intra,
		.nranks = cfg->nranks,
	};

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

	g->latest = &g->views[0];
	era_view_build(g->latest, &g->shape, NULL, g->build_scratch);
	g->latest->refs = 1;
	*out = g;
	return 0;
}

void era_group_destroy(struct era_group *g)
{
	if (g)
		g->alloc.free(g->alloc.ctx, g, g->alloc_size);
}

/* ---- small helpers ---------------------------------------------------- */

static bool is_dead(const struct era_group *g, uint32_t rank)
{
	return era_bit_test(g->dead, rank);
}

static struct era_slot *slot_find(struct era_group *g, uint64_t id)
{
	struct era_slot *s = &g->slots[id % g->nslots];

	return s->id == id ? s : NULL;
}

/* The slot of @id, created if need be; NULL with *err set if impossible. */
static struct era_slot *slot_get(struct era_group *g, uint64_t id, int *err)
{
	struct era_slot *s;

	*err = 0;
	if (id <= g->collected)
		return NULL;		/* stale: nobody can need it */
	if (id - g->collected > g->nslots - 1) {
		*err = -ERANGE;		/* beyond the window: a broken peer */
		return NULL;
	}
	s = &g->slots[id % g->nslots];
	if (s->id == id)
		return s;
	if (s->id) {
		*err = -ERANGE;		/* cannot happen within the window */
		return NULL;
	}
	s->id = id;
	s->status = ERA_NOT_CONTRIBUTED;
	s->decided = false;
	s->upstream = ERA_NO_RANK;
	s->gc = ERA_NO_GC;
	s->view = NULL;
	g->op->identity(g->op, s->value);
	era_bitmap_zero(s->contributed, g->nranks);
	era_bitmap_zero(s->requested, g->nranks);
	return s;
}

static uint32_t self_pos(const struct era_slot *s, uint32_t self)
{
	return s->view->pos_of[self];
}

/* Parent(S_p, p) as a rank, ERA_NO_RANK if p is root. */
static uint32_t parent_rank(struct era_group *g, struct era_slot *s)
{
	uint32_t pos = era_view_parent(s->view, g->dead, self_pos(s, g->self));

	return pos == ERA_NO_POS ? ERA_NO_RANK : s->view->order[pos];
}

/* Children(S_p, @rank) into g->children, as ranks; return how many. */
static uint32_t children_of(struct era_group *g, struct era_slot *s,
			    uint32_t rank)
{
	uint32_t n = era_view_children(s->view, g->dead, s->view->pos_of[rank],
				       g->children, g->stack);

	for (uint32_t i = 0; i < n; i++)
		g->children[i] = s->view->order[g->children[i]];
	return n;
}

static void send_msg(struct era_group *g, const struct era_sink *out,
		     uint32_t to, uint8_t type, const struct era_slot *s)
{
	struct era_msg msg = {
		.type = type,
		.group = g->cfg.group,
		.id = s->id,
		.gc = type == ERA_MSG_RESULT_REQUEST ? 0 : s->gc,
		.value = type == ERA_MSG_RESULT_REQUEST ? NULL : s->value,
	};

	g->stats.sent[type]++;
	out->send(out->ctx, to, &msg);
}

/* A death learned while a rule runs is applied once the rule is over. */
static void infer_dead(struct era_group *g, uint32_t rank)
{
	if (rank == g->self || is_dead(g, rank) ||
	    era_bit_test(g->pending, rank))
		return;
	era_bit_set(g->pending, rank);
	g->has_pending = true;
	g->stats.inferred_dead++;
}

/* Fold what S_p knows into Current before it leaves (ULFM failed set). */
static void refresh_contribution(struct era_group *g, struct era_slot *s)
{
	if (g->op->add_dead)
		g->op->add_dead(g->op, s->value, g->dead, g->nranks);
}

/* ---- trees for each agreement (section 4: rebalancing) ---------------- */

static void view_put(struct era_view *v)
{
	if (v)
		v->refs--;
}

/*
 * The tree of agreement @id. Without rebalancing: always the first one.
 * With it: the one over the ranks not excluded by the decision of
 * id - window (a function of agreed data only, hence the same at every
 * member); consecutive agreements share a tree while no rank is removed.
 */
static struct era_view *view_for(struct era_group *g, uint64_t id)
{
	const uint64_t *excluded = g->tmp_map;
	struct era_view *v = NULL;

	if (!g->cfg.rebalance) {
		g->latest->refs++;
		return g->latest;
	}
	if (id > g->window)
		excluded = g->excluded_ring +
			   (id % g->window) * era_bitmap_words(g->nranks);
	else
		era_bitmap_zero(g->tmp_map, g->nranks);
	if (era_bitmap_equal(excluded, g->latest->excluded, g->nranks)) {
		g->latest->refs++;
		return g->latest;
	}
	for (uint32_t i = 0; i < g->nviews && !v; i++)
		if (!g->views[i].refs)
			v = &g->views[i];
	if (!v) {
		g->stats.errors++;	/* cannot happen: see nviews */
		g->latest->refs++;
		return g->latest;
	}
	era_view_build(v, &g->shape, excluded, g->build_scratch);
	view_put(g->latest);
	g->latest = v;
	v->refs = 2;			/* latest + this agreement */
	return v;
}

/* Remember, for agreement id + window, who the decision of @s excludes. */
static void note_excluded(struct era_group *g, const struct era_slot *s)
{
	size_t words = era_bitmap_words(g->nranks);
	uint64_t *ring = g->excluded_ring + (s->id % g->window) * words;

	memcpy(ring, s->view->excluded, words * sizeof(*ring));
	for (uint32_t r = 0; r < g->nranks; r++)
		if (g->op->is_dead(g->op, s->value, r))
			era_bit_set(ring, r);
}

/* ---- section 4: garbage collection ----------------------------------- */

/*
 * Every member that contributed to a decision had returned every agreement
 * up to the decision's gc; the paper shows every live member contributed.
 * Nobody can ask for those results any more: drop them.
 */
static void collect(struct era_group *g, uint64_t upto)
{
	if (upto == ERA_NO_GC || upto <= g->collected)
		return;
	if (upto > g->returned) {
		g->stats.errors++;	/* impossible: we contributed */
		return;
	}
	for (uint64_t id = g->collected + 1; id <= upto; id++) {
		struct era_slot *s = slot_find(g, id);

		if (s && s->decided) {
			s->id = 0;
			g->stats.collected++;
		} else if (s) {
			g->stats.errors++;
		}
	}
	g->collected = upto;
}

/* ---- Procedure Decision ----------------------------------------------- */

static void decision(struct era_group *g, struct era_slot *s,
		     const void *value, uint64_t gc, const struct era_sink *out)
{
	uint32_t n, r;

	if (s->decided)
		return;			/* irrevocable */
	if (value != s->value)
		memcpy(s->value, value, g->op->value_size);
	s->gc = gc;
	s->decided = true;
	out->decided(out->ctx, s->id, s->value);

	/* DOWN to Children(S_p, p) u RequestedResult_p^a, each once. */
	n = children_of(g, s, g->self);
	for (uint32_t i = 0; i < n; i++) {
		era_bit_clear(s->requested, g->children[i]);
		send_msg(g, out, g->children[i], ERA_MSG_DOWN, s);
	}
	era_bitmap_for_each(r, s->requested, g->nranks)
		if (!is_dead(g, r))
			send_msg(g, out, r, ERA_MSG_DOWN, s);
	era_bitmap_zero(s->requested, g->nranks);

	if (g->op->is_dead)
		for (r = 0; r < g->nranks; r++)
			if (g->op->is_dead(g->op, s->value, r))
				infer_dead(g, r);
	if (g->cfg.rebalance)
		note_excluded(g, s);
	view_put(s->view);
	s->view = NULL;

	while ((s = slot_find(g, g->returned + 1)) && s->decided)
		g->returned++;
	collect(g, gc);
}

/* ---- Part 3: the spontaneous rule -------------------------------------- */

/* DC: Children(S_p, p) u {p} is a subset of Contributed_p^a. */
static bool deciding_condition(struct era_group *g, struct era_slot *s)
{
	uint32_t n;

	if (!era_bit_test(s->contributed, g->self))
		return false;
	n = children_of(g, s, g->self);
	for (uint32_t i = 0; i < n; i++)
		if (!era_bit_test(s->contributed, g->children[i]))
			return false;
	return true;
}

static void spontaneous(struct era_group *g, struct era_slot *s,
			const struct era_sink *out)
{
	uint32_t parent;

	if (s->decided || s->status != ERA_GATHERING ||
	    !deciding_condition(g, s))
		return;
	refresh_contribution(g, s);
	s->status = ERA_BROADCASTING;
	parent = parent_rank(g, s);
	if (parent == ERA_NO_RANK) {
		decision(g, s, s->value, s->gc, out);
	} else {
		s->upstream = parent;
		send_msg(g, out, parent, ERA_MSG_UP, s);
	}
}

/* ---- Part 4: a process is discovered dead ------------------------------ */

static bool started_undecided(const struct era_slot *s)
{
	return s->id && s->status != ERA_NOT_CONTRIBUTED && !s->decided;
}

/* ERA_QUIRK_PARENT_TRIGGER: mark the slots where Parent(S', p) = q. */
static void parents_before(struct era_group *g, uint32_t q)
{
	era_bitmap_zero(g->slot_mark, g->nslots);
	for (uint32_t i = 0; i < g->nslots; i++) {
		struct era_slot *s = &g->slots[i];

		if (started_undecided(s) && parent_rank(g, s) == q)
			era_bit_set(g->slot_mark, i);
	}
}

static void discovered_dead(struct era_group *g, uint32_t q,
			    const struct era_sink *out)
{
	if (is_dead(g, q) || q == g->self)
		return;

	/*
	 * With S' (q still alive): a root that loses child q asks q's
	 * children, now its own, whether a previous root decided already.
	 */
	if (g->quirks & ERA_QUIRK_PARENT_TRIGGER)
		parents_before(g, q);
	for (uint32_t i = 0; i < g->nslots; i++) {
		struct era_slot *s = &g->slots[i];
		uint32_t qpos, me, n;

		if (!started_undecided(s) || s->status != ERA_GATHERING)
			continue;
		qpos = s->view->pos_of[q];
		me = self_pos(s, g->self);
		if (qpos == ERA_NO_POS ||
		    era_view_parent(s->view, g->dead, me) != ERA_NO_POS ||
		    era_view_parent(s->view, g->dead, qpos) != me)
			continue;
		n = children_of(g, s, q);
		for (uint32_t k = 0; k < n; k++)
			send_msg(g, out, g->children[k],
				 ERA_MSG_RESULT_REQUEST, s);
	}

	era_bit_set(g->dead, q);		/* S_p[q] <- dead */

	/*
	 * The process whose DOWN we await died: become root and ask our
	 * children, or resend our contribution to the new parent.
	 */
	for (uint32_t i = 0; i < g->nslots; i++) {
		struct era_slot *s = &g->slots[i];
		uint32_t parent, n;

		if (!started_undecided(s) || s->status != ERA_BROADCASTING ||
		    !(g->quirks & ERA_QUIRK_PARENT_TRIGGER ?
		      era_bit_test(g->slot_mark, i) : s->upstream == q))
			continue;
		parent = parent_rank(g, s);
		if (parent == ERA_NO_RANK) {
			era_bitmap_zero(s->contributed, g->nranks);
			era_bit_set(s->contributed, g->self);
			s->status = ERA_GATHERING;
			s->upstream = ERA_NO_RANK;
			n = children_of(g, s, g->self);
			for (uint32_t k = 0; k < n; k++)
				send_msg(g, out, g->children[k],
				     ERA_MSG_RESULT_REQUEST, s);
		} else {
			refresh_contribution(g, s);
			s->upstream = parent;
			send_msg(g, out, parent, ERA_MSG_UP, s);
		}
	}

	/* Children sets changed: DC may hold now. */
	for (uint32_t i = 0; i < g->nslots; i++)
		if (started_undecided(&g->slots[i]))
			spontaneous(g, &g->slots[i], out);
}

static void apply_pending(struct era_group *g, const struct era_sink *out)
{
	while (g->has_pending) {
		uint32_t r = era_bitmap_next(g->pending, g->nranks, 0);

		if (r == g->nranks) {
			g->has_pending = false;
			break;
		}
		era_bit_clear(g->pending, r);
		discovered_dead(g, r, out);
	}
}

/* ---- Part 2: rules on a message ---------------------------------------- */

static void recv_up(struct era_group *g, struct era_slot *s, uint32_t from,
		    const struct era_msg *msg, const struct era_sink *out)
{
	if (s->decided) {
		send_msg(g, out, from, ERA_MSG_DOWN, s);
		return;
	}
	if (s->status != ERA_BROADCASTING) {
		g->op->combine(g->op, s->value, msg->value);
		if (msg->gc < s->gc)
			s->gc = msg->gc;
		era_bit_set(s->contributed, from);
	}
	/*
	 * The sender waits for the decision from us, even if we do not count
	 * it among our children yet (our detector may lag behind its own).
	 */
	if (!(g->quirks & ERA_QUIRK_UP_NOT_REQUESTER))
		era_bit_set(s->requested, from);
	spontaneous(g, s, out);
}

static bool down_awaited(struct era_group *g, struct era_slot *s,
			 uint32_t from)
{
	if (g->quirks & ERA_QUIRK_DOWN_FROM_ANYONE)
		return true;
	if (g->quirks & ERA_QUIRK_DOWN_FROM_PARENT)
		return from == parent_rank(g, s);
	/*
	 * A non-root takes the decision only from the process its latest UP
	 * went to: after answering a new root, a stale DOWN from a dead
	 * parent could carry a decision the new root never saw. A root takes
	 * it from whoever answers its RESULT_REQUEST.
	 */
	return from == s->upstream || parent_rank(g, s) == ERA_NO_RANK;
}

static void recv_down(struct era_group *g, struct era_slot *s, uint32_t from,
		      const struct era_msg *msg, const struct era_sink *out)
{
	if (!s || s->decided || s->status == ERA_NOT_CONTRIBUTED ||
	    !down_awaited(g, s, from)) {
		g->stats.down_ignored++;
		return;
	}
	decision(g, s, msg->value, msg->gc, out);
}

/*
 * Only a root asks, and only the processes it counts as its children: in
 * its view, every position before it is dead (the paper's "forall r < q:
 * S_p[r] <- dead"), and so is every ancestor of ours below it - else
 * Parent(S_q, p) would not be q. Learning the second half matters: we
 * must never turn back to an old parent that may hold a stale decision.
 */
static void infer_from_request(struct era_group *g, struct era_slot *s,
			       uint32_t root)
{
	struct era_view *v = s->view;

	for (uint32_t pos = v->first_alive; pos < root; pos++)
		infer_dead(g, v->order[pos]);
	if (g->quirks & ERA_QUIRK_ELDERS_ONLY)
		return;
	for (uint32_t a = v->parent[self_pos(s, g->self)];
	     a != ERA_NO_POS && a > root; a = v->parent[a])
		infer_dead(g, v->order[a]);
}

static void recv_result_request(struct era_group *g, struct era_slot *s,
				uint32_t from, const struct era_sink *out)
{
	if (s->view && s->view->pos_of[from] != ERA_NO_POS)
		infer_from_request(g, s, s->view->pos_of[from]);

	if (s->decided) {
		send_msg(g, out, from, ERA_MSG_DOWN, s);
	} else if (s->status == ERA_BROADCASTING) {
		/* The requester may be our new parent: contribute again. */
		refresh_contribution(g, s);
		s->upstream = from;
		send_msg(g, out, from, ERA_MSG_UP, s);
	} else {
		era_bit_set(s->requested, from);
	}
}

/* ---- entry points ------------------------------------------------------ */

int era_start(struct era_group *g, uint64_t id, const void *value,
	      const struct era_sink *out)
{
	struct era_slot *s;
	struct era_view *v;
	int err;

	if (id != g->last_started + 1)
		return -EINVAL;
	if (id > g->window && g->returned < id - g->window)
		return -EBUSY;
	s = slot_get(g, id, &err);
	if (!s) {
		g->stats.errors++;
		return err ? err : -EINVAL;
	}
	v = view_for(g, id);
	if (v->pos_of[g->self] == ERA_NO_POS) {
		view_put(v);
		return -ESTALE;
	}
	s->view = v;
	s->status = ERA_GATHERING;			/* Agreement(v, a) */
	era_bit_set(s->contributed, g->self);
	g->op->combine(g->op, s->value, value);
	if (g->returned < s->gc)
		s->gc = g->returned;
	g->last_started = id;
	spontaneous(g, s, out);
	apply_pending(g, out);
	return 0;
}

int era_on_message(struct era_group *g, uint32_t from,
		   const struct era_msg *msg, const struct era_sink *out)
{
	struct era_slot *s;
	int err;

	if (from >= g->nranks || from == g->self || !msg->id ||
	    msg->type < ERA_MSG_UP || msg->type > ERA_MSG_RESULT_REQUEST ||
	    (msg->type != ERA_MSG_RESULT_REQUEST && !msg->value) ||
	    msg->group != g->cfg.group) {
		g->stats.errors++;
		return -EINVAL;
	}
	if (is_dead(g, from) && !(g->quirks & ERA_QUIRK_HEAR_THE_DEAD)) {
		g->stats.from_dead++;	/* as if lost with its sender */
		return 0;
	}
	if (msg->type == ERA_MSG_DOWN) {
		/* A decision never creates an agreement we did not join. */
		s = msg->id > g->collected ? slot_find(g, msg->id) : NULL;
		err = 0;
	} else {
		s = slot_get(g, msg->id, &err);
	}
	if (err) {
		g->stats.errors++;
		return err;
	}
	if (!s && msg->id <= g->collected) {
		g->stats.stale++;
		return 0;
	}
	g->stats.received[msg->type]++;
	switch (msg->type) {
	case ERA_MSG_UP:
		recv_up(g, s, from, msg, out);
		break;
	case ERA_MSG_DOWN:
		recv_down(g, s, from, msg, out);
		break;
	case ERA_MSG_RESULT_REQUEST:
		recv_result_request(g, s, from, out);
		break;
	}
	apply_pending(g, out);
	return 0;
}

int era_on_failure(struct era_group *g, uint32_t rank,
		   const struct era_sink *out)
{
	if (rank >= g->nranks || rank == g->self)
		return -EINVAL;
	if (era_bit_test(g->pending, rank))
		era_bit_clear(g->pending, rank);
	discovered_dead(g, rank, out);
	apply_pending(g, out);
	return 0;
}

/* ---- queries ----------------------------------------------------------- */

int era_result(const struct era_group *g, uint64_t id, void *value)
{
	const struct era_slot *s;

	if (!id || id <= g->collected)
		return -ENOENT;
	s = &g->slots[id % g->nslots];
	if (s->id != id)
		return -ENOENT;
	if (!s->decided)
		return 0;
	if (value)
		memcpy(value, s->value, g->op->value_size);
	return 1;
}

uint64_t era_returned_upto(const struct era_group *g)
{
	return g->returned;
}

uint64_t era_collected_upto(const struct era_group *g)
{
	return g->collected;
}

bool era_is_dead(const struct era_group *g, uint32_t rank)
{
	return rank < g->nranks && is_dead(g, rank);
}

uint32_t era_held(const struct era_group *g)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < g->nslots; i++)
		n += g->slots[i].id && g->slots[i].decided;
	return n;
}

void era_get_stats(const struct era_group *g, struct era_stats *stats)
{
	*stats = g->stats;
}
