"""Differential corpus for ninja's subtools: ours vs reference ninja 1.13.2.

Each scenario sets up two identical trees (optionally builds them with each
binary, touches files, rewrites the manifest...) and then runs a list of
`-t` invocations in both, comparing exit code, stdout, stderr and the file
list after every one, byte for byte. Only what cannot be equal is
normalised: the temporary directory (<DIR>), graphviz node addresses
(numbered by first appearance), and the output mtimes `-t deps` prints for
records written by two separate builds.

    NINJA=<ours> REF_NINJA=<ninja 1.13.2> python3 -m unittest -v test_diff_tools
"""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from harness import DifferentialTestCase, list_tree, name_pointers, touch  # noqa: E402

_DEPS_MTIME = re.compile(r"deps mtime -?\d+ ")
_IGNORED = (".ninja_log", ".ninja_deps", ".ninja_lock")


def normalize(text, root):
    text = text.replace(root, "<DIR>")
    return name_pointers(_DEPS_MTIME.sub("deps mtime <T> ", text))


# ronin's own subtools, listed by `-t list` after all of Ninja's.
RONIN_TOOL_LINES = (
    "      trace  write the last build from .ninja_log as a Chrome trace (JSON)\n",
    "     report  write an HTML report of where the last build spent its time\n",
    "      audit  show what the last build with --audit found\n",
)


def strip_ronin_tools(text):
    line_end = "\r\n" if text.endswith("\r\n") else "\n"  # ninja.exe's text mode
    tail = "".join(line.replace("\n", line_end) for line in RONIN_TOOL_LINES)
    assert text.endswith(tail), "-t list does not end with ronin's own tools: %r" % text
    return text[:-len(tail)]


# ---- Scenario building blocks ------------------------------------------------

class S:
    """One scenario: files, setup steps, then tool invocations.

    steps: ("build", [args...])       run both binaries (-j1), require equal exit codes
           ("touch", path)            create/bump a file in both trees
           ("write", path, text)      (over)write a file in both trees
           ("rm", path)               delete a file in both trees
    tools: argument lists, each compared in full.
    """

    def __init__(self, name, files, tools, steps=()):
        self.name = name
        self.files = files
        self.tools = tools
        self.steps = steps


# Compiler stand-ins: deterministic, instant, and writing gcc-style depfiles.
CC_RULES = """rule cc
  command = echo "$out: $in $hdrs" > $out.d && touch $out
  depfile = $out.d
  description = CC $out
rule ccdeps
  command = echo "$out: $in $hdrs" > $out.d && touch $out
  depfile = $out.d
  deps = gcc
rule link
  command = touch $out
  description = LINK $out
rule gen
  command = touch $out
"""

C_PROJECT = CC_RULES + """build gen.h: gen
build main.o: cc main.c || gen.h
  hdrs = gen.h util.h
build util.o: cc util.c
  hdrs = util.h
build app: link main.o util.o
build all: phony app
default all
"""

DEPS_PROJECT = CC_RULES + """build gen.h: gen
build a.o: ccdeps a.c
  hdrs = gen.h a.h
build b.o: ccdeps b.c || gen.h
  hdrs = gen.h
build c.o: cc c.c
  hdrs = gen.h
build lib: link a.o b.o c.o
"""

SOURCES = {"main.c": "", "util.c": "", "util.h": "", "a.c": "", "b.c": "", "c.c": "", "a.h": ""}

DYNDEP_PROJECT = """rule cp
  command = cp $in $out
rule touch
  command = touch $out $extra
build dd: cp dd.in
build out: touch in || dd
  dyndep = dd
  extra = out.imp
build user: touch out
"""
DYNDEP_FILE = """ninja_dyndep_version = 1
build out | out.imp: dyndep | extra.in
  restat = 1
"""

VALIDATIONS = """rule touch
  command = touch $out
rule check
  command = touch $out
build lint: check src.c
build obj: touch src.c |@ lint
build test: check obj |@ obj
build app: touch obj |@ test lint
"""

PHONY = """rule touch
  command = touch $out
build a: touch src
build alias1: phony a
build alias2: phony alias1
build empty: phony
build uses_empty: touch a || empty
build group: phony uses_empty alias2 missing_file
"""

MULTI_OUT = """rule two
  command = touch $out $implicit
build x y | z w: two in1 in2 | imp || oo
  implicit = z w
build oo: phony
build user: two x z
  implicit =
"""

