#!/usr/bin/env python3
"""Generate synthetic, pre-built Ninja build trees for benchmarking.

Deterministic (seeded) and stdlib-only. Kinds of tree:

  (default) / --plain   GN/Chromium-shaped tree, compile rules without depfiles
  --deps                same shape, compile rules with `depfile = $out.d` and
                        `deps = gcc`, plus a pre-built .ninja_deps (~6M entries
                        at the default size) as Ninja 1.13 would have written it
  --spawn N             N independent trivial commands (`touch out/N`), NOT
                        pre-built: for the process-spawning benchmark
  --chain N             an N-deep chain of stamp edges, pre-built
  --fanin N             one edge with N inputs, pre-built
  --tiny-c N            N tiny C files compiled with cc (deps = gcc) into an
                        archive, NOT pre-built: for --audit's overhead
  --fmt                 fmt 9.1.0's sources (Debian's source package, as
                        tests/blackbox/fmt_source.py fetches it) configured by
                        CMake for Ninja, NOT pre-built: a real C++ build

GN-shaped trees (source root = OUTDIR, build dir = OUTDIR/out/Default, paths
`../../dir/file.cc` like Chromium) contain a top-level build.ninja (rules,
pools, builddir, a generator edge for build.ninja, phony aliases, `all`) and
one `subninja obj/<dir>/<target>.ninja` per target with GN's file-scope
variables. Every input exists on disk; every output exists with an mtime
newer than its inputs, and .ninja_log (v7) holds the exact command hash of
every edge, so a build of the tree prints `ninja: no work to do.`

The tree description is written to OUTDIR/bench-tree.json (build dir, counts,
the "hot" header included by ~60% of the objects, ...).

Examples:
  gen_tree.py /tmp/t-plain --plain
  gen_tree.py /tmp/t-deps --deps --check "$(misc/reference-ninja.sh)"
  gen_tree.py /tmp/t-spawn --spawn 5000
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # keep misc/bench free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ninja_formats import BuildLogWriter, DepsLogWriter, command_hash  # noqa: E402

GENERATOR_VERSION = 4

# Fixed timestamps keep generated trees bit-identical for a given seed:
# inputs are at T_IN, outputs (and the log/deps-log records) at T_OUT.
T_IN = 1_600_000_000 * 10**9
T_OUT = T_IN + 1000 * 10**9

TOP_DIRS = [
    "base", "net", "content", "chrome", "components", "third_party", "ui",
    "gpu", "media", "services", "v8", "cc", "skia", "mojo", "device",
    "extensions", "storage", "sql", "url", "ipc", "crypto", "printing", "pdf",
    "remoting", "chromeos", "headless", "sandbox", "google_apis", "ash",
    "third_party",
]
WORDS = [
    "browser", "renderer", "common", "public", "internal", "core", "platform",
    "test", "utils", "impl", "cpp", "bindings", "layout", "style", "paint",
    "animation", "accessibility", "network", "cache", "http", "quic",
    "socket", "proxy", "dns", "cert", "cookies", "disk_cache", "spdy",
    "websockets", "android", "linux", "metrics", "history", "bookmarks",
    "autofill", "password_manager", "omnibox", "sync", "signin", "policy",
    "prefs", "download", "permissions", "notifications", "payments",
    "translate", "safe_browsing", "viz", "compositor", "gl", "vulkan",
    "gles2", "command_buffer", "service", "client", "shared_memory", "task",
    "threading", "allocator", "partition_alloc", "containers", "strings",
    "files", "memory", "json", "debug", "trace_event", "time", "numerics",
    "blink", "modules", "webgpu", "webrtc", "audio", "video", "capture",
    "codecs", "ffmpeg", "libvpx", "dav1d", "boringssl", "icu", "harfbuzz",
    "freetype", "zlib", "protobuf", "abseil", "perfetto", "leveldb",
    "sqlite", "libxml", "expat", "openscreen", "frame", "worker", "storage",
    "indexeddb", "service_worker", "devtools", "media_router", "tabs",
    "views", "controls", "widget", "display", "events", "ozone", "wayland",
    "x11", "input", "gesture", "shell", "login", "wallpaper", "crostini",
]
STEM_WORDS = WORDS + [
    "manager", "helper", "factory", "observer", "delegate", "controller",
    "handler", "provider", "tracker", "builder", "parser", "writer",
    "reader", "encoder", "decoder", "stream", "buffer", "queue", "pool",
    "host", "proxy_impl", "client_impl", "util", "switches", "features",
    "constants", "types", "traits", "mojom", "struct", "serializer",
    "connection", "session", "request", "response", "job", "context",
    "registry", "store", "backend", "frontend", "view", "model", "item",
    "list", "tree", "node", "element", "document", "window", "surface",
    "texture", "image", "font", "text", "shaper", "glyph", "color", "rect",
    "point", "size", "transform", "matrix", "region", "path", "clip",
]

# Chromium-like flag soup (the per-target ninja files carry these).
COMMON_DEFINES = [
    "-DDCHECK_ALWAYS_ON=1", "-DUSE_UDEV", "-DUSE_AURA=1", "-DUSE_GLIB=1",
    "-DUSE_OZONE=1", "-D__STDC_CONSTANT_MACROS", "-D__STDC_FORMAT_MACROS",
    "-D_FORTIFY_SOURCE=2", "-D_FILE_OFFSET_BITS=64", "-D_LARGEFILE_SOURCE",
    "-D_LARGEFILE64_SOURCE", "-D_GNU_SOURCE", "-DCR_CLANG_REVISION=\\\"llvmorg-19-init-2941-ga0b3dbaf-22\\\"",
    "-DCOMPONENT_BUILD", "-DCR_LIBCXX_REVISION=e3b94d0e5b86883fd77696bf10dc33ba250ba99b",
    "-D_LIBCPP_HARDENING_MODE=_LIBCPP_HARDENING_MODE_EXTENSIVE",
    "-DCR_SYSROOT_KEY=20230611T210420Z-2", "-DNDEBUG", "-DNVALGRIND",
    "-DDYNAMIC_ANNOTATIONS_ENABLED=0", "-DWEBP_EXTERN=extern",
    "-DGOOGLE_PROTOBUF_NO_RTTI", "-DGOOGLE_PROTOBUF_NO_STATIC_INITIALIZER",
    "-DHAVE_PTHREAD", "-DABSL_ALLOCATOR_NOTHROW=1", "-DUSE_CHROMIUM_ICU=1",
    "-DU_ENABLE_TRACING=1", "-DU_ENABLE_RESOURCE_TRACING=0",
    "-DU_STATIC_IMPLEMENTATION", "-DICU_UTIL_DATA_IMPL=ICU_UTIL_DATA_FILE",
]
COMMON_CFLAGS = (
    "-fno-delete-null-pointer-checks -fno-ident -fno-strict-aliasing "
    "--param=ssp-buffer-size=4 -fstack-protector -funwind-tables -fPIC "
    "-pthread -fcolor-diagnostics -fmerge-all-constants "
    "-fcrash-diagnostics-dir=../../tools/clang/crashreports "
    "-mllvm -instcombine-lower-dbg-declare=0 -mllvm -split-threshold-for-reg-with-hint=0 "
    "-ffp-contract=off -fcomplete-member-pointers -m64 -msse3 "
    "-Wno-builtin-macro-redefined -D__DATE__= -D__TIME__= -D__TIMESTAMP__= "
    "-ffile-compilation-dir=. -no-canonical-prefixes -ftrivial-auto-var-init=pattern "
    "-O2 -fdata-sections -ffunction-sections -fno-unique-section-names "
    "-fno-omit-frame-pointer -g0 -fvisibility=hidden "
    "-Xclang -add-plugin -Xclang find-bad-constructs "
    "-Xclang -plugin-arg-find-bad-constructs -Xclang raw-ref-template-as-trivial-member "
    "-Xclang -plugin-arg-find-bad-constructs -Xclang check-stack-allocated "
    "-Xclang -plugin-arg-find-bad-constructs -Xclang check-raw-ptr-to-stack-allocated "
    "-Wheader-hygiene -Wstring-conversion -Wtautological-overlap-compare "
    "-Wall -Werror -Wextra -Wimplicit-fallthrough -Wextra-semi -Wunreachable-code-aggressive "
    "-Wthread-safety -Wno-missing-field-initializers -Wno-unused-parameter "
    "-Wno-psabi -Wloop-analysis -Wno-unneeded-internal-declaration "
    "-Wenum-compare-conditional -Wno-ignored-pragma-optimize -Wno-deprecated-builtins "
    "-Wno-bitfield-constant-conversion -Wno-deprecated-this-capture "
    "-Wno-invalid-offsetof -Wno-vla-extension -Wno-thread-safety-reference-return "
    "-Wshadow -fstrict-aliasing"
)
COMMON_CFLAGS_C = "-std=c11"
COMMON_CFLAGS_CC = (
    "-Wno-trigraphs -fno-exceptions -fno-rtti -nostdinc++ "
    "-isystem../../third_party/libc++/src/include "
    "-isystem../../third_party/libc++abi/src/include "
    "--sysroot=../../build/linux/debian_bullseye_amd64-sysroot "
    "-fvisibility-inlines-hidden -Wno-invalid-offsetof -Wenum-compare-conditional "
    "-Wno-c++11-narrowing-const-reference -Wno-missing-template-arg-list-after-template-kw "
    "-std=c++20 -Wno-dangling-assignment-gsl"
)
COMMON_LDFLAGS = (
    "-Wl,--version-script=../../build/linux/chrome.map -Werror -fuse-ld=lld "
    "-Wl,--fatal-warnings -Wl,--build-id=sha1 -fPIC -Wl,-z,noexecstack "
    "-Wl,-z,relro -Wl,--color-diagnostics -Wl,--no-call-graph-profile-sort "
    "-m64 -no-canonical-prefixes -Wl,-O2 -Wl,--gc-sections -rdynamic "
    "--sysroot=../../build/linux/debian_bullseye_amd64-sysroot -pie "
    "-Wl,-z,defs -Wl,--as-needed -nostdlib++ "
    "-Wl,-rpath=\\$$ORIGIN"  # GN writes `\$$ORIGIN`; evaluates to `\$ORIGIN`
)
COMMON_LIBS = "-ldl -lpthread -lrt -lgmodule-2.0 -lgobject-2.0 -lgthread-2.0 -lglib-2.0 -lnss3 -lnssutil3 -lsmime3 -lplds4 -lplc4 -lnspr4 -lresolv -lm"

FAKE_CC = r"""#!/bin/sh
# Fake compiler of the ronin benchmark trees: creates the -o file and, with
# -MF, a gcc-style depfile listing the source and the headers named in the
# file given by -fbench-deps=FILE.
out= dep= src= lst=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    -MF) dep=$2; shift ;;
    -c) src=$2; shift ;;
    -fbench-deps=*) lst=${1#-fbench-deps=} ;;
  esac
  shift
done
if [ -n "$dep" ]; then
  { printf '%s: %s' "$out" "$src"; if [ -n "$lst" ]; then cat "$lst"; fi; echo; } > "$dep"
fi
: > "$out"
"""
FAKE_TOOL = r"""#!/bin/sh
# Fake linker/archiver/action of the ronin benchmark trees:
#   fake_tool -o OUT... -- anything   creates every OUT, ignores the rest.
[ "$1" = -o ] && shift
while [ $# -gt 0 ] && [ "$1" != -- ]; do : > "$1"; shift; done
exit 0
"""


def ninja_escape_path(p):
    return p.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def canon(p):
    while p.startswith("./"):
        p = p[2:]
    return p


class Files:
    """Everything to create on disk: path (relative to root) -> mtime ns."""

    def __init__(self):
        self.files = {}
        self.contents = {}
        self.modes = {}

    def add(self, path, mtime, content=None, mode=None):
        self.files[path] = mtime
        if content is not None:
            self.contents[path] = content
        if mode is not None:
            self.modes[path] = mode

    def write(self, root):
        dirs = set()
        for p in self.files:
            d = os.path.dirname(p)
            while d and d not in dirs:
                dirs.add(d)
                d = os.path.dirname(d)
        for d in sorted(dirs):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        flags = os.O_CREAT | os.O_WRONLY | os.O_TRUNC
        for p, t in self.files.items():
            full = os.path.join(root, p)
            fd = os.open(full, flags, self.modes.get(p, 0o644))
            c = self.contents.get(p)
            if c:
                os.write(fd, c if isinstance(c, bytes) else c.encode())
            os.utime(fd, ns=(t, t))
            os.close(fd)
        return len(self.files)


def write_meta(root, meta):
    with open(os.path.join(root, "bench-tree.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


# --------------------------------------------------------------------------
# GN-shaped tree
# --------------------------------------------------------------------------

class Target:
    __slots__ = ("idx", "name", "dir", "kind", "srcs", "objs", "deps",
                 "final", "final_outs", "stamp", "inputdeps", "hdrs",
                 "action_outs", "copies", "hot", "ninja_file")


def gen_gn_tree(root, args, deps_mode):
    rng = random.Random(args.seed)
    E, S = args.edges, args.subninjas
    bdir_rel = "out/Default"
    up = "../../"
    files = Files()
    t_start = time.time()

    def out_file(p):  # an output: relative to the build dir, pre-built
        files.add(bdir_rel + "/" + canon(p), T_OUT)

    # ---- targets, directories, kinds ------------------------------------
    used_dirs = []
    dir_names = {}
    targets = []
    n_exe = max(1, round(S * 0.05))
    n_so = max(1, round(S * 0.04)) if S >= 10 else 0
    n_act = max(1, round(S * 0.06)) if S >= 10 else 0
    kinds = []
    for i in range(S):
        kinds.append("source_set" if rng.random() < 0.58 else "static_library")
    # actions early (their outputs are order-only deps of later targets),
    # shared libs in the last third, executables last.
    for i in range(n_act):
        kinds[i * max(1, (S // 2) // max(1, n_act))] = "action"
    for i in range(n_so):
        kinds[S - n_exe - 1 - i * 3] = "shared_library"
    for i in range(n_exe):
        kinds[S - 1 - i] = "executable"

    for i in range(S):
        t = Target()
        t.idx = i
        t.kind = kinds[i]
        if used_dirs and rng.random() < 0.25:
            d = rng.choice(used_dirs)
        else:
            while True:
                top = rng.choice(TOP_DIRS)
                segs = [top] + [rng.choice(WORDS) for _ in range(rng.randint(1, 4))]
                d = "/".join(segs)
                if d not in dir_names:
                    break
            used_dirs.append(d)
            dir_names[d] = set()
        while True:
            base = rng.choice(WORDS)
            if rng.random() < 0.5:
                base += "_" + rng.choice(STEM_WORDS)
            if t.kind == "executable":
                base += rng.choice(["_unittests", "_browsertests", "_perftests", ""])
            if base not in dir_names[d]:
                break
            base += "_" + str(i)
            if base not in dir_names[d]:
                break
        dir_names[d].add(base)
        t.name, t.dir = base, d
        t.srcs, t.objs, t.deps, t.copies, t.action_outs = [], [], [], [], []
        t.ninja_file = "obj/%s/%s.ninja" % (d, base)
        targets.append(t)

    # ---- edge budget ------------------------------------------------------
    # per target: inputdeps stamp + final + phony alias; action targets: 1
    # action edge + copies; global: regen + all.
    n_copies = max(n_act, int(E * 0.02)) if n_act else 0
    # GN also emits a short phony alias (`build name: phony ...`) for
    # targets whose name is unique; executables are already named so.
    name_count = {}
    for t in targets:
        name_count[t.name] = name_count.get(t.name, 0) + 1
    short_alias = [t for t in targets if name_count[t.name] == 1 and t.kind != "executable"]
    fixed = 3 * S + len(short_alias) + n_act + n_copies + 2
    n_compile = max(S, E - fixed)
    compile_targets = [t for t in targets if t.kind != "action"]
    weights = [min(rng.paretovariate(1.3), 60.0) for _ in compile_targets]
    tot_w = sum(weights)
    counts = [max(1, int(w / tot_w * n_compile)) for w in weights]
    k = 0
    while sum(counts) < n_compile:
        counts[k % len(counts)] += 1
        k += 1
    while sum(counts) > n_compile:
        j = max(range(len(counts)), key=lambda x: counts[x])
        counts[j] -= 1

    for t, n in zip(compile_targets, counts):
        stems = dir_names.setdefault("src:" + t.dir, set())
        third = t.dir.startswith("third_party")
        for _ in range(n):
            while True:
                st = "_".join(rng.choice(STEM_WORDS) for _ in range(rng.randint(2, 4)))
                if t.kind == "executable" and rng.random() < 0.7:
                    st += "_unittest"
                if st not in stems:
                    break
                st += "_%d" % len(stems)
                if st not in stems:
                    break
            stems.add(st)
            ext = ".c" if third and rng.random() < 0.4 else ".cc"
            t.srcs.append((st, ext))
            t.objs.append("obj/%s/%s/%s.o" % (t.dir, t.name, st))

    acts = [t for t in targets if t.kind == "action"]
    for j in range(n_copies):
        acts[j % len(acts)].copies.append(j)

    # ---- dependencies (DAG over earlier targets) ------------------------
    for t in targets:
        if t.idx == 0:
            continue
        nd = rng.randint(2, 8)
        cands = targets[:t.idx]
        t.deps = sorted(set(rng.choice(cands) for _ in range(nd)), key=lambda x: x.idx)

    # ---- headers --------------------------------------------------------
    # every other file is known exactly; headers make up the rest of --files
    # (at least 300 so that each object can list ~100 distinct headers)
    n_so_toc = sum(1 for t in targets if t.kind == "shared_library")
    n_other = (2 * n_compile                      # sources + objects
               + 2 * n_copies + 5 * len(acts)     # copies, .idl + 4 generated
               + 2 * S + n_so_toc                 # inputdeps + final (+ .TOC)
               + len(used_dirs) + S + 10)         # BUILD.gn, .ninja, tools, misc
    if deps_mode:
        n_other += len(compile_targets)           # the fake compiler's lists
    n_headers = max(300, args.files - n_other)
    hot_header = "build/build_config.h"
    base_hdrs = ["base/%s.h" % w for w in
                 ["logging", "check", "memory/raw_ptr", "memory/scoped_refptr",
                  "functional/bind", "functional/callback", "strings/string_piece",
                  "containers/span", "time/time", "location", "compiler_specific",
                  "base_export", "types/pass_key", "memory/weak_ptr",
                  "task/sequenced_task_runner", "observer_list", "values",
                  "strings/string_util", "notreached", "dcheck_is_on"]]
    other_hdrs = []
    seen = set(base_hdrs) | {hot_header}
    all_dirs = used_dirs
    while len(other_hdrs) < max(0, n_headers - len(base_hdrs) - 1):
        d = rng.choice(all_dirs)
        h = "%s/%s.h" % (d, "_".join(rng.choice(STEM_WORDS) for _ in range(rng.randint(1, 3))))
        if h not in seen:
            seen.add(h)
            other_hdrs.append(h)
    # hot header: whole targets, until ~60% of objects are covered
    order = list(compile_targets)
    rng.shuffle(order)
    covered = 0
    for t in targets:
        t.hot = False
    for t in order:
        if covered >= 0.6 * n_compile:
            break
        if covered + len(t.srcs) > 0.65 * n_compile and covered > 0.5 * n_compile:
            continue
        t.hot = True
        covered += len(t.srcs)
    for t in compile_targets:
        k = min(len(other_hdrs), rng.randint(80, 125))
        extra = rng.sample(other_hdrs, k)
        h = list(base_hdrs)
        if t.hot:
            h.insert(3, hot_header)
        t.hdrs = [up + x for x in h + extra]
    for h in base_hdrs + other_hdrs + [hot_header]:
        files.add(h, T_IN)

    # ---- output names -----------------------------------------------------
    for t in targets:
        od = "obj/" + t.dir
        t.inputdeps = "%s/%s.inputdeps.stamp" % (od, t.name)
        if t.kind == "source_set":
            t.final_outs = ["%s/%s.stamp" % (od, t.name)]
        elif t.kind == "static_library":
            t.final_outs = ["%s/lib%s.a" % (od, t.name)]
        elif t.kind == "shared_library":
            t.final_outs = ["./lib%s.so" % t.name, "./lib%s.so.TOC" % t.name]
        elif t.kind == "executable":
            t.final_outs = ["./" + t.name]
        else:
            t.final_outs = ["%s/%s.stamp" % (od, t.name)]
            t.action_outs = ["gen/%s/%s_%d%s" % (t.dir, t.name, j, ext)
                             for j in range(2) for ext in (".h", ".cc")]
    # duplicate names among executables / shared libs would collide in the
    # root out dir: suffix them
    seen_root = set()
    for t in targets:
        if t.kind in ("shared_library", "executable"):
            while canon(t.final_outs[0]) in seen_root:
                t.name += "_x"
                if t.kind == "executable":
                    t.final_outs = ["./" + t.name]
                else:
                    t.final_outs = ["./lib%s.so" % t.name, "./lib%s.so.TOC" % t.name]
            seen_root.add(canon(t.final_outs[0]))

    # ---- manifests --------------------------------------------------------
    log_entries = []   # (output, hash)
    deps_records = []  # (output, [deps])
    manifest_bytes = 0
    n_edges = 0
    n_deps_edges = 0

    toolchain = "build/toolchain/"
    fake_cc = up + toolchain + "fake_cc"
    fake_tool = up + toolchain + "fake_tool"
    files.add(toolchain + "fake_cc", T_IN, FAKE_CC, 0o755)
    files.add(toolchain + "fake_tool", T_IN, FAKE_TOOL, 0o755)
    gen_tools = ["tools/gen/generate_bindings.py", "tools/gen/templates.py",
                 "build/gn_helpers.py", "tools/gen/jinja_helpers.py"]
    for g in gen_tools:
        files.add(g, T_IN, "# generator\n")

    dep_cmd = "-MMD -MF $out.d " if deps_mode else ""
    rules = []
    rules.append("rule cc\n  command = %s %s$defines $include_dirs $cflags $cflags_c -c $in -o $out\n"
                 "  description = CC $out\n" % (fake_cc, dep_cmd))
    rules.append("rule cxx\n  command = %s %s$defines $include_dirs $cflags $cflags_cc -c $in -o $out\n"
                 "  description = CXX $out\n" % (fake_cc, dep_cmd))
    if deps_mode:
        rules[0] += "  depfile = $out.d\n  deps = gcc\n"
        rules[1] += "  depfile = $out.d\n  deps = gcc\n"
    rules.append("rule alink\n  command = rm -f $out && %s -o $out -- llvm-ar $arflags -r -c -D -s $out @$out.rsp\n"
                 "  description = AR $out\n  rspfile = $out.rsp\n  rspfile_content = $in_newline\n" % fake_tool)
    rules.append("rule solink\n  command = %s -o $out -- clang++ -shared -Wl,-soname=$soname $ldflags -o $soname @$soname.rsp $solibs $libs\n"
                 "  description = SOLINK $soname\n  rspfile = $soname.rsp\n"
                 "  rspfile_content = -Wl,--whole-archive $in $solibs -Wl,--no-whole-archive $libs\n"
                 "  restat = 1\n  pool = link_pool\n" % fake_tool)
    rules.append("rule link\n  command = %s -o $out -- clang++ $ldflags -o $out -Wl,--start-group @$out.rsp $solibs -Wl,--end-group $libs\n"
                 "  description = LINK $out\n  rspfile = $out.rsp\n  rspfile_content = $in\n  pool = link_pool\n" % fake_tool)
    rules.append("rule stamp\n  command = touch $out\n  description = STAMP $out\n")
    rules.append("rule copy\n  command = ln -f $in $out 2>/dev/null || (rm -rf $out && cp -af $in $out)\n"
                 "  description = COPY $in $out\n")

    def cc_cmd(t_vars, rule, inp, out):
        flags = t_vars["cflags_c"] if rule == "cc" else t_vars["cflags_cc"]
        dc = ("-MMD -MF %s.d " % out) if deps_mode else ""
        return "%s %s%s %s %s %s -c %s -o %s" % (
            fake_cc, dc, t_vars["defines"], t_vars["include_dirs"],
            t_vars["cflags"], flags, inp, out)

    all_targets_outs = []
    subninja_names = []
    gn_files = []
    for t in targets:
        lines = []
        od = "obj/" + t.dir
        gd = "gen/" + t.dir
        ndef = rng.randint(2, 14)
        defines = " ".join(COMMON_DEFINES + ["-D%s_IMPLEMENTATION=1" % t.name.upper()] +
                           ["-D%s_%s=1" % (rng.choice(WORDS).upper(), rng.choice(STEM_WORDS).upper())
                            for _ in range(ndef)])
        incs = ["-I../..", "-Igen", "-I../../buildtools/third_party/libc++"]
        incs += ["-I../../" + rng.choice(used_dirs) for _ in range(rng.randint(1, 12))]
        incs += ["-Igen/" + t.dir]
        include_dirs = " ".join(incs)
        cflags = COMMON_CFLAGS
        if t.dir.startswith("third_party"):
            cflags += " -Wno-unused-function -Wno-sign-compare -Wno-implicit-fallthrough"
        if deps_mode and t.srcs:
            lst = "%s/%s.deps.txt" % (t.dir, t.name)
            files.add(lst, T_IN, "".join(" \\\n  " + h for h in t.hdrs))
            cflags += " -fbench-deps=" + up + lst
        tv = {"defines": defines, "include_dirs": include_dirs, "cflags": cflags,
              "cflags_c": COMMON_CFLAGS_C, "cflags_cc": COMMON_CFLAGS_CC}
        lines.append("defines = " + defines)
        lines.append("include_dirs = " + include_dirs)
        lines.append("cflags = " + cflags)
        lines.append("cflags_c = " + COMMON_CFLAGS_C)
        lines.append("cflags_cc = " + COMMON_CFLAGS_CC)
        lines.append("label_name = " + t.name)
        lines.append("target_out_dir = " + od)
        lines.append("target_gen_dir = " + gd)
        lines.append("target_output_name = " + t.name)
        lines.append("")

        # order-only inputs of this target's edges: its deps' final outputs
        # that are actions, folded into the inputdeps stamp.
        act_deps = [d for d in t.deps if d.kind == "action"]
        inputdeps_ins = []
        for d in act_deps:
            inputdeps_ins += d.final_outs
        # plus a few stamps of other deps (GN folds hard deps in)
        inputdeps_ins += [d.final_outs[0] for d in t.deps[:2] if d.kind == "source_set"]
        lines.append("build %s: stamp %s" % (t.inputdeps, " ".join(inputdeps_ins)))
        lines.append("")
        out_file(t.inputdeps)
        log_entries.append((t.inputdeps, command_hash("touch " + t.inputdeps)))
        n_edges += 1

        if t.kind == "action":
            rname = "__%s_%s___rule" % (t.dir.replace("/", "_"), t.name)
            lines.append("rule " + rname)
            acmd_tail = "python3 ../../tools/gen/generate_bindings.py --output-dir gen/%s --name %s ../../%s/%s.idl" % (
                t.dir, t.name, t.dir, t.name)
            lines.append("  command = %s -o $out -- %s" % (fake_tool, acmd_tail))
            lines.append("  description = ACTION //%s:%s" % (t.dir, t.name))
            lines.append("  restat = 1")
            lines.append("  pool = action_pool")
            lines.append("")
            idl = "%s/%s.idl" % (t.dir, t.name)
            files.add(idl, T_IN)
            lines.append("build %s: %s ../../%s | %s || %s" % (
                " ".join(t.action_outs), rname, idl,
                " ".join(up + g for g in gen_tools), t.inputdeps))
            lines.append("")
            for o in t.action_outs:
                out_file(o)
            h = command_hash("%s -o %s -- %s" % (fake_tool, " ".join(t.action_outs), acmd_tail))
            for o in t.action_outs:
                log_entries.append((o, h))
            n_edges += 1
            copy_outs = []
            for j in t.copies:
                src = "%s/test_data/data_%d.json" % (t.dir, j)
                out = "test_data/%s/data_%d.json" % (t.dir, j)
                files.add(src, T_IN)
                out_file(out)
                lines.append("build %s: copy %s" % (out, up + src))
                ccmd = "ln -f %s %s 2>/dev/null || (rm -rf %s && cp -af %s %s)" % (
                    up + src, out, out, up + src, out)
                log_entries.append((out, command_hash(ccmd)))
                copy_outs.append(out)
                n_edges += 1
            lines.append("")
            stamp_ins = t.action_outs + copy_outs
            lines.append("build %s: stamp %s" % (t.final_outs[0], " ".join(stamp_ins)))
            out_file(t.final_outs[0])
            log_entries.append((t.final_outs[0], command_hash("touch " + t.final_outs[0])))
            n_edges += 1
        else:
            for (st, ext), obj in zip(t.srcs, t.objs):
                src = "%s/%s%s" % (t.dir, st, ext)
                rule = "cc" if ext == ".c" else "cxx"
                files.add(src, T_IN)
                out_file(obj)
                lines.append("build %s: %s %s || %s" % (obj, rule, up + src, t.inputdeps))
                lines.append("  source_file_part = %s%s" % (st, ext))
                lines.append("  source_name_part = " + st)
                log_entries.append((obj, command_hash(cc_cmd(tv, rule, up + src, obj))))
                if deps_mode:
                    deps_records.append((obj, up + src, t))
                    n_deps_edges += 1
                n_edges += 1
            lines.append("")
            fo = t.final_outs
            oo = " || " + " ".join(d.final_outs[0] for d in t.deps) if t.deps else ""
            if t.kind == "source_set":
                lines.append("build %s: stamp %s%s" % (fo[0], " ".join(t.objs), oo))
                log_entries.append((fo[0], command_hash("touch " + fo[0])))
            elif t.kind == "static_library":
                lines.append("build %s: alink %s%s" % (fo[0], " ".join(t.objs), oo))
                lines.append("  arflags = -T")
                lines.append("  output_extension = .a")
                lines.append("  output_dir = " + od)
                cmd = "rm -f %s && %s -o %s -- llvm-ar -T -r -c -D -s %s @%s.rsp" % (
                    fo[0], fake_tool, fo[0], fo[0], fo[0])
                log_entries.append((fo[0], command_hash(cmd, "\n".join(t.objs))))
            else:
                # link inputs: own objects + objects of source_set deps (GN
                # links source sets' objects directly) + static libs.
                ins = list(t.objs)
                libs_a = []
                solibs = []
                if t.kind == "executable":
                    # executables together link link_fraction x all objects
                    want = int(n_compile * args.link_fraction / n_exe)
                    pool = [x for x in targets[:t.idx] if x.kind == "source_set"]
                    rng.shuffle(pool)
                    got = 0
                    for x in pool:
                        if got >= want:
                            break
                        ins += x.objs
                        got += len(x.objs)
                    libs_a = [x.final_outs[0] for x in targets[:t.idx]
                              if x.kind == "static_library" and rng.random() < 0.15]
                    solibs = [x.final_outs[0] for x in targets[:t.idx]
                              if x.kind == "shared_library" and rng.random() < 0.5]
                else:
                    for x in t.deps:
                        if x.kind == "source_set":
                            ins += x.objs
                        elif x.kind == "static_library":
                            libs_a.append(x.final_outs[0])
                    solibs = [x.final_outs[0] for x in t.deps if x.kind == "shared_library"]
                ins += libs_a
                tocs = [s + ".TOC" for s in solibs]
                implicit = " | " + " ".join(tocs + [fake_tool])
                ldflags = COMMON_LDFLAGS
                ldflags_eval = ldflags.replace("$$", "$")
                libs = COMMON_LIBS
                if t.kind == "shared_library":
                    soname = "lib%s.so" % t.name
                    lines.append("build %s: solink %s%s%s" % (" ".join(fo), " ".join(ins), implicit, oo))
                    lines.append("  ldflags = " + ldflags)
                    lines.append("  libs = " + libs)
                    lines.append("  frameworks =")
                    lines.append("  swiftmodules =")
                    lines.append("  output_extension = .so")
                    lines.append("  output_dir = .")
                    lines.append("  soname = " + soname)
                    lines.append("  solibs = " + " ".join(solibs))
                    cmd = "%s -o %s -- clang++ -shared -Wl,-soname=%s %s -o %s @%s.rsp %s %s" % (
                        fake_tool, " ".join(canon(x) for x in fo), soname, ldflags_eval,
                        soname, soname, " ".join(solibs), libs)
                    rsp = "-Wl,--whole-archive %s %s -Wl,--no-whole-archive %s" % (
                        " ".join(ins), " ".join(solibs), libs)
                else:
                    lines.append("build %s: link %s%s%s" % (fo[0], " ".join(ins), implicit, oo))
                    lines.append("  ldflags = " + ldflags)
                    lines.append("  libs = " + libs)
                    lines.append("  frameworks =")
                    lines.append("  swiftmodules =")
                    lines.append("  output_extension =")
                    lines.append("  output_dir = .")
                    lines.append("  solibs = " + " ".join(solibs))
                    out = canon(fo[0])
                    cmd = "%s -o %s -- clang++ %s -o %s -Wl,--start-group @%s.rsp %s -Wl,--end-group %s" % (
                        fake_tool, out, ldflags_eval, out, out, " ".join(solibs), libs)
                    rsp = " ".join(ins)
                h = command_hash(cmd, rsp)
                for o in fo:
                    log_entries.append((canon(o), h))
            for o in fo:
                out_file(canon(o))
            n_edges += 1
        lines.append("")
        all_targets_outs.append(t)
        text = "\n".join(lines)
        manifest_bytes += len(text)
        files.add(bdir_rel + "/" + t.ninja_file, T_IN, text)
        subninja_names.append(t.ninja_file)
        gn = "%s/BUILD.gn" % t.dir
        if gn not in files.files:
            files.add(gn, T_IN, "# BUILD.gn\n")
            gn_files.append(gn)

    # ---- top-level build.ninja --------------------------------------------
    top = []
    top.append("ninja_required_version = 1.7.2\n")
    top.append("builddir = .\n")
    top.append("root_out_dir = .\nroot_gen_dir = gen\nroot_build_dir = .\n")
    top.append("pool link_pool\n  depth = 4\n")
    top.append("pool action_pool\n  depth = 2\n")
    top.append("rule gn\n  command = touch build.ninja\n  description = Regenerating ninja files\n"
               "  pool = console\n")
    top.append("build build.ninja: gn\n  generator = 1\n  depfile = build.ninja.d\n")
    n_edges += 1
    files.add(bdir_rel + "/build.ninja.d", T_IN,
              "build.ninja: " + " ".join(up + g for g in ["BUILD.gn", ".gn"] + gn_files) + "\n")
    files.add("BUILD.gn", T_IN, "# root\n")
    files.add(".gn", T_IN, "buildconfig = \"//build/config/BUILDCONFIG.gn\"\n")
    log_entries.append(("build.ninja", command_hash("touch build.ninja")))
    top.extend(rules)
    top.append("")
    for sn in subninja_names:
        top.append("subninja " + sn)
    top.append("")
    # GN-style phony aliases: `dir:name` (escaped colon) for every target,
    # plus the short name when unique.
    for t in targets:
        fo = t.final_outs[0]
        top.append("build %s: phony %s" % (ninja_escape_path(t.dir + ":" + t.name), fo))
        n_edges += 1
    root_outs = set(canon(o) for t in targets for o in t.final_outs)
    for t in short_alias:
        if t.name not in root_outs:
            top.append("build %s: phony %s" % (t.name, t.final_outs[0]))
            n_edges += 1
    top.append("")
    top.append("build all: phony $\n    " + " $\n    ".join(t.final_outs[0] for t in targets))
    n_edges += 1
    top.append("\ndefault all\n")
    top_text = "\n".join(top)
    manifest_bytes += len(top_text)

    bdir = os.path.join(root, bdir_rel)
    n_files = files.write(root)
    with open(os.path.join(bdir, "build.ninja"), "w") as f:
        f.write(top_text)
    os.utime(os.path.join(bdir, "build.ninja"), ns=(T_OUT, T_OUT))
    n_files += 1

    # ---- .ninja_log ---------------------------------------------------------
    log = BuildLogWriter(os.path.join(bdir, ".ninja_log"))
    for out, h in log_entries:
        log.add(out, T_OUT, h)
    log.close()

    meta = {
        "kind": "deps" if deps_mode else "plain",
        "generator_version": GENERATOR_VERSION,
        "params": {"edges": E, "files": args.files, "subninjas": S, "seed": args.seed,
                   "link_fraction": args.link_fraction},
        "build_dir": bdir_rel,
        "edges": n_edges,
        "compile_edges": n_compile,
        "subninjas": len(subninja_names),
        "files": n_files,
        "manifest_bytes": manifest_bytes,
        "log_entries": log.n,
        "headers": len(base_hdrs) + len(other_hdrs) + 1,
        "hot_header": hot_header,
        "hot_objects": covered,
    }

    # ---- .ninja_deps --------------------------------------------------------
    if deps_mode:
        import array
        dl = DepsLogWriter(os.path.join(bdir, ".ninja_deps"))
        packed = {}
        for obj, src, t in deps_records:
            oid = dl.node_id(obj)
            sid = dl.node_id(src)
            p = packed.get(t.idx)
            if p is None:
                p = array.array("i", [dl.node_id(h) for h in t.hdrs]).tobytes()
                packed[t.idx] = p
            dl.add_ids(oid, T_OUT, array.array("i", [sid]).tobytes() + p, 1 + len(t.hdrs))
        dl.close()
        meta["deps_records"] = dl.records
        meta["deps_entries"] = dl.entries
        meta["deps_nodes"] = len(dl.ids)
        meta["deps_log_bytes"] = os.path.getsize(os.path.join(bdir, ".ninja_deps"))
    meta["generation_seconds"] = round(time.time() - t_start, 1)
    return meta


# --------------------------------------------------------------------------
# Small special-purpose trees
# --------------------------------------------------------------------------

def gen_spawn(root, n):
    bdir = os.path.join(root, "out")
    os.makedirs(bdir)
    lines = ["rule touch", "  command = touch $out", "  description = TOUCH $out", ""]
    for i in range(n):
        lines.append("build out/%d: touch" % i)
    lines.append("")
    lines.append("build all: phony " + " ".join("out/%d" % i for i in range(n)))
    lines.append("default all\n")
    with open(os.path.join(bdir, "build.ninja"), "w") as f:
        f.write("\n".join(lines))
    return {"kind": "spawn", "build_dir": "out", "edges": n + 1, "commands": n,
            "generator_version": GENERATOR_VERSION, "params": {"spawn": n}}


def gen_makespan(root, n, seed=1):
    """Commands that sleep: a graph with heterogeneous durations, for the
    scheduling benchmark (not pre-built). n objects with heavy-tailed
    compile times (Pareto, alpha 1.2, 0.25 s scale, capped at 8 s) go into
    libraries, which three programs link (long links, 2-4 s). The shape is
    the one a count of commands gets wrong: the slowest compiles sit on short
    chains (compile, link), the many quick ones on long chains of quick steps
    (generate, compile, archive, index, strip, link)."""
    rng = random.Random(seed)
    bdir = os.path.join(root, "out")
    os.makedirs(bdir)
    durations = {}  # output -> seconds
    inputs = {}  # output -> its inputs
    lines = ["rule work", "  command = sleep $d && touch $out", "  description = $kind $out", ""]

    def build(out, kind, seconds, ins=()):
        durations[out] = seconds
        inputs[out] = list(ins)
        lines.append("build %s: work %s" % (out, " ".join(ins)))
        lines.append("  d = %.3f" % seconds)
        lines.append("  kind = %s" % kind)

    compile_times = sorted((min(8.0, 0.25 * rng.paretovariate(1.2)) for _ in range(n)), reverse=True)
    slow = max(1, n // 8)
    big_objects = []
    for i, seconds in enumerate(compile_times[:slow]):
        build("o/big%d.o" % i, "CXX", seconds)
        big_objects.append("o/big%d.o" % i)
    libs = []
    quick = compile_times[slow:]
    per_lib = max(1, len(quick) // 6)
    for lib in range(6):
        objects = []
        for j, seconds in enumerate(quick[lib * per_lib:(lib + 1) * per_lib]):
            gen = "o/gen%d_%d.cc" % (lib, j)
            build(gen, "GEN", 0.02)
            build(gen + ".o", "CXX", seconds, [gen])
            objects.append(gen + ".o")
        steps = ["o/lib%d.a" % lib, "o/lib%d.index" % lib, "o/lib%d.stripped" % lib]
        build(steps[0], "AR", 0.05, objects)
        build(steps[1], "INDEX", 0.05, [steps[0]])
        build(steps[2], "STRIP", 0.05, [steps[1]])
        libs.append(steps[2])
    programs = []
    for p, (seconds, share) in enumerate([(4.0, big_objects), (3.0, big_objects[::2]), (2.0, big_objects[1::2])]):
        programs.append("o/app%d" % p)
        build(programs[-1], "LINK", seconds, share + libs[p::3])
    lines.append("")
    lines.append("build all: phony " + " ".join(programs))
    lines.append("default all\n")
    with open(os.path.join(bdir, "build.ninja"), "w") as f:
        f.write("\n".join(lines))

    longest, work = makespan_chain_and_work(inputs, durations)
    return {"kind": "makespan", "build_dir": "out", "edges": len(durations) + 1, "commands": len(durations),
            "generator_version": GENERATOR_VERSION, "params": {"makespan": n, "seed": seed},
            "work_seconds": round(work, 3), "longest_chain_seconds": round(longest, 3)}


def makespan_chain_and_work(inputs, durations):
    """(longest chain of durations, total work) of a makespan graph: the lower
    bound for N jobs is max(chain, work / N). `inputs` maps each output to its
    inputs, in the manifest's order (inputs are declared before their users)."""
    longest = {}
    for out in inputs:
        longest[out] = durations[out] + max((longest[i] for i in inputs[out]), default=0.0)
    return max(longest.values()), sum(durations[out] for out in inputs)


def makespan_inputs(bdir):
    """The makespan graph of a generated tree: output -> inputs, in manifest order."""
    with open(os.path.join(bdir, "build.ninja")) as f:
        return {m.group(1): m.group(2).split()
                for m in re.finditer(r"^build (\S+): work ?(.*)$", f.read(), re.M)}


def gen_chain(root, n):
    bdir_rel = "out"
    files = Files()
    lines = ["rule stamp", "  command = touch $out", "  description = STAMP $out", ""]
    log = []
    files.add("src/c0", T_IN)
    prev = "../src/c0"
    width = len(str(n))
    for i in range(1, n + 1):
        out = "chain/%0*d" % (width, i)
        lines.append("build %s: stamp %s" % (out, prev))
        files.add(bdir_rel + "/" + out, T_OUT)
        log.append((out, command_hash("touch " + out)))
        prev = out
    lines.append("\ndefault %s\n" % prev)
    files.add(bdir_rel + "/build.ninja", T_IN, "\n".join(lines))
    nf = files.write(root)
    w = BuildLogWriter(os.path.join(root, bdir_rel, ".ninja_log"))
    for o, h in log:
        w.add(o, T_OUT, h)
    w.close()
    return {"kind": "chain", "build_dir": bdir_rel, "edges": n, "files": nf,
            "generator_version": GENERATOR_VERSION, "params": {"chain": n}}


def gen_fanin(root, n):
    bdir_rel = "out"
    files = Files()
    ins = []
    for i in range(n):
        p = "src/d%d/in%d" % (i // 1000, i)
        files.add(p, T_IN)
        ins.append("../" + p)
    text = ("rule stamp\n  command = touch $out\n  description = STAMP $out\n\n"
            "build fanin.stamp: stamp " + " ".join(ins) + "\n\ndefault fanin.stamp\n")
    files.add(bdir_rel + "/build.ninja", T_IN, text)
    files.add(bdir_rel + "/fanin.stamp", T_OUT)
    nf = files.write(root)
    w = BuildLogWriter(os.path.join(root, bdir_rel, ".ninja_log"))
    w.add("fanin.stamp", T_OUT, command_hash("touch fanin.stamp"))
    w.close()
    return {"kind": "fanin", "build_dir": bdir_rel, "edges": 1, "files": nf,
            "manifest_bytes": len(text),
            "generator_version": GENERATOR_VERSION, "params": {"fanin": n}}


def gen_tiny_c(root, n):
    """n tiny C files, each including the same three small headers,
    compiled with `cc -c` (depfiles, deps = gcc) and archived: commands
    that do little besides starting, opening files and writing one."""
    bdir_rel = "out"
    os.makedirs(os.path.join(root, bdir_rel))
    headers = {"include/tiny.h": "#include \"tiny_types.h\"\nint tiny(int);\n",
               "include/tiny_types.h": "typedef int tiny_int;\n",
               "include/tiny_config.h": "#define TINY_SCALE 3\n"}
    for path, text in headers.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    lines = ["rule cc", "  command = cc -O0 -I../include -MD -MF $out.d -c $in -o $out",
             "  depfile = $out.d", "  deps = gcc", "  description = CC $out",
             "rule ar", "  command = rm -f $out && ar crs $out $in", "  description = AR $out", ""]
    objects = []
    os.makedirs(os.path.join(root, "src"))
    for i in range(n):
        with open(os.path.join(root, "src", "t%d.c" % i), "w") as f:
            f.write("#include \"tiny.h\"\n#include \"tiny_config.h\"\n"
                    "tiny_int t%d(tiny_int x) { return x * TINY_SCALE + %d; }\n" % (i, i))
        objects.append("obj/t%d.o" % i)
        lines.append("build obj/t%d.o: cc ../src/t%d.c" % (i, i))
    lines.append("build libtiny.a: ar " + " ".join(objects))
    lines.append("default libtiny.a\n")
    with open(os.path.join(root, bdir_rel, "build.ninja"), "w") as f:
        f.write("\n".join(lines))
    return {"kind": "tiny-c", "build_dir": bdir_rel, "edges": n + 1, "commands": n + 1,
            "generator_version": GENERATOR_VERSION, "params": {"tiny_c": n}}


def gen_fmt(root):
    """fmt's sources, configured by CMake (Release) for Ninja in build/."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                    "tests", "blackbox"))
    import fmt_source
    src = fmt_source.copy_fmt_source(os.path.join(root, "fmt"))
    ninja = shutil.which("ninja")
    subprocess.check_call(["cmake", "-S", src, "-B", os.path.join(root, "build"), "-G", "Ninja",
                           "-DCMAKE_BUILD_TYPE=Release"] + (["-DCMAKE_MAKE_PROGRAM=" + ninja] if ninja else []),
                          stdout=sys.stderr)
    return {"kind": "fmt", "build_dir": "build", "generator_version": GENERATOR_VERSION, "params": {"fmt": 1}}


# --------------------------------------------------------------------------

def check_noop(root, meta, ninja):
    """Dry-runs NINJA in the tree (-n leaves it untouched) and requires
    `ninja: no work to do.`; on failure shows why (-d explain)."""
    bdir = os.path.join(root, meta["build_dir"])

    def big_stack():
        # Ninja's dirty scan recurses once per level of the graph: 1.13.2
        # overflows the default 8 MB stack on a 100k-deep chain.
        import resource
        resource.setrlimit(resource.RLIMIT_STACK, (512 << 20, resource.RLIM_INFINITY))
    r = subprocess.run([ninja, "-n", "-d", "explain"], cwd=bdir, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True,
                       preexec_fn=big_stack if meta["kind"] == "chain" else None)
    ok = r.returncode == 0 and r.stdout.strip() == "ninja: no work to do."
    print("check with %s: %s" % (ninja, "OK (no work to do)" if ok else "FAILED"))
    if not ok:
        print("\n".join(r.stdout.splitlines()[:30]))
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__[__doc__.index("Examples:"):])
    ap.add_argument("outdir", help="directory to create (the tree root)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--plain", action="store_true", help="GN-shaped tree without depfiles (default)")
    mode.add_argument("--deps", action="store_true", help="GN-shaped tree with deps = gcc and a prebuilt .ninja_deps")
    mode.add_argument("--spawn", type=int, metavar="N", help="N trivial independent commands (not pre-built)")
    mode.add_argument("--chain", type=int, metavar="N", help="an N-deep chain of edges")
    mode.add_argument("--makespan", type=int, metavar="N",
                      help="N objects whose commands sleep heavy-tailed times (not pre-built)")
    mode.add_argument("--fanin", type=int, metavar="N", help="one edge with N inputs")
    mode.add_argument("--tiny-c", type=int, metavar="N", help="N tiny C compiles and an archive (not pre-built)")
    mode.add_argument("--fmt", action="store_true", help="fmt's sources configured by CMake (not pre-built)")
    ap.add_argument("--edges", type=int, default=52000, help="build statements (default %(default)s)")
    ap.add_argument("--files", type=int, default=103000,
                    help="approximate files on disk; the header count makes up the difference (default %(default)s)")
    ap.add_argument("--subninjas", type=int, default=500, help="subninja files = targets (default %(default)s)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default %(default)s)")
    ap.add_argument("--link-fraction", type=float, default=3.0,
                    help="object references in all executables' link lines, as a multiple of "
                         "the number of objects (default %(default)s; the main knob for the "
                         "manifest size)")
    ap.add_argument("--force", action="store_true", help="delete OUTDIR first if it exists")
    ap.add_argument("--check", metavar="NINJA", help="after generating, run NINJA in the tree and "
                    "require `ninja: no work to do.` (pre-built kinds only)")
    args = ap.parse_args(argv)

    root = os.path.abspath(args.outdir)
    if os.path.exists(root):
        if not args.force:
            ap.error("%s exists (use --force to replace it)" % root)
        shutil.rmtree(root)
    os.makedirs(root)
    t0 = time.time()
    if args.spawn is not None:
        meta = gen_spawn(root, args.spawn)
    elif args.chain is not None:
        meta = gen_chain(root, args.chain)
    elif args.makespan is not None:
        meta = gen_makespan(root, args.makespan, args.seed)
    elif args.fanin is not None:
        meta = gen_fanin(root, args.fanin)
    elif args.tiny_c is not None:
        meta = gen_tiny_c(root, args.tiny_c)
    elif args.fmt:
        meta = gen_fmt(root)
    else:
        if args.subninjas < 1 or args.edges < 4 * args.subninjas:
            ap.error("need --edges >= 4 * --subninjas")
        meta = gen_gn_tree(root, args, args.deps)
    meta["generation_seconds"] = round(time.time() - t0, 1)
    write_meta(root, meta)
    summary = ", ".join("%s=%s" % (k, meta[k]) for k in
                        ["kind", "edges", "files", "subninjas", "manifest_bytes", "deps_entries",
                         "deps_log_bytes", "hot_objects", "generation_seconds"] if k in meta)
    print("%s: %s" % (root, summary))
    print("build dir: %s" % os.path.join(root, meta["build_dir"]))
    if args.check:
        if meta["kind"] in ("spawn", "makespan", "tiny-c", "fmt"):
            print("--check: %s trees are not pre-built; skipped" % meta["kind"])
        elif not check_noop(root, meta, args.check):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
