// SPDX-License-Identifier: GPL-2.0
/*
 * Neighbors(s, D) of the ring paper's broadcast, and the binomial graph
 * of ULFM. Pure code: compiled into the module, the userspace tests and
 * the simulator.
 *
 * Dual hypercube (ring paper, section 2). With n = |A| participants and
 * k = floor(log2 n), so that 2^k <= n < 2^(k+1), two hypercubes of 2^k
 * nodes each contain the source (label 0):
 *
 *   cube 0: coordinate c <-> label c,               0 <= c < 2^k
 *   cube 1: coordinate c <-> label (n - c) mod n,   0 <= c < 2^k
 *
 * (the extracted text reads "the subcube of nodes n -/- j mod n"; we read
 * it as label (n - j) mod n). Labels 0..2^k-1 and 0, n-1, ..., n-2^k+1
 * together cover all n labels because 2^(k+1) > n. Each cube runs the
 * reliable hypercube broadcast of Ramanathan and Shin: the source sends
 * along every dimension; a node that first receives along dimension i
 * forwards along dimensions i+1, ..., k-1, 0, ..., i-1. Every node thus
 * sends to all its cube neighbors but the one it heard from, so the
 * message floods the cube; a k-cube stays connected after any k-1 node
 * failures (its connectivity is k), hence every live member is reached
 * while at most k-1 participants fail, which tools' exhaustive test
 * checks for every n up to 2048. In the one-port model a node's k sends
 * take k steps, so a cube completes in at most 2k steps, 4k for both.
 */

#include "topology.h"

static u32 ftnl_rank(const unsigned long *dead, u32 pos)
{
	u32 word, rank = 0;

	for (word = 0; word < pos / BITS_PER_LONG; word++)
		rank += BITS_PER_LONG - ftnl_popcount_long(dead[word]);
	if (pos % BITS_PER_LONG) {
		unsigned long below = (1UL << (pos % BITS_PER_LONG)) - 1;

		rank += ftnl_popcount_long(~dead[word] & below);
	}
	return rank;
}

/**
 * ftnl_bcast_view_init - the participants of a broadcast
 * @view: filled in
 * @dead: the message's D (must not contain @src_pos)
 * @npos: cluster size
 * @src_pos: the source's position
 */
void ftnl_bcast_view_init(struct ftnl_bcast_view *view,
			  const unsigned long *dead, u32 npos, u32 src_pos)
{
	view->dead = dead;
	view->npos = npos;
	view->n = ftnl_rank(dead, npos);
	view->src_rank = ftnl_rank(dead, src_pos);
}

/* Label of the participant at @pos (which must not be in D). */
u32 ftnl_bcast_label(const struct ftnl_bcast_view *view, u32 pos)
{
	u32 rank = ftnl_rank(view->dead, pos);

	return (rank + view->n - view->src_rank) % view->n;
}

/* Position of the participant labeled @label. */
u32 ftnl_bcast_pos(const struct ftnl_bcast_view *view, u32 label)
{
	u32 rank = (label + view->src_rank) % view->n, word = 0, alive, pos;

	/* Skip whole words first; the rank-th live position exists. */
	while (word + 1 < ftnl_bitmap_longs(view->npos)) {
		alive = BITS_PER_LONG - ftnl_popcount_long(view->dead[word]);
		if (rank < alive)
			break;
		rank -= alive;
		word++;
	}
	for (pos = word * BITS_PER_LONG; pos < view->npos; pos++) {
		if (ftnl_bit_test(view->dead, pos))
			continue;
		if (!rank--)
			return pos;
	}
	return view->npos;	/* not reached for a valid label */
}

/* k = floor(log2 n); 0 for n = 1. */
u32 ftnl_hcube_dim(u32 n)
{
	u32 k = 0;

	while (k < 31 && (2U << k) <= n)
		k++;
	return k;
}

/**
 * ftnl_hcube_coord - where a label sits in one of the two cubes
 * @n: participants
 * @cube: 0 or 1
 * @label: the participant
 * @coord: set to its coordinate when it is a member
 *
 * Return: whether @label is a member of @cube.
 */
bool ftnl_hcube_coord(u32 n, u32 cube, u32 label, u32 *coord)
{
	u32 size = 1U << ftnl_hcube_dim(n);
	u32 c = cube ? (n - label) % n : label;

	if (c >= size)
		return false;
	*coord = c;
	return true;
}

u32 ftnl_hcube_label(u32 n, u32 cube, u32 coord)
{
	return cube ? (n - coord) % n : coord;
}

/**
 * ftnl_hcube_forward - Neighbors(s, D) in one cube
 * @n: participants
 * @cube: 0 or 1
 * @label: the forwarding node, a member of @cube
 * @from_label: the node it first received from in @cube, or @label itself
 *	when it is the source
 * @to_labels: filled with the labels to send to, in order
 *
 * Return: how many (at most k).
 */
u32 ftnl_hcube_forward(u32 n, u32 cube, u32 label, u32 from_label,
		       u32 *to_labels)
{
	u32 k = ftnl_hcube_dim(n), coord, from_coord, first = 0, count = 0;
	u32 diff, i;

	if (!ftnl_hcube_coord(n, cube, label, &coord))
		return 0;
	if (from_label != label) {
		if (!ftnl_hcube_coord(n, cube, from_label, &from_coord))
			return 0;
		diff = coord ^ from_coord;
		/* Not a cube neighbor: no valid arrival dimension. */
		if (!diff || (diff & (diff - 1)))
			return 0;
		while (!((diff >> first) & 1))
			first++;
		first++;	/* start after the arrival dimension */
	}
	for (i = 0; i < k; i++) {
		u32 dim = (first + i) % k;

		if (from_label != label && i == k - 1)
			break;	/* that is the arrival dimension */
		to_labels[count++] = ftnl_hcube_label(n, cube, coord ^ (1U << dim));
	}
	return count;
}

/* ceil(log2 n): the number of distances 2^j below n. */
u32 ftnl_bmg_degree(u32 n)
{
	u32 j = 0;

	while (j < 31 && (1U << j) < n)
		j++;
	return j;
}

/**
 * ftnl_bmg_forward - binomial graph neighbors: label +/- 2^j mod n
 * @n: participants
 * @label: the forwarding node
 * @to_labels: filled with up to 2 * ceil(log2 n) distinct labels, the
 *	"+" side first, nearest first
 *
 * Every node forwards to all of them on first receipt (ULFM's BMG flood).
 *
 * Return: how many.
 */
u32 ftnl_bmg_forward(u32 n, u32 label, u32 *to_labels)
{
	u32 deg = ftnl_bmg_degree(n), count = 0, j, side, cand, i;
	bool dup;

	for (side = 0; side < 2; side++) {
		for (j = 0; j < deg; j++) {
			u32 step = (1U << j) % n;

			cand = side ? (label + n - step) % n : (label + step) % n;
			if (cand == label)
				continue;
			dup = false;
			for (i = 0; i < count; i++)
				dup |= to_labels[i] == cand;
			if (!dup)
				to_labels[count++] = cand;
		}
	}
	return count;
}
