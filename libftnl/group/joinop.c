// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The agreed value of a view: ULFM's, plus the joiners (joinop.h).
 */
#include <errno.h>
#include <string.h>

#include "../bytes.h"
#include "group/joinop.h"

struct join_part {
	uint64_t count;
	struct grp_joiner j[GRP_JOIN_SLOTS];
};

static const struct grp_join_op *to_jop(const struct era_op *op)
{
	return op->priv;
}

static struct join_part *part(const struct grp_join_op *jop, void *v)
{
	return (struct join_part *)((uint8_t *)v + jop->ulfm.op.value_size);
}

static const struct join_part *part_c(const struct grp_join_op *jop,
				      const void *v)
{
	return (const struct join_part *)((const uint8_t *)v +
					  jop->ulfm.op.value_size);
}

/* @dst = the union of @a and @b, highest incarnation per rank, cut. */
static void merge(struct join_part *dst, const struct join_part *a,
		  const struct join_part *b)
{
	struct join_part out = { 0 };
	uint64_t i = 0, k = 0;

	while ((i < a->count || k < b->count) && out.count < GRP_JOIN_SLOTS) {
		struct grp_joiner next;

		if (k >= b->count ||
		    (i < a->count && a->j[i].rank < b->j[k].rank)) {
			next = a->j[i++];
		} else if (i >= a->count || b->j[k].rank < a->j[i].rank) {
			next = b->j[k++];
		} else {
			next = a->j[i];
			if (b->j[k].inc > next.inc)
				next.inc = b->j[k].inc;
			i++;
			k++;
		}
		out.j[out.count++] = next;
	}
	*dst = out;
}

static void jop_identity(const struct era_op *op, void *v)
{
	const struct grp_join_op *jop = to_jop(op);

	jop->ulfm.op.identity(&jop->ulfm.op, v);
	memset(part(jop, v), 0, sizeof(struct join_part));
}

static void jop_combine(const struct era_op *op, void *dst, const void *src)
{
	const struct grp_join_op *jop = to_jop(op);
	struct join_part *d = part(jop, dst);

	jop->ulfm.op.combine(&jop->ulfm.op, dst, src);
	merge(d, d, part_c(jop, src));
}

static size_t jop_wire_size(const struct era_op *op, const void *v)
{
	const struct grp_join_op *jop = to_jop(op);

	return 1 + 8 * part_c(jop, v)->count +
	       jop->ulfm.op.wire_size(&jop->ulfm.op, v);
}

static size_t jop_encode(const struct era_op *op, const void *v, uint8_t *buf)
{
	const struct grp_join_op *jop = to_jop(op);
	const struct join_part *jp = part_c(jop, v);
	size_t off = 1;

	buf[0] = (uint8_t)jp->count;
	for (uint64_t i = 0; i < jp->count; i++, off += 8) {
		bytes_put_le32(buf + off, jp->j[i].rank);
		bytes_put_le32(buf + off + 4, jp->j[i].inc);
	}
	return off + jop->ulfm.op.encode(&jop->ulfm.op, v, buf + off);
}

static int jop_decode(const struct era_op *op, const uint8_t *buf, size_t len,
		      void *v)
{
	const struct grp_join_op *jop = to_jop(op);
	struct join_part jp = { 0 };
	size_t off = 1;
	int err;

	if (len < 1 || buf[0] > GRP_JOIN_SLOTS ||
	    len - 1 < 8 * (size_t)buf[0])
		return -EBADMSG;
	jp.count = buf[0];
	for (uint64_t i = 0; i < jp.count; i++, off += 8) {
		jp.j[i].rank = bytes_get_le32(buf + off);
		jp.j[i].inc = bytes_get_le32(buf + off + 4);
		if (jp.j[i].rank >= jop->world || !jp.j[i].inc ||
		    (i && jp.j[i].rank <= jp.j[i - 1].rank))
			return -EBADMSG;
	}
	err = jop->ulfm.op.decode(&jop->ulfm.op, buf + off, len - off, v);
	if (err)
		return err;
	*part(jop, v) = jp;
	return 0;
}

static void jop_add_dead(const struct era_op *op, void *v,
			 const uint64_t *dead, uint32_t nranks)
{
	const struct grp_join_op *jop = to_jop(op);

	jop->ulfm.op.add_dead(&jop->ulfm.op, v, dead, nranks);
}

static bool jop_is_dead(const struct era_op *op, const void *v, uint32_t rank)
{
	const struct grp_join_op *jop = to_jop(op);

	return jop->ulfm.op.is_dead(&jop->ulfm.op, v, rank);
}

void grp_join_op_init(struct grp_join_op *jop, uint32_t nranks,
		      uint32_t world)
{
	era_ulfm_init(&jop->ulfm, nranks);
	jop->world = world;
	jop->op = (struct era_op){
		.value_size = jop->ulfm.op.value_size +
			      sizeof(struct join_part),
		.identity = jop_identity,
		.combine = jop_combine,
		.wire_size = jop_wire_size,
		.encode = jop_encode,
		.decode = jop_decode,
		.add_dead = jop_add_dead,
		.is_dead = jop_is_dead,
		.priv = jop,
	};
}

uint32_t grp_join_count(const struct grp_join_op *jop, const void *v)
{
	return (uint32_t)part_c(jop, v)->count;
}

const struct grp_joiner *grp_join_list(const struct grp_join_op *jop,
				       const void *v)
{
	return part_c(jop, v)->j;
}

void grp_join_add(const struct grp_join_op *jop, void *v, uint32_t rank,
		  uint32_t inc)
{
	struct join_part one = { .count = 1, .j[0] = { rank, inc } };
	struct join_part *jp = part(jop, v);

	if (rank < jop->world && inc)
		merge(jp, jp, &one);
}