RSP = """rule ar
  command = ar rcs $out @$out.rsp
  rspfile = $out.rsp
  rspfile_content = $in_newline
rule msvc
  command = link /nologo -f $out.rsp /out:$out
  rspfile = $out.rsp
  rspfile_content = $in
rule opt
  command = tool --option-file=$out.rsp -o $out
  rspfile = $out.rsp
  rspfile_content = $in $flags
build lib.a: ar a.o b.o c.o
build prog.exe: msvc main.obj lib.a
build opt.out: opt x y
  flags = -O2 -g
"""

SUBNINJA = """rule cc
  command = root-cc $in -o $out
  description = ROOT $out
rule only_root
  command = r
build r.o: cc r.c
subninja sub/build.ninja
include inc.ninja
"""
SUBNINJA_FILES = {
    "sub/build.ninja": """rule cc
  command = sub-cc $in -o $out
  description = SUB $out
rule only_sub
  command = s
build sub/s.o: cc sub/s.c
build sub/t.o: only_sub sub/t.c
""",
    "inc.ninja": """rule inc_rule
  command = inc $in
  description = INC ${out} $$literal
build i.o: inc_rule i.c
""",
}

GENERATOR = """rule configure
  command = touch $out
  generator = 1
rule touch
  command = touch $out
build build.ninja.stamp: configure build.ninja
build out: touch in
build gen_out: configure in
  generator =
"""

ESCAPES = """rule cp
  command = cp $in $out
build out$ with$ space: cp in$ 1 it's "quoted" $$dollar back\\slash
build plain: cp out$ with$ space
build ph: phony plain
build top: cp ph tab\tname
"""

JSON = b"""rule r
  command = echo "json\\\\path" \x01\x08\x0c\x1b\x7f caf\xc3\xa9 \xe2\x82\xac tab\there $$HOME 'sq'
build o$ "q": r i\\n.c
build o2: r \xc3\xa9t\xc3\xa9.c
"""

DIAMOND = """rule cc
  command = touch $out
build base: cc base.c
build left: cc base
build right: cc base
build top: cc left right
build top2: cc right left
"""

ORDER_ONLY = """rule touch
  command = touch $out
build gen1: touch
build gen2: touch gen1
build obj: touch src || gen2 gen1
build final: touch obj || gen2
"""

CYCLE = """rule cc
  command = touch $out
build a: cc b
build b: cc a
build top: cc a other
"""


def chain(n):
    lines = ["rule cc\n  command = touch $out\n", "build n0: cc src\n"]
    lines += ["build n%d: cc n%d\n" % (i, i - 1) for i in range(1, n)]
    return "".join(lines)


def fan_in(n):
    inputs = " ".join("in%d.c" % i for i in range(n))
    return "rule cc\n  command = touch $out\nbuild big: cc %s\nbuild top: cc big\n" % inputs


COMMON_QUERIES = [
    ["-t", "commands"], ["-t", "commands", "-s"], ["-t", "inputs"], ["-t", "inputs", "-d", "-E"],
    ["-t", "multi-inputs"], ["-t", "compdb"], ["-t", "compdb", "-x"], ["-t", "targets"],
    ["-t", "targets", "all"], ["-t", "targets", "depth", "0"], ["-t", "targets", "rule"],
    ["-t", "rules"], ["-t", "rules", "-d"], ["-t", "graph"], ["-t", "missingdeps"], ["-t", "deps"],
]

