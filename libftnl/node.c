// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The node table dump (FTNL_CMD_NODE_GET), as callbacks or as an array.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct ftnl_dump_state {
	ftnl_node_cb cb;
	void *arg;
	uint32_t cluster_id;
	uint32_t generation;
	bool started;
	bool inconsistent;	/* generation changed between messages */
};

static int ftnl_dump_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct ftnl_dump_state *s = arg;
	struct ftnl_node node;
	uint32_t cluster_id, generation;
	int err;

	err = ftnl_msg_parse_node(nlh, &node, &cluster_id, &generation);
	if (err)
		return err;
	if (!s->started) {
		s->started = true;
		s->cluster_id = cluster_id;
		s->generation = generation;
	} else if (generation != s->generation) {
		/* Belt and braces: the kernel should have set DUMP_INTR. */
		s->inconsistent = true;
	}
	if (s->inconsistent)
		return 0;	/* read on, deliver no more */
	return s->cb(&node, s->arg);
}

static int ftnl_dump(struct ftnl_handle *h, struct ftnl_dump_state *s)
{
	char buf[FTNL_GENL_HDRLEN] __attribute__((aligned(4)));
	struct nlmsghdr *req;
	int err;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_DUMP,
			     FTNL_CMD_NODE_GET, FTNL_FAMILY_VERSION);
	err = ftnl_request(h, req, ftnl_dump_reply, s);
	if (!err && s->inconsistent)
		err = ftnl_set_error(h, -EINTR,
				     "node table changed during the dump");
	return err;
}

FTNL_EXPORT int ftnl_node_dump(struct ftnl_handle *h, ftnl_node_cb cb,
			       void *arg)
{
	struct ftnl_dump_state s = { .cb = cb, .arg = arg };

	return ftnl_dump(h, &s);
}

/* A table being filled, with its allocated capacity. */
struct ftnl_table_fill {
	struct ftnl_node_table *table;
	size_t cap;
};

static int ftnl_table_add(const struct ftnl_node *node, void *arg)
{
	struct ftnl_table_fill *f = arg;
	struct ftnl_node_table *t = f->table;

	if (t->count == f->cap) {
		/* Doubling: 65,536 nodes take 13 reallocations. */
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct ftnl_node *nodes = realloc(t->nodes, cap * sizeof(*nodes));

		if (!nodes)
			return -ENOMEM;
		t->nodes = nodes;
		f->cap = cap;
	}
	t->nodes[t->count++] = *node;
	return 0;
}

FTNL_EXPORT int ftnl_node_list(struct ftnl_handle *h,
			       struct ftnl_node_table *table)
{
	struct ftnl_node_table t = { 0 };
	struct ftnl_table_fill fill = { .table = &t };
	int attempt, err = -EINTR;

	for (attempt = 0; attempt < FTNL_NODE_LIST_ATTEMPTS; attempt++) {
		struct ftnl_dump_state s = { .cb = ftnl_table_add, .arg = &fill };

		t.count = 0;	/* an interrupted attempt's nodes are dropped */
		err = ftnl_dump(h, &s);
		if (err == -EINTR)
			continue;
		if (err)
			break;
		t.cluster_id = s.cluster_id;
		t.generation = s.generation;
		*table = t;
		return 0;
	}
	free(t.nodes);
	memset(table, 0, sizeof(*table));
	return err;
}

FTNL_EXPORT void ftnl_node_table_free(struct ftnl_node_table *table)
{
	free(table->nodes);
	memset(table, 0, sizeof(*table));
}

FTNL_EXPORT const char *ftnl_node_state_name(enum ftnl_node_state state)
{
	switch (state) {
	case FTNL_NODE_STATE_ALIVE:
		return "alive";
	case FTNL_NODE_STATE_DEAD:
		return "dead";
	case FTNL_NODE_STATE_LEFT:
		return "left";
	case FTNL_NODE_STATE_EXPELLED:
		return "expelled";
	case FTNL_NODE_STATE_HELD_OUT:
		return "held-out";
	default:
		return "unknown";
	}
}
