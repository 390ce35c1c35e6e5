// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Agreements and shrink: ftnl_group_agree(), ftnl_group_iagree(), the
 * requests, ftnl_group_shrink() and the view queries.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "era/bitmap.h"
#include "group/core.h"
#include "internal.h"

/* ---- completion (from the engine's decided callback) -------------------- */

static int decision_result(const struct grp_view *v, const void *value)
{
	if (era_ulfm_failed(&v->jop.ulfm, value, v->self))
		return -ESTALE;
	if (era_ulfm_unacked_failure(&v->jop.ulfm, value))
		return -FTNL_EPROCFAILED;
	return 0;
}

static void unlink_pending(struct ftnl_group *g, struct ftnl_group_req *req)
{
	for (struct ftnl_group_req **p = &g->pending; *p; p = &(*p)->next) {
		if (*p == req) {
			*p = req->next;
			req->next = NULL;
			return;
		}
	}
}

static void req_release(struct ftnl_group_req *req)
{
	free(req->value);
	free(req);
}

void grp_req_complete(struct grp_view *v, uint64_t id, const void *value)
{
	struct ftnl_group *g = v->group;
	struct ftnl_group_req *req;

	for (req = g->pending; req; req = req->next)
		if (req->view == v && req->id == id)
			break;
	if (!req)
		return;
	unlink_pending(g, req);
	if (req->orphan) {
		req_release(req);
		return;
	}
	req->view = NULL;
	req->done = true;
	req->flag = era_ulfm_flag(value);
	req->result = decision_result(v, value);
	if (req->value)
		memcpy(req->value, value, v->jop.op.value_size);
}

void grp_cancel_requests(struct ftnl_group *g)
{
	while (g->pending) {
		struct ftnl_group_req *req = g->pending;

		g->pending = req->next;
		if (req->orphan) {
			req_release(req);
			continue;
		}
		req->next = NULL;
		req->view = NULL;
		req->group = NULL;
		req->done = true;
		req->result = -ECANCELED;
	}
}

/* ---- starting ----------------------------------------------------------- */

/* Agreements of the current view started and not decided yet. */
static bool view_busy(const struct grp_view *v)
{
	return grp_view_returned(v) < v->started;
}

/*
 * Contribute @flag and the acknowledged failures to the next agreement of
 * the current view; with @joins, the pending joiners too (a grow).
 * @keep_value: the request keeps the decided value.
 */
static int start_agreement(struct ftnl_group *g, uint64_t flag, bool joins,
			   bool keep_value, struct ftnl_group_req **out)
{
	struct grp_view *v = g->view;
	struct ftnl_group_req *req;
	int err;

	if (g->fatal)
		return g->fatal;
	if (g->stale)
		return -ESTALE;
	req = calloc(1, sizeof(*req));
	if (!req)
		return -ENOMEM;
	if (keep_value) {
		req->value = malloc(v->jop.op.value_size);
		if (!req->value) {
			free(req);
			return -ENOMEM;
		}
	}
	/* Every engine must know every death before we contribute. */
	grp_settle(g);
	memset(v->contribution, 0, v->jop.op.value_size);
	era_ulfm_value_init(&v->jop.ulfm, v->contribution, flag);
	for (uint32_t r = 0; r < v->size; r++) {
		if (v->incs[r] <= g->acked_inc[v->members[r]]) {
			era_ulfm_set_failed(&v->jop.ulfm, v->contribution, r);
			era_ulfm_set_acked(&v->jop.ulfm, v->contribution, r);
		}
	}
	for (uint32_t r = 0; joins && r < g->spec.size; r++)
		if (g->join_inc[r] && !grp_is_dead_inc(g, r, g->join_inc[r]))
			grp_join_add(&v->jop, v->contribution, r,
				     g->join_inc[r]);
	req->group = g;
	req->view = v;
	req->id = v->started + 1;
	/* Linked first: the decision may come within era_start(). */
	req->next = g->pending;
	g->pending = req;
	err = grp_view_start(v, req->id, v->contribution);
	if (err) {
		unlink_pending(g, req);
		req_release(req);
		if (err == -ESTALE)
			g->stale = true;
		return err;
	}
	v->started = req->id;
	grp_settle(g);
	*out = req;
	return 0;
}

static void lock(struct ftnl_group *g)
{
	pthread_mutex_lock(&g->lock);
}

