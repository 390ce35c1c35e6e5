// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The radix-tree membership engine: see engine.h, and
 * Documentation/radix-membership.rst for the mapping to the paper.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tree.h"

/*
 * A round: one view change (or a new root's collection) travelling down
 * the tree and its acknowledgments coming back up. At most one per node;
 * @valid with @done keeps its identity to answer duplicates.
 */
struct round {
	bool valid, done, origin;
	uint8_t type;
	uint64_t term;
	uint64_t seq;
	const struct radix_view *rv;	/* the view whose tree routes it */
	struct radix_set failed, joined;
	uint64_t floor;			/* every live member holds it */
	bool has_chain;			/* node->catchup goes with it */
	struct radix_set await;		/* children yet to acknowledge */
	struct radix_set ack_to;	/* who sent it here */
	uint64_t min_seq;		/* ROOT_DEAD: lowest seq below */
};

struct radix_node {
	struct radix_config cfg;
	struct radix_view view;		/* the installed view */
	struct radix_set view_joined;	/* the joiners of that change */
	uint64_t floor;			/* every live member holds it */
	struct radix_chain hist;	/* views after floor, before view */
	uint64_t view_term;		/* the term that issued it */
	bool in_group;
	uint64_t term;			/* highest term seen; low 32 bits:
					 * its root */
	uint32_t term_inc;		/* that root's incarnation, 0: not
					 * known (a restarted id is another
					 * process) */
	struct radix_set dead;		/* id -> highest dead incarnation */
	struct radix_set reported;	/* failures told to report_to */
	uint32_t report_to;
	/* joining */
	bool joining;
	uint32_t join_target;
	uint32_t join_scan;
	/* root */
	struct radix_set pending_joins;
	struct radix_set welcome;	/* JOIN_DET_ACK when stable */
	bool took_over;			/* next change: ROOT_AND_NODE_FAILURE */
	struct round r;
	/* allocated when first needed (large for big groups) */
	struct radix_view collect, next;
	struct radix_view promised;	/* the last new root's view */
	struct radix_chain max;		/* ROOT_DEAD: the newest views below */
	struct radix_set max_joined;	/* the joiners of its last */
	struct radix_chain catchup;	/* views a new root's change carries */
	struct radix_chain merged;	/* scratch for chain_merge() */
	struct radix_set kids;		/* scratch: children of a node */
	struct radix_stats stats;
	int err;
};

/* ---- small helpers ----------------------------------------------------- */

static uint32_t term_root(uint64_t term)
{
	return (uint32_t)term;
}

static bool is_dead(const struct radix_node *n, uint32_t id, uint32_t inc)
{
	uint32_t d = radix_set_get(&n->dead, id);

	return d && inc <= d;
}

static int lazy_view(struct radix_node *n, struct radix_view *v)
{
	return v->bits ? 0 : radix_view_init(v, n->cfg.cap);
}

static void proto_error(struct radix_node *n, const char *why)
{
	n->stats.errors++;
	n->stats.last_error = why;
}

static void nomem(struct radix_node *n, int err)
{
	if (err && !n->err)
		n->err = err;
}

static void send(struct radix_node *n, const struct radix_sink *out,
		 uint32_t to, struct radix_msg *m)
{
	if (to == n->cfg.self || to >= n->cfg.cap) {
		proto_error(n, "sends to itself or out of range");
		return;
	}
	m->group = n->cfg.group;
	m->from = (struct radix_member){ n->cfg.self, n->cfg.inc };
	n->stats.sent[m->type]++;
	out->send(out->ctx, to, m);
}

static void send_member(struct radix_node *n, const struct radix_sink *out,
			uint32_t to, uint8_t type, uint32_t id, uint32_t inc)
{
	struct radix_msg m = { .type = type, .who = { id, inc } };

	send(n, out, to, &m);
}

/* The incarnation of @id as this node knows it: its view's, else 1. */
static uint32_t known_inc(const struct radix_node *n, uint32_t id)
{
	uint32_t inc = radix_view_inc(&n->view, id);

	return inc ? inc : 1;
}

/*
 * Who becomes root when the root dies: the lowest member not known dead,
 * the paper's linear scan, skipping the joiners of the latest change
 * (they may never have heard of it) - except itself, welcomed. Members
 * one change apart may then name different ones: both take over, the
 * higher term wins (step_down()).
 */
static uint32_t candidate(const struct radix_node *n)
{
	for (uint32_t id = radix_view_next(&n->view, 0); id != RADIX_NONE;
	     id = radix_view_next(&n->view, id + 1)) {
		if (is_dead(n, id, radix_view_inc(&n->view, id)))
			continue;
		if (radix_set_get(&n->view_joined, id) &&
		    !(id == n->cfg.self && n->in_group))
			continue;
		return id;
	}
	return RADIX_NONE;
}

static bool root_alive(const struct radix_node *n)
{
	uint32_t root = term_root(n->term);

	return !is_dead(n, root, n->term_inc ? n->term_inc :
			known_inc(n, root));
}

static uint32_t current_root(const struct radix_node *n)
{
	return root_alive(n) ? term_root(n->term) : candidate(n);
}

static bool is_member(const struct radix_node *n)
{
	return radix_view_inc(&n->view, n->cfg.self) == n->cfg.inc;
}

