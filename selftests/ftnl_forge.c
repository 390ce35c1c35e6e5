// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl_forge: craft, capture and replay ftnl datagrams, the way a host
 * outside a cluster (no key) could. Used by the ring_datagrams selftest;
 * usable by hand in the VM.
 *
 *   ftnl_forge send ADDR PORT [FIELDS] [--count N]
 *	Send N datagrams built from FIELDS (header fields default to a
 *	well-formed HEARTBEAT of protocol version 1), sequence numbers
 *	--seq, --seq + 1, ... The MAC is keyed BLAKE2s-128 under --key, or 16
 *	random bytes without one (what an outsider, who lacks the key, can
 *	do best).
 *	  --magic X --version V --type T --plen L --cluster C --sender S
 *	  --dest D --inc I --echo E --first F --seq Q --key HEX64 (--echo: the
 *	  destination's incarnation as the sender heard it, default 0;
 *	  --first: the incarnation the sender's life began with, default 0)
 *	  --garbage LEN     LEN random bytes instead, never starting "FTNL"
 *	  --size LEN        cut (or zero-pad) the datagram to LEN bytes
 *	  --zero-mac        a MAC of 16 zero bytes
 *	  --from FILE       start from a captured datagram (line --line K of
 *			    FILE, default 1): its header and payload; the
 *			    FIELDS given replace its header fields, and its
 *			    MAC is kept as it is unless --key or --zero-mac
 *			    says otherwise (so a --poke alone makes it a
 *			    real datagram altered on the way)
 *	  --poke OFF:HEX    overwrite payload bytes from offset OFF with HEX
 *			    (repeatable, applied in order, before the MAC)
 *	  --src ADDR:PORT   send from this address and port, not this host's
 *			    (IP_TRANSPARENT): a spoofed source, to pass the
 *			    receiver's source check
 *	  --as-sender NET:PORT  likewise, from the address of the header's
 *			    sender when node I's address is NET with I as
 *			    its last byte (the selftests' 10.99.0.I)
 *   ftnl_forge capture IFACE PORT FILE [--type T] [--dest D] [--sender S]
 *		[--count N] [--timeout MS] [--outgoing] [--idle MS]
 *	Capture (AF_PACKET on IFACE, both directions; IFACE "any": every
 *	interface of the netns) UDP datagrams to PORT that look like ftnl
 *	datagrams of the given type, destination and sender; write each
 *	payload as one line of hex to FILE. FILE.ready is created once the
 *	socket listens. Exits 0 after N (default 1) datagrams, 1 on timeout
 *	(default 10000 ms). --outgoing keeps only frames the netns sends
 *	(on a bridge's ports with "any": every frame the bridge delivers to
 *	a node, once). --idle MS: once at least one datagram is captured,
 *	stop (exit 0) after MS ms without another.
 *   ftnl_forge replay ADDR PORT FILE [--line K] [--count N] [--interval MS]
 *		[--src ADDR:PORT]
 *	Send line K (from 1; default 1) of FILE, byte for byte, N times,
 *	MS milliseconds apart (default 0). --line 0 cycles through every line.
 *	--src and --as-sender as for send (--as-sender: each line from
 *	its own sender).
 *   ftnl_forge check FILE HEX64
 *	Verify the MAC of every line of FILE with key HEX64 and print each
 *	datagram's header; exit 0 if every MAC is right (proves that this
 *	BLAKE2s is the kernel's).
 *
 * The header layout is the module's own code: kmod/wire.c is compiled in.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include <linux/ftnl.h>
#include "wire.h"

/* The largest datagram, and one byte more (to test the limit). */
#define MAX_DGRAM	(FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAX_PAYLOAD + FTNL_WIRE_MAC_LEN + 1)

/* ------------------------------------------------------------------------
 * BLAKE2s (RFC 7693), keyed, as the kernel's blake2s()
 */

struct b2s {
	uint32_t h[8];
	uint32_t t[2];
	uint8_t b[64];
	size_t c;
	size_t outlen;
};

static const uint32_t b2s_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static const uint8_t b2s_sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

static uint32_t ror32(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

#define B2S_G(a, b, c, d, x, y) do { \
	v[a] += v[b] + (x); v[d] = ror32(v[d] ^ v[a], 16); \
	v[c] += v[d];       v[b] = ror32(v[b] ^ v[c], 12); \
	v[a] += v[b] + (y); v[d] = ror32(v[d] ^ v[a], 8); \
	v[c] += v[d];       v[b] = ror32(v[b] ^ v[c], 7); \
} while (0)

static void b2s_compress(struct b2s *s, int last)
{
	uint32_t v[16], m[16];
	int i;

	for (i = 0; i < 8; i++) {
		v[i] = s->h[i];
		v[i + 8] = b2s_iv[i];
	}
	v[12] ^= s->t[0];
	v[13] ^= s->t[1];
	if (last)
		v[14] = ~v[14];
	for (i = 0; i < 16; i++)
		m[i] = (uint32_t)s->b[4 * i] | (uint32_t)s->b[4 * i + 1] << 8 |
		       (uint32_t)s->b[4 * i + 2] << 16 |
		       (uint32_t)s->b[4 * i + 3] << 24;
	for (i = 0; i < 10; i++) {
		const uint8_t *sg = b2s_sigma[i];

		B2S_G(0, 4, 8, 12, m[sg[0]], m[sg[1]]);
		B2S_G(1, 5, 9, 13, m[sg[2]], m[sg[3]]);
		B2S_G(2, 6, 10, 14, m[sg[4]], m[sg[5]]);
		B2S_G(3, 7, 11, 15, m[sg[6]], m[sg[7]]);
		B2S_G(0, 5, 10, 15, m[sg[8]], m[sg[9]]);
		B2S_G(1, 6, 11, 12, m[sg[10]], m[sg[11]]);
		B2S_G(2, 7, 8, 13, m[sg[12]], m[sg[13]]);
		B2S_G(3, 4, 9, 14, m[sg[14]], m[sg[15]]);
	}
	for (i = 0; i < 8; i++)
		s->h[i] ^= v[i] ^ v[i + 8];
}

static void b2s_update(struct b2s *s, const uint8_t *in, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s->c == 64) {
			s->t[0] += 64;
			if (s->t[0] < 64)
				s->t[1]++;
			b2s_compress(s, 0);
			s->c = 0;
		}
		s->b[s->c++] = in[i];
	}
}

