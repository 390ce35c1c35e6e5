// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Building requests and parsing replies of the ftnl family. Pure functions
 * over byte buffers; the socket side is in netlink_io.c.
 *
 * Parsing is strict about what it understands (an attribute of a known type
 * must have exactly the size the contract gives it, attributes must tile the
 * message exactly) and lenient about what it does not (unknown attribute
 * types are skipped, so a newer module may add attributes).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/**
 * ftnl_attr_walk() - call @fn on each attribute of a region, strictly
 * @start: first attribute
 * @len: bytes the attributes occupy
 * @fn: called for each attribute; a nonzero return stops the walk
 * @arg: passed to @fn
 *
 * Unlike mnl_attr_parse(), a truncated attribute or trailing bytes are an
 * error rather than the silent end of the walk.
 *
 * Return: 0, what @fn returned, or -EBADMSG.
 */
int ftnl_attr_walk(const void *start, size_t len, ftnl_attr_fn fn, void *arg)
{
	const struct nlattr *attr = start;
	size_t left = len, step;
	int err;

	while (left > 0) {
		if (left < sizeof(*attr) || attr->nla_len < sizeof(*attr) ||
		    attr->nla_len > left)
			return -EBADMSG;
		err = fn(attr, arg);
		if (err)
			return err;
		/* The last attribute may omit its alignment padding. */
		step = MNL_ALIGN((size_t)attr->nla_len);
		if (step >= left)
			break;
		left -= step;
		attr = (const struct nlattr *)((const char *)attr + step);
	}
	return 0;
}

/**
 * ftnl_genl_walk() - walk the attributes of a generic netlink message
 * @nlh: the message
 * @fn: as for ftnl_attr_walk()
 * @arg: as for ftnl_attr_walk()
 *
 * Return: as ftnl_attr_walk(); -EBADMSG if the message is shorter than its
 * generic netlink header.
 */
int ftnl_genl_walk(const struct nlmsghdr *nlh, ftnl_attr_fn fn, void *arg)
{
	if (nlh->nlmsg_len < FTNL_GENL_HDRLEN)
		return -EBADMSG;
	return ftnl_attr_walk((const char *)nlh + FTNL_GENL_HDRLEN,
			      nlh->nlmsg_len - FTNL_GENL_HDRLEN, fn, arg);
}

static int ftnl_attr_fixed(const struct nlattr *attr, void *value, size_t size)
{
	if (mnl_attr_get_payload_len(attr) != size)
		return -EBADMSG;
	memcpy(value, mnl_attr_get_payload(attr), size);
	return 0;
}

int ftnl_attr_u8(const struct nlattr *attr, uint8_t *value)
{
	return ftnl_attr_fixed(attr, value, sizeof(*value));
}

int ftnl_attr_u16(const struct nlattr *attr, uint16_t *value)
{
	return ftnl_attr_fixed(attr, value, sizeof(*value));
}

int ftnl_attr_u32(const struct nlattr *attr, uint32_t *value)
{
	return ftnl_attr_fixed(attr, value, sizeof(*value));
}

int ftnl_attr_u64(const struct nlattr *attr, uint64_t *value)
{
	return ftnl_attr_fixed(attr, value, sizeof(*value));
}

/* A flag has no payload. Return: 0 or -EBADMSG. */
int ftnl_attr_flag(const struct nlattr *attr)
{
	return mnl_attr_get_payload_len(attr) ? -EBADMSG : 0;
}

/*
 * A node name (FTNL_A_NODE_NAME, FTNL_A_EVENT_NODE_NAME) into @name, which
 * has FTNL_NODE_NAME_MAX + 1 bytes. Return: 0, or -EBADMSG if it is not a
 * NUL-terminated string of at most FTNL_NODE_NAME_MAX bytes.
 */
int ftnl_attr_node_name(const struct nlattr *attr, char *name)
{
	const char *s = ftnl_attr_str(attr);

	if (!s || strlen(s) > FTNL_NODE_NAME_MAX)
		return -EBADMSG;
	strcpy(name, s);
	return 0;
}

/* The same for a failure domain, into FTNL_NODE_DOMAIN_MAX + 1 bytes. */
static int ftnl_attr_node_domain(const struct nlattr *attr, char *domain)
{
	const char *s = ftnl_attr_str(attr);

	if (!s || strlen(s) > FTNL_NODE_DOMAIN_MAX)
		return -EBADMSG;
	strcpy(domain, s);
	return 0;
}

/* Return: the string if the payload is NUL-terminated, else NULL. */
const char *ftnl_attr_str(const struct nlattr *attr)
{
	size_t len = mnl_attr_get_payload_len(attr);
	const char *s = mnl_attr_get_payload(attr);

	if (!len || s[len - 1] != '\0')
		return NULL;
	return s;
}

/**
 * ftnl_msg_start() - write the netlink and generic netlink headers
 * @buf: buffer of at least FTNL_GENL_HDRLEN bytes, suitably aligned
 * @type: nlmsg_type (the family id)
 * @flags: nlmsg_flags
 * @cmd: generic netlink command
 * @version: generic netlink version
 *
 * Return: the message, ready for mnl_attr_put*().
 */
