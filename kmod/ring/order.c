// SPDX-License-Identifier: GPL-2.0
/*
 * The ring order (see order.h). Without failure domains the ring runs in
 * ascending id order, as it always has. With them, the order interleaves
 * domains so that no two ring neighbours share one whenever the table
 * allows it, so that a whole domain failing never forms a run of
 * consecutive dead nodes: each of its nodes is then found by its own
 * observer within about d, instead of Theorem 1's walk of d(2f - 1).
 *
 * Construction: list the entries grouped by domain, largest domain first
 * (ties by name, then ids ascending within a domain): L[0..n-1]. Deal the
 * list onto the ring, L[0..ceil(n/2)-1] onto the even positions 0, 2, 4,
 * ... and the rest onto the odd positions 1, 3, 5, ... . Every domain is
 * a contiguous run of L.
 *
 * Claim: if the largest domain has m <= floor(n/2) nodes (and n >= 2),
 * no two ring neighbours share a domain; and m <= floor(n/2) is also
 * necessary, because each of the m nodes needs a successor outside its
 * domain and successors are distinct, so m <= n - m.
 *
 * Proof, h = ceil(n/2): position 2k holds L[k], position 2k+1 holds
 * L[h+k]. Two entries in one domain are fewer than m <= floor(n/2) apart
 * in L. Neighbours (2k, 2k+1) are h >= m apart: different domains.
 * Neighbours (2k+1, 2k+2), 2k+2 < n, are L[h+k] and L[k+1], h-1 apart,
 * spanning h entries of L: for n odd h = m + 1 or more, more than any
 * domain; for n even they share a domain only if it is exactly the run
 * L[k+1..h+k] of m = h entries starting after L[0] - but the largest
 * domain comes first and starts at L[0], so a second domain of h entries
 * is L[h..n-1], i.e. k + 1 = h, making 2k+2 = n, not a position. The
 * wrap-around (last position, 0) holds L[0] and L[n-1] (n even) or L[h-1]
 * (n odd): n-1 resp. h-1 apart, spanning n resp. h entries, more than m.
 *
 * When the largest domain is larger than n/2, the same dealing leaves
 * exactly 2m - n neighbour pairs inside it, the fewest possible (the
 * unit test checks both properties for every small multiset of domain
 * sizes).
 *
 * No allocation, no recursion: heapsort on caller memory.
 */

#include "order.h"

/* strcmp() without string.h: "" and NULL are the same, "no domain". */
static int ftnl_domain_cmp(const char *a, const char *b)
{
	if (!a)
		a = "";
	if (!b)
		b = "";
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

static bool ftnl_domain_none(const char *domain)
{
	return !domain || !*domain;
}

/* Entries are ordered by domain then id; no domain sorts by id alone. */
static int ftnl_member_cmp_domain(const struct ftnl_ring_member *members,
				  u32 a, u32 b)
{
	int r = 0;

	/* A node without a domain is a domain of its own. */
	if (!ftnl_domain_none(members[a].domain) ||
	    !ftnl_domain_none(members[b].domain))
		r = ftnl_domain_cmp(members[a].domain, members[b].domain);
	if (r)
		return r;
	if (members[a].id != members[b].id)
		return members[a].id < members[b].id ? -1 : 1;
	return 0;
}

/* Final order: domain size descending, then domain, then id. */
struct ftnl_order_ctx {
	const struct ftnl_ring_member *members;
	const u32 *size;	/* per entry: its domain's size */
	bool by_size;
};

static int ftnl_order_cmp(const struct ftnl_order_ctx *ctx, u32 a, u32 b)
{
	if (ctx->by_size && ctx->size[a] != ctx->size[b])
		return ctx->size[a] > ctx->size[b] ? -1 : 1;
	return ftnl_member_cmp_domain(ctx->members, a, b);
}

static void ftnl_sift_down(const struct ftnl_order_ctx *ctx, u32 *v, u32 root,
			   u32 end)
{
	u32 child, tmp;

	while ((child = 2 * root + 1) < end) {
		if (child + 1 < end &&
		    ftnl_order_cmp(ctx, v[child], v[child + 1]) < 0)
			child++;
		if (ftnl_order_cmp(ctx, v[root], v[child]) >= 0)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

static void ftnl_heapsort(const struct ftnl_order_ctx *ctx, u32 *v, u32 n)
{
	u32 i, tmp;

	for (i = n / 2; i-- > 0;)
		ftnl_sift_down(ctx, v, i, n);
	for (i = n; i-- > 1;) {
		tmp = v[0];
		v[0] = v[i];
		v[i] = tmp;
		ftnl_sift_down(ctx, v, 0, i);
	}
}

/**
 * ftnl_ring_order_has_domains - does any entry name a failure domain
 * @members: the table
 * @n: its size
 *
 * Return: true if at least one entry has a domain.
 */
bool ftnl_ring_order_has_domains(const struct ftnl_ring_member *members,
				 u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!ftnl_domain_none(members[i].domain))
			return true;
	return false;
}

/**
 * ftnl_ring_order_max_domain - size of the largest failure domain
 * @members: the table
 * @sorted: entry indices sorted by domain (as ftnl_ring_order() leaves
 *	them in its @scratch when the table has domains; any grouping by
 *	domain will do)
 * @n: table size
 *
 * Return: the largest number of entries sharing a domain (1 when no entry
 * has one, 0 for an empty table).
 */
u32 ftnl_ring_order_max_domain(const struct ftnl_ring_member *members,
			       const u32 *sorted, u32 n)
{
	u32 i, run = 0, max = 0;

	for (i = 0; i < n; i++) {
		if (i && !ftnl_domain_none(members[sorted[i]].domain) &&
		    !ftnl_domain_cmp(members[sorted[i]].domain,
				     members[sorted[i - 1]].domain))
			run++;
		else
			run = 1;
		if (run > max)
			max = run;
	}
	return max;
}

/**
 * ftnl_ring_order - ring position of every table entry
 * @members: the table, in any order; ids unique
 * @n: its size
 * @ring: out, n entries: @ring[pos] is the index in @members of the entry
 *	at ring position pos
 * @scratch: n entries of caller memory; on return, the entries grouped by
 *	domain, largest domain first (the list L above)
 *
 * Without any domain, the ring is in ascending id order. Deterministic:
 * the same table in any order yields the same sequence of ids.
 */
void ftnl_ring_order(const struct ftnl_ring_member *members, u32 n,
		     u32 *ring, u32 *scratch)
{
	struct ftnl_order_ctx ctx = { .members = members };
	u32 i, start, end, half;

	for (i = 0; i < n; i++)
		scratch[i] = i;
	ftnl_heapsort(&ctx, scratch, n);
	if (!ftnl_ring_order_has_domains(members, n)) {
		for (i = 0; i < n; i++)
			ring[i] = scratch[i];
		return;
	}

	/* @ring holds each entry's domain size until the dealing. */
	for (start = 0; start < n; start = end) {
		for (end = start + 1; end < n; end++)
			if (ftnl_domain_none(members[scratch[start]].domain) ||
			    ftnl_domain_cmp(members[scratch[end]].domain,
					    members[scratch[start]].domain))
				break;
		for (i = start; i < end; i++)
			ring[scratch[i]] = end - start;
	}
	ctx.size = ring;
	ctx.by_size = true;
	ftnl_heapsort(&ctx, scratch, n);

	half = (n + 1) / 2;
	for (i = 0; i < n; i++)
		ring[i < half ? 2 * i : 2 * (i - half) + 1] = scratch[i];
}