SCENARIOS = [
    S("c_project_unbuilt", dict(SOURCES, **{"build.ninja": C_PROJECT}),
      COMMON_QUERIES + [["-t", "query", "main.o", "app", "gen.h"], ["-t", "compdb-targets", "all"],
                        ["-n", "-t", "clean"], ["-t", "clean"]]),
    S("c_project_built", dict(SOURCES, **{"build.ninja": C_PROJECT}),
      COMMON_QUERIES + [["-t", "query", "main.o"], ["-t", "missingdeps", "app"],
                        ["-t", "compdb-targets", "-x", "app"], ["-t", "cleandead"],
                        ["-n", "-t", "clean", "app"], ["-v", "-t", "clean", "main.o"], ["-t", "clean"]],
      steps=[("build", [])]),
    S("c_project_clean_generator", dict(SOURCES, **{"build.ninja": C_PROJECT}),
      [["-v", "-t", "clean", "-g"], ["-t", "clean"]], steps=[("build", [])]),
    S("deps_log_built", dict(SOURCES, **{"build.ninja": DEPS_PROJECT}),
      [["-t", "deps"], ["-t", "deps", "a.o", "c.o", "lib"], ["-t", "missingdeps"],
       ["-t", "missingdeps", "b.o"], ["-t", "query", "gen.h^"], ["-t", "query", "a.h^", "a.o"],
       ["-t", "inputs", "lib"], ["-t", "commands", "a.h^"], ["-v", "-t", "cleandead"], ["-t", "recompact"],
       ["-t", "deps"], ["-v", "-t", "clean"]],
      steps=[("build", ["lib"])]),
    S("deps_log_stale_after_touch", dict(SOURCES, **{"build.ninja": DEPS_PROJECT}),
      [["-t", "deps"], ["-t", "deps", "b.o"]],
      steps=[("build", ["lib"]), ("touch", "a.o"), ("rm", "b.o")]),
    S("deps_log_after_manifest_change", dict(SOURCES, **{"build.ninja": DEPS_PROJECT}),
      [["-t", "deps"], ["-t", "deps", "a.o"], ["-v", "-n", "-t", "cleandead"], ["-t", "recompact"],
       ["-t", "deps"], ["-t", "cleandead"]],
      steps=[("build", ["lib"]),
             ("write", "build.ninja", DEPS_PROJECT.replace("build a.o: ccdeps a.c", "build a.o: cc a.c")
              .replace("build lib: link a.o b.o c.o\n", "build lib: link a.o c.o\n"))]),
    S("missingdeps_with_builddir", dict(SOURCES, **{"build.ninja": "builddir = out\n" + DEPS_PROJECT}),
      [["-t", "missingdeps"], ["-t", "deps"], ["-t", "recompact"], ["-t", "cleandead"]],
      steps=[("build", ["lib"])]),
    S("dyndep_built", {"build.ninja": DYNDEP_PROJECT, "dd.in": DYNDEP_FILE, "in": "", "extra.in": ""},
      [["-t", "query", "out"], ["-t", "graph"], ["-t", "inputs", "user"], ["-t", "commands", "user"],
       ["-t", "compdb-targets", "user"], ["-t", "targets", "all"], ["-v", "-t", "cleandead"],
       ["-v", "-t", "clean"]],
      steps=[("build", ["user"])]),
    S("dyndep_missing_file", {"build.ninja": DYNDEP_PROJECT, "dd.in": DYNDEP_FILE, "in": ""},
      [["-t", "query", "out"], ["-t", "graph", "user"], ["-n", "-t", "clean"], ["-t", "inputs", "user"]]),
    S("dyndep_bad_file", {"build.ninja": DYNDEP_PROJECT, "dd.in": DYNDEP_FILE, "dd": "ninja_dyndep_version = 2\n"},
      [["-t", "query", "out"], ["-t", "graph", "out"], ["-v", "-t", "clean"]]),
    S("dyndep_unrelated_output", {"build.ninja": DYNDEP_PROJECT, "dd.in": DYNDEP_FILE,
                                  "dd": "ninja_dyndep_version = 1\nbuild user: dyndep\n"},
      [["-t", "query", "out", "user"], ["-v", "-t", "clean", "user"]]),
    S("validations", {"build.ninja": VALIDATIONS, "src.c": ""},
      [["-t", "query", "obj", "lint", "test", "app"], ["-t", "commands", "app"], ["-t", "inputs", "app"],
       ["-t", "multi-inputs", "app", "test"], ["-t", "compdb-targets", "app"], ["-t", "graph", "app"],
       ["-t", "targets"], ["-t", "targets", "depth", "0"], ["-t", "clean", "app"], ["-t", "compdb"]],
      steps=[("build", ["app"])]),
    S("phony_chains", {"build.ninja": PHONY, "src": ""},
      [["-t", "inputs", "group"], ["-t", "inputs", "-d", "alias2"], ["-t", "commands", "group"],
       ["-t", "compdb"], ["-t", "compdb", "phony"], ["-t", "compdb-targets", "group"], ["-t", "targets"],
       ["-t", "targets", "rule", "phony"], ["-t", "graph", "group"], ["-t", "query", "empty", "alias1"],
       ["-v", "-t", "clean", "group"], ["-t", "multi-inputs", "group", "alias2", "empty"]]),
    S("multiple_outputs", {"build.ninja": MULTI_OUT, "in1": "", "in2": "", "imp": ""},
      [["-t", "query", "x", "y", "z", "user"], ["-t", "targets", "all"], ["-t", "targets", "rule", "two"],
       ["-t", "compdb"], ["-t", "graph"], ["-t", "inputs", "user"], ["-v", "-t", "clean", "z"],
       ["-v", "-t", "clean", "-r", "two"]],
      steps=[("build", ["user"])]),
    S("response_files", {"build.ninja": RSP},
      [["-t", "compdb"], ["-t", "compdb", "-x"], ["-t", "compdb", "-x", "msvc", "opt"],
       ["-t", "compdb-targets", "-x", "prog.exe", "opt.out"], ["-t", "commands"],
       ["-v", "-n", "-t", "clean"]]),
    S("response_files_left_behind", {"build.ninja": RSP},
      [["-v", "-t", "clean"]],
      steps=[("touch", "lib.a"), ("touch", "lib.a.rsp"), ("touch", "prog.exe.rsp"), ("touch", "opt.out")]),
    S("subninja_scopes", dict(SUBNINJA_FILES, **{"build.ninja": SUBNINJA}),
      [["-t", "rules"], ["-t", "rules", "-d"], ["-t", "compdb", "cc"], ["-t", "compdb", "only_sub"],
       ["-t", "targets", "rule", "cc"], ["-t", "commands"], ["-t", "query", "sub/s.o"],
       ["-t", "clean", "-r", "only_sub"], ["-v", "-t", "clean", "-r", "cc", "inc_rule"]],
      steps=[("touch", "r.o"), ("touch", "sub/s.o"), ("touch", "sub/t.o"), ("touch", "i.o")]),
    S("generator_rules", {"build.ninja": GENERATOR, "in": ""},
      [["-t", "compdb"], ["-t", "targets", "all"], ["-v", "-n", "-t", "clean"], ["-v", "-t", "clean"],
       ["-v", "-t", "clean", "-g"]],
      steps=[("build", ["out", "gen_out"]), ("touch", "build.ninja.stamp")]),
    S("shell_escaping", {"build.ninja": ESCAPES},
      [["-t", "inputs", "top"], ["-t", "inputs", "-E", "top"], ["-t", "inputs", "-0", "top"],
       ["-t", "multi-inputs", "top", "plain"], ["-t", "multi-inputs", "-0", "-d", "|", "top"],
       ["-t", "commands", "top"], ["-t", "compdb"], ["-t", "query", "out with space"], ["-t", "graph"],
       ["-t", "targets", "depth", "0"], ["-t", "targets", "rule"]]),
    S("json_escaping", {"build.ninja": JSON},
      [["-t", "compdb"], ["-t", "compdb-targets", 'o "q"', "o2"], ["-t", "commands"], ["-t", "inputs"]]),
    S("diamond", {"build.ninja": DIAMOND},
      [["-t", "targets", "depth", "0"], ["-t", "targets", "depth", "2"], ["-t", "commands", "top", "top2"],
       ["-t", "inputs", "-d", "top2", "top"], ["-t", "multi-inputs", "top", "top2"],
       ["-t", "compdb-targets", "top2", "top"], ["-t", "graph", "top", "top2"], ["-t", "missingdeps"]]),
    S("order_only", {"build.ninja": ORDER_ONLY, "src": ""},
      [["-t", "query", "obj", "final"], ["-t", "commands", "final"], ["-t", "inputs", "-d", "final"],
       ["-t", "compdb-targets", "final"], ["-t", "graph", "final"], ["-v", "-t", "clean", "final"]],
      steps=[("build", ["final"])]),
    S("cycle_tolerant_tools", {"build.ninja": CYCLE},
      [["-t", "commands", "top"], ["-t", "inputs", "top"], ["-t", "query", "a"], ["-t", "graph", "top"],
       ["-t", "targets"], ["-t", "targets", "depth", "3"], ["-t", "compdb"], ["-t", "missingdeps"]]),
    S("deep_chain", {"build.ninja": chain(3000)},
      [["-t", "commands", "n2999"], ["-t", "inputs", "n2999"], ["-t", "graph", "n2999"],
       ["-t", "targets", "depth", "0"], ["-t", "compdb-targets", "n2999"], ["-t", "missingdeps"],
       ["-t", "query", "n1500"], ["-t", "multi-inputs", "n2999"], ["-t", "clean", "n2999"]],
      steps=[("touch", "n0"), ("touch", "n1000"), ("touch", "n2999")]),
    S("wide_fan_in", {"build.ninja": fan_in(500)},
      [["-t", "inputs", "top"], ["-t", "targets", "depth", "0"], ["-t", "graph"], ["-t", "compdb"],
       ["-t", "targets", "rule"], ["-t", "query", "big"]]),
    S("working_directory", {"sub/build.ninja": C_PROJECT, "sub/main.c": "", "sub/util.c": ""},
      [["-C", "sub", "-t", "compdb"], ["-C", "sub", "-t", "compdb-targets", "app"],
       ["-C", "sub", "-t", "targets"], ["-C", "sub", "-t", "clean"], ["-C", "nowhere", "-t", "compdb"]],
      steps=[("touch", "sub/main.o")]),
    S("alternate_manifest", {"other.ninja": DIAMOND},
      [["-f", "other.ninja", "-t", "commands"], ["-f", "other.ninja", "-t", "compdb"],
       ["-t", "commands"], ["-f", "missing.ninja", "-t", "query", "x"]]),
    S("empty_manifest", {"build.ninja": ""},
      COMMON_QUERIES + [["-t", "clean"], ["-t", "cleandead"], ["-t", "recompact"], ["-t", "query", "x"],
                        ["-t", "compdb-targets", "x"]]),
    S("unknown_targets", {"build.ninja": DIAMOND},
      [["-t", "commands", "topp"], ["-t", "inputs", "lefft"], ["-t", "multi-inputs", "zzz"],
       ["-t", "query", "base", "bsae"], ["-t", "graph", "rigth"], ["-t", "deps", "tpo"],
       ["-t", "missingdeps", "clean"], ["-t", "compdb-targets", "help"], ["-t", "compdb-targets", "base.c"],
       ["-t", "clean", "nope", "top"], ["-t", "clean", "-r", "ccc"]]),
    S("caret_targets", {"build.ninja": DIAMOND},
      [["-t", "commands", "base.c^"], ["-t", "query", "base^"], ["-t", "inputs", "base^"],
       ["-t", "compdb-targets", "base.c^"], ["-t", "graph", "left^"], ["-t", "deps", "base.c^"],
       ["-t", "query", "top^"], ["-t", "clean", "base.c^"]]),
    S("option_errors", {"build.ninja": DIAMOND},
      [["-t", "clean", "-z"], ["-t", "commands", "--long"], ["-t", "inputs", "-Z"],
       ["-t", "inputs", "--print"], ["-t", "inputs", "--d"], ["-t", "multi-inputs", "-x"],
       ["-t", "multi-inputs", "--delim"], ["-t", "compdb", "-X"], ["-t", "compdb-targets", "-s"],
       ["-t", "rules", "-D"], ["-t", "restat", "-q"], ["-tcommands", "-q"], ["-t", "targets", "-d"],
       ["-t", "query", "-h"], ["-t", "graph", "--help"], ["-t", "cleandead", "-z"],
       ["-t", "recompact", "--zap"]]),
    S("help_texts", {"build.ninja": ""},
      [["-t", "clean", "-h"], ["-t", "commands", "-h"], ["-t", "inputs", "--help"],
       ["-t", "multi-inputs", "-h"], ["-t", "compdb", "-h"], ["-t", "compdb-targets", "--help"],
       ["-t", "rules", "-h"], ["-t", "restat", "-h"], ["-t", "list"], ["-t", "urtle"]]),
    S("defaults", {"build.ninja": DIAMOND + "default left right\n"},
      [["-t", "commands"], ["-t", "inputs"], ["-t", "multi-inputs"], ["-t", "graph"], ["-t", "targets"],
       ["-t", "missingdeps"], ["-t", "deps"]]),
    S("edge_variables", {"build.ninja": """rule r
  command = cmd $flags $in > $out
  description = R $flags${out}
flags = -global
build a: r x
  flags = -edge
build b: r y
build c: r z
  description = own ${flags}
"""},
      [["-t", "commands"], ["-t", "rules", "-d"], ["-t", "compdb"]]),
    S("rule_name_sorting", {"build.ninja": "".join(
        "rule %s\n  command = %s\n  description = %s\n" % (n, n, n.upper())
        for n in ["zeta", "Alpha", "_under", "beta2", "beta10", "a-b", "a.b", "B"])},
      [["-t", "rules"], ["-t", "rules", "-d"], ["-t", "clean", "-r", "B", "zeta"]]),
    S("depfile_multiple_outputs", {"build.ninja": """rule gen
  command = touch $out
rule cc2
  command = echo "o1 o2: src g.h" > o1.d && touch o1 o2
  depfile = o1.d
build g.h: gen
build o1 o2: cc2 src
""", "src": ""},
      [["-t", "missingdeps"], ["-t", "missingdeps", "o2"], ["-t", "query", "o1"]],
      steps=[("build", ["o1"])]),
    S("missingdeps_generated_chain", {"build.ninja": """rule gen
  command = touch $out
rule cc
  command = echo "$out: $in gen/a.h gen/b.h gen/c.h" > $out.d && touch $out
  depfile = $out.d
build gen/a.h: gen
build gen/b.h gen/c.h: gen gen/a.h
build ok.o: cc ok.c || gen/b.h
build bad.o: cc bad.c
build half.o: cc half.c || gen/a.h
""", "ok.c": "", "bad.c": "", "half.c": ""},
      [["-t", "missingdeps"], ["-t", "missingdeps", "ok.o"], ["-t", "missingdeps", "half.o", "bad.o"]],
      steps=[("build", ["ok.o", "bad.o", "half.o"])]),
    S("missingdeps_build_ninja_dep", {"build.ninja": """rule gen
  command = touch $out
rule cc
  command = echo "$out: $in gen.h build.ninja" > $out.d && touch $out
  depfile = $out.d
build gen.h: gen
build x.o: cc x.c
""", "x.c": ""},
      [["-t", "missingdeps"]], steps=[("build", ["x.o"])]),
    S("cleandead_after_edit", {"build.ninja": """rule touch
  command = touch $out
build keep: touch
build drop1: touch keep
build drop2 drop3: touch
"""},
      [["-v", "-n", "-t", "cleandead"], ["-t", "cleandead"], ["-t", "cleandead"]],
      # Separate builds: the log's line order (which cleandead follows) must
      # not depend on how the two binaries schedule parallel edges.
      steps=[("build", ["drop2"]), ("build", ["drop1"]),
             ("write", "build.ninja", "rule touch\n  command = touch $out\nbuild keep: touch\nbuild new: touch drop2\n")]),
    S("cleandead_builddir", {"build.ninja": """builddir = bd
rule touch
  command = touch $out
build a: touch
build b: touch
"""},
      [["-v", "-t", "cleandead"]],
      steps=[("build", ["a"]), ("build", ["b"]),
             ("write", "build.ninja", "builddir = bd\nrule touch\n  command = touch $out\nbuild a: touch\n")]),
    S("recompact_builddir", {"build.ninja": "builddir = a/b/c\nrule touch\n  command = touch $out\nbuild x: touch\n"},
      [["-t", "recompact"], ["-t", "deps"], ["-t", "cleandead"]]),
    S("restat_after_touch", {"build.ninja": """rule touch
  command = touch $out
build a: touch
build b: touch a
"""},
      [["-t", "restat"], ["-t", "restat", "a", "nope"], ["-n", "-t", "restat"], ["-t", "commands"]],
      steps=[("build", ["b"]), ("touch", "a"), ("rm", "b")]),
    S("restat_without_manifest", {},
      [["-t", "restat"], ["-t", "restat", "x"], ["-t", "urtle"], ["-t", "commands"]]),
    S("clean_directories", {"build.ninja": """rule mk
  command = mkdir -p $out
build emptydir: mk
build fulldir: mk
"""},
      [["-v", "-n", "-t", "clean"], ["-t", "clean"]],
      # Empty: a full one fails under Ninja 1.13.2, and ronin removes it
      # (test_clean_outputs.py).
      steps=[("build", ["emptydir", "fulldir"])]),
    S("clean_target_leaves_other_outputs", {"build.ninja": """rule two
  command = touch $out $implicit
rule mk
  command = mkdir -p $out && touch $implicit
build x y | z: two
  implicit = z
build d | dstamp: mk
  implicit = dstamp
build user: two x d
  implicit =
"""},
      # Without --clean-edge-outputs, a target's edge keeps its other
      # outputs (y, z, dstamp) as under Ninja 1.13.2.
      [["-v", "-t", "clean", "user"], ["-t", "clean", "x"], ["-t", "clean"]],
      steps=[("build", ["user"])]),
    S("clean_dry_run_after_build", dict(SOURCES, **{"build.ninja": C_PROJECT}),
      [["-n", "-t", "clean"], ["-n", "-v", "-t", "clean", "-g"], ["-n", "-t", "clean", "-r", "cc", "link"],
       ["-n", "-t", "clean", "app", "gen.h"], ["--quiet", "-t", "clean", "util.o"]],
      steps=[("build", [])]),
    S("query_everything", {"build.ninja": VALIDATIONS + PHONY.replace("rule touch\n  command = touch $out\n", ""),
                           "src": "", "src.c": ""},
      [["-t", "query", "obj", "lint", "test", "app", "a", "alias1", "alias2", "empty", "uses_empty",
        "group", "missing_file", "src", "src.c"]]),
    S("targets_rule_duplicates", {"build.ninja": """rule cc
  command = cc
build a: cc x y x
build b c: cc x z
build a2 b2: cc b
"""},
      [["-t", "targets", "rule"], ["-t", "targets", "rule", "cc"], ["-t", "targets", "rule", "phony"],
       ["-t", "targets", "depth", "1"], ["-t", "targets", "all"]]),
    S("inputs_of_sources_and_phony", {"build.ninja": PHONY, "src": ""},
      [["-t", "inputs", "src"], ["-t", "inputs", "empty"], ["-t", "multi-inputs", "src", "empty", "a"],
       ["-t", "commands", "empty"], ["-t", "compdb-targets", "empty"]]),
    S("build_log_inputs_live", {"build.ninja": """rule touch
  command = touch $out
build gen: touch
build out: touch gen
"""},
      [["-v", "-t", "cleandead"]],
      steps=[("build", ["out"]),
             ("write", "build.ninja", "rule touch\n  command = touch $out\nbuild out: touch gen\n")]),
    S("multi_inputs_print0_many", {"build.ninja": DIAMOND},
      [["-t", "multi-inputs", "-0", "top", "top2", "left"], ["-t", "multi-inputs", "--print0", "--delimiter=", "top"],
       ["-t", "inputs", "--print0", "--dependency-order", "top", "top2"]]),
    S("graph_shapes", {"build.ninja": MULTI_OUT + ORDER_ONLY.replace("rule touch\n  command = touch $out\n",
                                                                      "rule touch\n  command = touch $out\n")},
      [["-t", "graph"], ["-t", "graph", "user", "final"], ["-t", "graph", "in1"]]),
    S("unicode_paths", {"build.ninja": "rule cp\n  command = cp $in $out\nbuild \u00e9t\u00e9.o: cp caf\u00e9.c\n"
                                       "build \u65e5\u672c.o: cp \u00e9t\u00e9.o\n"},
      [["-t", "compdb"], ["-t", "inputs", "\u65e5\u672c.o"], ["-t", "graph"], ["-t", "query", "\u00e9t\u00e9.o"],
       ["-t", "targets", "all"]]),
    S("long_paths", {"build.ninja": "rule cp\n  command = cp $in $out\nbuild %s: cp %s\n" % ("o" * 300, "d/" * 100 + "i")},
      [["-t", "compdb"], ["-t", "inputs"], ["-t", "query", "o" * 300], ["-t", "targets", "depth", "0"]]),
    S("compdb_phony_and_filters", {"build.ninja": PHONY + "build p2: phony src a\n", "src": ""},
      [["-t", "compdb", "phony"], ["-t", "compdb", "touch", "phony"], ["-t", "compdb", "-x", "nosuchrule"],
       ["-t", "compdb", "touch", "touch"]]),
    S("clean_rules_generator_and_targets", {"build.ninja": GENERATOR + "build other: touch out\n", "in": ""},
      [["-t", "clean", "-g", "-r", "configure"], ["-v", "-t", "clean", "other", "build.ninja.stamp"]],
      steps=[("build", ["other", "gen_out"]), ("touch", "build.ninja.stamp")]),
    S("pools_and_console", {"build.ninja": """pool p
  depth = 1
rule r
  command = echo $out
  pool = p
rule c
  command = echo console
  pool = console
build a: r x
build b: c a
"""},
      [["-t", "commands"], ["-t", "compdb"], ["-t", "rules", "-d"], ["-t", "targets", "all"]]),
    S("variables_in_paths", {"build.ninja": """dir = out
rule cc
  command = cc $in -o $out
  depfile = $out.d
  rspfile = ${out}.rsp
  rspfile_content = $in
build $dir/a.o: cc src/a.c
build $dir/b.o: cc src/../src/b.c
"""},
      [["-t", "compdb"], ["-t", "compdb", "-x"], ["-t", "query", "out/b.o"], ["-n", "-t", "clean"],
       ["-t", "targets", "rule"]],
      steps=[("touch", "out/a.o"), ("touch", "out/a.o.d"), ("touch", "out/b.o.rsp")]),
]