struct nlmsghdr *ftnl_msg_start(void *buf, uint16_t type, uint16_t flags,
				uint8_t cmd, uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

static size_t ftnl_attr_space(size_t payload)
{
	return MNL_ATTR_HDRLEN + MNL_ALIGN(payload);
}

static size_t ftnl_node_nest_size(const struct ftnl_node *node)
{
	size_t size = MNL_ATTR_HDRLEN;

	size += ftnl_attr_space(sizeof(uint32_t));	/* FTNL_A_NODE_ID */
	size += ftnl_attr_space(sizeof(uint16_t));	/* FTNL_A_NODE_PORT */
	if (node->name[0])
		size += ftnl_attr_space(strnlen(node->name,
						FTNL_NODE_NAME_MAX) + 1);
	if (node->domain[0])
		size += ftnl_attr_space(strnlen(node->domain,
						FTNL_NODE_DOMAIN_MAX) + 1);
	if (node->has_key)
		size += ftnl_attr_space(FTNL_KEY_LEN);
	if (node->has_sign_key)
		size += ftnl_attr_space(FTNL_SIGN_KEY_LEN);
	if (node->family == AF_INET)
		size += ftnl_attr_space(sizeof(struct in_addr));
	else if (node->family == AF_INET6)
		size += ftnl_attr_space(sizeof(struct in6_addr));
	return size;
}

/**
 * ftnl_msg_cluster_set_size() - exact size of a CLUSTER_SET request
 * @config: the configuration
 *
 * Return: bytes ftnl_msg_cluster_set() will write; SIZE_MAX if that does
 * not fit a netlink message (32-bit length).
 */
size_t ftnl_msg_cluster_set_size(const struct ftnl_cluster_config *config)
{
	size_t size = FTNL_GENL_HDRLEN;
	size_t i;

	if (!(config->unset & FTNL_CONFIG_CLUSTER_ID))
		size += ftnl_attr_space(sizeof(uint32_t));
	if (!(config->unset & FTNL_CONFIG_SELF_ID))
		size += ftnl_attr_space(sizeof(uint32_t));
	if (!(config->unset & FTNL_CONFIG_HB_PERIOD))
		size += ftnl_attr_space(sizeof(uint32_t));
	if (!(config->unset & FTNL_CONFIG_TIMEOUT))
		size += ftnl_attr_space(sizeof(uint32_t));
	if (!(config->unset & FTNL_CONFIG_KEY))
		size += ftnl_attr_space(FTNL_KEY_LEN);
	if (config->has_sign_seed)
		size += ftnl_attr_space(FTNL_SIGN_SEED_LEN);
	if (config->has_bcast_algo)
		size += ftnl_attr_space(sizeof(uint8_t));
	if (config->has_fcg_f)
		size += ftnl_attr_space(sizeof(uint8_t));
	if (config->has_gossip_t)
		size += ftnl_attr_space(sizeof(uint32_t));
	if (config->has_rejoin)
		size += ftnl_attr_space(sizeof(uint8_t));
	if (config->has_flap_limit)
		size += ftnl_attr_space(sizeof(uint32_t));
	if (config->has_flap_window)
		size += ftnl_attr_space(sizeof(uint32_t));
	if (config->has_fence)
		size += ftnl_attr_space(sizeof(uint8_t));
	if (config->has_quorum)
		size += ftnl_attr_space(sizeof(uint8_t));
	if (config->has_timeout_min)
		size += ftnl_attr_space(sizeof(uint32_t));
	if (config->has_timeout_nines)
		size += ftnl_attr_space(sizeof(uint8_t));
	if (config->has_epoch)
		size += ftnl_attr_space(sizeof(uint32_t));
	if (config->has_update_grace)
		size += ftnl_attr_space(sizeof(uint32_t));
	if (config->has_incarnation_floor)
		size += ftnl_attr_space(sizeof(uint64_t));
	for (i = 0; i < config->node_count; i++) {
		size += ftnl_node_nest_size(&config->nodes[i]);
		if (size > UINT32_MAX)
			return SIZE_MAX;
	}
	return size;
}

/**
 * ftnl_msg_cluster_set() - build a CLUSTER_SET request
 * @buf: buffer of ftnl_msg_cluster_set_size() bytes, suitably aligned
 * @family_id: the ftnl family id
 * @config: the configuration; fields in @config->unset are left out, as
 *	are the addresses of nodes whose family is neither AF_INET nor
 *	AF_INET6, and the broadcast attributes whose has_ flag is false
 *
 * One FTNL_A_NODE nest per node, at the top level (see the uapi header).
 * Flags are NLM_F_REQUEST | NLM_F_ACK; the sequence number is left 0.
 *
 * Return: the message.
 */
struct nlmsghdr *ftnl_msg_cluster_set(void *buf, uint16_t family_id,
				      const struct ftnl_cluster_config *config)
{
	struct nlmsghdr *nlh;
	size_t i;

	nlh = ftnl_msg_start(buf, family_id, NLM_F_REQUEST | NLM_F_ACK,
			     FTNL_CMD_CLUSTER_SET, FTNL_FAMILY_VERSION);
	if (!(config->unset & FTNL_CONFIG_CLUSTER_ID))
		mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, config->cluster_id);
	if (!(config->unset & FTNL_CONFIG_SELF_ID))
		mnl_attr_put_u32(nlh, FTNL_A_SELF_ID, config->self_id);
	if (!(config->unset & FTNL_CONFIG_HB_PERIOD))
		mnl_attr_put_u32(nlh, FTNL_A_HB_PERIOD_US, config->hb_period_us);
	if (!(config->unset & FTNL_CONFIG_TIMEOUT))
		mnl_attr_put_u32(nlh, FTNL_A_TIMEOUT_US, config->timeout_us);
	if (!(config->unset & FTNL_CONFIG_KEY))
		mnl_attr_put(nlh, FTNL_A_KEY, FTNL_KEY_LEN, config->key);
	if (config->has_sign_seed)
		mnl_attr_put(nlh, FTNL_A_SIGN_SEED, FTNL_SIGN_SEED_LEN,
			     config->sign_seed);
	if (config->has_bcast_algo)
		mnl_attr_put_u8(nlh, FTNL_A_BCAST_ALGO, config->bcast_algo);
	if (config->has_fcg_f)
		mnl_attr_put_u8(nlh, FTNL_A_BCAST_FCG_F, config->fcg_f);
	if (config->has_gossip_t)
		mnl_attr_put_u32(nlh, FTNL_A_BCAST_GOSSIP_T_US,
				 config->gossip_t_us);
	if (config->has_rejoin)
		mnl_attr_put_u8(nlh, FTNL_A_REJOIN, config->rejoin);
	if (config->has_flap_limit)
		mnl_attr_put_u32(nlh, FTNL_A_REJOIN_FLAP_LIMIT,
				 config->flap_limit);
	if (config->has_flap_window)
		mnl_attr_put_u32(nlh, FTNL_A_REJOIN_FLAP_WINDOW_S,
				 config->flap_window_s);
	if (config->has_fence)
		mnl_attr_put_u8(nlh, FTNL_A_FENCE, config->fence);
	if (config->has_quorum)
		mnl_attr_put_u8(nlh, FTNL_A_QUORUM, config->quorum);
	if (config->has_timeout_min)
		mnl_attr_put_u32(nlh, FTNL_A_TIMEOUT_MIN_US,
				 config->timeout_min_us);
	if (config->has_timeout_nines)
		mnl_attr_put_u8(nlh, FTNL_A_TIMEOUT_TARGET_NINES,
				config->timeout_nines);
	if (config->has_epoch)
		mnl_attr_put_u32(nlh, FTNL_A_EPOCH, config->epoch);
	if (config->has_update_grace)
		mnl_attr_put_u32(nlh, FTNL_A_UPDATE_GRACE_S,
				 config->update_grace_s);
	if (config->has_incarnation_floor)
		mnl_attr_put_u64(nlh, FTNL_A_INCARNATION_FLOOR,
				 config->incarnation_floor);

	for (i = 0; i < config->node_count; i++) {
		const struct ftnl_node *node = &config->nodes[i];
		struct nlattr *nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);

		mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, node->id);
		if (node->family == AF_INET)
			mnl_attr_put(nlh, FTNL_A_NODE_ADDR4,
				     sizeof(node->addr.v4), &node->addr.v4);
		else if (node->family == AF_INET6)
			mnl_attr_put(nlh, FTNL_A_NODE_ADDR6,
				     sizeof(node->addr.v6), &node->addr.v6);
		mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, node->port);
		if (node->name[0])
			mnl_attr_put(nlh, FTNL_A_NODE_NAME,
				     strnlen(node->name, FTNL_NODE_NAME_MAX) + 1,
				     node->name);
		if (node->domain[0])
			mnl_attr_put(nlh, FTNL_A_NODE_DOMAIN,
				     strnlen(node->domain,
					     FTNL_NODE_DOMAIN_MAX) + 1,
				     node->domain);
		if (node->has_key)
			mnl_attr_put(nlh, FTNL_A_NODE_KEY, FTNL_KEY_LEN,
				     node->key);
		if (node->has_sign_key)
			mnl_attr_put(nlh, FTNL_A_NODE_SIGN_KEY,
				     FTNL_SIGN_KEY_LEN, node->sign_key);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

