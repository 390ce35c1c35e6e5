// SPDX-License-Identifier: GPL-2.0
/*
 * Usage texts, general and per object.
 */
#include "cli.h"

/* A numeric constant of the uapi header, as text. */
#define CLI_STR_(x)	#x
#define CLI_STR(x)	CLI_STR_(x)

static const char usage_main[] =
"Usage: " CLI_NAME " [OPTIONS] OBJECT [COMMAND [ARGS]]\n"
"       " CLI_NAME " help [OBJECT]\n"
"\n"
"Objects (and commands; any unique prefix will do):\n"
"  info                       module version, features and limits\n"
"  cluster { set | show | delete | leave | help }\n"
"                             this node's cluster configuration\n"
"  node { list | readmit ID | help }\n"
"                             the node table, each node's state and role\n"
"  stats [ show | help ]      counters, drops, heartbeat lateness\n"
"  bcast [ show | help ]      failure broadcast: algorithm, counters, latency\n"
"  proc [ list | help ]       processes registered on this node\n"
"  monitor [ count N ]        print events as they happen: cluster changes,\n"
"                             node failures, registered process exits\n"
"  events [ history [ after SEQ ] | help ]\n"
"                             the events this node still holds, numbered\n"
"  health [ window D ] ...    one line and a Nagios exit status (0..3)\n"
"  help [ OBJECT ]            this text, or an object's\n"
"\n"
"Options:\n"
"  -j, --json                 JSON output\n"
"  -p, --pretty               indented JSON\n"
"  -f, --force                send \"cluster set\" without checking it first\n"
"  -n, --netns NAME           act in network namespace NAME (/run/netns/NAME\n"
"                             or a path)\n"
"  -h, --help                 this text\n"
"  -V, --version              print the version\n"
"\n"
"Exit status: 0 success, 1 bad command line or input (nothing was sent),\n"
"2 the request failed, 3 the ftnl module is not available; \"health\" has\n"
"its own (see \"" CLI_NAME " health help\").\n";

static const char usage_health[] =
"Usage: " CLI_NAME " health [ window DURATION ] [ late-warn DURATION ]\n"
"                     [ late-crit DURATION ]\n"
"\n"
"One line on this node's health and a Nagios exit status, for NHC,\n"
"Nagios/Icinga or Slurm's HealthCheckProgram:\n"
"  0 OK        configured, observing its emitter, which heartbeats\n"
"  1 WARNING   emitter late (over d/2) or not heard yet; datagrams dropped,\n"
"              send errors or events lost during the window; heartbeats\n"
"              leaving late (late-warn, default h/2); no node to observe\n"
"  2 CRITICAL  module not loaded; not configured; emitter silent for over\n"
"              d; heartbeats leaving late-crit late (default (d-h)/2)\n"
"  3 UNKNOWN   the module could not be asked, or a bad command line\n"
"The counters are compared over the window (default 1s; 0: since the\n"
"configuration), so the check takes that long.\n";

static const char usage_info[] =
"Usage: " CLI_NAME " info\n"
"\n"
"Print the loaded module's version, its protocol and family versions,\n"
"features, largest node table, and whether a cluster is configured.\n";