# A 300-byte name cannot be stat'ed (ENAMETOOLONG): -t deps reports the error
# and still prints the entry, as VALID.
LONG_NAME = "L" * 300
SCENARIOS.append(
    S("deps_stat_error", {"build.ninja": "rule cc\n  command = cc\n  deps = gcc\nbuild %s: cc src\n" % LONG_NAME},
      [["-t", "deps"], ["-t", "query", LONG_NAME], ["-n", "-t", "clean"]],
      steps=[("write", ".ninja_deps",
              b"# ninjadeps\n\x04\0\0\0"
              + b"\x30\x01\0\0" + LONG_NAME.encode() + b"\xff\xff\xff\xff"
              + b"\x08\0\0\0src\0\xfe\xff\xff\xff"
              + b"\x10\0\0\x80\0\0\0\0\x05\0\0\0\0\0\0\0\x01\0\0\0")]))


class ToolCorpusTest(DifferentialTestCase):
    """One test per scenario; each tool invocation is a subTest."""

    def compare_tool(self, args):
        ours, ref = self.run_both(*args)
        ours_stdout = ours.stdout
        if list(args) == ["-t", "list"] and self.OURS != self.REF:
            # ronin lists its own tools (trace, report) after Ninja's, whose
            # lines must stay identical: those last lines are checked, then
            # dropped before the comparison. (A run of the reference against
            # itself, as when a harness is tried, has none.)
            ours_stdout = strip_ronin_tools(ours_stdout)
        got = (ours.returncode, normalize(ours_stdout, self.ours_dir), normalize(ours.stderr, self.ours_dir))
        want = (ref.returncode, normalize(ref.stdout, self.ref_dir), normalize(ref.stderr, self.ref_dir))
        self.assertEqual(want, got, "ninja %s: reference (first) vs ours (second)" % " ".join(args))
        self.assertEqual(list_tree(self.ref_dir, _IGNORED), list_tree(self.ours_dir, _IGNORED),
                         "file tree after ninja %s" % " ".join(args))

    def run_step(self, step):
        kind = step[0]
        if kind == "build":
            # -j1: the order in which edges finish decides log and deps-log
            # order, which cleandead and deps print.
            ours, ref = self.run_both("-j1", *step[1])
            self.assertEqual(ref.returncode, ours.returncode, "build %r: %r vs %r" % (step[1], ref, ours))
            self.assertEqual(0, ref.returncode, "reference build failed: %r" % ref)
        elif kind == "touch":
            self.both(lambda root: touch(os.path.join(root, step[1])))
        elif kind == "write":
            self.write(step[1], step[2])
        elif kind == "rm":
            self.both(lambda root: os.remove(os.path.join(root, step[1])))
        else:
            raise ValueError(kind)

    def run_scenario(self, scenario):
        self.write_files(scenario.files)
        for step in scenario.steps:
            self.run_step(step)
        for args in scenario.tools:
            with self.subTest(args=args):
                self.compare_tool(args)