bool radix_is_root(const struct radix_node *n)
{
	return term_root(n->term) == n->cfg.self &&
	       n->term_inc == n->cfg.inc && is_member(n);
}

/* The incarnation of @term's root, if @v is a view that root issued. */
static uint32_t root_inc_of(uint64_t term, const struct radix_view *v)
{
	return v && v->root == term_root(term) ?
	       radix_view_inc(v, v->root) : 0;
}

static void deliver(struct radix_node *n, const struct radix_sink *out)
{
	if (n->in_group)
		out->view(out->ctx, &n->view);
}

/*
 * Install @v (issued in @term) if newer than the installed view. The same
 * seq from a newer term replaces a view never delivered (a joiner's view
 * of a round its root did not finish); a delivered one must not differ.
 */
static void install(struct radix_node *n, const struct radix_view *v,
		    const struct radix_set *joined, uint64_t term,
		    const struct radix_sink *out)
{
	static const struct radix_set none;
	/* A joiner's views of an older term were never delivered: void. */
	bool void_own = !n->in_group && term > n->view_term;

	if (v->seq < n->view.seq && !void_own)
		return;
	if (v->seq == n->view.seq && !void_own) {
		if (radix_view_equal(v, &n->view)) {
			if (term > n->view_term)
				n->view_term = term;
			return;
		}
		if (n->in_group || term <= n->view_term) {
			proto_error(n, "a delivered view replaced by another");
			return;
		}
	}
	/* Kept for members that missed it, until known stable; a joiner
	 * jumping views keeps none (its history must be consecutive). */
	if (v->seq != n->view.seq + 1)
		radix_chain_clear(&n->hist);
	else if (n->view.count && n->view.seq > n->floor)
		nomem(n, radix_chain_push(&n->hist, &n->view));
	nomem(n, radix_view_copy(&n->view, v));
	nomem(n, radix_set_copy(&n->view_joined, joined ? joined : &none));
	n->view_term = term;
	/*
	 * A joiner in a view that did not add it: the change that did was
	 * stable before this one was issued. It is in, even if the root's
	 * welcome was lost with the root.
	 */
	if (!n->in_group && joined && !radix_set_get(joined, n->cfg.self) &&
	    radix_view_inc(v, n->cfg.self) == n->cfg.inc) {
		n->joining = false;
		n->in_group = true;
	}
	deliver(n, out);
}

/* Every live member holds view @floor or a later one. */
static void set_floor(struct radix_node *n, uint64_t floor)
{
	if (floor <= n->floor)
		return;
	n->floor = floor;
	radix_chain_drop_upto(&n->hist, floor);
}

/* @dst = the views this node holds after @seq, the installed one last. */
static void chain_above(struct radix_node *n, uint64_t seq,
			struct radix_chain *dst)
{
	nomem(n, radix_chain_copy_above(dst, &n->hist, seq));
	if (n->view.seq > seq)
		nomem(n, radix_chain_push(dst, &n->view));
}

/*
 * @dst gets the views of @src it lacks, as long as the result stays
 * consecutive (members hold the same view for a seq: only the newest
 * term's collection could see two, and it reports that).
 */
static void chain_merge(struct radix_node *n, struct radix_chain *dst,
			const struct radix_chain *src)
{
	uint64_t lo, hi, seq;
	struct radix_chain *tmp = &n->merged;

	if (!src || !src->n)
		return;
	if (!dst->n) {
		nomem(n, radix_chain_copy_above(dst, src, 0));
		return;
	}
	lo = dst->v[0].seq < src->v[0].seq ? dst->v[0].seq : src->v[0].seq;
	hi = dst->v[dst->n - 1].seq > src->v[src->n - 1].seq ?
	     dst->v[dst->n - 1].seq : src->v[src->n - 1].seq;
	radix_chain_clear(tmp);
	for (seq = lo; seq <= hi; seq++) {
		const struct radix_view *v = NULL;

		if (seq >= dst->v[0].seq && seq <= dst->v[dst->n - 1].seq)
			v = &dst->v[seq - dst->v[0].seq];
		else if (seq >= src->v[0].seq &&
			 seq <= src->v[src->n - 1].seq)
			v = &src->v[seq - src->v[0].seq];
		if (!v)
			break;
		nomem(n, radix_chain_push(tmp, v));
	}
	/* Keep the newest part if a gap split them. */
	if (seq <= hi)
		tmp = src->v[src->n - 1].seq > dst->v[dst->n - 1].seq ?
		      (struct radix_chain *)src : dst;
	if (tmp != dst)
		nomem(n, radix_chain_copy_above(dst, tmp, 0));
}

static uint64_t chain_top(const struct radix_chain *c, uint64_t dflt)
{
	return c->n ? c->v[c->n - 1].seq : dflt;
}

/* ---- rounds ------------------------------------------------------------ */

static void round_reset(struct radix_node *n)
{
	struct round *r = &n->r;

	r->valid = r->done = r->origin = r->has_chain = false;
	radix_set_clear(&r->failed);
	radix_set_clear(&r->joined);
	radix_set_clear(&r->await);
	radix_set_clear(&r->ack_to);
}

static void round_msg(const struct radix_node *n, struct radix_msg *m)
{
	const struct round *r = &n->r;

	*m = (struct radix_msg){
		.type = r->type, .term = r->term, .seq = r->seq,
		.floor = r->floor, .view = r->rv, .failed = &r->failed,
		.joined = &r->joined,
		.chain = r->has_chain ? &n->catchup : NULL,
	};
}