/* ---- nlctrl CTRL_CMD_GETFAMILY reply ---------------------------------- */

struct ftnl_family_parse {
	const char *group;
	uint16_t family_id;
	uint32_t version;
	uint32_t group_id;
	bool has_id;
	/* one multicast group entry */
	const char *grp_name;
	uint32_t grp_id;
	bool has_grp_id;
};

static int ftnl_family_grp_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_family_parse *p = arg;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_MCAST_GRP_NAME:
		p->grp_name = ftnl_attr_str(attr);
		return p->grp_name ? 0 : -EBADMSG;
	case CTRL_ATTR_MCAST_GRP_ID:
		p->has_grp_id = true;
		return ftnl_attr_u32(attr, &p->grp_id);
	}
	return 0;
}

static int ftnl_family_grp(const struct nlattr *attr, void *arg)
{
	struct ftnl_family_parse *p = arg;
	int err;

	p->grp_name = NULL;
	p->has_grp_id = false;
	err = ftnl_attr_walk(mnl_attr_get_payload(attr),
			     mnl_attr_get_payload_len(attr),
			     ftnl_family_grp_attr, p);
	if (err)
		return err;
	if (p->grp_name && p->has_grp_id && p->group &&
	    !strcmp(p->grp_name, p->group))
		p->group_id = p->grp_id;
	return 0;
}