def _make_test(scenario):
    def test(self):
        self.run_scenario(scenario)
    test.__doc__ = "scenario %s: %d tool runs" % (scenario.name, len(scenario.tools))
    return test


for _scenario in SCENARIOS:
    setattr(ToolCorpusTest, "test_" + _scenario.name, _make_test(_scenario))


class MergedOutputOrderTest(DifferentialTestCase):
    """Tools write stdout in large blocks when it is not a terminal; with
    stdout and stderr in one pipe (2>&1), every line must still come out in
    Ninja's order, errors after the output printed before them."""

    def merged(self, binary, root, args):
        r = self.run_binary(binary, args, root, merge_stderr=True)
        return r.returncode, normalize(r.stdout, root)

    def test_errors_stay_after_earlier_output(self):
        self.write_files({"build.ninja": C_PROJECT})
        for args in (["-t", "query", "app", "nope"], ["-t", "query", "main.o", "app", "nope", "util.o"],
                     ["-t", "commands", "app", "nope"], ["-t", "inputs", "app", "nope"],
                     ["-t", "targets", "all"], ["-t", "targets", "bogus"]):
            with self.subTest(args=args):
                want = self.merged(self.REF, self.ref_dir, args)
                got = self.merged(self.OURS, self.ours_dir, args)
                self.assertEqual(want, got)


class ToolCorpusSizeTest(unittest.TestCase):
    def test_corpus_is_large_enough(self):
        self.assertGreaterEqual(len(SCENARIOS), 50)
        self.assertEqual(len(SCENARIOS), len({s.name for s in SCENARIOS}), "duplicate scenario names")


if __name__ == "__main__":
    unittest.main()