static void unlock(struct ftnl_group *g)
{
	pthread_mutex_unlock(&g->lock);
}

/* Wait for @req's decision; the caller holds the lock. */
static int wait_req(struct ftnl_group *g, struct ftnl_group_req *req)
{
	while (!req->done) {
		int err = grp_wait_locked(g);

		if (err)
			return err;
	}
	return 0;
}

/* ---- agreement ---------------------------------------------------------- */

FTNL_EXPORT int ftnl_group_iagree(struct ftnl_group *group, uint64_t flag,
				  struct ftnl_group_req **req)
{
	int err;

	if (!group || !req)
		return -EINVAL;
	lock(group);
	err = group->view ? start_agreement(group, flag, false, false, req) :
			    -ENOTCONN;
	unlock(group);
	return err;
}

FTNL_EXPORT int ftnl_group_agree(struct ftnl_group *group, uint64_t *flag)
{
	struct ftnl_group_req *req;
	int err;

	if (!group || !flag)
		return -EINVAL;
	lock(group);
	if (!group->view) {
		err = -ENOTCONN;
		goto out;
	}
	if (view_busy(group->view)) {
		err = group->stale ? -ESTALE : -EBUSY;
		goto out;
	}
	err = start_agreement(group, *flag, false, false, &req);
	if (err)
		goto out;
	err = wait_req(group, req);
	if (!err) {
		*flag = req->flag;
		err = req->result;
		req_release(req);
	} else {
		req->orphan = true;	/* fatal: freed with the group */
	}
out:
	unlock(group);
	return err;
}

/*
 * The outcome of a completed @req, or -EINPROGRESS. Called with the group
 * locked (the progress thread writes the request under that lock), or on
 * a request the group no longer holds.
 */
static int req_outcome(const struct ftnl_group_req *req, uint64_t *flag)
{
	if (!req->done)
		return -EINPROGRESS;
	if (flag)
		*flag = req->flag;
	return req->result;
}

FTNL_EXPORT int ftnl_group_req_test(struct ftnl_group_req *req, uint64_t *flag)
{
	struct ftnl_group *g;
	int err = 0;

	if (!req)
		return -EINVAL;
	g = req->group;
	if (!g)
		return req_outcome(req, flag);
	lock(g);
	if (!req->done && !g->threaded)
		err = grp_progress_locked(g);
	if (!err)
		err = req_outcome(req, flag);
	unlock(g);
	return err;
}

FTNL_EXPORT int ftnl_group_req_wait(struct ftnl_group_req *req, uint64_t *flag)
{
	struct ftnl_group *g;
	int err;

	if (!req)
		return -EINVAL;
	g = req->group;
	if (!g)
		return req_outcome(req, flag);
	lock(g);
	err = wait_req(g, req);
	if (!err)
		err = req_outcome(req, flag);
	unlock(g);
	return err;
}

FTNL_EXPORT void ftnl_group_req_free(struct ftnl_group_req *req)
{
	struct ftnl_group *g;

	if (!req)
		return;
	g = req->group;
	if (g)
		lock(g);
	if (req->done)
		req_release(req);
	else
		req->orphan = true;	/* the decision frees it */
	if (g)
		unlock(g);
}

/* ---- views -------------------------------------------------------------- */

void grp_fill_view(const struct grp_view *v, struct ftnl_view *out)
{
	*out = (struct ftnl_view){ .id = v->id, .size = v->size,
				   .self = v->self, .members = v->members };
}

FTNL_EXPORT void ftnl_group_view(const struct ftnl_group *group,
				 struct ftnl_view *view)
{
	struct ftnl_group *g = (struct ftnl_group *)group;	/* the lock */

	if (!g || !view)
		return;
	lock(g);
	if (g->view)
		grp_fill_view(g->view, view);
	else
		*view = (struct ftnl_view){ 0 };
	unlock(g);
}

FTNL_EXPORT void ftnl_group_on_view_change(struct ftnl_group *group,
					   ftnl_view_cb cb, void *arg)
{
	if (!group)
		return;
	lock(group);
	group->view_cb = cb;
	group->view_cb_arg = arg;
	unlock(group);
}

/*
 * The next view: the members of @v not failed in @decided, plus with
 * @max_size the decided joiners, lowest ranks first, while the view has
 * fewer than @max_size members (0: no limit). A joiner of a rank still in
 * @v replaces it only if @v's incarnation failed. Both lists are sorted by
 * world rank: merge them. Then the joiners let in get the view, before
 * any message of it (joinmsg.h).
 */