static int ftnl_family_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_family_parse *p = arg;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		p->has_id = true;
		return ftnl_attr_u16(attr, &p->family_id);
	case CTRL_ATTR_VERSION:
		return ftnl_attr_u32(attr, &p->version);
	case CTRL_ATTR_MCAST_GROUPS:
		return ftnl_attr_walk(mnl_attr_get_payload(attr),
				      mnl_attr_get_payload_len(attr),
				      ftnl_family_grp, p);
	}
	return 0;
}

/**
 * ftnl_msg_parse_family() - parse nlctrl's reply to CTRL_CMD_GETFAMILY
 * @nlh: the reply
 * @group: name of the multicast group to look up, or NULL
 * @family_id: set to the family id
 * @version: set to the family version
 * @group_id: set to the id of @group, 0 if the family has no such group
 *
 * Return: 0, or -EBADMSG if malformed or without a family id.
 */
int ftnl_msg_parse_family(const struct nlmsghdr *nlh, const char *group,
			  uint16_t *family_id, uint32_t *version,
			  uint32_t *group_id)
{
	struct ftnl_family_parse p = { .group = group };
	int err;

	err = ftnl_genl_walk(nlh, ftnl_family_attr, &p);
	if (err)
		return err;
	if (!p.has_id)
		return -EBADMSG;
	*family_id = p.family_id;
	*version = p.version;
	*group_id = p.group_id;
	return 0;
}

/* ---- FTNL_CMD_INFO_GET reply --------------------------------------------- */

static int ftnl_info_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_info *info = arg;
	const char *version;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_MODULE_VERSION:
		version = ftnl_attr_str(attr);
		if (!version)
			return -EBADMSG;
		snprintf(info->module_version, sizeof(info->module_version),
			 "%s", version);
		return 0;
	case FTNL_A_PROTO_VERSION:
		return ftnl_attr_u32(attr, &info->proto_version);
	case FTNL_A_FEATURES:
		return ftnl_attr_u64(attr, &info->features);
	case FTNL_A_MAX_NODES:
		return ftnl_attr_u32(attr, &info->max_nodes);
	case FTNL_A_CONFIGURED:
		info->configured = true;
		return ftnl_attr_flag(attr);
	case FTNL_A_INCARNATION:
		return ftnl_attr_u64(attr, &info->incarnation);
	}
	return 0;
}

/**
 * ftnl_msg_parse_info() - parse the reply to FTNL_CMD_INFO_GET
 * @nlh: the reply
 * @info: filled in (family_version is left alone: it comes from nlctrl)
 *
 * Return: 0, or -EBADMSG if malformed.
 */
int ftnl_msg_parse_info(const struct nlmsghdr *nlh, struct ftnl_info *info)
{
	uint32_t family_version = info->family_version;

	memset(info, 0, sizeof(*info));
	info->family_version = family_version;
	return ftnl_genl_walk(nlh, ftnl_info_attr, info);
}

/* ---- FTNL_CMD_CLUSTER_GET reply ------------------------------------------ */

struct ftnl_cluster_parse {
	struct ftnl_cluster_info *info;
	unsigned int seen;	/* bit per FTNL_A_* */
};

static int ftnl_cluster_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_cluster_parse *p = arg;
	uint16_t type = mnl_attr_get_type(attr);
	uint32_t *field;

	switch (type) {
	case FTNL_A_CLUSTER_ID:
		field = &p->info->cluster_id;
		break;
	case FTNL_A_SELF_ID:
		field = &p->info->self_id;
		break;
	case FTNL_A_HB_PERIOD_US:
		field = &p->info->hb_period_us;
		break;
	case FTNL_A_TIMEOUT_US:
		field = &p->info->timeout_us;
		break;
	case FTNL_A_NODE_COUNT:
		field = &p->info->node_count;
		break;
	case FTNL_A_GENERATION:
		field = &p->info->generation;
		break;
	case FTNL_A_INCARNATION:	/* optional: older modules lack it */
		return ftnl_attr_u64(attr, &p->info->incarnation);
	/* Optional: older modules lack the broadcast attributes. */
	case FTNL_A_BCAST_ALGO:
		p->info->has_bcast_algo = true;
		return ftnl_attr_u8(attr, &p->info->bcast_algo);
	case FTNL_A_BCAST_FCG_F:
		p->info->has_fcg_f = true;
		return ftnl_attr_u8(attr, &p->info->fcg_f);
	case FTNL_A_BCAST_GOSSIP_T_US:
		p->info->has_gossip_t = true;
		return ftnl_attr_u32(attr, &p->info->gossip_t_us);
	/* Optional: modules before rejoin lack them. */
	case FTNL_A_REJOIN:
		p->info->has_rejoin = true;
		return ftnl_attr_u8(attr, &p->info->rejoin);
	case FTNL_A_REJOIN_FLAP_LIMIT:
		return ftnl_attr_u32(attr, &p->info->flap_limit);
	case FTNL_A_REJOIN_FLAP_WINDOW_S:
		return ftnl_attr_u32(attr, &p->info->flap_window_s);
	case FTNL_A_FENCE:	/* optional: modules that expel */
		p->info->has_fence = true;
		return ftnl_attr_u8(attr, &p->info->fence);
	/* Optional: older modules have no quorum rule. */
	case FTNL_A_QUORUM:
		p->info->has_quorum = true;
		return ftnl_attr_u8(attr, &p->info->quorum);
	case FTNL_A_TIMEOUT_MIN_US:	/* adaptive timeouts only */
		p->info->has_timeout_min = true;
		return ftnl_attr_u32(attr, &p->info->timeout_min_us);
	case FTNL_A_TIMEOUT_TARGET_NINES:
		return ftnl_attr_u8(attr, &p->info->timeout_nines);
	/* Optional: modules before rolling updates lack them. */
	case FTNL_A_EPOCH:
		p->info->has_epoch = true;
		return ftnl_attr_u32(attr, &p->info->epoch);
	case FTNL_A_UPDATE_GRACE_S:
		return ftnl_attr_u32(attr, &p->info->update_grace_s);
	case FTNL_A_PREV_KEY_LEFT_MS:
		p->info->has_prev_key = true;
		return ftnl_attr_u64(attr, &p->info->prev_key_left_ms);
	case FTNL_A_SIGNED:
		p->info->signs = true;
		return 0;
	case FTNL_A_PAIR_KEYS:
		p->info->pair_keys = true;
		return 0;
	default:
		return 0;
	}
	p->seen |= 1u << type;
	return ftnl_attr_u32(attr, field);
}