static void b2s_init(struct b2s *s, size_t outlen, const uint8_t *key,
		     size_t keylen)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < 8; i++)
		s->h[i] = b2s_iv[i];
	s->h[0] ^= 0x01010000u ^ (uint32_t)(keylen << 8) ^ (uint32_t)outlen;
	s->outlen = outlen;
	if (keylen) {
		b2s_update(s, key, keylen);
		s->c = 64;	/* the key block is a full block */
	}
}

static void b2s_final(struct b2s *s, uint8_t *out)
{
	size_t i;

	s->t[0] += (uint32_t)s->c;
	if (s->t[0] < s->c)
		s->t[1]++;
	while (s->c < 64)
		s->b[s->c++] = 0;
	b2s_compress(s, 1);
	for (i = 0; i < s->outlen; i++)
		out[i] = (uint8_t)(s->h[i >> 2] >> (8 * (i & 3)));
}

static void mac(uint8_t out[FTNL_WIRE_MAC_LEN], const uint8_t *data,
		size_t len, const uint8_t key[FTNL_KEY_LEN])
{
	struct b2s s;

	b2s_init(&s, FTNL_WIRE_MAC_LEN, key, FTNL_KEY_LEN);
	b2s_update(&s, data, len);
	b2s_final(&s, out);
}

/* ------------------------------------------------------------------------
 * Helpers
 */

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "ftnl_forge: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end)
		die("not a number: %s", s);
	return v;
}

static int unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[0] != '\n') {
		if (n == max || sscanf(s, "%2x", &b) != 1 || !s[1])
			return -1;
		out[n++] = (uint8_t)b;
		s += 2;
	}
	return (int)n;
}

static void random_bytes(uint8_t *buf, size_t len)
{
	int fd = open("/dev/urandom", O_RDONLY);
	size_t i;

	if (fd < 0 || read(fd, buf, len) != (ssize_t)len) {
		/* no urandom: any bytes will do */
		srand((unsigned int)time(NULL) ^ (unsigned int)getpid());
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)rand();
	}
	if (fd >= 0)
		close(fd);
}