/* A printf format: its limits come from the uapi header (cli_usage()). */
static const char usage_cluster[] =
"Usage: " CLI_NAME " cluster set { file PATH | ARGS } [ ARGS ]\n"
"       " CLI_NAME " cluster show\n"
"       " CLI_NAME " cluster delete\n"
"       " CLI_NAME " cluster leave\n"
"       " CLI_NAME " cluster pairkeys SECRET-FILE CONFIG-FILE NODE-ID\n"
"\n"
"ARGS := [ id ID ] [ self { ID | auto } ] [ heartbeat DURATION ] [ timeout DURATION ]\n"
"        [ key HEX | keyfile PATH | pairkeys PATH ]\n"
"        [ node ID ADDRESS PORT [ name NAME ] [ domain DOMAIN ] ]...\n"
"        [ bcast { hypercube | bmg | fcg } ]\n"
"        [ gossip-faults N ] [ gossip-time { DURATION | auto } ]\n"
"        [ rejoin { auto | manual } ] [ rejoin-limit K ] [ rejoin-window SECONDS ]\n"
"        [ fence { none | kill } ]\n"
"        [ quorum { on | off } ]\n"
"        [ timeout-adaptive DURATION [ timeout-nines N ] ]\n"
"        [ epoch N ] [ update-grace SECONDS ] [ state PATH ]\n"
"DURATION := NUMBER{us|ms|s}, e.g. 100ms, 1.5s\n"
"\n"
"set     configure (or replace) this node's cluster. With \"file\", ARGS\n"
"        override the file: a value replaces the file's, a node replaces the\n"
"        file's node of the same id or is added. The configuration is\n"
"        checked before it is sent, unless -f is given.\n"
"        \"cluster ID\" is a synonym of \"id ID\". \"bcast\" chooses how this\n"
"        node broadcasts the failures it detects: hypercube (the dual\n"
"        hypercube, the module's default when bcast is not given), bmg\n"
"        (binomial graph flood) or fcg (failure-proof corrected gossip).\n"
"        FCG only: \"gossip-faults\" is its f, %u..%u (failures during one\n"
"        broadcast it withstands; default %u), \"gossip-time\" its gossip\n"
"        time T, %uus..%us or auto (chosen from the number of nodes).\n"
"        \"domain\" names a node's failure domain (a rack): the ring keeps\n"
"        the nodes of one domain apart, so that a whole domain failing is\n"
"        detected in about one timeout.\n"
"        \"rejoin\": what happens when a dead node comes back with a new\n"
"        incarnation (rebooted, module loaded again): auto (the default)\n"
"        readmits it on every member without an admin (event \"joined\");\n"
"        manual leaves it dead until \"node readmit\" on every member. A\n"
"        node that rejoins more than \"rejoin-limit\" times (K, %u..%u,\n"
"        default %u) within \"rejoin-window\" seconds (W, %u..%u, default\n"
"        %u) is held out (state held-out) until the window ends.\n"
"        \"fence\" says what the module does to this node's registered\n"
"        processes when the cluster expels the node (declared it dead while\n"
"        it still runs): none (the default) only tells them (an \"expelled\"\n"
"        event; libftnl's groups fail with ESTALE), kill SIGKILLs them.\n"
"        \"quorum on\" (the default from 3 nodes): a node never declares a\n"
"        death that would leave it without a strict majority of the\n"
"        cluster; it expels itself instead, so at most one side of a\n"
"        partition goes on.\n"
"        \"timeout-adaptive\" DURATION: each observer sets its timeout from\n"
"        its emitter's heartbeat inter-arrival times, between DURATION\n"
"        (above the heartbeat period) and \"timeout\" (then at most 60s),\n"
"        for a false-suspicion rate of 10^-N per heartbeat (\"timeout-nines\"\n"
"        N, 1..9, default 6). Without it the timeout is fixed.\n"
"        \"epoch\" N: the configuration's epoch, on every datagram. A\n"
"        replacement that changes the key, heartbeat, timeout, broadcast\n"
"        or nodes must raise it (not given: the running epoch plus one,\n"
"        then); for \"update-grace\" seconds after it (%u..%u, default\n"
"        %u) the previous key is accepted too and nodes not updated yet\n"
"        are not suspected for running the old configuration: update\n"
"        every node within that time (a rolling update).\n"
"        \"state\" PATH keeps the node's incarnation across reboots: its\n"
"        number is the floor of the new incarnation of a node that runs no\n"
"        cluster (a wall clock behind after a reboot gives no smaller life\n"
"        than the members knew), and the incarnation the module chose is\n"
"        written back to it atomically. Missing: a first boot. Anything\n"
"        but one number from 1 to 2^63 - 1 is refused, nothing sent.\n"
"show    print the configuration (never the key), with the broadcast\n"
"        algorithm, the fence policy, adaptive timeouts if on, the epoch,\n"
"        the keys (\"keys cluster\", or \"keys pair\": one per pair of\n"
"        nodes; \"signed\": broadcasts carry their origin's signature) and\n"
"        how long the previous key is still accepted\n"
"pairkeys  print the pairkeys file of node NODE-ID: the keys of its pairs\n"
"        with every other node of CONFIG-FILE's table and their public\n"
"        signing keys, and its own signing seed, derived from the cluster\n"
"        secret in SECRET-FILE (32 bytes or 64 hex digits). Run it on the\n"
"        admin's host, which alone keeps the secret; a node given\n"
"        \"pairkeys PATH\" instead of a key (in its file or as an argument)\n"
"        can then speak and broadcast as itself only. Needs no module; the\n"
"        keys in CONFIG-FILE are not read.\n"
"delete  forget the configuration\n"
"leave   leave gracefully: the ring announces it (cause \"leave\"), then\n"
"        the configuration is forgotten\n"
"\n"
"Example:\n"
"  " CLI_NAME " cluster set id 42 self 1 heartbeat 100ms timeout 300ms \\\n"
"      keyfile /etc/ftnl/cluster.key node 1 10.0.0.1 7400 node 2 10.0.0.2 7400\n";