/**
 * ftnl_msg_parse_cluster() - parse the reply to FTNL_CMD_CLUSTER_GET
 * @nlh: the reply
 * @info: filled in
 *
 * Return: 0, or -EBADMSG if malformed or lacking one of the six attributes
 * the contract promises. FTNL_A_INCARNATION and the broadcast attributes
 * are optional (modules before the ring and the broadcast lack them); an
 * algorithm this library does not know is kept as is.
 */
int ftnl_msg_parse_cluster(const struct nlmsghdr *nlh,
			   struct ftnl_cluster_info *info)
{
	const unsigned int required = 1u << FTNL_A_CLUSTER_ID |
				      1u << FTNL_A_SELF_ID |
				      1u << FTNL_A_HB_PERIOD_US |
				      1u << FTNL_A_TIMEOUT_US |
				      1u << FTNL_A_NODE_COUNT |
				      1u << FTNL_A_GENERATION;
	struct ftnl_cluster_parse p = { .info = info };
	int err;

	memset(info, 0, sizeof(*info));
	err = ftnl_genl_walk(nlh, ftnl_cluster_attr, &p);
	if (err)
		return err;
	return (p.seen & required) == required ? 0 : -EBADMSG;
}

/* ---- FTNL_A_NODE nests ---------------------------------------------------- */

struct ftnl_node_parse {
	struct ftnl_node *node;
	bool has_id, has_port;
	int addrs;
};

static int ftnl_node_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_node_parse *p = arg;
	struct ftnl_node *node = p->node;
	uint8_t state = 0;
	int err;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_NODE_ID:
		p->has_id = true;
		return ftnl_attr_u32(attr, &node->id);
	case FTNL_A_NODE_ADDR4:
		p->addrs++;
		node->family = AF_INET;
		return ftnl_attr_fixed(attr, &node->addr.v4,
				       sizeof(node->addr.v4));
	case FTNL_A_NODE_ADDR6:
		p->addrs++;
		node->family = AF_INET6;
		return ftnl_attr_fixed(attr, &node->addr.v6,
				       sizeof(node->addr.v6));
	case FTNL_A_NODE_PORT:
		p->has_port = true;
		return ftnl_attr_u16(attr, &node->port);
	case FTNL_A_NODE_STATE:
		err = ftnl_attr_u8(attr, &state);
		node->state = (enum ftnl_node_state)state;
		return err;
	case FTNL_A_NODE_SELF:
		node->self = true;
		return ftnl_attr_flag(attr);
	case FTNL_A_NODE_EMITTER:
		node->emitter = true;
		return ftnl_attr_flag(attr);
	case FTNL_A_NODE_OBSERVER:
		node->observer = true;
		return ftnl_attr_flag(attr);
	case FTNL_A_NODE_INCARNATION:
		return ftnl_attr_u64(attr, &node->incarnation);
	case FTNL_A_NODE_HB_AGE_US:
		node->has_hb_age = true;
		return ftnl_attr_u64(attr, &node->hb_age_us);
	case FTNL_A_NODE_NAME:
		return ftnl_attr_node_name(attr, node->name);
	case FTNL_A_NODE_DOMAIN:
		return ftnl_attr_node_domain(attr, node->domain);
	}
	return 0;
}

/**
 * ftnl_msg_parse_node_nest() - parse one FTNL_A_NODE nest
 * @nest: the nest
 * @node: filled in; state is FTNL_NODE_STATE_ALIVE unless the nest says
 *	otherwise
 *
 * Return: 0, or -EBADMSG if malformed, without an id or port, or without
 * exactly one address.
 */
int ftnl_msg_parse_node_nest(const struct nlattr *nest, struct ftnl_node *node)
{
	struct ftnl_node_parse p = { .node = node };
	int err;

	memset(node, 0, sizeof(*node));
	node->state = FTNL_NODE_STATE_ALIVE;
	err = ftnl_attr_walk(mnl_attr_get_payload(nest),
			     mnl_attr_get_payload_len(nest), ftnl_node_attr, &p);
	if (err)
		return err;
	if (!p.has_id || !p.has_port || p.addrs != 1)
		return -EBADMSG;
	return 0;
}