/*
 * A UDP socket to @addr:@port. With @src ("ADDR:PORT"), its datagrams leave
 * from that address and port, whoever owns them (IP_TRANSPARENT: root): what
 * a host on the network can do to pass a source check.
 */
static int udp_to(const char *addr, const char *port, const char *src,
		  struct sockaddr_in *sin)
{
	struct sockaddr_in from = { .sin_family = AF_INET };
	char text[64], *colon;
	int fd, one = 1;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)num(port));
	if (inet_pton(AF_INET, addr, &sin->sin_addr) != 1)
		die("not an IPv4 address: %s", addr);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (!src)
		return fd;
	snprintf(text, sizeof(text), "%s", src);
	colon = strchr(text, ':');
	if (!colon)
		die("--src ADDR:PORT, not %s", src);
	*colon = 0;
	from.sin_port = htons((uint16_t)num(colon + 1));
	if (inet_pton(AF_INET, text, &from.sin_addr) != 1)
		die("not an IPv4 address: %s", text);
	if (setsockopt(fd, SOL_IP, IP_TRANSPARENT, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&from, sizeof(from)))
		die("cannot send from %s", src);
	return fd;
}

/*
 * --as-sender NET:PORT: the source of a datagram from node @id when node I
 * has address NET with its last byte I (the selftests' 10.99.0.I), into
 * @out; NULL (this host's own) for an id that has no such address, or
 * when that address is the destination @to's (a host drops a datagram
 * from its own address as a martian before any socket sees it).
 */
static const char *src_of_sender(const char *net, uint32_t id, const char *to,
				 char *out, size_t len)
{
	const char *dot = strrchr(net, '.'), *colon = strchr(net, ':');

	if (!dot || !colon || colon < dot)
		die("--as-sender NET:PORT, not %s", net);
	if (!id || id > 254)
		return NULL;
	snprintf(out, len, "%.*s.%u", (int)(dot - net), net, (unsigned int)id);
	if (!strcmp(out, to))
		return NULL;
	snprintf(out, len, "%.*s.%u%s", (int)(dot - net), net, (unsigned int)id,
		 colon);
	return out;
}

