/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ftnl-bench's parts share: the options, the virtual cluster of
 * network namespaces and the ftnl handles into it (bench.c), and small
 * helpers. tipc.c (TIPC beside ftnl), adapt.c (fixed against adaptive
 * timeouts) and quiet.c (the quiet runs' attribution) are the parts in
 * their own files; stall.c is the stall probe two of them use.
 */
#ifndef FTNL_BENCH_H
#define FTNL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ftnl/ftnl.h>

struct opts {
	const char *mode;
	const char *prefix;
	const char *veth;
	const char *net;
	const char *label;
	unsigned int nodes;
	unsigned int port;
	unsigned int uring_port;
	unsigned int hb_ms;
	unsigned int timeout_ms;
	unsigned int trials;
	unsigned int duration_s;
	unsigned int budget_s;
	unsigned int warmup_s;
	bool uring;
	unsigned int bcast_rate;	/* lateness: broadcasts/s, 0: none */
	bool has_bcast_rate;
	unsigned int own_cpu_node;	/* lateness: node on CPU 0 alone, 0: none */
	bool attribute;		/* lateness: attribute false suspicions */
	bool backlog_probe;	/* ... with the backlog probe (it perturbs) */
	bool has_quorum;	/* --quorum given */
	uint8_t quorum;		/* enum ftnl_quorum */
	uint64_t seed;
	bool has_algo;		/* bcast: --algo given */
	uint8_t algo;
	bool has_fcg_f;
	uint8_t fcg_f;
	bool has_gossip_t;
	uint32_t gossip_t_us;
	unsigned int predict_runs;
	unsigned int tolerance_ms;	/* tipc: TIPC's link tolerance */
	unsigned int rate_s;		/* tipc: frame count window */
	unsigned int adapt_min_ms;	/* adapt: d_min, 0 for a fixed d */
	unsigned int nines;		/* adapt: target 10^-nines */
	unsigned int model_base_us;	/* adapt: the model's link ... */
	unsigned int model_jitter_us;
	unsigned int model_loss_ppm;
	unsigned int model_spike_ppm;
	unsigned int model_spike_us;
	uint64_t model_beats;
};

struct node {
	unsigned int id;
	int nsfd;
	struct ftnl_handle *h;
	struct ftnl_events *ev;
	uint32_t generation;	/* of the configuration running now */
};

struct cluster {
	const struct opts *o;
	struct node *nodes;	/* index = id - 1 */
	struct ftnl_cluster_config cfg;
	int rootfd;
	int epfd;		/* every node's event fd, data = index */
	int ifsock;		/* for SIOCSIFFLAGS in the root netns */
};

typedef void (*failure_fn)(void *arg, unsigned int node,
			   const struct ftnl_event_failure *f, uint64_t read_ns);

void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t mono_ns(void);
void sleep_ns(uint64_t ns);
extern uint64_t rng_state;
uint64_t rng_next(void);
int cmp_u64(const void *a, const void *b);
uint64_t quantile(const uint64_t *v, size_t n, double p);
uint64_t median(const uint64_t *v, size_t n);

int cluster_open(struct cluster *c, const struct opts *o);
void cluster_close(struct cluster *c);
int cluster_del_all(struct cluster *c);
int cluster_set_all(struct cluster *c);
int link_set(struct cluster *c, unsigned int id, bool up);
int neigh_reset(struct cluster *c, unsigned int id);
unsigned int drain_node(struct cluster *c, unsigned int idx, failure_fn fn,
			void *arg);
unsigned int drain_all(struct cluster *c, failure_fn fn, void *arg);
/* One node's counters (print_stats(): as read already), on stderr. */
void dump_stats(struct cluster *c, unsigned int id);
void print_stats(unsigned int id, const struct ftnl_stats *st);

int cmd_tipc(const struct opts *o);
int cmd_adaptive(const struct opts *o);

#endif