struct ftnl_node_msg_parse {
	struct ftnl_node *node;
	uint32_t cluster_id;
	uint32_t generation;
	int nodes;
	bool has_generation;
};

static int ftnl_node_msg_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_node_msg_parse *p = arg;
	int err;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_CLUSTER_ID:
		return ftnl_attr_u32(attr, &p->cluster_id);
	case FTNL_A_GENERATION:
		p->has_generation = true;
		return ftnl_attr_u32(attr, &p->generation);
	case FTNL_A_NODE:
		if (p->nodes++)
			return -EBADMSG;
		err = ftnl_msg_parse_node_nest(attr, p->node);
		return err;
	}
	return 0;
}

/**
 * ftnl_msg_parse_node() - parse one message of the FTNL_CMD_NODE_GET dump
 * @nlh: the message
 * @node: filled in
 * @cluster_id: set to FTNL_A_CLUSTER_ID (0 if absent)
 * @generation: set to FTNL_A_GENERATION
 *
 * Return: 0, or -EBADMSG if malformed, without a generation, or without
 * exactly one node.
 */
int ftnl_msg_parse_node(const struct nlmsghdr *nlh, struct ftnl_node *node,
			uint32_t *cluster_id, uint32_t *generation)
{
	struct ftnl_node_msg_parse p = { .node = node };
	int err;

	err = ftnl_genl_walk(nlh, ftnl_node_msg_attr, &p);
	if (err)
		return err;
	if (p.nodes != 1 || !p.has_generation)
		return -EBADMSG;
	*cluster_id = p.cluster_id;
	*generation = p.generation;
	return 0;
}

/* ---- notifications on "events" -------------------------------------------- */

struct ftnl_event_parse {
	struct ftnl_event_cluster *cluster;
	struct ftnl_event_failure *failure;
	struct ftnl_event_expelled *expelled;
	uint64_t *seq;
	bool has_generation;
	bool has_node_id;
};

static int ftnl_cluster_ntf_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_event_parse *p = arg;
	struct ftnl_event_cluster *c = p->cluster;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_GENERATION:
		p->has_generation = true;
		return ftnl_attr_u32(attr, &c->generation);
	case FTNL_A_CONFIGURED:
		c->configured = true;
		return ftnl_attr_flag(attr);
	case FTNL_A_CLUSTER_ID:
		return ftnl_attr_u32(attr, &c->cluster_id);
	case FTNL_A_SELF_ID:
		return ftnl_attr_u32(attr, &c->self_id);
	case FTNL_A_NODE_COUNT:
		return ftnl_attr_u32(attr, &c->node_count);
	}
	return 0;
}

static int ftnl_failure_ntf_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_event_parse *p = arg;
	struct ftnl_event_failure *f = p->failure;
	uint8_t cause = 0;
	int err;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_EVENT_NODE_ID:
		p->has_node_id = true;
		return ftnl_attr_u32(attr, &f->node_id);
	case FTNL_A_EVENT_INCARNATION:
		return ftnl_attr_u64(attr, &f->incarnation);
	case FTNL_A_EVENT_CAUSE:
		err = ftnl_attr_u8(attr, &cause);
		f->cause = cause;
		return err;
	case FTNL_A_EVENT_OBSERVER_ID:
		return ftnl_attr_u32(attr, &f->observer_id);
	case FTNL_A_EVENT_TIME_MONO_NS:
		return ftnl_attr_u64(attr, &f->time_mono_ns);
	case FTNL_A_EVENT_TIME_REAL_NS:
		return ftnl_attr_u64(attr, &f->time_real_ns);
	case FTNL_A_CLUSTER_ID:
		return ftnl_attr_u32(attr, &f->cluster_id);
	case FTNL_A_GENERATION:
		return ftnl_attr_u32(attr, &f->generation);
	case FTNL_A_EVENT_NODE_NAME:
		return ftnl_attr_node_name(attr, f->node_name);
	case FTNL_A_EVENT_SEQ:
		return ftnl_attr_u64(attr, p->seq);
	}
	return 0;
}

static int ftnl_expelled_ntf_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_event_parse *p = arg;
	struct ftnl_event_expelled *e = p->expelled;
	uint8_t reason = 0;
	int err;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_EVENT_NODE_ID:
		p->has_node_id = true;
		return ftnl_attr_u32(attr, &e->node_id);
	case FTNL_A_EVENT_INCARNATION:
		return ftnl_attr_u64(attr, &e->incarnation);
	case FTNL_A_EXPEL_REASON:
		err = ftnl_attr_u8(attr, &reason);
		e->reason = reason;
		return err;
	case FTNL_A_EVENT_OBSERVER_ID:
		return ftnl_attr_u32(attr, &e->by_id);
	case FTNL_A_EVENT_TIME_MONO_NS:
		return ftnl_attr_u64(attr, &e->time_mono_ns);
	case FTNL_A_EVENT_TIME_REAL_NS:
		return ftnl_attr_u64(attr, &e->time_real_ns);
	case FTNL_A_CLUSTER_ID:
		return ftnl_attr_u32(attr, &e->cluster_id);
	case FTNL_A_GENERATION:
		return ftnl_attr_u32(attr, &e->generation);
	case FTNL_A_EVENT_SEQ:
		return ftnl_attr_u64(attr, p->seq);
	}
	return 0;
}