static void push_kid(void *ctx, uint32_t child)
{
	struct radix_node *n = ctx;

	nomem(n, radix_set_put(&n->kids, child, 1));
}

/*
 * Send the round to the children of @id in the round's tree and await
 * them; a child known dead is skipped and its own children adopted.
 */
static void await_children(struct radix_node *n, const struct radix_sink *out,
			   uint32_t id)
{
	struct round *r = &n->r;
	struct radix_member *kids;
	uint32_t count;
	struct radix_msg m;

	radix_set_clear(&n->kids);
	radix_children(r->rv, n->cfg.fanout, id, push_kid, n);
	count = n->kids.n;
	if (!count)
		return;
	/* Recursion below reuses n->kids: work on a copy. */
	kids = malloc(count * sizeof(*kids));
	if (!kids) {
		nomem(n, -ENOMEM);
		return;
	}
	memcpy(kids, n->kids.v, count * sizeof(*kids));
	for (uint32_t i = 0; i < count; i++) {
		uint32_t c = kids[i].id, inc = radix_view_inc(r->rv, c);

		if (c == n->cfg.self || radix_set_get(&r->await, c))
			continue;
		if (is_dead(n, c, inc)) {
			n->stats.adopted++;
			await_children(n, out, c);
			continue;
		}
		nomem(n, radix_set_put(&r->await, c, inc));
		round_msg(n, &m);
		send(n, out, c, &m);
	}
	free(kids);
}

static void ack(struct radix_node *n, const struct radix_sink *out,
		uint32_t to)
{
	struct round *r = &n->r;
	struct radix_msg m = {
		.type = (uint8_t)radix_msg_ack_type(r->type),
		.term = r->term, .seq = r->seq, .min_seq = r->min_seq,
		.who = { term_root(r->term), n->term_inc },
	};

	if (r->type == RADIX_MSG_ROOT_DEAD && n->max.n) {
		m.chain = &n->max;
		m.joined = &n->max_joined;
	}
	send(n, out, to, &m);
}

static void issue(struct radix_node *n, const struct radix_sink *out);
static void collected(struct radix_node *n, const struct radix_sink *out);

static void welcome_joiners(struct radix_node *n, const struct radix_sink *out)
{
	struct radix_msg m = {
		.type = RADIX_MSG_JOIN_DET_ACK, .term = n->term,
		.view = &n->view, .joined = &n->view_joined,
	};

	uint32_t kept = 0;

	/* Those not in the view yet wait for the change that adds them. */
	for (uint32_t i = 0; i < n->welcome.n; i++) {
		const struct radix_member j = n->welcome.v[i];

		if (is_dead(n, j.id, j.inc))
			continue;
		if (radix_view_inc(&n->view, j.id) == j.inc)
			send(n, out, j.id, &m);
		else
			n->welcome.v[kept++] = j;
	}
	n->welcome.n = kept;
}

/* Every awaited child acknowledged: acknowledge, or, at the root, stable. */
static void check_done(struct radix_node *n, const struct radix_sink *out)
{
	struct round *r = &n->r;
	struct radix_msg m;

	if (!r->valid || r->done || r->await.n)
		return;
	r->done = true;
	if (!r->origin) {
		for (uint32_t i = 0; i < r->ack_to.n; i++)
			if (!is_dead(n, r->ack_to.v[i].id, r->ack_to.v[i].inc))
				ack(n, out, r->ack_to.v[i].id);
		return;
	}
	round_msg(n, &m);
	if (out->round)
		out->round(out->ctx, &m, true);
	if (r->type == RADIX_MSG_ROOT_DEAD) {
		collected(n, out);
		return;
	}
	set_floor(n, r->seq);
	welcome_joiners(n, out);
	issue(n, out);
}

/* The root starts a round over @rv. */
static void originate(struct radix_node *n, const struct radix_sink *out,
		      uint8_t type, const struct radix_view *rv)
{
	struct round *r = &n->r;
	struct radix_msg m;

	r->valid = true;
	r->done = false;
	r->origin = true;
	r->type = type;
	r->term = n->term;
	r->seq = rv->seq;
	r->rv = rv;
	r->floor = n->floor;
	radix_set_clear(&r->await);
	radix_set_clear(&r->ack_to);
	round_msg(n, &m);
	if (out->round)
		out->round(out->ctx, &m, false);
	await_children(n, out, n->cfg.self);
	check_done(n, out);
}

/*
 * The root's next change: the members known dead leave, the pending
 * joiners enter. Nothing to change: nothing sent (the view is stable).
 */
