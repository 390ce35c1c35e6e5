/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A virtual ftnl cluster for the ring selftests: one network namespace per
 * node, each linked by a veth pair to a bridge in a namespace of its own,
 * built from C (rtnetlink through libmnl and a few interface ioctls, no
 * "ip" process per step: a 16-node cluster is up in well under a second
 * under TCG). Every node is configured through libftnl in its own netns and
 * has an events subscription opened before anything can fail, so that every
 * failure event of the run is collected with the kernel's timestamps.
 *
 *   netns "bridge": br0 + v1 .. vN (bridge side of each node's veth)
 *   netns of node I: lo, eth0 = 10.99.0.I/24; ftnl on UDP port 7600
 *   outsider (optional): eth0 = 10.99.0.200/24, on the bridge, no ftnl
 *
 * Node ids are 1..N; the ring order is the id order unless failure domains
 * are configured (st_vc_learn_ring()). The test process keeps
 * an fd of every namespace (none is named: nothing to clean up by name, and
 * a namespace lives exactly as long as the test holds it).
 *
 * Failures are injected from the bridge side, so that they are
 * instantaneous and exactly timed: st_vc_silence() sets the node's bridge
 * port down (the node neither sends nor receives any more, but its ftnl
 * state keeps running, like a node cut off by the network);
 * st_vc_kill() destroys the node (its veth, then its namespace: the
 * process holds nothing in it any more) and st_vc_revive() builds it anew,
 * with a new incarnation once configured.
 *
 * Functions return 0 or a negative errno and never print; tests decide.
 */
#ifndef FTNL_ST_VCLUSTER_H
#define FTNL_ST_VCLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>
#include <libmnl/libmnl.h>

#include <linux/ftnl.h>
#include <ftnl/ftnl.h>

#define ST_VC_MAX_NODES		32
#define ST_VC_PORT		7600
/* 10.99.0.0/24: node I is 10.99.0.I, the outsider .200. */
#define ST_VC_NET		0x0a630000u
#define ST_VC_OUTSIDER_HOST	200
/* Link group of the bridge-side veths (deleted in one batch). */
#define ST_VC_LINK_GROUP	0x7674

/* Monotonic clock in ns: the clock of FTNL_A_EVENT_TIME_MONO_NS. */
uint64_t st_mono_ns(void);

/* Sleep @ms milliseconds (nanosleep, restarted on EINTR). */
void st_msleep(unsigned int ms);

/**
 * struct st_vc_event - a failure event and the node that received it
 * @at: id of the node whose subscription delivered it
 * @f: the event
 */
struct st_vc_event {
	uint32_t at;
	struct ftnl_event_failure f;
};

/**
 * struct st_vc_node - one node of the virtual cluster
 * @ns: its network namespace, -1 when killed
 * @ioctl_fd: AF_INET datagram socket in @ns, for interface ioctls
 * @h: libftnl handle bound to @ns
 * @ev: events subscription in @ns
 * @configured: CLUSTER_SET succeeded (and no leave or kill since)
 * @silenced: its bridge port is down
 * @expelled: FTNL_EVENT_EXPELLED received by its subscription
 * @expel: the last of them
 */
struct st_vc_node {
	int ns;
	int ioctl_fd;
	struct ftnl_handle *h;
	struct ftnl_events *ev;
	bool configured;
	bool silenced;
	unsigned int expelled;
	struct ftnl_event_expelled expel;
};

/**
 * struct st_vc - the virtual cluster
 * @n: number of nodes, ids 1..@n
 * @root_ns: the test's own netns, where the process returns between steps
 * @br_ns: the bridge's netns
 * @br_ioctl: AF_INET datagram socket in @br_ns
 * @br_ifindex: ifindex of br0
 * @br_rtnl: rtnetlink socket in @br_ns
 * @outsider_ns: the outsider's netns, -1 if none
 * @cfg: the configuration every node gets (self_id set per node)
 * @pair_keys: st_vc_configure() gives each node the pair keys of its
 *	pairs (st_vc_pair_key()) instead of the cluster key
 * @signs: with @pair_keys, each node also gets its signing seed and the
 *	others' public keys (st_vc_sign_seed()): broadcasts are signed
 * @secret_gen: the pair and signing keys derive from st_vc_key() with
 *	its first byte xored with this (0: as is); raise it for a new secret
 * @node: indexed by node id; entry 0 unused
 * @events: every failure event received so far, in arrival order
 * @nevents: entries in @events
 * @overruns: FTNL_EVENT_OVERRUN seen (events were lost)
 * @ring: node ids in ring order (position 0..@n-1); id order until
 *	st_vc_learn_ring()
 * @pos: ring position of each node id
 */
struct st_vc {
	size_t n;
	int root_ns;
	int br_ns;
	int br_ioctl;
	int br_ifindex;
	struct mnl_socket *br_rtnl;
	int outsider_ns;
	struct ftnl_cluster_config cfg;
	bool pair_keys;
	bool signs;
	uint8_t secret_gen;
	struct st_vc_node node[ST_VC_MAX_NODES + 1];
	struct st_vc_event *events;
	size_t nevents;
	struct st_vc_event *joins;
	size_t njoins;
	unsigned int overruns;
	uint32_t ring[ST_VC_MAX_NODES];
	uint32_t pos[ST_VC_MAX_NODES + 1];
};

/*
 * FTNL_TIME_SCALE, a whole number >= 1 (run_tests.sh sets it to 3 on the
 * debug kernel, whose lockdep and KASAN delay timers by hundreds of ms):
 * timing tests multiply h, d and their margins by it, so that the
 * kernel's own slowness keeps the same share of d as on a production
 * kernel and is not taken for a failure. The assertions stay the same.
 */
static inline unsigned int st_time_scale(void)
{
	const char *s = getenv("FTNL_TIME_SCALE");
	long v = s ? strtol(s, NULL, 10) : 1;

	return v >= 1 && v <= 100 ? (unsigned int)v : 1;
}

/* Build the bridge and @n nodes (netns, veth, address, handle, events
 * subscription); nothing configured yet. The configuration is @n nodes,
 * cluster @cluster_id, heartbeat @h_us, timeout @d_us, a fixed key.
 * Leaves the process in its own netns. On failure everything built is
 * released.
 */
int st_vc_init(struct st_vc *vc, size_t n, uint32_t cluster_id,
	       uint32_t h_us, uint32_t d_us);

/* Release everything (namespaces die once the last fd is closed). */
void st_vc_fini(struct st_vc *vc);

/* Add the outsider: a netns on the bridge, not in the cluster. */
int st_vc_add_outsider(struct st_vc *vc);

/* The key every node is configured with (FTNL_KEY_LEN bytes). */
const uint8_t *st_vc_key(void);

/* Address of node @id (or of the outsider for ST_VC_OUTSIDER_HOST), text. */
const char *st_vc_addr(uint32_t host, char *buf, size_t len);

/* Bridge-side interface name of node @id ("v<id>"). */
const char *st_vc_port_if(uint32_t id, char *buf, size_t len);

/*
 * The key of the pair (@a, @b), derived from st_vc_key() as the cluster
 * secret (ftnl_pair_key()), as 64 hex digits in @hex (65 bytes).
 */
const char *st_vc_pair_key(const struct st_vc *vc, uint32_t a, uint32_t b,
			   char *hex);
/* Configure node @id (CLUSTER_SET through libftnl, self = @id; with
 * @vc->pair_keys, @id's pair keys and no cluster key).
 */
int st_vc_configure(struct st_vc *vc, uint32_t id);
/* Configure nodes 1..n in id order. */
int st_vc_configure_all(struct st_vc *vc);

/* Wait (polling dumps every 20 ms) until every configured, unsilenced node
 * has heard its initial emitter (FTNL_A_NODE_HB_AGE_US present), so that
 * the boot grace is over and the paper's timeouts apply, and the ring is
 * connected (st_vc_ring_check()). -ETIMEDOUT with @why set otherwise.
 */
int st_vc_wait_settled(struct st_vc *vc, unsigned int timeout_ms,
		       char *why, size_t len);

/* The usual start of a test: st_vc_init(), st_vc_configure_all(),
 * st_vc_wait_settled() within @settle_ms, and no failure event published
 * meanwhile (events polled: @vc->nevents is 0 after). 0, or a negative
 * errno with @why saying which step failed; for a failure event, which
 * one, with st_vc_stall_note(). st_vc_fini() releases what was built.
 */
int st_vc_start(struct st_vc *vc, size_t n, uint32_t cluster_id,
		uint32_t h_us, uint32_t d_us, unsigned int settle_ms,
		char *why, size_t len);

/* Take the ring order from node @id's dump (nodes come in ring order):
 * @vc->ring and @vc->pos, which st_vc_ring_check() then follows. -EPROTO
 * if the dump is not a permutation of the ids 1..n.
 */
int st_vc_learn_ring(struct st_vc *vc, uint32_t id);

/* Node @id's dump (ftnl_node_list()) and counters. */
int st_vc_list(struct st_vc *vc, uint32_t id, struct ftnl_node_table *t);
int st_vc_stats(struct st_vc *vc, uint32_t id, struct ftnl_stats *s);

/* Entry of node @of in table @t, NULL if absent. */
const struct ftnl_node *st_vc_entry(const struct ftnl_node_table *t,
				    uint32_t of);

/* Set node @id's bridge port down (silence) or up again. @before and
 * @after (may be NULL) receive st_mono_ns() just before and just after the
 * ioctl: the node fell silent between the two.
 */
int st_vc_silence(struct st_vc *vc, uint32_t id, uint64_t *before,
		  uint64_t *after);
int st_vc_unsilence(struct st_vc *vc, uint32_t id);

/* Kill node @id: delete its veth (silent from that instant), close its
 * handle, subscription and namespace fds so that the namespace and its
 * ftnl state are destroyed. @when (may be NULL) receives st_mono_ns() right
 * after the veth is gone.
 */
int st_vc_kill(struct st_vc *vc, uint32_t id, uint64_t *when);

/* Build node @id anew: new netns (so a new ftnl incarnation), veth,
 * address, handle, subscription. Not configured.
 */
int st_vc_revive(struct st_vc *vc, uint32_t id);

/* Read every pending event of every subscription into @vc->events, waiting
 * up to @timeout_ms for the first one (0: do not wait). Returns the number
 * of failure events added, or a negative errno.
 */
int st_vc_poll_events(struct st_vc *vc, int timeout_ms);

/* Number of collected events at node @at about node @node_id with cause
 * @cause (-1: any cause; @at or @node_id 0: any).
 */
size_t st_vc_count_events(const struct st_vc *vc, uint32_t at,
			  uint32_t node_id, int cause);

/* The first collected event at @at about @node_id, NULL if none. */
const struct st_vc_event *st_vc_find_event(const struct st_vc *vc,
					   uint32_t at, uint32_t node_id);

/* Collect events until @want events at @at about @node_id (any cause) have
 * arrived or @deadline_ns (st_mono_ns() clock) passed. Returns 0 or
 * -ETIMEDOUT.
 */
/*
 * joined events (FTNL_EVENT_JOINED, rejoin auto) are kept apart from
 * failures, in @vc->joins: how many node @at (0: any) published about node
 * @node_id (0: any); wait until there are @want of them, or @deadline_ns
 * (0 or -ETIMEDOUT).
 */
size_t st_vc_count_joins(const struct st_vc *vc, uint32_t at,
			 uint32_t node_id);
int st_vc_wait_joins(struct st_vc *vc, uint32_t at, uint32_t node_id,
		     size_t want, uint64_t deadline_ns);

int st_vc_wait_event(struct st_vc *vc, uint32_t at, uint32_t node_id,
		     size_t want, uint64_t deadline_ns);

/**
 * st_vc_ring_check() - is the ring reconnected around the live nodes?
 * @vc: the cluster
 * @live: live[id] true for the nodes that are up and members (1..n)
 * @why: set to the first problem found
 * @len: size of @why
 *
 * Reads the dump of every live node and checks, for each live node s:
 * exactly one entry flagged emitter, and it is s's closest live predecessor
 * on the ring; exactly one flagged observer, its closest live successor
 * (none of either when s is the only live node); its emitter's heartbeats
 * arrive (HB_AGE_US present and below the timeout d); every live node is
 * "alive" in s's table. Together: the emitter flags form a permutation of
 * the live nodes, the one cycle in ring order (the paper's "reconnected").
 *
 * Return: true if reconnected.
 */
bool st_vc_ring_check(struct st_vc *vc, const bool *live, char *why,
		      size_t len);

/* Poll st_vc_ring_check() every 20 ms until true or @timeout_ms. */
int st_vc_wait_ring(struct st_vc *vc, const bool *live,
		    unsigned int timeout_ms, char *why, size_t len);

/* Largest heartbeat emission lateness (stats) over the configured nodes,
 * in ns, and the node it was seen on: when a test sees a suspicion it did
 * not cause, this tells whether the (emulated) machine stalled for longer
 * than d - h, which breaks the detector's assumption rather than the code.
 */
uint64_t st_vc_max_lateness(struct st_vc *vc, uint32_t *worst);

/* The same as a sentence for a failure message, in @buf. */
const char *st_vc_stall_note(struct st_vc *vc, char *buf, size_t len);

/* Node @id's incarnation as its cluster info says, 0 if unreadable. */
uint64_t st_vc_incarnation(struct st_vc *vc, uint32_t id);

/* State of node @of in node @at's table, -1 if unreadable or absent;
 * @incarnation (may be NULL) gets the incarnation @at holds for it.
 */
int st_vc_state_at(struct st_vc *vc, uint32_t at, uint32_t of,
		   uint64_t *incarnation);

/* One line of node @id's counters: suspicions, tx errors, broadcasts, drops. */
const char *st_vc_node_note(struct st_vc *vc, uint32_t id, char *buf,
			    size_t len);

#define ST_VC_LOG_NODE(vc, id) do { \
	char _st_node[400]; \
	TH_LOG("%s", st_vc_node_note((vc), (id), _st_node, sizeof(_st_node))); \
} while (0)

