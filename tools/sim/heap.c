// SPDX-License-Identifier: GPL-2.0
/* Binary min-heap of simulator events (see heap.h). */
#include <errno.h>
#include <stdlib.h>

#include "heap.h"

/*
 * A 4-ary heap: half the depth of a binary one, and the four children of a
 * node share a cache line or two, which is what a simulator with a million
 * pending events spends its time on. (time, seq) compares as one 128-bit
 * key.
 */
#define ARITY	4

static inline unsigned __int128 sim_event_key(const struct sim_event *ev)
{
	/* Times are >= INT64_MIN / 4 here: bias them into unsigned order. */
	return (unsigned __int128)((uint64_t)ev->time ^ (1ULL << 63)) << 64 | ev->seq;
}

int sim_heap_init(struct sim_heap *heap, size_t cap)
{
	heap->len = 0;
	heap->next_seq = 0;
	heap->cap = cap ? cap : 64;
	heap->ev = malloc(heap->cap * sizeof(*heap->ev));
	return heap->ev ? 0 : -ENOMEM;
}

void sim_heap_free(struct sim_heap *heap)
{
	free(heap->ev);
	heap->ev = NULL;
	heap->len = heap->cap = 0;
}

void sim_heap_clear(struct sim_heap *heap)
{
	heap->len = 0;
	heap->next_seq = 0;
}

int sim_heap_push(struct sim_heap *heap, int64_t time, uint16_t type,
		  uint32_t node, uint32_t arg, uint32_t arg2)
{
	struct sim_event ev = {
		.time = time, .seq = heap->next_seq++, .node = node,
		.arg = arg, .arg2 = arg2, .type = type,
	};
	unsigned __int128 key = sim_event_key(&ev);
	size_t i;

	if (heap->len == heap->cap) {
		size_t cap = 2 * heap->cap;
		struct sim_event *grown = realloc(heap->ev, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		heap->ev = grown;
		heap->cap = cap;
	}
	/* Sift up: move parents down until ev fits. */
	for (i = heap->len++; i > 0; ) {
		size_t parent = (i - 1) / ARITY;

		if (key >= sim_event_key(&heap->ev[parent]))
			break;
		heap->ev[i] = heap->ev[parent];
		i = parent;
	}
	heap->ev[i] = ev;
	return 0;
}

/* Return: 1 with the earliest event in @out, 0 when empty. */
int sim_heap_pop(struct sim_heap *heap, struct sim_event *out)
{
	struct sim_event last;
	unsigned __int128 last_key;
	size_t i = 0;

	if (!heap->len)
		return 0;
	*out = heap->ev[0];
	last = heap->ev[--heap->len];
	last_key = sim_event_key(&last);
	/* Sift the former last element down from the root. */
	for (;;) {
		size_t first = ARITY * i + 1, end, c, best;
		unsigned __int128 best_key;

		if (first >= heap->len)
			break;
		end = first + ARITY < heap->len ? first + ARITY : heap->len;
		best = first;
		best_key = sim_event_key(&heap->ev[first]);
		for (c = first + 1; c < end; c++) {
			unsigned __int128 k = sim_event_key(&heap->ev[c]);

			if (k < best_key) {
				best = c;
				best_key = k;
			}
		}
		if (best_key >= last_key)
			break;
		heap->ev[i] = heap->ev[best];
		i = best;
	}
	if (heap->len)
		heap->ev[i] = last;
	return 1;
}
