/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's event queue: a (4-ary) min-heap ordered by (time, seq).
 * seq is the insertion order, so events at the same instant run in the
 * order they were scheduled and a run is a pure function of its seed.
 */
#ifndef FTNL_SIM_HEAP_H
#define FTNL_SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>

struct sim_event {
	int64_t time;
	uint64_t seq;
	uint32_t node;
	uint32_t arg;
	uint32_t arg2;
	uint16_t type;
};

struct sim_heap {
	struct sim_event *ev;
	size_t len;
	size_t cap;
	uint64_t next_seq;
};

int sim_heap_init(struct sim_heap *heap, size_t cap);
void sim_heap_free(struct sim_heap *heap);
void sim_heap_clear(struct sim_heap *heap);
int sim_heap_push(struct sim_heap *heap, int64_t time, uint16_t type,
		  uint32_t node, uint32_t arg, uint32_t arg2);
int sim_heap_pop(struct sim_heap *heap, struct sim_event *out);

#endif /* FTNL_SIM_HEAP_H */