/* In a test (with _metadata in scope): log st_vc_stall_note(). */
#define ST_VC_LOG_STALL(vc) do { \
	char _st_note[320]; \
	TH_LOG("%s", st_vc_stall_note((vc), _st_note, sizeof(_st_note))); \
} while (0)

/* In a test: expect no failure event collected after the first @from;
 * log each one there is, then st_vc_stall_note().
 */
#define ST_VC_EXPECT_NO_EVENT_SINCE(vc, from) do { \
	size_t _st_i; \
	for (_st_i = (from); _st_i < (vc)->nevents; _st_i++) \
		TH_LOG("unexpected event at node %u about node %u (%s, observer %u)", \
		       (vc)->events[_st_i].at, (vc)->events[_st_i].f.node_id, \
		       ftnl_event_cause_name((vc)->events[_st_i].f.cause), \
		       (vc)->events[_st_i].f.observer_id); \
	EXPECT_EQ((size_t)(from), (vc)->nevents) { \
		ST_VC_LOG_STALL(vc); \
	} \
} while (0)

/* Run a shell command line in node @id's netns (@id 0: the bridge's,
 * ST_VC_OUTSIDER_HOST: the outsider's). Its output goes to stderr.
 * Returns its exit status, or -1 if it could not run or was killed.
 */