static int next_view(struct ftnl_group *g, struct grp_view *v,
		     const void *decided, bool grow, uint32_t max_size)
{
	const struct grp_joiner *j = grp_join_list(&v->jop, decided);
	uint32_t nj = grow ? grp_join_count(&v->jop, decided) : 0;
	uint32_t cap = v->size + nj, n = 0, keep = 0, room;
	uint32_t *members = malloc(cap * sizeof(*members));
	uint32_t *incs = malloc(cap * sizeof(*incs));
	bool *let_in = calloc(nj ? nj : 1, sizeof(*let_in));
	struct grp_view *next;
	int err;

	if (!members || !incs || !let_in) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t r = 0; r < v->size; r++)
		if (!era_ulfm_failed(&v->jop.ulfm, decided, r))
			keep++;
	room = !max_size ? UINT32_MAX : max_size > keep ? max_size - keep : 0;
	for (uint32_t i = 0; i < nj && room; i++) {
		uint32_t r = grp_view_rank(v, j[i].rank);

		if (r != UINT32_MAX &&
		    (!era_ulfm_failed(&v->jop.ulfm, decided, r) ||
		     v->incs[r] >= j[i].inc))
			continue;	/* in, and alive as far as agreed */
		let_in[i] = true;
		room--;
	}
	for (uint32_t r = 0, i = 0; r < v->size || i < nj;) {
		if (i < nj && (r >= v->size || j[i].rank <= v->members[r])) {
			if (let_in[i]) {
				members[n] = j[i].rank;
				incs[n++] = j[i].inc;
			}
			if (r < v->size && j[i].rank == v->members[r] &&
			    let_in[i])
				r++;	/* the dead incarnation gives way */
			i++;
			continue;
		}
		if (!era_ulfm_failed(&v->jop.ulfm, decided, r)) {
			members[n] = v->members[r];
			incs[n++] = v->incs[r];
		}
		r++;
	}
	err = grp_view_create(g, v->id + 1, members, incs, n, &next);
	if (err)
		goto out;
	next->older = v;
	g->view = next;
	for (uint32_t i = 0; i < nj; i++) {
		if (!let_in[i])
			continue;
		if (j[i].inc > g->incs[j[i].rank])
			grp_new_incarnation(g, j[i].rank, j[i].inc);
		if (g->join_inc[j[i].rank] <= j[i].inc)
			g->join_inc[j[i].rank] = 0;
		grp_welcome(g, next, j[i].rank);
	}
	grp_replay_early(g);
	grp_settle(g);
out:
	free(members);
	free(incs);
	free(let_in);
	return err;
}

/* Shrink (@grow false) or grow: the collective, then the new view. */
static int reconfigure(struct ftnl_group *group, bool grow, uint32_t max_size)
{
	struct ftnl_group_req *req;
	struct ftnl_view view;
	ftnl_view_cb cb;
	void *cb_arg;
	int err;

	if (!group)
		return -EINVAL;
	lock(group);
	if (!group->view) {
		err = -ENOTCONN;
		goto out;
	}
	if (view_busy(group->view)) {
		err = group->stale ? -ESTALE : -EBUSY;
		goto out;
	}
	err = start_agreement(group, ~(uint64_t)0, grow, true, &req);
	if (err)
		goto out;
	err = wait_req(group, req);
	if (err) {
		req->orphan = true;
		goto out;
	}
	err = req->result == -ESTALE ? -ESTALE :
	      next_view(group, group->view, req->value, grow, max_size);
	req_release(req);
	if (err) {
		/* Peers moved on without us: this process cannot follow. */
		if (err != -ESTALE)
			group->fatal = err;
		goto out;
	}
	grp_fill_view(group->view, &view);
	cb = group->view_cb;
	cb_arg = group->view_cb_arg;
	unlock(group);
	/* Unlocked: the callback may call back into the group. */
	if (cb)
		cb(&view, cb_arg);
	return 0;
out:
	unlock(group);
	return err;
}

FTNL_EXPORT int ftnl_group_shrink(struct ftnl_group *group)
{
	return reconfigure(group, false, 0);
}

FTNL_EXPORT int ftnl_group_grow(struct ftnl_group *group, uint32_t max_size)
{
	return reconfigure(group, true, max_size);
}
