#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that Documentation/netlink/specs/ftnl.yaml agrees with
uapi/linux/ftnl.h: same commands, attributes and enum values in the same
order, same constants. Prints TAP; exits non-zero on any mismatch."""

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "Documentation/netlink/specs/ftnl.yaml"
HEADER = ROOT / "uapi/linux/ftnl.h"


def c_name(name):
    return name.upper().replace("-", "_")


def header_enum(text, enum_name):
    """Names of an enum's members, in order, without the __MAX tail."""
    match = re.search(r"enum %s \{(.*?)\};" % enum_name, text, re.S)
    if not match:
        return None
    body = re.sub(r"/\*.*?\*/", "", match.group(1), flags=re.S)
    names = []
    for item in body.split(","):
        name = item.split("=")[0].strip()
        if name and not name.startswith("__") and not name.endswith("_MAX"):
            names.append(name)
    return names


def header_defines(text):
    return {m.group(1): m.group(2) for m in
            re.finditer(r"#define\s+(FTNL_\w+)\s+(\S+)", text)}


def man_page_limits(defines):
    """The man page spells limits out: each must be the header's."""
    man = (ROOT / "tools/cli/ftnl-cli.8").read_text()

    def num(name):
        return int(defines[name].rstrip("Uu"))

    def secs(name):
        return "%gs" % (num(name) / 1e6)

    def ms(name):
        return "%gms" % (num(name) / 1e3)

    phrases = [
        "heartbeat period h, %s to %s" % (ms("FTNL_HB_PERIOD_MIN_US"),
                                          secs("FTNL_HB_PERIOD_MAX_US")),
        "at most %s" % secs("FTNL_TIMEOUT_MAX_US"),
        "(1 to %d letters" % num("FTNL_NODE_NAME_MAX"),
        "to %d of the same characters" % num("FTNL_NODE_DOMAIN_MAX"),
        "FCG's f, %d to %d" % (num("FTNL_FCG_F_MIN"), num("FTNL_FCG_F_MAX")),
        "Default (not given): %d" % num("FTNL_FCG_F_DEFAULT"),
        "%dus to %s (counted in slots of %d us)" % (
            num("FTNL_GOSSIP_SLOT_US"), secs("FTNL_GOSSIP_T_MAX_US"),
            num("FTNL_GOSSIP_SLOT_US")),
    ]
    # troff breaks lines anywhere: compare with line breaks as spaces.
    flat = " ".join(man.split())
    return [("ftnl-cli.8 says \"%s\"" % p, p, p if p in flat else None)
            for p in phrases]


