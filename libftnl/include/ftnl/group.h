/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl process groups: Early Returning Agreement (agree, iagree), ULFM
 * failure acknowledgement and membership views (shrink) among processes
 * talking over TCP.
 *
 * Conventions (those of <ftnl/ftnl.h> too):
 *
 * - Functions returning int return 0 (or a documented positive value) on
 *   success and a negative errno value on failure. They never print.
 * - Ranks are *world ranks* everywhere: a process's rank in the bootstrap
 *   spec (0..size-1), which never changes. A view lists the world ranks of
 *   its members in order; a member's index in that list is its rank in the
 *   view (the rank an MPI communicator would give it).
 * - Collective calls (agree, iagree, shrink) must be made by every live
 *   member of the current view in the same order, like MPI collectives.
 * - A struct ftnl_group is not thread-safe: call it from one thread at a
 *   time. With the optional progress thread, that thread only does the
 *   library's own work under an internal lock.
 * - Nothing busy-polls. Blocking calls sleep in epoll_wait(2); a runtime
 *   with its own event loop waits on ftnl_group_fd() and calls
 *   ftnl_group_progress() when it is readable.
 *
 * Failures: ERA needs a perfect failure detector (no live process is ever
 * suspected), so a group only learns failures from sources that cannot be
 * wrong: the ftnl kernel module (a dead node kills every rank on it; a
 * registered process that exits is reported by its node's kernel), a
 * failure directory kept by a launcher that saw the process exit (the
 * documented test oracle), and ftnl_group_report_failure() for a runtime
 * with its own perfect detector. A closed TCP connection is not a failure.
 */
#ifndef FTNL_GROUP_H
#define FTNL_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ftnl/ftnl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest group: world ranks are < FTNL_GROUP_MAX_SIZE. */
#define FTNL_GROUP_MAX_SIZE	65536

/*
 * The error of an agreement that involved a failure not acknowledged by
 * every participant before the call (ULFM's MPIX_ERR_PROC_FAILED). The
 * agreement still completed: the flag is the agreed one, identical at
 * every survivor, and so is the error.
 */
#define FTNL_EPROCFAILED	EOWNERDEAD

/* ------------------------------------------------------------------------
 * Bootstrap: who is in the group
 */

/* No ftnl node id given for a peer. */
#define FTNL_GROUP_NODE_ANY	UINT32_MAX

/**
 * struct ftnl_group_peer - one member of the world
 * @family: AF_INET or AF_INET6
 * @addr: where it listens
 * @port: its TCP port
 * @host: host index: ranks with equal @host run on the same machine (the
 *	hierarchical topology groups them; a node death kills all of them).
 *	From the peers file's "host NAME", else from the address.
 * @node_id: its ftnl node id, or FTNL_GROUP_NODE_ANY (then found by
 *	address in the module's node table, when the module is used)
 * @spare: a spare rank (the peers file's "spare" word): not in view 0; it
 *	enters the group with ftnl_group_join() when the members grow
 *	(ftnl_group_grow()). At least one rank of a world is not a spare.
 */
struct ftnl_group_peer {
	int family;
	union ftnl_addr addr;
	uint16_t port;
	uint32_t host;
	uint32_t node_id;
	bool spare;
};

/**
 * enum ftnl_group_module - whether to use the ftnl kernel module
 * @FTNL_GROUP_MODULE_AUTO: if the ftnl family exists in this netns and a
 *	cluster is configured, use it; otherwise do without
 * @FTNL_GROUP_MODULE_OFF: never
 * @FTNL_GROUP_MODULE_ON: required; ftnl_group_open() fails without it
 *
 * Using the module means: the process registers itself (job, rank) with
 * its node's kernel, which reports its death to every node when it exits;
 * and the group subscribes to the module's events, taking every
 * FTNL_EVENT_FAILURE of a node as the death of every rank on it and every
 * FTNL_EVENT_PROC_EXIT of this job as the death of that rank. A node
 * that leaves gracefully (cause "leave") does not kill its ranks: they may
 * still be alive; their own exits are reported as process exits.
 */
enum ftnl_group_module {
	FTNL_GROUP_MODULE_AUTO,
	FTNL_GROUP_MODULE_OFF,
	FTNL_GROUP_MODULE_ON,
};

/**
 * struct ftnl_group_spec - the world of one process, from its launcher
 * @job: group (job) id, shared by every member; also the id processes
 *	register under with the kernel module
 * @size: number of ranks
 * @rank: this process's world rank
 * @peers: @size entries, indexed by world rank
 * @failure_dir: the failure oracle directory, or NULL (see
 *	Documentation/libftnl-group-internals.rst): a launcher creates a file named
 *	after a rank (decimal) there once that process has exited
 * @module: the launcher's choice (FTNL_GROUP_MODULE): whether failures
 *	come from the kernel module; &ftnl_group_attr.module, when not
 *	FTNL_GROUP_MODULE_AUTO, overrides it
 * @has_key: @key is set: the peers file had "key HEX". Then every
 *	transport connection opens with a mutual challenge-response proving
 *	both ends hold @key (keyed BLAKE2s), and a peer that cannot is
 *	refused. Without a key, anyone who reaches a rank's port and knows
 *	the job id can speak for any rank.
 * @key: the shared job key (FTNL_KEY_LEN bytes), valid if @has_key;
 *	keep it secret (the peers file should be mode 0600)
 * @has_owner: @owner_uid is set: the peers file had "owner UID"
 * @owner_uid: the uid the job's ranks run as (their registrations' owner
 *	in the kernel module); without @has_owner, the calling process's
 *	real uid. A process exit from the module counts only if its owner is
 *	this uid and its node the rank's node: any user may register any
 *	(job, rank) under its own uid
 * @incarnation: which process of this rank this is: 0 or 1 for the first,
 *	2 for the first restart (a launcher's respawn), and so on. A process
 *	of incarnation 2 or more starts outside the group and enters it with
 *	ftnl_group_join() as a new member under its old rank; it is never
 *	confused with the dead incarnations (Documentation/libftnl-join.rst).
 *	From FTNL_GROUP_INCARNATION. Not with the kernel module as failure
 *	source (its exit reports name no incarnation): ftnl_group_open()
 *	then fails with -EOPNOTSUPP.
 *
 * Filled by ftnl_group_spec_parse_file() or ftnl_group_spec_from_env();
 * release with ftnl_group_spec_free().
 */
struct ftnl_group_spec {
	uint64_t job;
	uint32_t size;
	uint32_t rank;
	struct ftnl_group_peer *peers;
	char *failure_dir;
	enum ftnl_group_module module;
	bool has_key;
	uint8_t key[FTNL_KEY_LEN];
	bool has_owner;
	uint32_t owner_uid;
	uint32_t incarnation;
};

/**
 * ftnl_group_spec_parse_file() - read a peers file
 * @path: the file
 * @rank: the caller's world rank
 * @spec: filled on success
 * @err: on -EINVAL, a message "file:line: what is wrong" (may be NULL)
 * @errlen: size of @err
 *
 * The format (Documentation/libftnl-group-internals.rst): '#' comments, then
 *
 *	job <u64>
 *	[key <64 hex digits>]
 *	[owner <uid>]
 *	rank <r> <address> <port> [host <name>] [node <ftnl node id>] [spare]
 *	...
 *
 * with ranks 0..size-1 each exactly once, no two ranks on the same
 * address and port, and at least one rank that is not a spare.
 *
 * Return: 0; -EINVAL (malformed: @err says where); -ERANGE (@rank not in
 * the file); -ENOMEM; or the errno of opening/reading the file.
 */
int ftnl_group_spec_parse_file(const char *path, uint32_t rank,
			       struct ftnl_group_spec *spec, char *err,
			       size_t errlen);

/**
 * ftnl_group_spec_from_env() - the spec a launcher passes in the environment
 * @spec: filled on success
 * @err: on -EINVAL, why (may be NULL)
 * @errlen: size of @err
 *
 * Reads FTNL_GROUP_PEERS (the peers file), FTNL_GROUP_RANK (this process's
 * world rank) and, optionally, FTNL_GROUP_FAILURE_DIR (the failure oracle
 * directory), FTNL_GROUP_MODULE ("on", "off" or "auto", the default) and
 * FTNL_GROUP_INCARNATION (a decimal >= 1; 1 when unset).
 * tools/launch/ftnl-launch sets them.
 *
 * Return: 0; -ENOENT if FTNL_GROUP_PEERS or FTNL_GROUP_RANK is unset;
 * otherwise as ftnl_group_spec_parse_file().
 */
int ftnl_group_spec_from_env(struct ftnl_group_spec *spec, char *err,
			     size_t errlen);

/* Release what a spec holds (not @spec itself); NULL is fine. */
void ftnl_group_spec_free(struct ftnl_group_spec *spec);

/* ------------------------------------------------------------------------
 * Opening a group
 */

/**
 * enum ftnl_group_topology - the shape of the agreement tree
 * @FTNL_GROUP_TOPO_BINARY: binary tree (the default)
 * @FTNL_GROUP_TOPO_STAR: every rank a child of the root
 * @FTNL_GROUP_TOPO_STRING: a chain
 * @FTNL_GROUP_TOPO_HIER: one representative per host joined by
 *	&ftnl_group_attr.inter, the other ranks of a host joined to it by
 *	&ftnl_group_attr.intra (e.g. bin/bin)
 */
enum ftnl_group_topology {
	FTNL_GROUP_TOPO_BINARY,
	FTNL_GROUP_TOPO_STAR,
	FTNL_GROUP_TOPO_STRING,
	FTNL_GROUP_TOPO_HIER,
};

/**
 * enum ftnl_group_engine - the consensus algorithm behind agree and shrink
 * @FTNL_GROUP_ENGINE_ERA: Early Returning Agreement (the default): a
 *	process returns as soon as it knows the decision; not uniform (a
 *	process that returned and then died may have returned a value the
 *	survivors do not); 2(n - 1) messages per agreement
 * @FTNL_GROUP_ENGINE_VALIDATE_ALL: validate-all with strict semantics
 *	(Buntinas; a three-phase commit over a reliable binomial-tree
 *	broadcast): uniform - no process, even one that dies after
 *	returning, returns a different value; 6(n - 1) messages
 * @FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE: validate-all, loose semantics (a
 *	two-phase commit): the survivors agree, a process that returned and
 *	died may differ (as with ERA); 4(n - 1) messages
 *
 * Every member of a group must use the same engine. The ULFM semantics
 * (flags, FTNL_EPROCFAILED, acknowledgements, views) and the error codes
 * are the same with each; Documentation/validate-all.rst compares them.
 * Validate-all builds its own tree (binomial, over the live ranks): the
 * topology and rebalancing attributes apply to ERA only.
 */
enum ftnl_group_engine {
	FTNL_GROUP_ENGINE_ERA,
	FTNL_GROUP_ENGINE_VALIDATE_ALL,
	FTNL_GROUP_ENGINE_VALIDATE_ALL_LOOSE,
};

/**
 * struct ftnl_group_attr - how the group works (zero: the defaults)
 * @topology: tree shape
 * @inter: FTNL_GROUP_TOPO_HIER: shape between hosts
 * @intra: FTNL_GROUP_TOPO_HIER: shape inside a host
 * @window: agreements in flight (iagree) before ftnl_group_iagree()
 *	returns -EBUSY; 0 means 16
 * @no_rebalance: keep the original tree between agreements instead of
 *	rebuilding it over the agreed alive members (ERA section 4)
 * @progress_thread: start an internal thread that makes progress while
 *	the application computes
 * @module: enum ftnl_group_module
 * @engine: enum ftnl_group_engine (ERA by default)
 */
struct ftnl_group_attr {
	enum ftnl_group_topology topology;
	enum ftnl_group_topology inter;
	enum ftnl_group_topology intra;
	uint32_t window;
	bool no_rebalance;
	bool progress_thread;
	enum ftnl_group_module module;
	enum ftnl_group_engine engine;
};

struct ftnl_group;

/**
 * ftnl_group_open() - join the group
 * @spec: the world (copied)
 * @attr: options, or NULL for the defaults
 * @group: set on success
 *
 * Listens on the spec's address and port of this rank; connections to
 * peers are opened when first needed, and retried until the peer listens
 * or is known dead. Does not wait for anyone.
 *
 * Return: 0; -EINVAL (bad spec or attr); -EADDRINUSE; -ENOENT
 * (FTNL_GROUP_MODULE_ON without the module or a cluster, or a failure
 * directory that does not exist); -EOPNOTSUPP (an incarnation >= 2 with
 * the module in use); -ENOMEM; other negative errno.
 */
int ftnl_group_open(const struct ftnl_group_spec *spec,
		    const struct ftnl_group_attr *attr,
		    struct ftnl_group **group);

/*
 * Leave: stop the progress thread, unregister cleanly from the module (a
 * clean exit is not a failure), close every socket, free. NULL is fine.
 * Call it only between collectives: peers may still need this process's
 * decisions until their next agreement completes. Requests still in
 * flight complete with -ECANCELED; free them afterwards.
 */
void ftnl_group_close(struct ftnl_group *group);

uint64_t ftnl_group_job(const struct ftnl_group *group);
/* This process's world rank, and the world size. */
uint32_t ftnl_group_world_rank(const struct ftnl_group *group);
uint32_t ftnl_group_world_size(const struct ftnl_group *group);

/* ------------------------------------------------------------------------
 * Progress
 */

/**
 * ftnl_group_fd() - a descriptor to wait on
 * @group: the group
 *
 * Readable (EPOLLIN) when ftnl_group_progress() has work: messages,
 * connections, failure reports, retry timers. Put it in your own
 * poll/epoll set; do not read it.
 *
 * Return: the descriptor.
 */
int ftnl_group_fd(const struct ftnl_group *group);

/**
 * ftnl_group_progress() - do all pending work without blocking
 * @group: the group
 *
 * Return: 0, or a negative errno on a fatal error (the group is unusable).
 */
int ftnl_group_progress(struct ftnl_group *group);

/* ------------------------------------------------------------------------
 * Failures and acknowledgement (ULFM)
 */

/**
 * ftnl_group_report_failure() - the caller's perfect detector saw a death
 * @group: the group
 * @rank: world rank that is dead; it must really be (ERA relies on it).
 *	Of a restarted rank, the process this member knows of (its latest
 *	incarnation)
 *
 * Return: 0 (also if it was known); -EINVAL for a rank out of range or
 * the caller's own.
 */
int ftnl_group_report_failure(struct ftnl_group *group, uint32_t rank);

/**
 * ftnl_group_failed() - the world ranks known dead, in increasing order
 * (a rank whose restarted process was heard of is not: its latest
 * incarnation is alive)
 * @group: the group
 * @ranks: filled with up to @cap ranks (may be NULL if @cap is 0)
 * @cap: room in @ranks
 *
 * Return: the number known dead (may exceed @cap: call again larger).
 */
int ftnl_group_failed(struct ftnl_group *group, uint32_t *ranks, size_t cap);

/*
 * Acknowledge every failure known now (MPIX_Comm_failure_ack): agreements
 * started afterwards do not return FTNL_EPROCFAILED for them, if every
 * other participant acknowledged them too. Return: 0.
 */
int ftnl_group_failure_ack(struct ftnl_group *group);

/* The acknowledged world ranks, as ftnl_group_failed() returns them. */
int ftnl_group_get_acked(struct ftnl_group *group, uint32_t *ranks,
			 size_t cap);

/* ------------------------------------------------------------------------
 * Agreement (MPIX_Comm_agree, MPIX_Comm_iagree)
 */

/**
 * ftnl_group_agree() - agree on the AND of everyone's flag
 * @group: the group
 * @flag: in: this process's contribution; out: the bitwise AND of the
 *	contributions of the members of the current view (a member that
 *	died may or may not have contributed)
 *
 * Early Returning Agreement among the live members of the current view:
 * every survivor returns the same flag and the same error, even if
 * members (the root included) die during the call. Blocks, sleeping in
 * epoll_wait(2), until decided.
 *
 * Return: 0; -FTNL_EPROCFAILED if the agreed set of failed members holds
 * one that some participant had not acknowledged before the call (the
 * flag is still agreed); -ESTALE if the others decided this process was
 * dead (it must leave); -EBUSY if iagree requests are still pending;
 * other negative errno on a fatal error.
 */
int ftnl_group_agree(struct ftnl_group *group, uint64_t *flag);

struct ftnl_group_req;

/**
 * ftnl_group_iagree() - start an agreement without waiting for it
 * @group: the group
 * @flag: this process's contribution
 * @req: set to the request; complete it with ftnl_group_req_test() or
 *	ftnl_group_req_wait(), then free it with ftnl_group_req_free()
 *
 * Up to &ftnl_group_attr.window agreements may be in flight.
 *
 * Return: 0; -EBUSY (window full: complete the oldest first); -ESTALE;
 * -ENOMEM.
 */
int ftnl_group_iagree(struct ftnl_group *group, uint64_t flag,
		      struct ftnl_group_req **req);

/**
 * ftnl_group_req_test() - progress, then see whether @req is complete
 * @req: the request
 * @flag: the agreed flag, when complete
 *
 * Return: -EINPROGRESS if not yet; else the agreement's result, as
 * ftnl_group_agree() returns it.
 */
int ftnl_group_req_test(struct ftnl_group_req *req, uint64_t *flag);

/* Block until @req completes; return as ftnl_group_req_test(). */
int ftnl_group_req_wait(struct ftnl_group_req *req, uint64_t *flag);

/*
 * Release a request. A request freed before it completed still completes
 * (the group keeps taking part); only its result is lost. NULL is fine.
 */
void ftnl_group_req_free(struct ftnl_group_req *req);

/* ------------------------------------------------------------------------
 * Membership views (MPIX_Comm_shrink)
 */

/**
 * struct ftnl_view - a membership view
 * @id: 0 for the world; +1 per shrink or grow
 * @size: members
 * @self: this process's index in @members (its rank in the view)
 * @members: world ranks, increasing; valid until the next shrink
 */
struct ftnl_view {
	uint64_t id;
	uint32_t size;
	uint32_t self;
	const uint32_t *members;
};

/* The current view. */
void ftnl_group_view(const struct ftnl_group *group, struct ftnl_view *view);

/**
 * ftnl_group_shrink() - replace the view by its live members
 * @group: the group
 *
 * Collective over the current view: an agreement on the set of failed
 * members, then a new view (id + 1) of every member not in that set, in
 * the same order. Every survivor gets the identical view. Unlike agree,
 * never returns FTNL_EPROCFAILED: failures are what it is for.
 *
 * Return: 0; -ESTALE (this process was decided dead); -EBUSY (iagree
 * requests pending); other negative errno on a fatal error.
 */
int ftnl_group_shrink(struct ftnl_group *group);

/*
 * Called from ftnl_group_shrink() and ftnl_group_grow() (in the caller's
 * thread) with the new view, before they return; in a process that
 * joins, from ftnl_group_join() with its first view. NULL removes the
 * callback.
 */
typedef void (*ftnl_view_cb)(const struct ftnl_view *view, void *arg);
void ftnl_group_on_view_change(struct ftnl_group *group, ftnl_view_cb cb,
			       void *arg);

/* ------------------------------------------------------------------------
 * Views that grow: spares and restarted ranks (Documentation/libftnl-join.rst)
 *
 * A process that starts outside the group - a spare rank of the peers
 * file, or a restarted process of a dead rank (spec incarnation >= 2) -
 * asks to join with ftnl_group_join(). Its request reaches every rank of
 * the world; the members let it in at their next ftnl_group_grow(), a
 * collective like shrink whose agreement decides, besides the failed
 * members, which joiners enter. Joins thus happen only at an agreement
 * boundary chosen by the agreement itself: every member and every joiner
 * sees the same sequence of agreements and views.
 */

/* Most joiners one ftnl_group_grow() lets in (the others wait for the next). */
#define FTNL_GROUP_MAX_JOINS	64

/**
 * ftnl_group_join_start() - ask to enter the group, without waiting
 * @group: a group opened by a process outside the view (a spare, or an
 *	incarnation >= 2)
 *
 * Sends the request to every rank of the world not known dead (each
 * member keeps it until a grow lets this process in). Then make progress
 * (ftnl_group_fd(), ftnl_group_progress()) until ftnl_group_is_member()
 * says yes. For event loops; ftnl_group_join() does both.
 *
 * Return: 0 (also if already asked, even if let in since); -EALREADY (a
 * member from the start, never asked); -EINVAL; other negative errno on
 * a fatal error.
 */
int ftnl_group_join_start(struct ftnl_group *group);

/**
 * ftnl_group_join() - enter the group and wait until in
 * @group: as for ftnl_group_join_start()
 *
 * Blocks (sleeping in epoll_wait(2)) until a grow of the members lets
 * this process in, which may be never if nobody grows: a runtime that
 * must also notice the end of its job uses ftnl_group_join_start() in its
 * own event loop instead. The view callback sees the first view before
 * this returns; the process then takes part in the collectives of that
 * view, the first of which the members start right after their grow.
 *
 * Return: 0 (also when the process was let in before the call, after
 * ftnl_group_join_start(), unless ftnl_group_is_member() reported it
 * already); -EALREADY (a member, and told so); -EINVAL; other negative
 * errno on a fatal error.
 */
int ftnl_group_join(struct ftnl_group *group);

/**
 * ftnl_group_is_member() - whether this process is in a view
 * @group: the group
 *
 * Return: 1 (in view 0 from the start, or let in by a grow), 0 (outside:
 * call ftnl_group_join()), -EINVAL. Collectives, ftnl_group_view() and
 * ftnl_group_grow() need membership: outside they return -ENOTCONN (the
 * view is empty).
 */
int ftnl_group_is_member(struct ftnl_group *group);

/**
 * ftnl_group_joiners() - joiners waiting to enter, as this member knows
 * @group: the group
 *
 * Return: how many processes asked to join and were not let in yet (not
 * known dead). Local knowledge: another member may know more or fewer;
 * what a grow lets in is agreed.
 */
int ftnl_group_joiners(struct ftnl_group *group);

/**
 * ftnl_group_grow() - replace the view by its live members plus joiners
 * @group: the group
 * @max_size: let joiners in until the new view has this many members (0:
 *	no limit); every member must pass the same value
 *
 * Collective over the current view, like ftnl_group_shrink(): one
 * agreement decides the set of failed members and the set of joiners
 * (each member contributes those that asked it; at most
 * FTNL_GROUP_MAX_JOINS, the lowest ranks). The new view (id + 1) is the
 * members not failed plus, in increasing rank order, as many decided
 * joiners as fit under @max_size, a restarted rank replacing its dead
 * incarnation. Every survivor gets the identical view, and each joiner let
 * in gets it too (its ftnl_group_join() returns). A joiner not let in
 * stays waiting for a later grow. With no joiner this is a shrink.
 *
 * Return: 0; -ESTALE; -EBUSY (iagree requests pending); -ENOTCONN (not a
 * member); other negative errno on a fatal error.
 */
int ftnl_group_grow(struct ftnl_group *group, uint32_t max_size);

/* ------------------------------------------------------------------------
 * Diagnostics
 */

/**
 * struct ftnl_group_stats - counters of this process
 * @agreements: agreements decided locally
 * @msgs_sent: ERA messages sent
 * @msgs_received: ERA messages received
 * @bytes_sent: bytes sent on TCP (framing included)
 * @connects: outgoing connections established
 * @connect_retries: outgoing connection attempts that failed and were
 *	retried
 * @failures: world ranks known dead
 * @dropped: malformed or foreign messages and connections refused
 */
struct ftnl_group_stats {
	uint64_t agreements;
	uint64_t msgs_sent;
	uint64_t msgs_received;
	uint64_t bytes_sent;
	uint64_t connects;
	uint64_t connect_retries;
	uint64_t failures;
	uint64_t dropped;
};

void ftnl_group_get_stats(const struct ftnl_group *group,
			  struct ftnl_group_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* FTNL_GROUP_H */