static void issue(struct radix_node *n, const struct radix_sink *out)
{
	struct round *r = &n->r;
	struct radix_view *next = &n->next;
	uint8_t type;

	if (!radix_is_root(n) || (r->valid && !r->done))
		return;
	if (lazy_view(n, next)) {
		nomem(n, -ENOMEM);
		return;
	}
	nomem(n, radix_view_copy(next, &n->view));
	round_reset(n);
	for (uint32_t id = radix_view_next(&n->view, 0); id != RADIX_NONE;
	     id = radix_view_next(&n->view, id + 1)) {
		uint32_t inc = radix_view_inc(&n->view, id);

		if (is_dead(n, id, inc)) {
			radix_view_del(next, id);
			nomem(n, radix_set_put(&r->failed, id, inc));
		}
	}
	for (uint32_t i = 0; i < n->pending_joins.n; i++) {
		const struct radix_member *j = &n->pending_joins.v[i];
		uint32_t cur = radix_view_inc(next, j->id);

		if (is_dead(n, j->id, j->inc) || cur >= j->inc)
			continue;
		if (cur) {	/* its old incarnation is dead */
			radix_view_del(next, j->id);
			nomem(n, radix_set_put(&r->failed, j->id, cur));
		}
		nomem(n, radix_view_add(next, j->id, j->inc));
		nomem(n, radix_set_put(&r->joined, j->id, j->inc));
	}
	radix_set_clear(&n->pending_joins);
	if (!n->took_over && !r->failed.n && !r->joined.n) {
		welcome_joiners(n, out);	/* stable already */
		return;
	}
	type = n->took_over ? RADIX_MSG_ROOT_AND_NODE_FAILURE :
	       r->joined.n ? RADIX_MSG_NODE_JOIN : RADIX_MSG_FAILED_NODE;
	if (n->took_over) {
		/* Everyone holds min_seq: members behind get the rest. */
		set_floor(n, r->min_seq);
		nomem(n, radix_chain_copy_above(&n->catchup, &n->max,
						r->min_seq));
		if (n->catchup.n && n->catchup.v[0].seq != r->min_seq + 1)
			proto_error(n, "a view no live member holds");
		r->has_chain = n->catchup.n > 0;
		n->stats.catchups += r->has_chain;
	} else {
		set_floor(n, n->view.seq);
	}
	n->took_over = false;
	next->seq = n->view.seq + 1;
	next->root = n->cfg.self;
	install(n, next, &r->joined, n->term, out);
	originate(n, out, type, &n->view);
}

/* Add the live members of the installed view the collection missed. */
static bool extend_collect(struct radix_node *n)
{
	bool grown = false;

	for (uint32_t id = radix_view_next(&n->view, 0); id != RADIX_NONE;
	     id = radix_view_next(&n->view, id + 1)) {
		uint32_t inc = radix_view_inc(&n->view, id);

		if (radix_view_inc(&n->collect, id) >= inc ||
		    is_dead(n, id, inc))
			continue;
		nomem(n, radix_view_add(&n->collect, id, inc));
		grown = true;
	}
	if (grown)
		n->collect.seq = n->view.seq;
	return grown;
}

/* A new root holds every member's latest view: adopt it, then change. */
static void collected(struct radix_node *n, const struct radix_sink *out)
{
	for (uint32_t i = 0; i < n->max.n; i++) {
		if (n->max.v[i].seq <= n->view.seq)
			continue;
		if (n->max.v[i].seq != n->view.seq + 1)
			proto_error(n, "a view no live member holds");
		install(n, &n->max.v[i], i + 1 == n->max.n ?
			&n->max_joined : NULL, n->term, out);
	}
	/*
	 * Members of the newer views it learned that it did not ask: they
	 * may hold newer views still (a dead root's, handed on). Ask again,
	 * over them too, until nobody new shows up.
	 */
	if (extend_collect(n)) {
		struct round *r = &n->r;
		uint64_t min_seq = r->min_seq;

		n->stats.recollections++;
		round_reset(n);
		for (uint32_t id = radix_view_next(&n->collect, 0);
		     id != RADIX_NONE;
		     id = radix_view_next(&n->collect, id + 1)) {
			uint32_t inc = radix_view_inc(&n->collect, id);

			if (is_dead(n, id, inc))
				nomem(n, radix_set_put(&r->failed, id, inc));
		}
		r->min_seq = min_seq;
		originate(n, out, RADIX_MSG_ROOT_DEAD, &n->collect);
		return;
	}
	/* issue() keeps r.min_seq, the lowest seq below, for its catch-up. */
	issue(n, out);
}

static void take_over(struct radix_node *n, const struct radix_sink *out)
{
	struct round *r = &n->r;

	if (lazy_view(n, &n->collect)) {
		nomem(n, -ENOMEM);
		return;
	}
	n->stats.takeovers++;
	n->term = ((n->term >> 32) + 1) << 32 | n->cfg.self;
	n->term_inc = n->cfg.inc;
	round_reset(n);
	radix_set_clear(&n->reported);
	nomem(n, radix_view_copy(&n->collect, &n->view));
	n->collect.root = n->cfg.self;
	/*
	 * Also ask the members of the last new root's view: that root may
	 * have installed views holding them that this node never got.
	 */
	if (n->promised.bits)
		for (uint32_t id = radix_view_next(&n->promised, 0);
		     id != RADIX_NONE;
		     id = radix_view_next(&n->promised, id + 1)) {
			uint32_t inc = radix_view_inc(&n->promised, id);

			if (inc > radix_view_inc(&n->collect, id))
				nomem(n, radix_view_add(&n->collect, id, inc));
		}
	for (uint32_t id = radix_view_next(&n->collect, 0); id != RADIX_NONE;
	     id = radix_view_next(&n->collect, id + 1)) {
		uint32_t inc = radix_view_inc(&n->collect, id);

		if (is_dead(n, id, inc))
			nomem(n, radix_set_put(&r->failed, id, inc));
	}
	r->min_seq = n->view.seq;
	/* The views it holds since the floor, to merge the others' in. */
	chain_above(n, n->floor, &n->max);
	nomem(n, radix_set_copy(&n->max_joined, &n->view_joined));
	n->took_over = true;
	originate(n, out, RADIX_MSG_ROOT_DEAD, &n->collect);
}