def main():
    spec = yaml.safe_load(SPEC.read_text())
    text = HEADER.read_text()
    defines = header_defines(text)
    checks = []

    ops = ["FTNL_CMD_UNSPEC"] + ["FTNL_CMD_" + c_name(op["name"])
                                for op in spec["operations"]["list"]]
    checks.append(("commands in order", ops, header_enum(text, "ftnl_cmd")))

    sets = {s["name"]: s for s in spec["attribute-sets"]}
    top = ["FTNL_A_UNSPEC"] + ["FTNL_A_" + c_name(a["name"])
                               for a in sets["ftnl"]["attributes"]]
    checks.append(("top-level attributes in order", top,
                   header_enum(text, "ftnl_attr")))
    node = ["FTNL_A_NODE_UNSPEC"] + ["FTNL_A_NODE_" + c_name(a["name"])
                                     for a in sets["node"]["attributes"]]
    checks.append(("node attributes in order", node,
                   header_enum(text, "ftnl_node_attr")))

    defs = {d["name"]: d for d in spec["definitions"]}
    states = ["FTNL_NODE_STATE_" + c_name(e["name"])
              for e in defs["node-state"]["entries"]]
    checks.append(("node states in order", states,
                   header_enum(text, "ftnl_node_state")))
    causes = ["FTNL_CAUSE_" + c_name(e["name"])
              for e in defs["event-cause"]["entries"]]
    checks.append(("event causes in order", causes,
                   header_enum(text, "ftnl_event_cause")))
    algos = ["FTNL_BCAST_" + c_name(e["name"])
             for e in defs["bcast-algo"]["entries"]]
    checks.append(("broadcast algorithms in order", algos,
                   header_enum(text, "ftnl_bcast_algo")))
    drops = ["FTNL_DROP_" + c_name(e) for e in defs["drop-reason"]["entries"]]
    checks.append(("drop reasons in order", drops,
                   header_enum(text, "ftnl_drop_reason")))
    stats = ["FTNL_A_STATS_UNSPEC"] + ["FTNL_A_STATS_" + c_name(a["name"])
                                       for a in sets["stats"]["attributes"]]
    checks.append(("stats attributes in order", stats,
                   header_enum(text, "ftnl_stats_attr")))
    features = ["FTNL_FEATURE_" + c_name(e["name"])
                for e in defs["feature"]["entries"]]
    checks.append(("feature bits in order", features,
                   header_enum(text, "ftnl_feature")))

    const_map = {
        "family-version": "FTNL_FAMILY_VERSION",
        "proto-version": "FTNL_PROTO_VERSION",
        "max-nodes": "FTNL_MAX_NODES",
        "key-len": "FTNL_KEY_LEN",
        "node-name-max": "FTNL_NODE_NAME_MAX",
        "node-domain-max": "FTNL_NODE_DOMAIN_MAX",
        "hb-period-min-us": "FTNL_HB_PERIOD_MIN_US",
        "hb-period-max-us": "FTNL_HB_PERIOD_MAX_US",
        "timeout-max-us": "FTNL_TIMEOUT_MAX_US",
        "lateness-buckets": "FTNL_LATENESS_BUCKETS",
        "max-procs": "FTNL_MAX_PROCS",
        "fcg-f-min": "FTNL_FCG_F_MIN",
        "fcg-f-max": "FTNL_FCG_F_MAX",
        "fcg-f-default": "FTNL_FCG_F_DEFAULT",
        "gossip-slot-us": "FTNL_GOSSIP_SLOT_US",
        "gossip-t-max-us": "FTNL_GOSSIP_T_MAX_US",
        "rejoin-flap-limit-min": "FTNL_REJOIN_FLAP_LIMIT_MIN",
        "rejoin-flap-limit-max": "FTNL_REJOIN_FLAP_LIMIT_MAX",
        "rejoin-flap-limit-default": "FTNL_REJOIN_FLAP_LIMIT_DEFAULT",
        "rejoin-flap-window-min-s": "FTNL_REJOIN_FLAP_WINDOW_MIN_S",
        "rejoin-flap-window-max-s": "FTNL_REJOIN_FLAP_WINDOW_MAX_S",
        "rejoin-flap-window-default-s": "FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S",
        "update-grace-min-s": "FTNL_UPDATE_GRACE_MIN_S",
        "update-grace-max-s": "FTNL_UPDATE_GRACE_MAX_S",
        "update-grace-default-s": "FTNL_UPDATE_GRACE_DEFAULT_S",
        "timeout-adaptive-max-us": "FTNL_TIMEOUT_ADAPTIVE_MAX_US",
        "timeout-nines-min": "FTNL_TIMEOUT_NINES_MIN",
        "timeout-nines-max": "FTNL_TIMEOUT_NINES_MAX",
        "timeout-nines-default": "FTNL_TIMEOUT_NINES_DEFAULT",
    }
    for yname, cname in const_map.items():
        header_value = defines.get(cname, "").rstrip("Uu")
        checks.append(("constant " + cname, str(defs[yname]["value"]),
                       header_value))

    # A limit named in an attribute's checks is one of the constants above:
    # the header's, so that the module, libftnl and the CLI share it.
    for set_name, aset in sets.items():
        for attr in aset["attributes"]:
            for key, value in attr.get("checks", {}).items():
                if isinstance(value, str) and key in ("min", "max", "max-len"):
                    checks.append(("%s.%s %s is a header constant" %
                                   (set_name, attr["name"], key), value,
                                   value if value in const_map else None))

    groups = [g["name"] for g in spec["mcast-groups"]["list"]]
    checks.append(("multicast groups", groups,
                   [defines.get("FTNL_MCGRP_EVENTS", "").strip('"')]))
    checks.append(("family name", '"%s"' % spec["name"],
                   defines.get("FTNL_FAMILY_NAME")))

    checks.extend(man_page_limits(defines))

    print("1..%d" % len(checks))
    failed = 0
    for number, (what, want, got) in enumerate(checks, 1):
        if want == got:
            print("ok %d - spec and header agree: %s" % (number, what))
        else:
            failed += 1
            print("not ok %d - spec and header disagree: %s" % (number, what))
            print("# spec:   %s" % (want,))
            print("# header: %s" % (got,))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