int st_vc_sh(struct st_vc *vc, uint32_t id, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Start @argv in node @id's netns (as for st_vc_sh()) without waiting;
 * stdout to stderr. Returns the pid or a negative errno.
 */
pid_t st_vc_spawn(struct st_vc *vc, uint32_t id, char *const argv[]);

/* Wait for @pid up to @timeout_ms (killing it then): its exit status,
 * -ETIMEDOUT, or -1 if killed by a signal.
 */
int st_wait_pid(pid_t pid, unsigned int timeout_ms);

/*
 * Wait until the machine has been calm for @quiet_ms: 10 ms sleeps that
 * never overran by more than 20 ms (the kernel may still be destroying a
 * previous test's namespaces in the background, which under TCG delays
 * timers by 100 ms and more). At most @max_ms; @waited_ns (may be NULL)
 * receives the time it took. 0, or -ETIMEDOUT.
 */
int st_wait_quiet_machine(unsigned int quiet_ms, unsigned int max_ms,
			  uint64_t *waited_ns);

/* Directory of the running test binary (where ftnl_forge lives). */
const char *st_self_dir(void);

/* Run ftnl_forge (next to the test binary) with @args, NULL-terminated, in
 * netns @where as for st_vc_sh(); its exit status, or as st_wait_pid().
 */
/* Node @id's signing seed, derived from the test's cluster secret. */
void st_vc_sign_seed(const struct st_vc *vc, uint32_t id,
		     uint8_t seed[FTNL_SIGN_SEED_LEN]);
int st_vc_forge(struct st_vc *vc, uint32_t where, const char *const *args);

/* Start "ftnl_forge capture" on node @node's bridge port (in the bridge's
 * netns) for @count datagrams of type @type from @sender to @dest, into
 * @file (one hex line each), and wait until it listens. Its pid (wait for
 * it with st_wait_pid(): 0 once all are captured), or a negative errno.
 */
pid_t st_vc_capture(struct st_vc *vc, const char *file, uint32_t node,
		    unsigned int type, uint32_t dest, uint32_t sender,
		    unsigned int count);

/* Start "ftnl_forge capture any --outgoing" in the bridge's netns: every
 * datagram of type @type the bridge delivers to any node, once each, into
 * @file (one hex line each), until @idle_ms pass without one after the
 * first, or @timeout_ms in all; wait until it listens. Its pid (wait for it
 * with st_wait_pid(): 0 once at least one was captured and it went idle),
 * or a negative errno.
 */
pid_t st_vc_capture_bridge(struct st_vc *vc, const char *file,
			   unsigned int type, unsigned int idle_ms,
			   unsigned int timeout_ms);

#endif /* FTNL_ST_VCLUSTER_H */