/* ---- failures ------------------------------------------------------------ */

static void join_next(struct radix_node *n, const struct radix_sink *out);

/*
 * Only a member in the group takes over: a joiner's views may be a dead
 * root's that nobody delivered. A member the others name but that missed
 * its welcome asks to join again and gets a view proving it in.
 */
static void maybe_take_over(struct radix_node *n, const struct radix_sink *out)
{
	if (!n->in_group || radix_is_root(n) || root_alive(n))
		return;
	if (candidate(n) == n->cfg.self)
		take_over(n, out);
}

/* Failures reported but not acknowledged go to whoever is root now. */
static void refresh_reports(struct radix_node *n, const struct radix_sink *out)
{
	uint32_t root = current_root(n);

	if (root == n->cfg.self || radix_is_root(n)) {
		radix_set_clear(&n->reported);
		return;
	}
	if (root == n->report_to || root == RADIX_NONE)
		return;
	n->report_to = root;
	for (uint32_t i = 0; i < n->reported.n; i++) {
		const struct radix_member *f = &n->reported.v[i];

		send_member(n, out, root, f->id == term_root(n->term) ?
			    RADIX_MSG_ROOT_FAILURE : RADIX_MSG_NODE_FAILURE,
			    f->id, f->inc);
	}
}

/* (@id, @inc) is dead: whatever waited on it moves on. */
static void learn_dead(struct radix_node *n, const struct radix_sink *out,
		       uint32_t id, uint32_t inc)
{
	struct round *r = &n->r;
	uint32_t awaited;

	if (is_dead(n, id, inc) || id == n->cfg.self)
		return;
	nomem(n, radix_set_put(&n->dead, id, inc));
	awaited = radix_set_get(&r->await, id);
	if (r->valid && !r->done && awaited && awaited <= inc) {
		radix_set_del(&r->await, id);
		n->stats.adopted++;
		await_children(n, out, id);
		check_done(n, out);
	}
	if (n->joining && n->join_target == id)
		join_next(n, out);
}

/* After deaths are learned: a new root, reports redirected, a change. */
static void after_deaths(struct radix_node *n, const struct radix_sink *out)
{
	maybe_take_over(n, out);
	if (n->in_group)
		refresh_reports(n, out);
	if (radix_is_root(n))
		issue(n, out);
}

struct neighbour {
	uint32_t id;
	bool found;
};

static void is_kid(void *ctx, uint32_t child)
{
	struct neighbour *nb = ctx;

	if (child == nb->id)
		nb->found = true;
}

int radix_on_failure(struct radix_node *n, uint32_t id, uint32_t inc,
		     const struct radix_sink *out)
{
	bool member = radix_view_inc(&n->view, id) == inc;
	bool was_root = member && id == term_root(n->term) &&
			!is_dead(n, id, inc);
	struct neighbour nb = { id, false };

	if (id >= n->cfg.cap || !inc)
		return -EINVAL;
	n->err = 0;
	learn_dead(n, out, id, inc);
	/*
	 * The detectors are the dead node's tree neighbours (who talk to it,
	 * paper 2.2): they tell the root, or the next root if it was the root.
	 */
	if (n->in_group && member && !radix_is_root(n)) {
		radix_children(&n->view, n->cfg.fanout, n->cfg.self, is_kid,
			       &nb);
		if (nb.found ||
		    radix_parent(&n->view, n->cfg.fanout, n->cfg.self) == id) {
			uint32_t root = current_root(n);

			if (root != n->cfg.self && root != RADIX_NONE) {
				nomem(n, radix_set_put(&n->reported, id, inc));
				n->report_to = root;
				send_member(n, out, root, was_root ?
					    RADIX_MSG_ROOT_FAILURE :
					    RADIX_MSG_NODE_FAILURE, id, inc);
			}
		}
	}
	after_deaths(n, out);
	return n->err;
}

/* ---- joining ----------------------------------------------------------- */

static void send_join(struct radix_node *n, const struct radix_sink *out)
{
	send_member(n, out, n->join_target, n->cfg.inc == 1 ?
		    RADIX_MSG_NEW_NODE : RADIX_MSG_NODE_ALIVE, n->cfg.self,
		    n->cfg.inc);
}

/* The paper's linear scan: ask the next id, round and round. */
static void join_next(struct radix_node *n, const struct radix_sink *out)
{
	uint32_t id = n->join_scan;

	if (id == n->cfg.self)
		id = (id + 1) % n->cfg.cap;
	n->join_target = id;
	n->join_scan = (id + 1) % n->cfg.cap;
	if (id != n->cfg.self)
		send_join(n, out);
}

int radix_on_unreachable(struct radix_node *n, uint32_t id,
			 const struct radix_sink *out)
{
	n->err = 0;
	if (n->joining && id == n->join_target)
		join_next(n, out);
	return n->err;
}