/**
 * ftnl_msg_parse_event() - turn a notification into an event
 * @nlh: a message of the ftnl family received on "events"
 * @event: zeroed, then filled in (received_ns is left 0)
 *
 * Return: 0, or -EBADMSG if malformed. A command this library does not know
 * gives FTNL_EVENT_UNKNOWN.
 */
int ftnl_msg_parse_event(const struct nlmsghdr *nlh, struct ftnl_event *event)
{
	const struct genlmsghdr *genl;

	memset(event, 0, sizeof(*event));
	if (nlh->nlmsg_len < FTNL_GENL_HDRLEN)
		return -EBADMSG;
	genl = mnl_nlmsg_get_payload(nlh);
	return ftnl_msg_parse_event_as(nlh, genl->cmd, event);
}

/**
 * ftnl_msg_parse_event_as() - a message's attributes as notification @cmd
 * @nlh: a notification, or a message of the EVENT_GET dump
 * @cmd: the notification command to read it as (the dump gives it in
 *	FTNL_A_EVENT_NTF_CMD)
 * @event: zeroed, then filled in (received_ns is left 0)
 *
 * Return: as ftnl_msg_parse_event(); FTNL_CMD_PROC_EXIT_NTF is for the
 * caller (ftnl_events_parse_as()).
 */
int ftnl_msg_parse_event_as(const struct nlmsghdr *nlh, uint8_t cmd,
			    struct ftnl_event *event)
{
	struct ftnl_event_parse p;
	int err;

	memset(event, 0, sizeof(*event));
	if (nlh->nlmsg_len < FTNL_GENL_HDRLEN)
		return -EBADMSG;
	memset(&p, 0, sizeof(p));
	p.seq = &event->seq;

	switch (cmd) {
	case FTNL_CMD_CLUSTER_NTF:
		event->type = FTNL_EVENT_CLUSTER;
		p.cluster = &event->cluster;
		err = ftnl_genl_walk(nlh, ftnl_cluster_ntf_attr, &p);
		if (err)
			return err;
		return p.has_generation ? 0 : -EBADMSG;
	case FTNL_CMD_FAILURE_NTF:
		event->type = FTNL_EVENT_FAILURE;
		p.failure = &event->failure;
		err = ftnl_genl_walk(nlh, ftnl_failure_ntf_attr, &p);
		if (err)
			return err;
		return p.has_node_id ? 0 : -EBADMSG;
	case FTNL_CMD_JOINED_NTF:
		event->type = FTNL_EVENT_JOINED;
		p.failure = &event->joined;
		err = ftnl_genl_walk(nlh, ftnl_failure_ntf_attr, &p);
		if (err)
			return err;
		return p.has_node_id ? 0 : -EBADMSG;
	case FTNL_CMD_EXPELLED_NTF:
		event->type = FTNL_EVENT_EXPELLED;
		p.expelled = &event->expelled;
		err = ftnl_genl_walk(nlh, ftnl_expelled_ntf_attr, &p);
		if (err)
			return err;
		return p.has_node_id ? 0 : -EBADMSG;
	default:
		event->type = FTNL_EVENT_UNKNOWN;
		event->unknown.cmd = cmd;
		return 0;
	}
}

/* ---- FTNL_CMD_STATS_GET reply -------------------------------------------- */

/* Counters of a nest whose attribute type is index + 1 (reasons, buckets). */
struct ftnl_counter_array {
	uint64_t *values;
	size_t count;
};

static int ftnl_counter_array_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_counter_array *a = arg;
	uint16_t type = mnl_attr_get_type(attr);

	/* 0 never appears; beyond count: padding, or a newer module's. */
	if (!type || type > a->count)
		return 0;
	return ftnl_attr_u64(attr, &a->values[type - 1]);
}

static int ftnl_counter_array(const struct nlattr *nest, uint64_t *values,
			      size_t count)
{
	struct ftnl_counter_array a = { .values = values, .count = count };

	return ftnl_attr_walk(mnl_attr_get_payload(nest),
			      mnl_attr_get_payload_len(nest),
			      ftnl_counter_array_attr, &a);
}

