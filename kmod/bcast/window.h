/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Broadcast de-duplication, pure: one sliding window of broadcast numbers
 * per origin. An origin numbers its broadcasts 1, 2, ... within one
 * incarnation (struct ftnl_transport's bcast_seq), so a receiver need only
 * remember, per origin, the highest number it took part in and which of
 * the FTNL_BCAST_WINDOW numbers below that it has seen: memory is bounded per
 * origin and the answer is exact inside the window, whatever the burst
 * (a FIFO of recent broadcasts forgets a broadcast after so many others,
 * from any origin, and then delivers a late copy again).
 *
 * Below the window, or from an older incarnation of the origin, the answer
 * is "old": the node may or may not have had it, so it must neither be
 * delivered again nor forwarded. Nothing is lost for node deaths: a
 * broadcast carries its origin's D, so the later broadcast that moved the
 * window carried every node death the old one did.
 */
#ifndef _FTNL_BCAST_WINDOW_H
#define _FTNL_BCAST_WINDOW_H

#include "../compat.h"

/* Broadcast numbers remembered per origin below the highest; 64 | it. */
#define FTNL_BCAST_WINDOW	128
#define FTNL_BCAST_WINDOW_WORDS	(FTNL_BCAST_WINDOW / 64)
/* Copies a broadcast is forwarded in: the dual hypercube's two cubes. */
#define FTNL_BCAST_WINDOW_CUBES	2

enum ftnl_bcast_window_verdict {
	FTNL_WINDOW_NEW,	/* never taken part in: deliver */
	FTNL_WINDOW_SEEN,	/* delivered before: a duplicate */
	FTNL_WINDOW_OLD,	/* below the window or an older life: drop */
};

/**
 * struct ftnl_bcast_window - what one origin's broadcasts did here
 * @incarnation: the origin's incarnation they belong to, 0 if none yet
 * @top: the highest broadcast number recorded
 * @seen: bit (seq % FTNL_BCAST_WINDOW) set once seq was delivered, for
 *	seq in (@top - FTNL_BCAST_WINDOW, @top]
 * @forwarded: likewise, once forwarded in cube c
 */
struct ftnl_bcast_window {
	u64 incarnation;
	u64 top;
	u64 seen[FTNL_BCAST_WINDOW_WORDS];
	u64 forwarded[FTNL_BCAST_WINDOW_CUBES][FTNL_BCAST_WINDOW_WORDS];
};

enum ftnl_bcast_window_verdict
ftnl_bcast_window_check(const struct ftnl_bcast_window *w, u64 incarnation,
			u64 seq);
bool ftnl_bcast_window_mark(struct ftnl_bcast_window *w, u64 incarnation,
			    u64 seq);
bool ftnl_bcast_window_forwarded(const struct ftnl_bcast_window *w,
				 u64 incarnation, u64 seq, u8 cube);
bool ftnl_bcast_window_forward_once(struct ftnl_bcast_window *w,
				    u64 incarnation, u64 seq, u8 cube);

#endif /* _FTNL_BCAST_WINDOW_H */
