#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The module's layering, checked (Documentation/design.rst):

 1. A pure file (one the userspace tests compile: every kmod/*.c that
    kmod/tests/Makefile names, and every header they include, quoted,
    transitively) includes no kernel or system header: quoted headers that
    are pure themselves, and <linux/ftnl.h> (the uapi), only. compat.h is
    the one shim allowed to include <linux/...> and libc headers.
 2. The broadcast layer (kmod/bcast/) does not reach into the ring: no
    include of ring/ring.h, no struct ftnl_ring, no ftnl_ring_* call; it
    sees its node through struct ftnl_bcast_env.
 3. The transport (kmod/datagram.c, socket.c, transport.h) does not take
    a ring: no include of ring/ring.h, no ring->; it only hands an
    authentic datagram up (ftnl_ring_rx).
 4. The rest of the module (netlink, process registration, events, the
    cluster's lifecycle: every kmod/*.c outside ring/ and bcast/ but the
    transport) goes through ring.h's functions: no ring-> field access.

Prints one line per violation and exits 1, or says what it checked.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KMOD = os.path.join(ROOT, "kmod")
SHIM = os.path.join(KMOD, "compat.h")
UAPI_OK = {"linux/ftnl.h"}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def code(path):
    with open(path, encoding="utf-8") as f:
        return COMMENT.sub(" ", f.read())


def includes(path):
    return INCLUDE.findall(code(path))


def pure_roots():
    mk = os.path.join(KMOD, "tests", "Makefile")
    with open(mk, encoding="utf-8") as f:
        text = f.read()
    roots = set()
    for rel in re.findall(r"(\.\./[\w/]+\.c)\b", text):
        path = os.path.normpath(os.path.join(KMOD, "tests", rel))
        if os.path.exists(path):
            roots.add(path)
    return roots


def check_pure(errors):
    todo = sorted(pure_roots())
    seen = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path == SHIM:
            continue
        for kind, name in includes(path):
            rel = os.path.relpath(path, ROOT)
            if kind == "<":
                if name not in UAPI_OK:
                    errors.append(f"{rel}: pure file includes <{name}>")
                continue
            dep = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if not os.path.exists(dep):
                errors.append(f"{rel}: includes missing \"{name}\"")
                continue
            todo.append(dep)
    return seen


def check_bcast(errors):
    checked = 0
    bdir = os.path.join(KMOD, "bcast")
    for name in sorted(os.listdir(bdir)):
        if not name.endswith((".c", ".h")):
            continue
        path = os.path.join(bdir, name)
        rel = os.path.relpath(path, ROOT)
        text = code(path)
        checked += 1
        for _, inc in includes(path):
            if inc.endswith("ring/ring.h"):
                errors.append(f"{rel}: includes the ring's internals ({inc})")
        if re.search(r"\bstruct\s+ftnl_ring\b", text):
            errors.append(f"{rel}: uses struct ftnl_ring")
        for call in sorted(set(re.findall(r"\b(ftnl_ring_\w+)\s*\(", text))):
            errors.append(f"{rel}: calls the ring directly ({call})")
    return checked


def check_transport(errors):
    files = ["datagram.c", "socket.c", "transport.h"]
    for name in files:
        path = os.path.join(KMOD, name)
        rel = os.path.relpath(path, ROOT)
        text = code(path)
        for _, inc in includes(path):
            if inc.endswith("ring/ring.h"):
                errors.append(f"{rel}: includes the ring's internals ({inc})")
        if re.search(r"\bring\s*->", text):
            errors.append(f"{rel}: reaches into a ring (ring->)")
    return len(files)


def check_ring_users(errors):
    transport = {"datagram.c", "socket.c"}
    checked = 0
    for name in sorted(os.listdir(KMOD)):
        if not name.endswith(".c") or name in transport:
            continue
        path = os.path.join(KMOD, name)
        rel = os.path.relpath(path, ROOT)
        checked += 1
        if re.search(r"\bring\s*->|\bring\)\s*->", code(path)):
            errors.append(f"{rel}: reaches into a ring (ring->); use ring.h's functions")
    return checked


def main():
    errors = []
    pure = check_pure(errors)
    nbcast = check_bcast(errors)
    ntransport = check_transport(errors)
    nusers = check_ring_users(errors)
    for e in errors:
        print(e)
    if errors:
        return 1
    print(f"layers: {len(pure)} pure files include no kernel header; "
          f"{nbcast} broadcast files, {ntransport} transport files and "
          f"{nusers} other module files do not reach into the ring")
    return 0


if __name__ == "__main__":
    sys.exit(main())