static int ftnl_stats_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_stats *st = arg;
	uint64_t *const counters[] = {
		[FTNL_A_STATS_HB_SENT] = &st->hb_sent,
		[FTNL_A_STATS_HB_RECV] = &st->hb_recv,
		[FTNL_A_STATS_HB_FROM_EMITTER] = &st->hb_from_emitter,
		[FTNL_A_STATS_SUSPICIONS] = &st->suspicions,
		[FTNL_A_STATS_NEW_OBSERVER_SENT] = &st->new_observer_sent,
		[FTNL_A_STATS_NEW_OBSERVER_RECV] = &st->new_observer_recv,
		[FTNL_A_STATS_LEAVE_SENT] = &st->leave_sent,
		[FTNL_A_STATS_LEAVE_RECV] = &st->leave_recv,
		[FTNL_A_STATS_TX_ERRORS] = &st->tx_errors,
		[FTNL_A_STATS_EVENTS_LOST] = &st->events_lost,
		[FTNL_A_STATS_LATENESS_MAX_NS] = &st->lateness_max_ns,
		[FTNL_A_STATS_BCAST_ORIGINATED] = &st->bcast_originated,
		[FTNL_A_STATS_BCAST_FORWARDED] = &st->bcast_forwarded,
		[FTNL_A_STATS_BCAST_SENT] = &st->bcast_sent,
		[FTNL_A_STATS_BCAST_DELIVERED] = &st->bcast_delivered,
		[FTNL_A_STATS_BCAST_DUPLICATES] = &st->bcast_duplicates,
		[FTNL_A_STATS_BCAST_LATENCY_LAST_NS] = &st->bcast_latency_last_ns,
		[FTNL_A_STATS_BCAST_LATENCY_MAX_NS] = &st->bcast_latency_max_ns,
		[FTNL_A_STATS_BCAST_LATENCY_SUM_NS] = &st->bcast_latency_sum_ns,
		[FTNL_A_STATS_EVENT_SEQ] = &st->event_seq,
		[FTNL_A_STATS_EVENTS_QUEUE_OVERFLOW] = &st->events_queue_overflow,
		[FTNL_A_STATS_EVENTS_NOTIFY_FAILED] = &st->events_notify_failed,
		[FTNL_A_STATS_EXPELLED_SENT] = &st->expelled_sent,
		[FTNL_A_STATS_EXPELLED_RECV] = &st->expelled_recv,
		[FTNL_A_STATS_STALL_WAITS] = &st->stall_waits,
		[FTNL_A_STATS_PROBE_REQ_SENT] = &st->probe_req_sent,
		[FTNL_A_STATS_PROBE_REQ_RECV] = &st->probe_req_recv,
		[FTNL_A_STATS_PROBE_ACK_SENT] = &st->probe_ack_sent,
		[FTNL_A_STATS_PROBE_ACK_RECV] = &st->probe_ack_recv,
		[FTNL_A_STATS_SUSPICIONS_REFUTED] = &st->suspicions_refuted,
		[FTNL_A_STATS_PROBES_THROTTLED] = &st->probes_throttled,
		[FTNL_A_STATS_NEWS_HELD] = &st->news_held,
		[FTNL_A_STATS_NEWS_STALE] = &st->news_stale,
		[FTNL_A_STATS_PREV_KEY_RECV] = &st->prev_key_recv,
		[FTNL_A_STATS_SUSPICIONS_VERIFIED] = &st->suspicions_verified,
		[FTNL_A_STATS_FORMING_WAITS] = &st->forming_waits,
		[FTNL_A_STATS_HOST_RX_DROPS] = &st->host_rx_drops,
		[FTNL_A_STATS_HB_LOCK_WAIT_MAX_NS] = &st->hb_lock_wait_max_ns,
		[FTNL_A_STATS_HB_START_LATE_MAX_NS] = &st->hb_start_late_max_ns,
		[FTNL_A_STATS_HOST_RX_UNREAD] = &st->host_rx_unread,
		[FTNL_A_STATS_PROBES_DEFERRED] = &st->probes_deferred,
		[FTNL_A_STATS_PROBE_ASKS_HELD] = &st->probe_asks_held,
	};
	uint16_t type = mnl_attr_get_type(attr);

	if (type == FTNL_A_STATS_DROP)
		return ftnl_counter_array(attr, st->drops,
					  FTNL_ARRAY_SIZE(st->drops));
	if (type == FTNL_A_STATS_LATENESS)
		return ftnl_counter_array(attr, st->lateness,
					  FTNL_ARRAY_SIZE(st->lateness));
	if (type == FTNL_A_STATS_HB_LOCK_WAIT)
		return ftnl_counter_array(attr, st->hb_lock_wait,
					  FTNL_ARRAY_SIZE(st->hb_lock_wait));
	if (type == FTNL_A_STATS_HB_START_LATE)
		return ftnl_counter_array(attr, st->hb_start_late,
					  FTNL_ARRAY_SIZE(st->hb_start_late));
	if (type < FTNL_ARRAY_SIZE(counters) && counters[type])
		return ftnl_attr_u64(attr, counters[type]);
	return 0;
}

struct ftnl_stats_parse {
	struct ftnl_stats *stats;
	bool seen;
};

static int ftnl_stats_top_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_stats_parse *p = arg;

	if (mnl_attr_get_type(attr) != FTNL_A_STATS)
		return 0;
	p->seen = true;
	return ftnl_attr_walk(mnl_attr_get_payload(attr),
			      mnl_attr_get_payload_len(attr), ftnl_stats_attr,
			      p->stats);
}

/**
 * ftnl_msg_parse_stats() - parse the reply to FTNL_CMD_STATS_GET
 * @nlh: the reply
 * @stats: zeroed, then filled in
 *
 * Return: 0, or -EBADMSG if malformed or without FTNL_A_STATS.
 */
int ftnl_msg_parse_stats(const struct nlmsghdr *nlh, struct ftnl_stats *stats)
{
	struct ftnl_stats_parse p = { .stats = stats };
	int err;

	memset(stats, 0, sizeof(*stats));
	err = ftnl_genl_walk(nlh, ftnl_stats_top_attr, &p);
	if (err)
		return err;
	return p.seen ? 0 : -EBADMSG;
}