static const char usage_node[] =
"Usage: " CLI_NAME " node list\n"
"       " CLI_NAME " node readmit ID\n"
"\n"
"list     print the node table in ring order: id, name and failure\n"
"         domain (when any node has one), address, port, state (alive,\n"
"         dead, left, held-out: refused for rejoining too often; this\n"
"         node's own entry says expelled once the cluster declared it\n"
"         dead), last incarnation heard, and roles on the ring: self,\n"
"         this node's emitter (with the age of its last heartbeat), its\n"
"         observer\n"
"readmit  take back node ID, dead or left, once it restarted with a new\n"
"         incarnation\n";

static const char usage_stats[] =
"Usage: " CLI_NAME " stats [ show ]\n"
"\n"
"Print this node's counters since its cluster was configured: heartbeats,\n"
"suspicions, ring repairs, leaves, dropped datagrams by reason, the\n"
"broadcast counters (see \"" CLI_NAME " bcast help\"), the histogram of how\n"
"late heartbeats left, and that of how long they waited for the ring's lock.\n";

static const char usage_bcast[] =
"Usage: " CLI_NAME " bcast [ show ]\n"
"\n"
"How this node broadcasts the failures it detects, and what its broadcast\n"
"layer did since the cluster was configured:\n"
"\n"
"algorithm   hypercube (dual hypercube, the default), bmg (binomial\n"
"            graph) or fcg (corrected gossip, with its f and gossip time T,\n"
"            \"auto\" when chosen from the number of nodes); chosen by\n"
"            \"" CLI_NAME " cluster set ... bcast ALGORITHM\"\n"
"originated  broadcasts this node started, one per failure it detected\n"
"forwarded   datagrams it sent forwarding other nodes' broadcasts\n"
"sent        broadcast datagrams it sent in all\n"
"delivered   other nodes' broadcasts it received a first time\n"
"duplicates  further copies it received and ignored\n"
"latency     last, mean and max time from the origin starting a broadcast\n"
"            to its delivery here; measured between the two nodes' wall\n"
"            clocks, so meaningful when they are synchronized\n";

static const char usage_proc[] =
"Usage: " CLI_NAME " proc [ list ]\n"
"\n"
"list  print the processes registered on this node (libftnl\n"
"      ftnl_proc_register()): job, rank, owner uid and the netlink port id\n"
"      of the socket that registered (without CAP_NET_ADMIN, only your\n"
"      own). \"show\" is a synonym. When such a socket is released\n"
"      without unregistering, the process is declared dead and every node\n"
"      publishes a proc_exit event (see \"" CLI_NAME " monitor\").\n";