static int send_one(int fd, const struct sockaddr_in *sin, const uint8_t *buf,
		    size_t len)
{
	if (sendto(fd, buf, len, 0, (const struct sockaddr *)sin,
		   sizeof(*sin)) != (ssize_t)len) {
		fprintf(stderr, "ftnl_forge: sendto: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * send
 */

/* Header fields given on the command line (send --from keeps the others). */
#define F_MAGIC		0x001
#define F_VERSION	0x002
#define F_TYPE		0x004
#define F_PLEN		0x008
#define F_CLUSTER	0x010
#define F_SENDER	0x020
#define F_DEST		0x040
#define F_INC		0x080
#define F_SEQ		0x100
#define F_ECHO		0x200
#define F_FIRST		0x400
#define MAX_POKES	8

static int read_line(const char *path, unsigned long line, uint8_t *buf,
		     size_t max);

/* --poke OFF:HEX: overwrite @payload (@len bytes used) from OFF. */
static void poke(uint8_t *payload, size_t len, const char *arg)
{
	uint8_t bytes[64];
	const char *colon = strchr(arg, ':');
	char off_text[32];
	uint64_t off;
	int n;

	if (!colon || (size_t)(colon - arg) >= sizeof(off_text))
		die("--poke OFF:HEX, not %s", arg);
	memcpy(off_text, arg, (size_t)(colon - arg));
	off_text[colon - arg] = 0;
	off = num(off_text);
	n = unhex(colon + 1, bytes, sizeof(bytes));
	if (n <= 0 || off + (uint64_t)n > len)
		die("--poke out of the payload or not hex: %s", arg);
	memcpy(payload + off, bytes, (size_t)n);
}

static int cmd_send(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "magic", required_argument, NULL, 'm' },
		{ "version", required_argument, NULL, 'v' },
		{ "type", required_argument, NULL, 't' },
		{ "plen", required_argument, NULL, 'l' },
		{ "cluster", required_argument, NULL, 'c' },
		{ "sender", required_argument, NULL, 's' },
		{ "dest", required_argument, NULL, 'd' },
		{ "inc", required_argument, NULL, 'i' },
		{ "seq", required_argument, NULL, 'q' },
		{ "echo", required_argument, NULL, 'e' },
		{ "first", required_argument, NULL, 'F' },
		{ "key", required_argument, NULL, 'k' },
		{ "garbage", required_argument, NULL, 'g' },
		{ "size", required_argument, NULL, 'z' },
		{ "zero-mac", no_argument, NULL, 'Z' },
		{ "count", required_argument, NULL, 'n' },
		{ "from", required_argument, NULL, 'f' },
		{ "line", required_argument, NULL, 'L' },
		{ "poke", required_argument, NULL, 'p' },
		{ "src", required_argument, NULL, 'S' },
		{ "as-sender", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	struct ftnl_wire_hdr hdr = {
		.magic = FTNL_WIRE_MAGIC, .version = FTNL_PROTO_VERSION,
		.type = FTNL_MSG_HEARTBEAT, .seq = 1,
	};
	uint8_t key[FTNL_KEY_LEN], buf[MAX_DGRAM];
	uint8_t payload[MAX_DGRAM], from_mac[FTNL_WIRE_MAC_LEN] = { 0 };
	struct ftnl_wire_hdr set = { 0 };
	const char *from = NULL, *src = NULL, *as_sender = NULL;
	const char *pokes[MAX_POKES];
	char src_text[64];
	unsigned int given = 0, npokes = 0, i;
	uint64_t count = 1, k, from_line = 1;
	long garbage = -1, size = -1;
	bool have_key = false, zero_mac = false;
	struct sockaddr_in sin;
	int opt, fd;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'm': set.magic = (uint32_t)num(optarg); given |= F_MAGIC; break;
		case 'v': set.version = (uint8_t)num(optarg); given |= F_VERSION; break;
		case 't': set.type = (uint8_t)num(optarg); given |= F_TYPE; break;
		case 'l': set.payload_len = (uint16_t)num(optarg); given |= F_PLEN; break;
		case 'c': set.cluster_id = (uint32_t)num(optarg); given |= F_CLUSTER; break;
		case 's': set.sender_id = (uint32_t)num(optarg); given |= F_SENDER; break;
		case 'd': set.dest_id = (uint32_t)num(optarg); given |= F_DEST; break;
		case 'i': set.incarnation = num(optarg); given |= F_INC; break;
		case 'q': set.seq = num(optarg); given |= F_SEQ; break;
		case 'e': set.echo = num(optarg); given |= F_ECHO; break;
		case 'F': set.first = num(optarg); given |= F_FIRST; break;
		case 'k':
			if (unhex(optarg, key, sizeof(key)) != FTNL_KEY_LEN)
				die("a key is %s hex digits", "64");
			have_key = true;
			break;
		case 'g': garbage = (long)num(optarg); break;
		case 'z': size = (long)num(optarg); break;
		case 'Z': zero_mac = true; break;
		case 'n': count = num(optarg); break;
		case 'f': from = optarg; break;
		case 'S': src = optarg; break;
		case 'A': as_sender = optarg; break;
		case 'L': from_line = num(optarg); break;
		case 'p':
			if (npokes == MAX_POKES)
				die("at most %s --poke", "8");
			pokes[npokes++] = optarg;
			break;
		default: return 2;
		}
	}
	if (argc - optind != 2)
		die("usage: ftnl_forge send ADDR PORT [FIELDS]%s", "");
	if (garbage > MAX_DGRAM || size > MAX_DGRAM)
		die("too large: at most a datagram with the largest payload%s", "");

	memset(payload, 0xa5, sizeof(payload));
	if (from) {
		int len = read_line(from, (unsigned long)from_line, buf, sizeof(buf));

		if (len < FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAC_LEN)
			die("no datagram at that line of %s", from);
		ftnl_wire_hdr_decode(&hdr, buf);
		if (FTNL_WIRE_HDR_LEN + hdr.payload_len + FTNL_WIRE_MAC_LEN != len)
			die("%s: length field and datagram disagree", from);
		memcpy(payload, buf + FTNL_WIRE_HDR_LEN, hdr.payload_len);
		memcpy(from_mac, buf + len - FTNL_WIRE_MAC_LEN, sizeof(from_mac));
	}
	if (given & F_MAGIC) hdr.magic = set.magic;
	if (given & F_VERSION) hdr.version = set.version;
	if (given & F_TYPE) hdr.type = set.type;
	if (given & F_PLEN) hdr.payload_len = set.payload_len;
	if (given & F_CLUSTER) hdr.cluster_id = set.cluster_id;
	if (given & F_SENDER) hdr.sender_id = set.sender_id;
	if (given & F_DEST) hdr.dest_id = set.dest_id;
	if (given & F_INC) hdr.incarnation = set.incarnation;
	if (given & F_SEQ) hdr.seq = set.seq;
	if (given & F_ECHO) hdr.echo = set.echo;
	if (given & F_FIRST) hdr.first = set.first;
	for (i = 0; i < npokes; i++)
		poke(payload, hdr.payload_len < sizeof(payload) ?
			      hdr.payload_len : sizeof(payload), pokes[i]);
	if (as_sender)
		src = src_of_sender(as_sender, hdr.sender_id, argv[optind],
				    src_text, sizeof(src_text));
	fd = udp_to(argv[optind], argv[optind + 1], src, &sin);

	for (k = 0; k < count; k++) {
		size_t len;

		if (garbage >= 0) {
			len = (size_t)garbage;
			random_bytes(buf, len);
			if (len >= 4 && !memcmp(buf, "FTNL", 4))
				buf[0] = 'X';
		} else {
			size_t body = FTNL_WIRE_HDR_LEN + hdr.payload_len;

			if (body + FTNL_WIRE_MAC_LEN > MAX_DGRAM)
				die("payload too long: %s", "plen");
			ftnl_wire_hdr_encode(buf, &hdr);
			memcpy(buf + FTNL_WIRE_HDR_LEN, payload, hdr.payload_len);
			if (zero_mac)
				memset(buf + body, 0, FTNL_WIRE_MAC_LEN);
			else if (have_key)
				mac(buf + body, buf, body, key);
			else if (from)
				memcpy(buf + body, from_mac, FTNL_WIRE_MAC_LEN);
			else
				random_bytes(buf + body, FTNL_WIRE_MAC_LEN);
			len = body + FTNL_WIRE_MAC_LEN;
			hdr.seq++;
		}
		if (size >= 0) {
			if ((size_t)size > len)
				memset(buf + len, 0, (size_t)size - len);
			len = (size_t)size;
		}
		if (send_one(fd, &sin, buf, len))
			return 1;
	}
	close(fd);
	return 0;
}

/* ------------------------------------------------------------------------
 * capture
 */

static int cmd_capture(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "dest", required_argument, NULL, 'd' },
		{ "sender", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "outgoing", no_argument, NULL, 'o' },
		{ "idle", required_argument, NULL, 'I' },
		{ NULL, 0, NULL, 0 },
	};
	long type = -1, dest = -1, sender = -1;
	uint64_t count = 1, got = 0, timeout_ms = 10000, idle_ms = 0;
	uint64_t last_ms = 0;
	bool outgoing = false;
	int rcvbuf = 16 << 20;
	struct tpacket_stats st;
	socklen_t statlen;
	struct sockaddr_ll sll;
	struct timespec start, now;
	char ready[4096];
	uint8_t frame[MAX_DGRAM + 128];
	uint16_t port;
	FILE *out;
	int opt, fd, rfd;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't': type = (long)num(optarg); break;
		case 'd': dest = (long)num(optarg); break;
		case 's': sender = (long)num(optarg); break;
		case 'n': count = num(optarg); break;
		case 'T': timeout_ms = num(optarg); break;
		case 'o': outgoing = true; break;
		case 'I': idle_ms = num(optarg); break;
		default: return 2;
		}
	}
	if (argc - optind != 3)
		die("usage: ftnl_forge capture IFACE PORT FILE [OPTIONS]%s", "");
	port = (uint16_t)num(argv[optind + 1]);

	/* ETH_P_ALL: a socket bound to one protocol sees incoming frames
	 * only, and on a bridge port the frames to the node are outgoing.
	 */
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		die("AF_PACKET socket: %s", strerror(errno));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	/* "any": ifindex 0, every interface of the netns */
	if (strcmp(argv[optind], "any")) {
		sll.sll_ifindex = (int)if_nametoindex(argv[optind]);
		if (!sll.sll_ifindex)
			die("no interface %s", argv[optind]);
	}
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind: %s", strerror(errno));
	/* Every frame of the netns comes here, heartbeats included, and
	 * this process may be slow to run (TCG): room for seconds of them.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	out = fopen(argv[optind + 2], "w");
	if (!out)
		die("cannot write %s", argv[optind + 2]);
	snprintf(ready, sizeof(ready), "%s.ready", argv[optind + 2]);
	rfd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (rfd < 0)
		die("cannot create %s", ready);
	close(rfd);

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		const struct iphdr *ip;
		const struct udphdr *udp;
		struct ftnl_wire_hdr hdr;
		struct sockaddr_ll from;
		socklen_t fromlen = sizeof(from);
		const uint8_t *pl;
		size_t ihl, plen;
		uint64_t el, wait;
		ssize_t n;
		size_t i;

		clock_gettime(CLOCK_MONOTONIC, &now);
		el = (uint64_t)(now.tv_sec - start.tv_sec) * 1000 +
		     (uint64_t)((now.tv_nsec - start.tv_nsec) / 1000000);
		if (el >= timeout_ms)
			break;
		if (idle_ms && got && el >= last_ms + idle_ms)
			break;
		wait = timeout_ms - el;
		if (idle_ms && got && last_ms + idle_ms - el < wait)
			wait = last_ms + idle_ms - el;
		if (poll(&pfd, 1, (int)wait) <= 0)
			continue;
		/* SOCK_RAW on a veth: frames start with the Ethernet header */
		n = recvfrom(fd, frame, sizeof(frame), 0, (struct sockaddr *)&from,
			     &fromlen);
		if (n < 0 || (outgoing && from.sll_pkttype != PACKET_OUTGOING))
			continue;
		if (n < (ssize_t)(ETH_HLEN + sizeof(*ip)) ||
		    frame[12] != ETH_P_IP >> 8 || frame[13] != (ETH_P_IP & 0xff))
			continue;
		ip = (const struct iphdr *)(frame + ETH_HLEN);
		ihl = (size_t)ip->ihl * 4;
		if (ip->protocol != IPPROTO_UDP ||
		    n < (ssize_t)(ETH_HLEN + ihl + sizeof(*udp)))
			continue;
		udp = (const struct udphdr *)(frame + ETH_HLEN + ihl);
		if (ntohs(udp->dest) != port)
			continue;
		pl = (const uint8_t *)(udp + 1);
		plen = ntohs(udp->len) - sizeof(*udp);
		if ((ssize_t)(ETH_HLEN + ihl + sizeof(*udp) + plen) > n ||
		    plen < FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAC_LEN)
			continue;
		ftnl_wire_hdr_decode(&hdr, pl);
		if (hdr.magic != FTNL_WIRE_MAGIC ||
		    (type >= 0 && hdr.type != type) ||
		    (dest >= 0 && hdr.dest_id != (uint32_t)dest) ||
		    (sender >= 0 && hdr.sender_id != (uint32_t)sender))
			continue;
		for (i = 0; i < plen; i++)
			fprintf(out, "%02x", pl[i]);
		fputc('\n', out);
		fflush(out);
		got++;
		clock_gettime(CLOCK_MONOTONIC, &now);
		last_ms = (uint64_t)(now.tv_sec - start.tv_sec) * 1000 +
			  (uint64_t)((now.tv_nsec - start.tv_nsec) / 1000000);
	}
	fclose(out);
	statlen = sizeof(st);
	if (!getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &statlen) &&
	    st.tp_drops)
		fprintf(stderr, "ftnl_forge: capture: the socket dropped %u frames\n",
			st.tp_drops);
	close(fd);
	if (idle_ms && got)
		return 0;
	if (got < count) {
		fprintf(stderr, "ftnl_forge: captured %" PRIu64 " of %" PRIu64 " datagrams\n",
			got, count);
		return 1;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * replay, check
 */

/* Line @line (from 1) of @path as bytes; its length, or -1. */
static int read_line(const char *path, unsigned long line, uint8_t *buf,
		     size_t max)
{
	char text[2 * MAX_DGRAM + 8];
	unsigned long k = 0;
	FILE *f = fopen(path, "r");
	int n = -1;

	if (!f)
		return -1;
	while (fgets(text, sizeof(text), f))
		if (++k == line) {
			n = unhex(text, buf, max);
			break;
		}
	fclose(f);
	return n;
}

static int cmd_replay(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "line", required_argument, NULL, 'L' },
		{ "count", required_argument, NULL, 'n' },
		{ "interval", required_argument, NULL, 'I' },
		{ "src", required_argument, NULL, 'S' },
		{ "as-sender", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t count = 1, line = 1, interval = 0, k;
	const char *src = NULL, *as_sender = NULL;
	char src_text[64];
	uint8_t buf[MAX_DGRAM];
	struct sockaddr_in sin;
	int opt, fd, len;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'L': line = num(optarg); break;
		case 'n': count = num(optarg); break;
		case 'I': interval = num(optarg); break;
		case 'S': src = optarg; break;
		case 'A': as_sender = optarg; break;
		default: return 2;
		}
	}
	if (argc - optind != 3)
		die("usage: ftnl_forge replay ADDR PORT FILE [--line K] [--count N]%s", "");
	fd = as_sender ? -1 : udp_to(argv[optind], argv[optind + 1], src, &sin);
	for (k = 0; k < count; k++) {
		unsigned long l = (unsigned long)(line ? line : k + 1);

		len = read_line(argv[optind + 2], l, buf, sizeof(buf));
		if (len < 0 && !line)
			len = read_line(argv[optind + 2], l = 1, buf, sizeof(buf));
		if (len < 0)
			die("no datagram at that line of %s", argv[optind + 2]);
		if (as_sender) {
			/* each line from its own sender's address */
			struct ftnl_wire_hdr hdr = { 0 };

			if (len >= FTNL_WIRE_HDR_LEN)
				ftnl_wire_hdr_decode(&hdr, buf);
			if (fd >= 0)
				close(fd);
			fd = udp_to(argv[optind], argv[optind + 1],
				    src_of_sender(as_sender, hdr.sender_id,
						  argv[optind], src_text,
						  sizeof(src_text)),
				    &sin);
		}
		if (k && interval) {
			struct timespec ts = {
				.tv_sec = (time_t)(interval / 1000),
				.tv_nsec = (long)(interval % 1000) * 1000000L,
			};

			nanosleep(&ts, NULL);
		}
		if (send_one(fd, &sin, buf, (size_t)len))
			return 1;
	}
	close(fd);
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	uint8_t key[FTNL_KEY_LEN], buf[MAX_DGRAM], want[FTNL_WIRE_MAC_LEN];
	unsigned long line;
	int len, bad = 0, seen = 0;

	if (argc != 3 || unhex(argv[2], key, sizeof(key)) != FTNL_KEY_LEN)
		die("usage: ftnl_forge check FILE HEX64%s", "");
	for (line = 1; (len = read_line(argv[1], line, buf, sizeof(buf))) >= 0;
	     line++) {
		struct ftnl_wire_hdr hdr;
		bool ok;

		if (len < FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAC_LEN) {
			bad++;
			continue;
		}
		ftnl_wire_hdr_decode(&hdr, buf);
		mac(want, buf, (size_t)len - FTNL_WIRE_MAC_LEN, key);
		ok = !memcmp(want, buf + len - FTNL_WIRE_MAC_LEN, sizeof(want));
		printf("type %u cluster %u sender %u dest %u incarnation %" PRIu64
		       " echo %" PRIu64 " seq %" PRIu64 " len %d mac %s\n",
		       hdr.type, hdr.cluster_id, hdr.sender_id, hdr.dest_id,
		       (uint64_t)hdr.incarnation, (uint64_t)hdr.echo,
		       (uint64_t)hdr.seq, len,
		       ok ? "ok" : "BAD");
		bad += !ok;
		seen++;
	}
	return bad || !seen;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: ftnl_forge send|capture|replay|check ...\n");
		return 2;
	}
	if (!strcmp(argv[1], "send"))
		return cmd_send(argc - 1, argv + 1);
	if (!strcmp(argv[1], "capture"))
		return cmd_capture(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	fprintf(stderr, "ftnl_forge: unknown command %s\n", argv[1]);
	return 2;
}