static void on_join_request(struct radix_node *n, const struct radix_msg *m,
			    const struct radix_sink *out)
{
	const struct radix_member *j = &m->from;
	uint32_t cur;

	if (!radix_is_root(n) && n->in_group &&
	    radix_view_inc(&n->view, j->id) == j->inc &&
	    !radix_set_get(&n->view_joined, j->id)) {
		/*
		 * It is in a view that did not add it: the change that did
		 * was stable. Its welcome was lost with a root; this view
		 * proves it in (and it may have to become the root).
		 */
		struct radix_msg m = {
			.type = RADIX_MSG_JOIN_DET_ACK, .term = n->term,
			.view = &n->view, .joined = &n->view_joined,
			.chain = &n->hist,
		};

		n->stats.proofs++;
		send(n, out, j->id, &m);
		return;
	}
	if (!radix_is_root(n)) {
		uint32_t root = n->in_group ? current_root(n) : RADIX_NONE;

		n->stats.redirects++;
		send_member(n, out, j->id, RADIX_MSG_JOIN_REDIRECT, root,
			    root == RADIX_NONE ? 0 : known_inc(n, root));
		return;
	}
	cur = radix_view_inc(&n->view, j->id);
	if (cur > j->inc) {
		n->stats.stale++;
		return;
	}
	nomem(n, radix_set_put(&n->welcome, j->id, j->inc));
	if (cur == j->inc) {
		if (!n->r.valid || n->r.done)
			welcome_joiners(n, out);
		return;
	}
	if (cur)	/* a restarted process: the old one is dead */
		learn_dead(n, out, j->id, cur);
	nomem(n, radix_set_put(&n->pending_joins, j->id, j->inc));
	issue(n, out);
}

static void on_welcome(struct radix_node *n, const struct radix_msg *m,
		       const struct radix_sink *out)
{
	if (!n->joining)
		return;		/* a second welcome (it asked twice) */
	if (m->term < n->term && root_alive(n)) {
		/*
		 * It promised a newer root, alive, which may not know that
		 * view: that root's own changes will let it in - and if it
		 * dies first, the scan starts again.
		 */
		n->stats.stale++;
		n->join_target = term_root(n->term);
		return;
	}
	if (radix_view_inc(m->view, n->cfg.self) != n->cfg.inc) {
		proto_error(n, "welcomed into a view without it");
		return;
	}
	if (m->term > n->term) {
		n->term = m->term;
		n->term_inc = root_inc_of(m->term, m->view);
	}
	/* Views some members may still need from it, one day as root. */
	for (uint32_t i = 0; m->chain && i < m->chain->n; i++)
		if (m->chain->v[i].seq > n->view.seq)
			install(n, &m->chain->v[i], NULL, m->term, out);
	install(n, m->view, m->joined, m->term, out);
	n->joining = false;
	if (!n->in_group) {	/* install() may have let it in already */
		n->in_group = true;
		deliver(n, out);
	}
}

/* ---- round messages ---------------------------------------------------- */

static void step_down(struct radix_node *n, const struct radix_sink *out);

/*
 * A round of an older term is refused with its acknowledgment carrying
 * the newer term: its sender then knows of it (and, if that term's root
 * is dead, takes over above it) instead of waiting for ever.
 */
static void nack(struct radix_node *n, const struct radix_sink *out,
		 uint32_t to, uint8_t round_type, uint64_t term,
		 uint32_t term_inc)
{
	/* The seq no round has: it never passes for a real acknowledgment. */
	struct radix_msg m = {
		.type = (uint8_t)radix_msg_ack_type(round_type),
		.term = term, .seq = RADIX_SEQ_REFUSED,
		.min_seq = RADIX_SEQ_REFUSED,
		.who = { term_root(term), term_inc },
	};

	n->stats.refusals++;
	send(n, out, to, &m);
}

/* Rounds of one term come in this order: collections, then changes. */
static uint64_t round_key(uint8_t type, uint64_t seq)
{
	return (type == RADIX_MSG_ROOT_DEAD ? 0 : 1ull << 63) | seq;
}

/* A higher term exists: its root is the root; any older round is over. */
static void adopt_term(struct radix_node *n, uint64_t term,
		       uint32_t term_inc, const struct radix_sink *out)
{
	bool was_root = radix_is_root(n);
	struct round *r = &n->r;

	/* Who still waits on this node for the old round learns why not. */
	if (r->valid && !r->origin && !r->done)
		for (uint32_t i = 0; i < r->ack_to.n; i++)
			if (!is_dead(n, r->ack_to.v[i].id,
				     r->ack_to.v[i].inc))
				nack(n, out, r->ack_to.v[i].id, r->type,
				     term, term_inc);
	n->term = term;
	n->term_inc = term_inc;
	round_reset(n);
	n->took_over = false;
	if (was_root)
		step_down(n, out);
}

/*
 * Two members took over at once (one a change behind the other saw a
 * joiner as the lowest member): the higher term wins, the other steps
 * down as soon as it hears of it, sending its joiners to the winner. Its
 * collection, if it ended, reached every member that could hold a view
 * the winner's collection then saw: safety rests on the terms.
 */
static void step_down(struct radix_node *n, const struct radix_sink *out)
{
	uint32_t root = term_root(n->term);

	n->stats.stepped_down++;
	for (uint32_t i = 0; i < n->welcome.n; i++)
		send_member(n, out, n->welcome.v[i].id,
			    RADIX_MSG_JOIN_REDIRECT, root, known_inc(n, root));
	radix_set_clear(&n->welcome);
	radix_set_clear(&n->pending_joins);
}

