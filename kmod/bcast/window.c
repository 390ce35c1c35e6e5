// SPDX-License-Identifier: GPL-2.0
/*
 * Per-origin windows of broadcast numbers (window.h), pure: no allocation,
 * O(FTNL_BCAST_WINDOW / 64) per call at most.
 */

#include "window.h"

static u32 ftnl_window_word(u64 seq)
{
	return (u32)(seq % FTNL_BCAST_WINDOW) / 64;
}

static u64 ftnl_window_bit(u64 seq)
{
	return 1ULL << (seq % 64);
}

static bool ftnl_window_test(const u64 *map, u64 seq)
{
	return map[ftnl_window_word(seq)] & ftnl_window_bit(seq);
}

static void ftnl_window_set(u64 *map, u64 seq)
{
	map[ftnl_window_word(seq)] |= ftnl_window_bit(seq);
}

static void ftnl_window_clear(struct ftnl_bcast_window *w, u64 seq)
{
	u32 c;

	w->seen[ftnl_window_word(seq)] &= ~ftnl_window_bit(seq);
	for (c = 0; c < FTNL_BCAST_WINDOW_CUBES; c++)
		w->forwarded[c][ftnl_window_word(seq)] &= ~ftnl_window_bit(seq);
}

/**
 * ftnl_bcast_window_check - has this node taken part in a broadcast?
 * @w: its origin's window
 * @incarnation: the broadcast's origin incarnation (non-zero)
 * @seq: its number (from 1)
 *
 * Return: FTNL_WINDOW_NEW, _SEEN, or _OLD (number 0, below the window, or
 * an incarnation older than the window's).
 */
enum ftnl_bcast_window_verdict
ftnl_bcast_window_check(const struct ftnl_bcast_window *w, u64 incarnation,
			u64 seq)
{
	if (!seq || !incarnation)
		return FTNL_WINDOW_OLD;
	if (!w->incarnation || incarnation > w->incarnation)
		return FTNL_WINDOW_NEW;
	if (incarnation < w->incarnation)
		return FTNL_WINDOW_OLD;
	if (seq > w->top)
		return FTNL_WINDOW_NEW;
	if (w->top - seq >= FTNL_BCAST_WINDOW)
		return FTNL_WINDOW_OLD;
	return ftnl_window_test(w->seen, seq) ? FTNL_WINDOW_SEEN :
						FTNL_WINDOW_NEW;
}

/**
 * ftnl_bcast_window_mark - record a broadcast as delivered
 * @w: its origin's window
 * @incarnation: the origin's incarnation
 * @seq: the broadcast's number
 *
 * A newer incarnation starts the window afresh; a number above the top
 * slides it, forgetting what falls out.
 *
 * Return: true if it was new (now seen), false if seen or old (nothing
 * changed).
 */
bool ftnl_bcast_window_mark(struct ftnl_bcast_window *w, u64 incarnation,
			    u64 seq)
{
	u64 s;

	if (ftnl_bcast_window_check(w, incarnation, seq) != FTNL_WINDOW_NEW)
		return false;
	if (!w->incarnation || incarnation > w->incarnation) {
		*w = (struct ftnl_bcast_window){
			.incarnation = incarnation,
			.top = seq,
		};
	} else if (seq > w->top) {
		if (seq - w->top >= FTNL_BCAST_WINDOW) {
			for (s = 0; s < FTNL_BCAST_WINDOW; s++)
				ftnl_window_clear(w, s);
		} else {
			for (s = w->top + 1; s <= seq; s++)
				ftnl_window_clear(w, s);
		}
		w->top = seq;
	}
	ftnl_window_set(w->seen, seq);
	return true;
}

/**
 * ftnl_bcast_window_forwarded - was a delivered broadcast forwarded in @cube?
 * @w: its origin's window
 * @incarnation: the origin's incarnation
 * @seq: the broadcast's number
 * @cube: the copy's cube
 *
 * Return: true if seen here and forwarded in @cube (or @cube is invalid):
 * another copy in @cube needs no work at all.
 */
bool ftnl_bcast_window_forwarded(const struct ftnl_bcast_window *w,
				 u64 incarnation, u64 seq, u8 cube)
{
	return cube >= FTNL_BCAST_WINDOW_CUBES ||
	       (ftnl_bcast_window_check(w, incarnation, seq) == FTNL_WINDOW_SEEN &&
		ftnl_window_test(w->forwarded[cube], seq));
}

/**
 * ftnl_bcast_window_forward_once - may this node forward a broadcast in
 *	@cube now?
 * @w: its origin's window
 * @incarnation: the origin's incarnation
 * @seq: the broadcast's number, delivered here (ftnl_bcast_window_mark())
 * @cube: the copy's cube, below FTNL_BCAST_WINDOW_CUBES
 *
 * Return: true the first time for (@seq, @cube), which is then recorded;
 * false afterwards, for a broadcast not delivered here, or one that left
 * the window.
 */
bool ftnl_bcast_window_forward_once(struct ftnl_bcast_window *w,
				    u64 incarnation, u64 seq, u8 cube)
{
	if (cube >= FTNL_BCAST_WINDOW_CUBES ||
	    ftnl_bcast_window_check(w, incarnation, seq) != FTNL_WINDOW_SEEN ||
	    ftnl_window_test(w->forwarded[cube], seq))
		return false;
	ftnl_window_set(w->forwarded[cube], seq);
	return true;
}
