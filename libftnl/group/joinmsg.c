// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The join protocol's codec (joinmsg.h).
 */
#include <errno.h>

#include <ftnl/group.h>

#include "group/hello.h"
#include "group/joinmsg.h"

int grp_join_msg_frame(const uint8_t *buf, size_t avail, size_t *len)
{
	uint32_t n;

	if (avail < 8)
		return -EAGAIN;
	if (buf[0] != GRP_JOIN_MAGIC0 || buf[1] != GRP_JOIN_MAGIC1)
		return -EBADMSG;
	if (buf[2] != GRP_JOIN_VERSION)
		return -EPROTONOSUPPORT;
	n = bytes_get_le32(buf + 4);
	switch (buf[3]) {
	case GRP_JOIN_T_JOIN:
		if (n != GRP_JOIN_LEN)
			return -EBADMSG;
		break;
	case GRP_JOIN_T_WELCOME:
		if (n < GRP_WELCOME_HDR_LEN + 8 ||
		    n > GRP_WELCOME_HDR_LEN + 8ull * FTNL_GROUP_MAX_SIZE ||
		    (n - GRP_WELCOME_HDR_LEN) % 8)
			return -EBADMSG;
		break;
	default:
		return -EBADMSG;
	}
	*len = n;
	return 0;
}

size_t grp_join_msg_size(const struct grp_join_msg *m)
{
	if (m->type == GRP_JOIN_T_JOIN)
		return GRP_JOIN_LEN;
	return GRP_WELCOME_HDR_LEN + 8 * (size_t)m->count;
}

size_t grp_join_msg_encode(const struct grp_join_msg *m, uint8_t *buf,
			   size_t cap)
{
	size_t len = grp_join_msg_size(m);

	if (cap < len || len > UINT32_MAX)
		return 0;
	buf[0] = GRP_JOIN_MAGIC0;
	buf[1] = GRP_JOIN_MAGIC1;
	buf[2] = GRP_JOIN_VERSION;
	buf[3] = m->type;
	bytes_put_le32(buf + 4, (uint32_t)len);
	bytes_put_le64(buf + 8, m->job);
	bytes_put_le32(buf + 16, m->inc);
	if (m->type == GRP_JOIN_T_JOIN)
		return len;
	bytes_put_le32(buf + 20, m->joiner_inc);
	bytes_put_le64(buf + 24, m->view_id);
	bytes_put_le32(buf + 32, m->count);
	for (uint32_t i = 0; i < m->count; i++) {
		bytes_put_le32(buf + GRP_WELCOME_HDR_LEN + 8 * i,
			       m->members[i]);
		bytes_put_le32(buf + GRP_WELCOME_HDR_LEN + 8 * i + 4,
			       m->incs[i]);
	}
	return len;
}

int grp_join_msg_decode(const uint8_t *buf, size_t len, uint32_t world,
			struct grp_join_msg *m)
{
	size_t flen;
	int err = grp_join_msg_frame(buf, len, &flen);

	if (err == -EAGAIN || (!err && flen != len))
		return -EBADMSG;
	if (err)
		return err;
	m->type = buf[3];
	m->job = bytes_get_le64(buf + 8);
	m->inc = bytes_get_le32(buf + 16);
	if (!m->inc)
		return -EBADMSG;
	if (m->type == GRP_JOIN_T_JOIN)
		return 0;
	m->joiner_inc = bytes_get_le32(buf + 20);
	m->view_id = bytes_get_le64(buf + 24);
	m->count = bytes_get_le32(buf + 32);
	if (!m->joiner_inc || m->count != (len - GRP_WELCOME_HDR_LEN) / 8 ||
	    m->count > world)
		return -EBADMSG;
	for (uint32_t i = 0; i < m->count; i++) {
		const uint8_t *p = buf + GRP_WELCOME_HDR_LEN + 8 * i;

		m->members[i] = bytes_get_le32(p);
		m->incs[i] = bytes_get_le32(p + 4);
		if (m->members[i] >= world || !m->incs[i] ||
		    (i && m->members[i] <= m->members[i - 1]))
			return -EBADMSG;
	}
	return 0;
}