static void on_round(struct radix_node *n, const struct radix_msg *m,
		     const struct radix_sink *out)
{
	struct round *r = &n->r;

	if (radix_view_inc(m->view, n->cfg.self) < n->cfg.inc) {
		n->stats.stale++;	/* meant for this id's dead process */
		return;
	}
	if (m->term < n->term) {
		n->stats.stale++;
		nack(n, out, m->from.id, m->type, n->term, n->term_inc);
		return;
	}
	if (m->term > n->term)
		adopt_term(n, m->term, root_inc_of(m->term, m->view), out);
	for (uint32_t i = 0; i < m->failed->n; i++)
		learn_dead(n, out, m->failed->v[i].id, m->failed->v[i].inc);
	if (r->valid && r->term == m->term &&
	    round_key(m->type, m->seq) < round_key(r->type, r->seq)) {
		/* An older round of this term, late by another path. */
		n->stats.stale++;
		return;
	}
	if (r->valid && r->term == m->term && r->type == m->type &&
	    r->seq == m->seq) {
		n->stats.duplicates++;
		if (r->origin)
			return;
		if (r->done)
			ack(n, out, m->from.id);
		else
			nomem(n, radix_set_put(&r->ack_to, m->from.id,
					       m->from.inc));
		return;
	}
	if (r->valid && !r->done)
		proto_error(n, "a round before the last one ended");
	if (radix_view_inc(m->view, n->cfg.self) != n->cfg.inc) {
		proto_error(n, "a round over a view without it");
		return;
	}
	round_reset(n);
	r->valid = true;
	r->type = m->type;
	r->term = m->term;
	r->seq = m->seq;
	nomem(n, radix_set_copy(&r->failed, m->failed));
	nomem(n, radix_set_copy(&r->joined, m->joined));
	nomem(n, radix_set_put(&r->ack_to, m->from.id, m->from.inc));
	r->floor = m->floor;
	set_floor(n, m->floor);
	if (m->type == RADIX_MSG_ROOT_DEAD) {
		if (lazy_view(n, &n->collect)) {
			nomem(n, -ENOMEM);
			return;
		}
		nomem(n, radix_view_copy(&n->collect, m->view));
		if (!lazy_view(n, &n->promised))
			nomem(n, radix_view_copy(&n->promised, m->view));
		r->rv = &n->collect;
		/*
		 * Every view since the root's floor: members behind it need
		 * them, and the root may lack some. A joiner not yet in
		 * needs none and offers none (its views may be a dead
		 * root's that nobody delivered).
		 */
		r->min_seq = n->in_group ? n->view.seq : m->seq;
		if (n->in_group)
			chain_above(n, m->floor, &n->max);
		else
			radix_chain_clear(&n->max);
		nomem(n, radix_set_copy(&n->max_joined, &n->view_joined));
	} else {
		if (m->chain && m->chain->n) {
			nomem(n, radix_chain_copy_above(&n->catchup, m->chain,
							0));
			r->has_chain = true;
			for (uint32_t i = 0; i < m->chain->n; i++) {
				const struct radix_view *v = &m->chain->v[i];

				if (v->seq > n->view.seq + 1 && n->in_group)
					proto_error(n, "a gap in a catch-up");
				install(n, v, NULL, m->term, out);
			}
		}
		if (m->seq < n->view.seq && n->in_group)
			proto_error(n, "behind this member");
		else if (m->seq > n->view.seq + 1 && n->in_group)
			proto_error(n, "it missed a view");
		install(n, m->view, m->joined, m->term, out);
		r->rv = &n->view;
	}
	await_children(n, out, n->cfg.self);
	check_done(n, out);
}

static void on_ack(struct radix_node *n, const struct radix_msg *m,
		   const struct radix_sink *out)
{
	struct round *r = &n->r;
	uint32_t awaited = radix_set_get(&r->await, m->from.id);

	if (!r->valid || r->done || m->term != r->term || m->seq != r->seq ||
	    m->type != radix_msg_ack_type(r->type) ||
	    awaited != m->from.inc) {
		n->stats.stale++;
		return;
	}
	radix_set_del(&r->await, m->from.id);
	if (m->type == RADIX_MSG_ROOT_DEAD_ACK) {
		const struct radix_chain *c = m->chain;
		uint64_t top = chain_top(&n->max, 0);

		if (m->min_seq < r->min_seq)
			r->min_seq = m->min_seq;
		if (c && c->n && c->v[c->n - 1].seq == top && n->max.n &&
		    !radix_view_equal(&c->v[c->n - 1],
				      &n->max.v[n->max.n - 1]))
			proto_error(n, "two views, one seq");
		chain_merge(n, &n->max, c);
		if (chain_top(&n->max, 0) > top)
			nomem(n, radix_set_copy(&n->max_joined, m->joined));
	}
	check_done(n, out);
}