static const char usage_monitor[] =
"Usage: " CLI_NAME " monitor [ count N ]\n"
"\n"
"Print each event of the ftnl \"events\" group as it arrives, with the time\n"
"it was received, until interrupted (or until N events were printed):\n"
"\n"
"cluster    the configuration changed (generation, cluster, self, nodes)\n"
"failure    a node failed or left (node, incarnation, cause, observer,\n"
"           cluster, generation, when the kernel learned it)\n"
"proc_exit  a registered process died (job, rank, node it ran on, owner\n"
"           uid, cause: observed on its node, broadcast elsewhere;\n"
"           cluster, learned)\n"
"expelled   this node was expelled: the cluster declared its incarnation\n"
"           dead while it still runs (reason told, broadcast, quorum, deaf;\n"
"           by: the member that said so); it no longer acts as a member\n"
"overrun    events were lost: re-read the state, and fetch the events\n"
"           after the last seq seen with \"" CLI_NAME " events history\"\n"
"\n"
"Failures, process exits and expulsions end with \"seq N\", the node's sequence number\n"
"of the event (1 for its first, each event one more): a number skipped is\n"
"an event missed. With -j, one JSON object per line (\"seq\" likewise).\n";

static const char usage_events[] =
"Usage: " CLI_NAME " events [ history [ after SEQ ] ]\n"
"\n"
"Print the events this node still holds (its last " CLI_STR(FTNL_EVENT_HISTORY_LEN) ": node\n"
"failures, registered process exits), oldest first, as \"monitor\" prints\n"
"them, each with its sequence number; with \"after SEQ\", only the newer\n"
"ones. A subscriber that missed events (an overrun, or a seq skipped)\n"
"finds them here. If the first one printed is not SEQ + 1, the ones\n"
"between are no longer held. A SEQ newer than the node's newest fails:\n"
"the node's events were renumbered from 1 since (netns or module\n"
"recreated).\n";

/**
 * cli_usage() - print the help of @object
 * @out: stdout for help that was asked for, stderr otherwise
 * @object: CLI_OBJ_NONE (or CLI_OBJ_HELP) for the general help
 */
void cli_usage(FILE *out, enum cli_object object)
{
	switch (object) {
	case CLI_OBJ_INFO:
		fputs(usage_info, out);
		break;
	case CLI_OBJ_CLUSTER:
		fprintf(out, usage_cluster, (unsigned int)FTNL_FCG_F_MIN,
			(unsigned int)FTNL_FCG_F_MAX,
			(unsigned int)FTNL_FCG_F_DEFAULT,
			(unsigned int)FTNL_GOSSIP_SLOT_US,
			(unsigned int)(FTNL_GOSSIP_T_MAX_US / 1000000),
			(unsigned int)FTNL_REJOIN_FLAP_LIMIT_MIN,
			(unsigned int)FTNL_REJOIN_FLAP_LIMIT_MAX,
			(unsigned int)FTNL_REJOIN_FLAP_LIMIT_DEFAULT,
			(unsigned int)FTNL_REJOIN_FLAP_WINDOW_MIN_S,
			(unsigned int)FTNL_REJOIN_FLAP_WINDOW_MAX_S,
			(unsigned int)FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S,
			(unsigned int)FTNL_UPDATE_GRACE_MIN_S,
			(unsigned int)FTNL_UPDATE_GRACE_MAX_S,
			(unsigned int)FTNL_UPDATE_GRACE_DEFAULT_S);
		break;
	case CLI_OBJ_NODE:
		fputs(usage_node, out);
		break;
	case CLI_OBJ_MONITOR:
		fputs(usage_monitor, out);
		break;
	case CLI_OBJ_EVENTS:
		fputs(usage_events, out);
		break;
	case CLI_OBJ_STATS:
		fputs(usage_stats, out);
		break;
	case CLI_OBJ_BCAST:
		fputs(usage_bcast, out);
		break;
	case CLI_OBJ_PROC:
		fputs(usage_proc, out);
		break;
	case CLI_OBJ_HEALTH:
		fputs(usage_health, out);
		break;
	default:
		fputs(usage_main, out);
	}
}
