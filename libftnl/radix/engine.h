/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The radix-tree membership engine: one struct radix_node per process,
 * driven by events - start, a message arrives, the failure detector
 * reports a process dead, a message found nobody to deliver it to - and
 * answering with actions: messages to send, views delivered. No I/O, no
 * clocks, no global state.
 *
 * The root serializes view changes. A change travels down the tree of its
 * new view (every node recomputes the tree locally), each node forwards it
 * to its children and acknowledges once all of them did: the root, holding
 * every acknowledgment, knows the view is stable and only then issues the
 * next change. A node whose awaited child dies adopts that child's
 * children (the paper's local recalculation) and goes on. A new root first
 * collects the latest view of every member (ROOT_DEAD) then issues its
 * first change (ROOT_AND_NODE_FAILURE). Terms order roots: a node never
 * acts on a round of a term older than one it has seen, so a dead root's
 * late messages cannot contradict its successor. Rules beyond the paper's
 * text and why: Documentation/radix-membership.rst.
 */
#ifndef FTNL_RADIX_ENGINE_H
#define FTNL_RADIX_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "msg.h"
#include "view.h"

/**
 * struct radix_config - one process of one group
 * @group: carried by every message; others are refused
 * @cap: ids 0..cap-1 (members and spares)
 * @fanout: a power of two (radix_fanout_ok())
 * @self: this process's id
 * @inc: its incarnation, >= 1
 * @initial: view 0 is ids 0..initial-1, incarnation 1 (>= 1, <= cap)
 * @join: this process starts outside the view and joins: NEW_NODE if
 *	@inc is 1, else NODE_ALIVE (a recovered process under its old id)
 */
struct radix_config {
	uint64_t group;
	uint32_t cap;
	uint32_t fanout;
	uint32_t self;
	uint32_t inc;
	uint32_t initial;
	bool join;
};

/**
 * struct radix_sink - where the engine's actions go, during the call only
 * @send: send @msg to the live process of id @to (encode it with
 *	radix_msg_encode())
 * @view: @view is installed: this process belongs to it; views come in
 *	seq order, each once
 * @round: the root issued a round (@stable false) or it is stable (true);
 *	@msg is the round's message. For measurements; may be NULL.
 * @ctx: passed back
 *
 * Callbacks must not call into the engine.
 */
struct radix_sink {
	void (*send)(void *ctx, uint32_t to, const struct radix_msg *msg);
	void (*view)(void *ctx, const struct radix_view *view);
	void (*round)(void *ctx, const struct radix_msg *msg, bool stable);
	void *ctx;
};

/**
 * struct radix_stats - counters
 * @sent: by message type
 * @received: processed, by message type
 * @from_dead: dropped: the sender is known dead
 * @stale: dropped: a round or acknowledgment of an older term or round
 * @duplicates: a round message received again (after an adoption)
 * @adopted: children of a dead child taken over
 * @redirects: joiners sent elsewhere
 * @takeovers: times this process became the root
 * @stepped_down: times it met a root of a higher term and gave way
 * @refusals: rounds of an older term refused (naming the newer term)
 * @recollections: collections asked again over members newly learned of
 * @catchups: first changes of a new root carrying views members missed
 * @proofs: joiners let in by a member's view (their welcome was lost)
 * @errors: protocol violations (must stay 0)
 * @last_error: what the last one was
 */
struct radix_stats {
	uint64_t sent[RADIX_MSG_TYPE_MAX + 1];
	uint64_t received[RADIX_MSG_TYPE_MAX + 1];
	uint64_t from_dead;
	uint64_t stale;
	uint64_t duplicates;
	uint64_t adopted;
	uint64_t redirects;
	uint64_t takeovers;
	uint64_t stepped_down;
	uint64_t refusals;
	uint64_t recollections;
	uint64_t catchups;
	uint64_t proofs;
	uint64_t errors;
	const char *last_error;
};

struct radix_node;

/* Return: 0, -EINVAL, -ENOMEM. */
int radix_create(const struct radix_config *cfg, struct radix_node **node);
void radix_destroy(struct radix_node *node);

/*
 * Start: a member of view 0 installs it (no message: every node computes
 * the tree itself); a joiner looks for the root. Return: 0 or -ENOMEM.
 */
int radix_start(struct radix_node *node, const struct radix_sink *out);

/* A decoded message. Return: 0 (also when dropped), -EINVAL, -ENOMEM. */
int radix_on_message(struct radix_node *node, const struct radix_msg *msg,
		     const struct radix_sink *out);

/* The failure detector reports (@id, @inc) dead. Return: 0, -ENOMEM. */
int radix_on_failure(struct radix_node *node, uint32_t id, uint32_t inc,
		     const struct radix_sink *out);

/* A message to @id found no live process (e.g. connection refused). */
int radix_on_unreachable(struct radix_node *node, uint32_t id,
			 const struct radix_sink *out);

const struct radix_view *radix_current_view(const struct radix_node *node);
/* In the group: a view holding it was delivered. */
bool radix_in_group(const struct radix_node *node);
bool radix_is_root(const struct radix_node *node);
uint64_t radix_term(const struct radix_node *node);
void radix_get_stats(const struct radix_node *node, struct radix_stats *st);

#endif /* FTNL_RADIX_ENGINE_H */