int radix_on_message(struct radix_node *n, const struct radix_msg *m,
		     const struct radix_sink *out)
{
	if (m->group != n->cfg.group || m->type < 1 ||
	    m->type > RADIX_MSG_TYPE_MAX || m->from.id >= n->cfg.cap)
		return -EINVAL;
	n->err = 0;
	if (is_dead(n, m->from.id, m->from.inc)) {
		n->stats.from_dead++;
		return 0;
	}
	n->stats.received[m->type]++;
	switch (m->type) {
	case RADIX_MSG_NODE_FAILURE:
	case RADIX_MSG_ROOT_FAILURE:
		/* A detector's word is the detector's: perfect, trusted. */
		learn_dead(n, out, m->who.id, m->who.inc);
		send_member(n, out, m->from.id, RADIX_MSG_FAILURE_DET_ACK,
			    m->who.id, m->who.inc);
		after_deaths(n, out);
		break;
	case RADIX_MSG_FAILURE_DET_ACK:
		if (m->from.id == n->report_to)
			radix_set_del(&n->reported, m->who.id);
		break;
	case RADIX_MSG_FAILED_NODE:
	case RADIX_MSG_NODE_JOIN:
	case RADIX_MSG_ROOT_AND_NODE_FAILURE:
	case RADIX_MSG_ROOT_DEAD:
		on_round(n, m, out);
		after_deaths(n, out);
		break;
	case RADIX_MSG_FAILURE_ACK:
	case RADIX_MSG_NODE_JOIN_ACK:
	case RADIX_MSG_ROOT_DEAD_ACK:
		if (m->term > n->term) {	/* a term this node missed */
			bool was_root = radix_is_root(n);

			adopt_term(n, m->term, m->who.inc, out);
			/*
			 * A root refused for a term whose root is dead goes on
			 * above it, whoever the others name: the members of
			 * its newest view may not name anyone else.
			 */
			if (was_root && !root_alive(n))
				take_over(n, out);
			after_deaths(n, out);
			break;
		}
		on_ack(n, m, out);
		break;
	case RADIX_MSG_NEW_NODE:
	case RADIX_MSG_NODE_ALIVE:
		if (m->who.id != m->from.id || m->who.inc != m->from.inc ||
		    (m->type == RADIX_MSG_NEW_NODE) != (m->who.inc == 1)) {
			proto_error(n, "a join on behalf of another");
			return -EINVAL;
		}
		on_join_request(n, m, out);
		break;
	case RADIX_MSG_JOIN_DET_ACK:
		on_welcome(n, m, out);
		after_deaths(n, out);
		break;
	case RADIX_MSG_JOIN_REDIRECT:
		if (!n->joining || m->from.id != n->join_target)
			break;
		if (m->who.id == RADIX_NONE || m->who.id == n->cfg.self ||
		    is_dead(n, m->who.id, m->who.inc)) {
			join_next(n, out);
		} else {
			n->join_target = m->who.id;
			send_join(n, out);
		}
		break;
	}
	return n->err;
}

/* ---- life cycle -------------------------------------------------------- */

int radix_create(const struct radix_config *cfg, struct radix_node **node)
{
	struct radix_node *n;
	int err;

	*node = NULL;
	if (!radix_fanout_ok(cfg->fanout) || !cfg->cap ||
	    cfg->cap > RADIX_MAX_CAP || cfg->self >= cfg->cap || !cfg->inc ||
	    !cfg->initial || cfg->initial > cfg->cap ||
	    (!cfg->join && (cfg->self >= cfg->initial || cfg->inc != 1)))
		return -EINVAL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->cfg = *cfg;
	err = radix_view_init(&n->view, cfg->cap);
	if (err) {
		free(n);
		return err;
	}
	n->report_to = RADIX_NONE;
	n->join_target = RADIX_NONE;
	n->term_inc = 1;		/* term 0: the first process of id 0 */
	if (!cfg->join) {
		radix_view_add_run(&n->view, 0, cfg->initial);
		n->view.root = 0;
	}
	*node = n;
	return 0;
}

void radix_destroy(struct radix_node *n)
{
	if (!n)
		return;
	radix_view_free(&n->view);
	radix_view_free(&n->collect);
	radix_view_free(&n->next);
	radix_view_free(&n->promised);
	radix_chain_free(&n->hist);
	radix_chain_free(&n->max);
	radix_chain_free(&n->catchup);
	radix_chain_free(&n->merged);
	radix_set_free(&n->view_joined);
	radix_set_free(&n->dead);
	radix_set_free(&n->reported);
	radix_set_free(&n->pending_joins);
	radix_set_free(&n->welcome);
	radix_set_free(&n->max_joined);
	radix_set_free(&n->kids);
	radix_set_free(&n->r.failed);
	radix_set_free(&n->r.joined);
	radix_set_free(&n->r.await);
	radix_set_free(&n->r.ack_to);
	free(n);
}

int radix_start(struct radix_node *n, const struct radix_sink *out)
{
	n->err = 0;
	if (n->cfg.join) {
		n->joining = true;
		n->join_scan = 0;
		join_next(n, out);
	} else {
		n->in_group = true;
		deliver(n, out);
	}
	return n->err;
}

const struct radix_view *radix_current_view(const struct radix_node *n)
{
	return &n->view;
}

bool radix_in_group(const struct radix_node *n)
{
	return n->in_group;
}

uint64_t radix_term(const struct radix_node *n)
{
	return n->term;
}

void radix_get_stats(const struct radix_node *n, struct radix_stats *st)
{
	*st = n->stats;
}
