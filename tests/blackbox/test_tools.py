"""Black-box tests of ninja's subtools (`-t NAME`).

Every expected output here was recorded from reference Ninja 1.13.2 and is
compared byte for byte (the temporary directory reads as <DIR>; graphviz
node addresses are numbered P1, P2... by first appearance). Trees are built
by hand (manifests, depfiles, hand-written .ninja_log / .ninja_deps with
fixed mtimes) so that no output depends on the clock.

Run against the reference to validate the expectations:
  NINJA=$(/work/shared/tools/reference-ninja.sh) python3 -m unittest test_tools
"""

import os
import re
import shutil
import struct
import subprocess
import unittest

from harness import NinjaTestCase, list_tree, write_tree

def deps_log_bytes(records):
    """A .ninja_deps (v4, little-endian) file holding `records`:
    [(output, mtime_ns, [dep, ...]), ...]. Ids are given in order of first mention,
    the output before its deps, as Ninja's writer does."""
    data = bytearray(b"# ninjadeps\n" + struct.pack("<i", 4))
    ids = {}

    def node_id(path):
        if path not in ids:
            raw = path.encode()
            raw += b"\0" * ((4 - len(raw) % 4) % 4)
            raw += struct.pack("<I", ~len(ids) & 0xFFFFFFFF)
            data.extend(struct.pack("<I", len(raw)) + raw)
            ids[path] = len(ids)
        return ids[path]

    for output, mtime, deps in records:
        out_id = node_id(output)
        dep_ids = [node_id(d) for d in deps]
        payload = struct.pack("<iII", out_id, mtime & 0xFFFFFFFF, (mtime >> 32) & 0xFFFFFFFF)
        payload += b"".join(struct.pack("<i", d) for d in dep_ids)
        data.extend(struct.pack("<I", len(payload) | 0x80000000) + payload)
    return bytes(data)


def build_log_text(entries):
    """A v7 .ninja_log: entries are (output, mtime_ns) or (start, end, mtime_ns, output, hash)."""
    lines = ["# ninja log v7\n"]
    for entry in entries:
        if len(entry) == 2:
            entry = (1, 2, entry[1], entry[0], "1234abcd")
        lines.append("%d\t%d\t%d\t%s\t%s\n" % entry)
    return "".join(lines)


def setup_tree(root, files=None, touch=(), mtimes=None, deps=None, log=None, dirs=()):
    """Creates a tree: files {path: text}, empty `touch` files, directories,
    exact mtimes {path: seconds}, a deps log and a build log."""
    files = dict(files or {})
    if deps is not None:
        files[".ninja_deps"] = deps_log_bytes(deps)
    if log is not None:
        files[".ninja_log"] = log if isinstance(log, str) else build_log_text(log)
    for rel in touch:
        files.setdefault(rel, "")
    write_tree(root, files)
    for rel in dirs:
        os.makedirs(os.path.join(root, rel), exist_ok=True)
    for rel, seconds in (mtimes or {}).items():
        ns = int(seconds * 1e9)
        os.utime(os.path.join(root, rel), ns=(ns, ns))


def normalize_pointers(text):
    """Graphviz output names nodes by address: number them by first appearance."""
    names = {}

    def rename(match):
        return names.setdefault(match.group(0), "P%d" % (len(names) + 1))

    return re.sub(r"0x[0-9a-f]+", rename, text)


# ---- Fixtures: manifests shared by several tests.

# 120 log lines over 8 paths: enough repeats to trigger recompaction on open.
RECOMPACT_LOG = [("e%d" % i, 0) for i in range(8)] * 15

BASIC = {
            'build.ninja': ('rule cc\n'
                            '  command = cc -c $in -o $out\n'
                            '  description = CC $out\n'
                            '  depfile = $out.d\n'
                            'rule link\n'
                            '  command = ld @$out.rsp -o $out\n'
                            '  rspfile = $out.rsp\n'
                            '  rspfile_content = $in\n'
                            'rule gen\n'
                            '  command = configure > $out\n'
                            '  generator = 1\n'
                            'rule touch\n'
                            '  command = touch $out\n'
                            'build a.o: cc a.c | h.h || order\n'
                            'build b.o: cc b.c\n'
                            'build order: phony\n'
                            'build app lib.so: link a.o b.o |@ val\n'
                            'build val: touch\n'
                            'build gen.out: gen\n'
                            'build al: phony app\n'
                            'build multi1 multi2 | imp: touch in1 in2\n'
                            'default app\n'),
        }

BASIC_BUILT = ['a.c', 'b.c', 'h.h', 'in1', 'in2', 'a.o', 'b.o', 'app', 'lib.so', 'val', 'gen.out',
               'multi1', 'multi2', 'imp', 'a.o.d', 'b.o.d', 'app lib.so.rsp', 'order', 'al']

DEPS = {
           'build.ninja': ('rule gen\n'
                           '  command = gen $out\n'
                           'rule cc\n'
                           '  command = cc $in -o $out\n'
                           '  deps = gcc\n'
                           '  depfile = $out.d\n'
                           'rule ccd\n'
                           '  command = cc $in -o $out\n'
                           '  depfile = $out.d\n'
                           'build gen.h: gen\n'
                           'build a.o: cc a.c\n'
                           'build b.o: ccd b.c\n'
                           'build c.o: cc c.c || gen.h\n'
                           'build all: phony a.o b.o c.o\n'),
           'b.o.d': 'b.o: b.c gen.h\n',
       }

DEPS_LOG = [('a.o', 1700000000000000000, ['a.c', 'gen.h']),
            ('c.o', 1700000000000000000, ['c.c', 'gen.h'])]

DEPS_TOUCH = ['a.c', 'b.c', 'c.c', 'gen.h', 'a.o', 'b.o', 'c.o']

DEPS_MTIMES = {'a.o': 1600000000, 'c.o': 1600000000}

DYNDEP = {
             'build.ninja': ('rule touch\n'
                             '  command = touch $out\n'
                             'rule cp\n'
                             '  command = cp $in $out\n'
                             'build dd: cp dd.in\n'
                             'build out: touch in || dd\n'
                             '  dyndep = dd\n'
                             'build out2: touch in2 || dd\n'
                             '  dyndep = dd\n'),
             'dd.in': ('ninja_dyndep_version = 1\n'
                       'build out | out.imp: dyndep | extra.in\n'
                       'build out2: dyndep\n'),
         }

CHARS = {
            'build.ninja': ('rule cp\n'
                            '  command = cp $in $out\n'
                            'build out$ 1: cp in$ 1 it\'s "q" | $$dollar\n'
                            'build out2: cp out$ 1 back\\slash\n'
                            'build ph: phony out2\n'
                            'build top: cp ph\n'),
        }

RSP = {
          'build.ninja': ('rule r\n'
                          '  command = $cmd\n'
                          '  rspfile = $rsp\n'
                          '  rspfile_content = $in_newline\n'
                          'build at: r i1 i2\n'
                          '  cmd = tool @at.rsp @at.rsp end\n'
                          '  rsp = at.rsp\n'
                          'build dashf: r i1 i2\n'
                          '  cmd = tool -f dashf.rsp end\n'
                          '  rsp = dashf.rsp\n'
                          'build optfile: r i1 i2\n'
                          '  cmd = tool --option-file=optfile.rsp end\n'
                          '  rsp = optfile.rsp\n'
                          'build bare: r i1 i2\n'
                          '  cmd = tool xbare.rsp end\n'
                          '  rsp = bare.rsp\n'
                          'build first: r i1 i2\n'
                          '  cmd = -f @first.rsp -f first.rsp\n'
                          '  rsp = first.rsp\n'
                          'build norsp: r i1 i2\n'
                          '  cmd = tool @norsp.rsp\n'
                          '  rsp =\n'
                          'build second_f: r i1 i2\n'
                          '  cmd = tools -f x -f second_f.rsp\n'
                          '  rsp = second_f.rsp\n'
                          'build lead: r i1\n'
                          '  cmd = lead.rsp tail\n'
                          '  rsp = lead.rsp\n'),
      }

ESCAPE = {
             'build.ninja': b'rule r\n  command = echo "a\\\\b" \x01\x02\x1f\x7f caf\xc3\xa9 tab\there cr\rx $$HOME\nbuild o$ "q": r i\\n.c\n',
         }

TREE = {
           'build.ninja': ('rule cc\n'
                           '  command = cc $in -o $out\n'
                           'rule link\n'
                           '  command = link $in -o $out\n'
                           'build x.o: cc x.c | x.h\n'
                           'build y.o: cc y.c || x.o\n'
                           'build lib.a: link x.o y.o\n'
                           'build prog: link main.c lib.a\n'
                           'build tool: link tool.c lib.a\n'
                           'build all: phony prog tool\n'),
       }

SUB = {
          'build.ninja': ('rule cc\n'
                          '  command = cc $in\n'
                          '  description = root cc\n'
                          'rule gen\n'
                          '  command = gen\n'
                          'build r.o: cc r.c\n'
                          'subninja sub.ninja\n'),
          'sub.ninja': ('rule cc\n'
                        '  command = sub-cc $in\n'
                        '  description = sub cc\n'
                        'rule subonly\n'
                        '  command = sub-only\n'
                        'build s.o: cc s.c\n'
                        'build t.o: subonly t.c\n'),
      }

GRAPH = {
            'build.ninja': ('rule cc\n'
                            '  command = cc $in -o $out\n'
                            'rule link\n'
                            '  command = link $in -o $out\n'
                            'build dir\\a.o: cc dir\\a.c\n'
                            'build b.o: cc b.c | b.h || stamp\n'
                            'build stamp: phony\n'
                            'build app: link dir\\a.o b.o\n'),
        }

EMPTY = {'build.ninja': ''}


class ToolTestCase(NinjaTestCase):
    """Builds a tree, runs one tool and compares everything it printed."""

    def setup_tree(self, fixture=None, files=None, **kwargs):
        merged = dict(fixture or {})
        merged.update(files or {})
        setup_tree(self.dir, files=merged, **kwargs)

    def check(self, args, returncode, stdout, stderr="", pointers=False):
        result = self.ninja(*args)
        got_out = result.stdout.replace(self.dir, "<DIR>")
        got_err = result.stderr.replace(self.dir, "<DIR>")
        if pointers:
            got_out = normalize_pointers(got_out)
        self.assertEqual((returncode, stdout, stderr), (result.returncode, got_out, got_err),
                         "ninja %r: expected (first) vs got (second)" % (args,))
        return result

    def assertTree(self, expected):
        self.assertEqual(expected, list_tree(self.dir))

    def assertFileText(self, rel, expected):
        with open(self.path(rel), "rb") as f:
            self.assertEqual(expected, f.read().decode("utf-8", "replace"))


# Ninja's tools as Ninja 1.13.2 lists them, then ronin's own (trace,
# report), which come last so Ninja's lines stay identical.
TOOL_LIST = ('ninja subtools:\n'
              '     browse  browse dependency graph in a web browser\n'
              '      clean  clean built files\n'
              '   commands  list all commands required to rebuild given targets\n'
              '     inputs  list all inputs required to rebuild given targets\n'
              'multi-inputs  print one or more sets of inputs required to build targets\n'
              '       deps  show dependencies stored in the deps log\n'
              'missingdeps  check deps log dependencies on generated files\n'
              '      graph  output graphviz dot file for targets\n'
              '      query  show inputs/outputs for a path\n'
              '    targets  list targets by their rule or depth in the DAG\n'
              '     compdb  dump JSON compilation database to stdout\n'
              'compdb-targets  dump JSON compilation database for a given list of targets to stdout\n'
              '  recompact  recompacts ninja-internal data structures\n'
              '     restat  restats all outputs in the build log\n'
              '      rules  list all rules\n'
              '  cleandead  clean built files that are no longer produced by the manifest\n'
              '      trace  write the last build from .ninja_log as a Chrome trace (JSON)\n'
              '     report  write an HTML report of where the last build spent its time\n'
              '      audit  show what the last build with --audit found\n')


class ListToolTest(ToolTestCase):

    def test_list_prints_table(self):
        """-t list prints every visible tool in Ninja's order."""
        self.setup_tree()
        self.check(['-t', 'list'], 0, TOOL_LIST, '')

    def test_list_needs_no_manifest(self):
        """-t list runs before the manifest is read."""
        self.setup_tree()
        self.check(['-t', 'list', 'extra'], 0, TOOL_LIST, '')

    def test_unknown_tool_with_suggestion(self):
        """A misspelt tool gets a suggestion."""
        self.setup_tree()
        self.check(['-t', 'tragets'], 1,
                   '',
                   "ninja: fatal: unknown tool 'tragets', did you mean 'targets'?\n")

    def test_unknown_tool_without_suggestion(self):
        """No suggestion when nothing is close."""
        self.setup_tree()
        self.check(['-t', 'xyzzyplugh'], 1,
                   '',
                   "ninja: fatal: unknown tool 'xyzzyplugh'\n")

    def test_list_is_not_a_suggestion(self):
        """'list' is not among the spellcheck candidates."""
        self.setup_tree()
        self.check(['-t', 'lis'], 1,
                   '',
                   "ninja: fatal: unknown tool 'lis', did you mean 'deps'?\n")

    def test_hidden_urtle_is_suggested(self):
        """urtle is hidden from the list but still spellchecked."""
        self.setup_tree()
        self.check(['-t', 'urtl'], 1,
                   '',
                   "ninja: fatal: unknown tool 'urtl', did you mean 'urtle'?\n")

    def test_urtle_runs_without_manifest(self):
        """The easter egg needs no manifest and ignores arguments."""
        self.setup_tree()
        self.check(['-t', 'urtle', '-x', 'y'], 0,
                   ('              ,;;;!!;;\n'
                    '        ,;<!!!!!!!!!!!;\n'
                    "     `'<!!!!!!!!!!(``'!!\n"
                    '           ,;;;;;;, `\\. `\\         .,c$$$$$$$$$$$$$ec,.\n'
                    '      ,;;!!!!!!!!!!!>; `. ,;!>> .e$$$$$$$$"".  "?$$$$$$$e.\n'
                    ' <:<!!!!!!!!\'` ..,,,.`` ,!!!\' ;,(?""""""";!!\'\'<; `?$$$$$$PF ,;,\n'
                    "  `'!!!!;;;;;;;;<!'''`  !!! ;,`'``''!!!;!!!!`..`!;  ,,,  .<!''`).\n"
                    "     ```'''''``         `!  `!!!!><;;;!!!!! J$$b,`!>;!!:!!`,d?b`!>\n"
                    '                          `\'-;,(<!!!!!!!!!> $F   )...:!.  d"  ) !>\n'
                    '                              ```````\'\'<!!!- "=-=\'     .  `--=",!>\n'
                    "                         .ze$$$$$$$$$er  .,cd$$$$$$$$$$$$$$$$bc.'\n"
                    '                      .e$$$$$$$$$$$$$$,$$$$$$$$$$$$$$$$$$$$$$$$$$.\n'
                    '                     z$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$c .\n'
                    '                    J$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$c\n'
                    '                    $$$$$$$$$$$$$$P"`?$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$$b\n'
                    '                    $$$$$$$$$$$$$$ dbc `""?$$$$$$$$$$$$$$$$$$$$$$?$$$$$$$c\n'
                    '                    ?$$$$$$$$$$$$$$$$$$c.      """"????????"""" c$$$$$$$$P\n'
                    '         .,,.        "$$$$$$$$$$$$$$$$$$$$c.   ._              J$$$$$$$$$\n'
                    ' .,,cc$$$$$$$$$bec,.  `?$$$$$$$$$$$$$$$$$$$$$c.```%%%%,%%%,   c$$$$$$$$P"\n'
                    '$$$$$$$$$$$$$$$$$$$$$$c  ""?$$$$$$$$$$$$$$$$$$$$$bc,,.`` .,,c$$$$$$$P"",cb\n'
                    '$$$$$$$$$$$$$$$$$$$$$$$b bc,.""??$$$$$$$$$$$$$$FF""?????"",J$$$$$P" ,zd$$$\n'
                    '$$$$$$$$$$$$$$$$$$$$$$$$ ?$???%   `""??$$$$$$$$$$$$bcucd$$$P"""  ==$$$$$$$\n'
                    '$$$$$$$$$$$$$$$$$$$$$$$P" ,;;;<!!!!!>;;,. `""""??????""  ,;;;;;;;;;, `"?$$\n'),
                   '')

    def test_tool_needs_manifest(self):
        """Manifest-loading tools fail without build.ninja."""
        self.setup_tree()
        self.check(['-t', 'commands'], 1,
                   '',
                   "ninja: error: loading 'build.ninja': No such file or directory\n")

    def test_tool_uses_dash_f_manifest(self):
        """-f applies to tools."""
        self.setup_tree(files={
                'other.ninja': ('rule r\n'
                                '  command = r\n'
                                'build x: r y\n'),
            })
        self.check(['-f', 'other.ninja', '-t', 'targets', 'all'], 0,
                   'x: r\n',
                   '')

class CleanToolTest(ToolTestCase):

    def test_clean_all_counts(self):
        """Without arguments every non-phony, non-generator output plus depfiles and rspfiles goes."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-t', 'clean'], 0,
                   'Cleaning... 11 files.\n',
                   '')
        self.assertTree(['a.c', 'al', 'b.c', 'build.ninja', 'gen.out', 'h.h', 'in1', 'in2', 'order'])

    def test_clean_verbose_lists_each_file(self):
        """-v lists files in manifest order, depfile and rspfile after each edge's outputs."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-v', '-t', 'clean'], 0,
                   ('Cleaning...\n'
                    'Remove a.o\n'
                    'Remove a.o.d\n'
                    'Remove b.o\n'
                    'Remove b.o.d\n'
                    'Remove app\n'
                    'Remove lib.so\n'
                    'Remove app lib.so.rsp\n'
                    'Remove val\n'
                    'Remove multi1\n'
                    'Remove multi2\n'
                    'Remove imp\n'
                    '11 files.\n'),
                   '')
        self.assertTree(['a.c', 'al', 'b.c', 'build.ninja', 'gen.out', 'h.h', 'in1', 'in2', 'order'])

    def test_clean_generator_with_g(self):
        """-g also removes generator outputs."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-v', '-t', 'clean', '-g'], 0,
                   ('Cleaning...\n'
                    'Remove a.o\n'
                    'Remove a.o.d\n'
                    'Remove b.o\n'
                    'Remove b.o.d\n'
                    'Remove app\n'
                    'Remove lib.so\n'
                    'Remove app lib.so.rsp\n'
                    'Remove val\n'
                    'Remove gen.out\n'
                    'Remove multi1\n'
                    'Remove multi2\n'
                    'Remove imp\n'
                    '12 files.\n'),
                   '')
        self.assertTree(['a.c', 'al', 'b.c', 'build.ninja', 'h.h', 'in1', 'in2', 'order'])

    def test_clean_dry_run_lists_existing_only(self):
        """-n removes nothing and lists only files that exist."""
        self.setup_tree(BASIC, touch=['a.o', 'app', 'b.o.d'])
        self.check(['-n', '-t', 'clean'], 0,
                   ('Cleaning...\n'
                    'Remove a.o\n'
                    'Remove b.o.d\n'
                    'Remove app\n'
                    '3 files.\n'),
                   '')
        self.assertTree(['a.o', 'app', 'b.o.d', 'build.ninja'])

    def test_clean_nothing_built(self):
        """Nothing to remove: zero files."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean'], 0,
                   'Cleaning... 0 files.\n',
                   '')

    def test_clean_quiet_still_reports(self):
        """--quiet does not silence the cleaner."""
        self.setup_tree(BASIC, touch=['a.o'])
        self.check(['--quiet', '-t', 'clean'], 0,
                   'Cleaning... 1 files.\n',
                   '')

    def test_clean_target_recursive(self):
        """A target is removed with everything built for it (phony outputs kept)."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-v', '-t', 'clean', 'al'], 0,
                   ('Cleaning...\n'
                    'Target al\n'
                    'Remove app\n'
                    'Remove app lib.so.rsp\n'
                    'Remove a.o\n'
                    'Remove a.o.d\n'
                    'Remove b.o\n'
                    'Remove b.o.d\n'
                    '6 files.\n'),
                   '')
        self.assertTree(['a.c', 'al', 'b.c', 'build.ninja', 'gen.out', 'h.h', 'imp', 'in1', 'in2', 'lib.so', 'multi1', 'multi2', 'order', 'val'])

    def test_clean_target_only_named_output(self):
        """Only the named output of a multi-output edge is removed (1.13)."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-t', 'clean', 'lib.so'], 0,
                   'Cleaning... 6 files.\n',
                   '')
        self.assertTree(['a.c', 'al', 'app', 'b.c', 'build.ninja', 'gen.out', 'h.h', 'imp', 'in1', 'in2', 'multi1', 'multi2', 'order', 'val'])

    def test_clean_target_generator_output(self):
        """Naming a generator output removes it without -g."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-t', 'clean', 'gen.out'], 0,
                   'Cleaning... 1 files.\n',
                   '')
        self.assertTree(['a.c', 'a.o', 'a.o.d', 'al', 'app', 'app lib.so.rsp', 'b.c', 'b.o', 'b.o.d', 'build.ninja', 'h.h', 'imp', 'in1', 'in2', 'lib.so', 'multi1', 'multi2', 'order', 'val'])

    def test_clean_unknown_target_continues(self):
        """An unknown target is an error but the others are still cleaned."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-t', 'clean', 'app', 'nope', 'b.o'], 1,
                   'Cleaning... 6 files.\n',
                   "ninja: error: unknown target 'nope'\n")
        self.assertTree(['a.c', 'al', 'b.c', 'build.ninja', 'gen.out', 'h.h', 'imp', 'in1', 'in2', 'lib.so', 'multi1', 'multi2', 'order', 'val'])

    def test_clean_unknown_target_no_suggestion(self):
        """clean's unknown-target error has no spelling suggestion."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', 'a.oo'], 1,
                   'Cleaning... 0 files.\n',
                   "ninja: error: unknown target 'a.oo'\n")

    def test_clean_empty_target_name(self):
        """An empty target cannot be canonicalised."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', ''], 1,
                   'Cleaning... 0 files.\n',
                   "ninja: error: failed to canonicalize '': empty path\n")

    def test_clean_target_canonicalised(self):
        """Target paths are canonicalised."""
        self.setup_tree(BASIC, touch=['a.o'])
        self.check(['-v', '-t', 'clean', './sub/../a.o'], 0,
                   ('Cleaning...\n'
                    'Target a.o\n'
                    'Remove a.o\n'
                    '1 files.\n'),
                   '')

    def test_clean_caret_not_supported(self):
        """clean does not understand the x^ syntax."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', 'a.c^'], 1,
                   'Cleaning... 0 files.\n',
                   "ninja: error: unknown target 'a.c^'\n")

    def test_clean_rules(self):
        """-r cleans the outputs of the named rules."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-v', '-t', 'clean', '-r', 'touch', 'gen'], 0,
                   ('Cleaning...\n'
                    'Rule touch\n'
                    'Remove val\n'
                    'Remove multi1\n'
                    'Remove multi2\n'
                    'Remove imp\n'
                    'Rule gen\n'
                    'Remove gen.out\n'
                    '5 files.\n'),
                   '')
        self.assertTree(['a.c', 'a.o', 'a.o.d', 'al', 'app', 'app lib.so.rsp', 'b.c', 'b.o', 'b.o.d', 'build.ninja', 'h.h', 'in1', 'in2', 'lib.so', 'order'])

    def test_clean_rules_needs_a_rule(self):
        """-r without rules is an error."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', '-r'], 1,
                   '',
                   'ninja: error: expected a rule to clean\n')

    def test_clean_unknown_rule(self):
        """An unknown rule is an error, the rest are cleaned."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-t', 'clean', '-r', 'cc', 'nope'], 1,
                   'Cleaning... 4 files.\n',
                   "ninja: error: unknown rule 'nope'\n")
        self.assertTree(['a.c', 'al', 'app', 'app lib.so.rsp', 'b.c', 'build.ninja', 'gen.out', 'h.h', 'imp', 'in1', 'in2', 'lib.so', 'multi1', 'multi2', 'order', 'val'])

    def test_clean_rule_phony(self):
        """-r phony 'removes' phony outputs that exist as files."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-v', '-t', 'clean', '-r', 'phony'], 0,
                   ('Cleaning...\n'
                    'Rule phony\n'
                    'Remove order\n'
                    'Remove al\n'
                    '2 files.\n'),
                   '')

    def test_clean_subninja_rule_by_name(self):
        """Rules match by name, so a subninja's same-named rule is cleaned too."""
        self.setup_tree(SUB, touch=['r.o', 's.o', 't.o'])
        self.check(['-v', '-t', 'clean', '-r', 'cc'], 0,
                   ('Cleaning...\n'
                    'Rule cc\n'
                    'Remove r.o\n'
                    'Remove s.o\n'
                    '2 files.\n'),
                   '')

    def test_clean_subninja_only_rule_unknown(self):
        """Only top-level rules can be named."""
        self.setup_tree(SUB, touch=['t.o'])
        self.check(['-t', 'clean', '-r', 'subonly'], 1,
                   'Cleaning... 0 files.\n',
                   "ninja: error: unknown rule 'subonly'\n")

    def test_clean_help(self):
        """-h prints the usage on stdout, exit 1."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', '-h'], 1,
                   ('usage: ninja -t clean [options] [targets]\n'
                    '\n'
                    'options:\n'
                    '  -g     also clean files marked as ninja generator output\n'
                    '  -r     interpret targets as a list of rules to clean instead\n'),
                   '')

    def test_clean_bad_option(self):
        """getopt names the tool in its complaint."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', '-x'], 1,
                   ('usage: ninja -t clean [options] [targets]\n'
                    '\n'
                    'options:\n'
                    '  -g     also clean files marked as ninja generator output\n'
                    '  -r     interpret targets as a list of rules to clean instead\n'),
                   "clean: invalid option -- 'x'\n")

    def test_clean_bad_option_joined_t(self):
        """With -tclean the program name getopt reports is '-tclean'."""
        self.setup_tree(BASIC)
        self.check(['-tclean', '-x'], 1,
                   ('usage: ninja -t clean [options] [targets]\n'
                    '\n'
                    'options:\n'
                    '  -g     also clean files marked as ninja generator output\n'
                    '  -r     interpret targets as a list of rules to clean instead\n'),
                   "-tclean: invalid option -- 'x'\n")

    def test_clean_options_after_targets(self):
        """Options may follow operands (GNU getopt permutes): here -r."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-t', 'clean', 'touch', '-r'], 0,
                   'Cleaning... 4 files.\n',
                   '')
        self.assertTree(['a.c', 'a.o', 'a.o.d', 'al', 'app', 'app lib.so.rsp', 'b.c', 'b.o', 'b.o.d', 'build.ninja', 'gen.out', 'h.h', 'in1', 'in2', 'lib.so', 'order'])

    def test_clean_verbose_flag_is_not_a_tool_option(self):
        """-v belongs before -t; after it, it is a bad option."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', '-v'], 1,
                   ('usage: ninja -t clean [options] [targets]\n'
                    '\n'
                    'options:\n'
                    '  -g     also clean files marked as ninja generator output\n'
                    '  -r     interpret targets as a list of rules to clean instead\n'),
                   "clean: invalid option -- 'v'\n")

    def test_clean_double_dash(self):
        """After -- everything is a target."""
        self.setup_tree(BASIC)
        self.check(['-t', 'clean', '--', '-g'], 1,
                   'Cleaning... 0 files.\n',
                   "ninja: error: unknown target '-g'\n")

    def test_clean_loads_dyndep(self):
        """Dyndep files are loaded first so their extra outputs go too."""
        self.setup_tree(DYNDEP, files={
                'dd': ('ninja_dyndep_version = 1\n'
                       'build out | out.imp: dyndep | extra.in\n'
                       'build out2: dyndep\n'),
            }, touch=['in', 'in2', 'extra.in', 'out', 'out2', 'out.imp'])
        self.check(['-v', '-t', 'clean'], 0,
                   ('Cleaning...\n'
                    'Remove dd\n'
                    'Remove out\n'
                    'Remove out.imp\n'
                    'Remove out2\n'
                    '4 files.\n'),
                   '')
        self.assertTree(['build.ninja', 'dd.in', 'extra.in', 'in', 'in2'])

    def test_clean_missing_dyndep_ignored(self):
        """A missing dyndep file is silently ignored."""
        self.setup_tree(DYNDEP, touch=['out', 'out.imp'])
        self.check(['-v', '-t', 'clean'], 0,
                   ('Cleaning...\n'
                    'Remove out\n'
                    '1 files.\n'),
                   '')
        self.assertTree(['build.ninja', 'dd.in', 'out.imp'])

    def test_clean_removes_empty_directory(self):
        """Outputs are removed with remove(), which also takes empty directories."""
        self.setup_tree(files={
                'build.ninja': ('rule mk\n'
                                '  command = mkdir $out\n'
                                'build d: mk\n'),
            }, dirs=['d'])
        self.check(['-v', '-t', 'clean'], 0,
                   ('Cleaning...\n'
                    'Remove d\n'
                    '1 files.\n'),
                   '')
        self.assertTree(['build.ninja'])

    def test_clean_nonempty_directory_output(self):
        """A non-empty directory output goes with its contents, counted as one
        file (Ninja 1.13.2: `remove(d): Directory not empty`, exit 1;
        test_clean_outputs.py)."""
        self.setup_tree(files={
                'build.ninja': ('rule mk\n'
                                '  command = mkdir $out\n'
                                'build d: mk\n'),
                'd/f': '',
            })
        self.check(['-t', 'clean'], 0, 'Cleaning... 1 files.\n', '')

    def test_clean_dry_run_verbose_target(self):
        """-n with a target prints Target and Remove lines."""
        self.setup_tree(BASIC, touch=BASIC_BUILT)
        self.check(['-n', '-t', 'clean', 'app'], 0,
                   ('Cleaning...\n'
                    'Target app\n'
                    'Remove app\n'
                    'Remove app lib.so.rsp\n'
                    'Remove a.o\n'
                    'Remove a.o.d\n'
                    'Remove b.o\n'
                    'Remove b.o.d\n'
                    '6 files.\n'),
                   '')
        self.assertTree(['a.c', 'a.o', 'a.o.d', 'al', 'app', 'app lib.so.rsp', 'b.c', 'b.o', 'b.o.d', 'build.ninja', 'gen.out', 'h.h', 'imp', 'in1', 'in2', 'lib.so', 'multi1', 'multi2', 'order', 'val'])

class CleanDeadToolTest(ToolTestCase):

    def test_cleandead_removes_dead_in_log_order(self):
        """Log entries no longer produced are removed in log order."""
        self.setup_tree(files={
                'build.ninja': ('rule touch\n'
                                '  command = touch $out\n'
                                'build a: touch\n'
                                'build b: touch a\n'),
            }, log=[('zeta', 0), ('a', 0), ('alpha', 0), ('b', 0), ('mid', 0), ('zeta', 0), ('beta', 0)], touch=['zeta', 'alpha', 'mid', 'a', 'b'])
        self.check(['-v', '-t', 'cleandead'], 0,
                   ('Cleaning...\n'
                    'Remove zeta\n'
                    'Remove alpha\n'
                    'Remove mid\n'
                    '3 files.\n'),
                   '')
        self.assertTree(['.ninja_log', 'a', 'b', 'build.ninja'])

    def test_cleandead_count(self):
        """Non-verbose: just the count."""
        self.setup_tree(files={
                'build.ninja': ('rule touch\n'
                                '  command = touch $out\n'
                                'build a: touch\n'),
            }, log=[('gone', 0), ('a', 0)], touch=['gone', 'a'])
        self.check(['-t', 'cleandead'], 0,
                   'Cleaning... 1 files.\n',
                   '')

    def test_cleandead_dry_run(self):
        """-n lists but keeps."""
        self.setup_tree(files={
                'build.ninja': ('rule touch\n'
                                '  command = touch $out\n'
                                'build a: touch\n'),
            }, log=[('old1', 0), ('old2', 0), ('a', 0)], touch=['old1', 'a'])
        self.check(['-n', '-t', 'cleandead'], 0,
                   ('Cleaning...\n'
                    'Remove old1\n'
                    '1 files.\n'),
                   '')
        self.assertTree(['.ninja_log', 'a', 'build.ninja', 'old1'])

    def test_cleandead_inputs_are_live(self):
        """A logged path that is now a source (an input) is kept."""
        self.setup_tree(files={
                'build.ninja': ('rule touch\n'
                                '  command = touch $out\n'
                                'build a: touch src\n'),
            }, log=[('src', 0), ('a', 0)], touch=['src', 'a'])
        self.check(['-v', '-t', 'cleandead'], 0,
                   ('Cleaning...\n'
                    '0 files.\n'),
                   '')

    def test_cleandead_deps_log_only_node_is_dead(self):
        """A node known only from the deps log is dead."""
        self.setup_tree(DEPS, deps=DEPS_LOG, log=[('gen.h', 0), ('a.c', 0), ('old.o', 0)], touch=['a.c', 'b.c', 'c.c', 'gen.h', 'a.o', 'b.o', 'c.o', 'old.o'], files={
                'build.ninja': ('rule gen\n'
                                '  command = gen $out\n'
                                'rule cc\n'
                                '  command = cc $in -o $out\n'
                                '  deps = gcc\n'
                                '  depfile = $out.d\n'
                                'rule ccd\n'
                                '  command = cc $in -o $out\n'
                                '  depfile = $out.d\n'
                                'build a.o: cc a.c\n'
                                'build b.o: ccd b.c\n'
                                'build c.o: cc c.c\n'
                                'build all: phony a.o b.o c.o\n'),
            })
        self.check(['-v', '-t', 'cleandead'], 0,
                   ('Cleaning...\n'
                    'Remove gen.h\n'
                    'Remove old.o\n'
                    '2 files.\n'),
                   '')

    def test_cleandead_no_log(self):
        """Without a log nothing is dead."""
        self.setup_tree(BASIC, touch=['a.o'])
        self.check(['-t', 'cleandead'], 0,
                   'Cleaning... 0 files.\n',
                   '')

    def test_cleandead_ignores_arguments(self):
        """Arguments, even -h, are ignored."""
        self.setup_tree(BASIC)
        self.check(['-t', 'cleandead', '-h', 'x'], 0,
                   'Cleaning... 0 files.\n',
                   '')

    def test_cleandead_after_recompaction_order(self):
        """A recompacted log iterates with erased slots refilled from the end."""
        self.setup_tree(files={
                'build.ninja': ('rule touch\n'
                                '  command = touch $out\n'
                                'build k: touch\n'),
            }, log=RECOMPACT_LOG, touch=['e0', 'e2', 'e3', 'e5', 'e7'])
        self.check(['-v', '-t', 'cleandead'], 0,
                   ('Cleaning...\n'
                    'Remove e0\n'
                    'Remove e7\n'
                    'Remove e2\n'
                    'Remove e3\n'
                    'Remove e5\n'
                    '5 files.\n'),
                   '')
        self.assertTree(['.ninja_log', 'build.ninja'])

    def test_cleandead_dyndep_outputs_live(self):
        """Outputs named by a dyndep file count as produced once it is loaded."""
        self.setup_tree(DYNDEP, files={
                'dd': ('ninja_dyndep_version = 1\n'
                       'build out | out.imp: dyndep | extra.in\n'
                       'build out2: dyndep\n'),
            }, log=[('out.imp', 0), ('stale', 0)], touch=['out.imp', 'stale'])
        self.check(['-v', '-t', 'cleandead'], 0,
                   ('Cleaning...\n'
                    'Remove stale\n'
                    '1 files.\n'),
                   '')

class CommandsToolTest(ToolTestCase):

    def test_commands_default_targets(self):
        """Default targets, inputs first, phony edges skipped."""
        self.setup_tree(BASIC)
        self.check(['-t', 'commands'], 0,
                   ('cc -c a.c -o a.o\n'
                    'cc -c b.c -o b.o\n'
                    'ld @app lib.so.rsp -o app lib.so\n'),
                   '')

    def test_commands_all_edges_dedup(self):
        """Each edge once across several targets."""
        self.setup_tree(BASIC)
        self.check(['-t', 'commands', 'al', 'multi1', 'multi2', 'a.o'], 0,
                   ('cc -c a.c -o a.o\n'
                    'cc -c b.c -o b.o\n'
                    'ld @app lib.so.rsp -o app lib.so\n'
                    'touch multi1 multi2\n'),
                   '')

    def test_commands_single(self):
        """-s prints only each target's own command."""
        self.setup_tree(BASIC)
        self.check(['-t', 'commands', '-s', 'app', 'b.o', 'al'], 0,
                   ('ld @app lib.so.rsp -o app lib.so\n'
                    'cc -c b.c -o b.o\n'),
                   '')

    def test_commands_order_only_included(self):
        """Order-only inputs' commands are included, validations are not."""
        self.setup_tree(TREE)
        self.check(['-t', 'commands', 'prog'], 0,
                   ('cc x.c -o x.o\n'
                    'cc y.c -o y.o\n'
                    'link x.o y.o -o lib.a\n'
                    'link main.c lib.a -o prog\n'),
                   '')

    def test_commands_caret(self):
        """x^ names the first output built from x."""
        self.setup_tree(TREE)
        self.check(['-t', 'commands', 'y.c^'], 0,
                   ('cc x.c -o x.o\n'
                    'cc y.c -o y.o\n'),
                   '')

    def test_commands_unknown_target(self):
        """Unknown targets get a suggestion."""
        self.setup_tree(TREE)
        self.check(['-t', 'commands', 'prgo'], 1,
                   '',
                   "ninja: error: unknown target 'prgo', did you mean 'prog'?\n")

    def test_commands_help(self):
        """-h: usage, exit 1."""
        self.setup_tree(TREE)
        self.check(['-t', 'commands', '-h'], 1,
                   ('usage: ninja -t commands [options] [targets]\n'
                    '\n'
                    'options:\n'
                    '  -s     only print the final command to build [target], not the whole chain\n'),
                   '')

    def test_commands_bad_option(self):
        """Bad option: getopt message plus usage."""
        self.setup_tree(TREE)
        self.check(['-t', 'commands', '-q'], 1,
                   ('usage: ninja -t commands [options] [targets]\n'
                    '\n'
                    'options:\n'
                    '  -s     only print the final command to build [target], not the whole chain\n'),
                   "commands: invalid option -- 'q'\n")

    def test_commands_source_file(self):
        """A source file has no command."""
        self.setup_tree(TREE)
        self.check(['-t', 'commands', 'x.c'], 0,
                   '',
                   '')

    def test_commands_escaping(self):
        """Commands show $in/$out shell-quoted."""
        self.setup_tree(CHARS)
        self.check(['-t', 'commands', 'top'], 0,
                   ('cp \'in 1\' \'it\'\\\'\'s\' \'"q"\' \'out 1\'\n'
                    "cp 'out 1' 'back\\slash' out2\n"
                    'cp ph top\n'),
                   '')

class InputsToolTest(ToolTestCase):

    def test_inputs_default_sorted_escaped(self):
        """Sorted and shell-escaped by default."""
        self.setup_tree(CHARS)
        self.check(['-t', 'inputs', 'top'], 0,
                   ('\'"q"\'\n'
                    "'$dollar'\n"
                    "'back\\slash'\n"
                    "'in 1'\n"
                    "'it'\\''s'\n"
                    "'out 1'\n"
                    'out2\n'),
                   '')

    def test_inputs_no_shell_escape(self):
        """-E prints raw paths."""
        self.setup_tree(CHARS)
        self.check(['-t', 'inputs', '-E', 'top'], 0,
                   ('"q"\n'
                    '$dollar\n'
                    'back\\slash\n'
                    'in 1\n'
                    "it's\n"
                    'out 1\n'
                    'out2\n'),
                   '')

    def test_inputs_no_shell_escape_long(self):
        """--no-shell-escape and unique prefixes of long options work."""
        self.setup_tree(CHARS)
        self.check(['-t', 'inputs', '--no-shell', 'top'], 0,
                   ('"q"\n'
                    '$dollar\n'
                    'back\\slash\n'
                    'in 1\n'
                    "it's\n"
                    'out 1\n'
                    'out2\n'),
                   '')

    def test_inputs_dependency_order_print0(self):
        """-d keeps dependency order, -0 ends with NUL."""
        self.setup_tree(CHARS)
        self.check(['-t', 'inputs', '-d', '-0', 'top'], 0,
                   '\'in 1\'\x00\'it\'\\\'\'s\'\x00\'"q"\'\x00\'$dollar\'\x00\'out 1\'\x00\'back\\slash\'\x00out2\x00',
                   '')

    def test_inputs_print0_long(self):
        """--print0 long form."""
        self.setup_tree(CHARS)
        self.check(['-t', 'inputs', '--print0', '-E', 'out2'], 0,
                   '"q"\x00$dollar\x00back\\slash\x00in 1\x00it\'s\x00out 1\x00',
                   '')

    def test_inputs_default_target(self):
        """No target: the defaults; phony outputs and validations are excluded."""
        self.setup_tree(BASIC)
        self.check(['-t', 'inputs'], 0,
                   ('a.c\n'
                    'a.o\n'
                    'b.c\n'
                    'b.o\n'
                    'h.h\n'),
                   '')

    def test_inputs_phony_target(self):
        """A phony target's non-phony inputs appear."""
        self.setup_tree(BASIC)
        self.check(['-t', 'inputs', '-d', 'al'], 0,
                   ('a.c\n'
                    'h.h\n'
                    'a.o\n'
                    'b.c\n'
                    'b.o\n'
                    'app\n'),
                   '')

    def test_inputs_multiple_targets(self):
        """Inputs of several targets, shared ones once."""
        self.setup_tree(TREE)
        self.check(['-t', 'inputs', '-d', 'prog', 'tool'], 0,
                   ('main.c\n'
                    'x.c\n'
                    'x.h\n'
                    'x.o\n'
                    'y.c\n'
                    'y.o\n'
                    'lib.a\n'
                    'tool.c\n'),
                   '')

    def test_inputs_source(self):
        """A source file has no inputs."""
        self.setup_tree(TREE)
        self.check(['-t', 'inputs', 'x.c'], 0,
                   '',
                   '')

    def test_inputs_help(self):
        """-h: long usage text, exit 1."""
        self.setup_tree(TREE)
        self.check(['-t', 'inputs', '-h'], 1,
                   ("Usage '-t inputs [options] [targets]\n"
                    '\n'
                    'List all inputs used for a set of targets, sorted in dependency order.\n'
                    'Note that by default, results are shell escaped, and sorted alphabetically,\n'
                    'and never include validation target paths.\n'
                    '\n'
                    'Options:\n'
                    '  -h, --help          Print this message.\n'
                    '  -0, --print0            Use \\0, instead of \\n as a line terminator.\n'
                    '  -E, --no-shell-escape   Do not shell escape the result.\n'
                    '  -d, --dependency-order  Sort results by dependency order.\n'),
                   '')

    def test_inputs_bad_short_option(self):
        """Unknown short option."""
        self.setup_tree(TREE)
        self.check(['-t', 'inputs', '-x'], 1,
                   ("Usage '-t inputs [options] [targets]\n"
                    '\n'
                    'List all inputs used for a set of targets, sorted in dependency order.\n'
                    'Note that by default, results are shell escaped, and sorted alphabetically,\n'
                    'and never include validation target paths.\n'
                    '\n'
                    'Options:\n'
                    '  -h, --help          Print this message.\n'
                    '  -0, --print0            Use \\0, instead of \\n as a line terminator.\n'
                    '  -E, --no-shell-escape   Do not shell escape the result.\n'
                    '  -d, --dependency-order  Sort results by dependency order.\n'),
                   "inputs: invalid option -- 'x'\n")

    def test_inputs_bad_long_option(self):
        """Unknown long option."""
        self.setup_tree(TREE)
        self.check(['-t', 'inputs', '--bogus'], 1,
                   ("Usage '-t inputs [options] [targets]\n"
                    '\n'
                    'List all inputs used for a set of targets, sorted in dependency order.\n'
                    'Note that by default, results are shell escaped, and sorted alphabetically,\n'
                    'and never include validation target paths.\n'
                    '\n'
                    'Options:\n'
                    '  -h, --help          Print this message.\n'
                    '  -0, --print0            Use \\0, instead of \\n as a line terminator.\n'
                    '  -E, --no-shell-escape   Do not shell escape the result.\n'
                    '  -d, --dependency-order  Sort results by dependency order.\n'),
                   "inputs: unrecognized option '--bogus'\n")

    def test_inputs_unknown_target(self):
        """Unknown target."""
        self.setup_tree(TREE)
        self.check(['-t', 'inputs', 'nope'], 1,
                   '',
                   "ninja: error: unknown target 'nope', did you mean 'tool'?\n")

class MultiInputsToolTest(ToolTestCase):

    def test_multi_inputs_default(self):
        """TAB-separated, newline-terminated, dependency order, no escaping."""
        self.setup_tree(CHARS)
        self.check(['-t', 'multi-inputs', 'top', 'out2'], 0,
                   ('top\tin 1\n'
                    "top\tit's\n"
                    'top\t"q"\n'
                    'top\t$dollar\n'
                    'top\tout 1\n'
                    'top\tback\\slash\n'
                    'top\tout2\n'
                    'out2\tin 1\n'
                    "out2\tit's\n"
                    'out2\t"q"\n'
                    'out2\t$dollar\n'
                    'out2\tout 1\n'
                    'out2\tback\\slash\n'),
                   '')

    def test_multi_inputs_delimiter(self):
        """-d sets the delimiter."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', '-d', ', ', 'prog'], 0,
                   ('prog, main.c\n'
                    'prog, x.c\n'
                    'prog, x.h\n'
                    'prog, x.o\n'
                    'prog, y.c\n'
                    'prog, y.o\n'
                    'prog, lib.a\n'),
                   '')

    def test_multi_inputs_delimiter_long(self):
        """--delimiter=DELIM."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', '--delimiter=::', 'y.o'], 0,
                   ('y.o::y.c\n'
                    'y.o::x.c\n'
                    'y.o::x.h\n'
                    'y.o::x.o\n'),
                   '')

    def test_multi_inputs_print0_empty_delimiter(self):
        """-0 with an empty delimiter."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', '-0', '-d', '', 'lib.a'], 0,
                   'lib.ax.c\x00lib.ax.h\x00lib.ax.o\x00lib.ay.c\x00lib.ay.o\x00',
                   '')

    def test_multi_inputs_defaults(self):
        """Without targets: the default targets."""
        self.setup_tree(BASIC)
        self.check(['-t', 'multi-inputs'], 0,
                   ('app\ta.c\n'
                    'app\th.h\n'
                    'app\ta.o\n'
                    'app\tb.c\n'
                    'app\tb.o\n'),
                   '')

    def test_multi_inputs_missing_delimiter(self):
        """-d needs an argument."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', '-d'], 1,
                   ("Usage '-t multi-inputs [options] [targets]\n"
                    '\n'
                    'Print one or more sets of inputs required to build targets, sorted in dependency order.\n'
                    'The tool works like inputs tool but with addition of the target for each line.\n'
                    'The output will be a series of lines with the following elements:\n'
                    '<target> <delimiter> <input> <terminator>\n'
                    'Note that a given input may appear for several targets if it is used by more than one targets.\n'
                    'Options:\n'
                    '  -h, --help                   Print this message.\n'
                    '  -d  --delimiter=DELIM        Use DELIM instead of TAB for field delimiter.\n'
                    '  -0, --print0                 Use \\0, instead of \\n as a line terminator.\n'),
                   "multi-inputs: option requires an argument -- 'd'\n")

    def test_multi_inputs_missing_delimiter_long(self):
        """--delimiter needs an argument."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', '--delimiter'], 1,
                   ("Usage '-t multi-inputs [options] [targets]\n"
                    '\n'
                    'Print one or more sets of inputs required to build targets, sorted in dependency order.\n'
                    'The tool works like inputs tool but with addition of the target for each line.\n'
                    'The output will be a series of lines with the following elements:\n'
                    '<target> <delimiter> <input> <terminator>\n'
                    'Note that a given input may appear for several targets if it is used by more than one targets.\n'
                    'Options:\n'
                    '  -h, --help                   Print this message.\n'
                    '  -d  --delimiter=DELIM        Use DELIM instead of TAB for field delimiter.\n'
                    '  -0, --print0                 Use \\0, instead of \\n as a line terminator.\n'),
                   "multi-inputs: option '--delimiter' requires an argument\n")

    def test_multi_inputs_help(self):
        """-h usage."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', '--help'], 1,
                   ("Usage '-t multi-inputs [options] [targets]\n"
                    '\n'
                    'Print one or more sets of inputs required to build targets, sorted in dependency order.\n'
                    'The tool works like inputs tool but with addition of the target for each line.\n'
                    'The output will be a series of lines with the following elements:\n'
                    '<target> <delimiter> <input> <terminator>\n'
                    'Note that a given input may appear for several targets if it is used by more than one targets.\n'
                    'Options:\n'
                    '  -h, --help                   Print this message.\n'
                    '  -d  --delimiter=DELIM        Use DELIM instead of TAB for field delimiter.\n'
                    '  -0, --print0                 Use \\0, instead of \\n as a line terminator.\n'),
                   '')

    def test_multi_inputs_unknown_target(self):
        """Unknown target."""
        self.setup_tree(TREE)
        self.check(['-t', 'multi-inputs', 'x.o', 'nope'], 1,
                   '',
                   "ninja: error: unknown target 'nope', did you mean 'tool'?\n")

class CompdbToolTest(ToolTestCase):

    def test_compdb_all_edges(self):
        """Every edge with an input (phony too) in manifest order."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c a.c -o a.o",\n'
                    '    "file": "a.c",\n'
                    '    "output": "a.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c b.c -o b.o",\n'
                    '    "file": "b.c",\n'
                    '    "output": "b.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "ld @app lib.so.rsp -o app lib.so",\n'
                    '    "file": "a.o",\n'
                    '    "output": "app"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "",\n'
                    '    "file": "app",\n'
                    '    "output": "al"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "touch multi1 multi2",\n'
                    '    "file": "in1",\n'
                    '    "output": "multi1"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_rule_filter(self):
        """Only the named rules."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb', 'cc', 'touch'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c a.c -o a.o",\n'
                    '    "file": "a.c",\n'
                    '    "output": "a.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c b.c -o b.o",\n'
                    '    "file": "b.c",\n'
                    '    "output": "b.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "touch multi1 multi2",\n'
                    '    "file": "in1",\n'
                    '    "output": "multi1"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_unknown_rule_empty(self):
        """No match: an empty array."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb', 'nope'], 0,
                   ('[\n'
                    ']\n'),
                   '')

    def test_compdb_empty_manifest(self):
        """Empty manifest: an empty array."""
        self.setup_tree(EMPTY)
        self.check(['-t', 'compdb'], 0,
                   ('[\n'
                    ']\n'),
                   '')

    def test_compdb_escaping(self):
        """JSON escaping of quotes, backslashes and control bytes; UTF-8 raw."""
        self.setup_tree(ESCAPE)
        self.check(['-t', 'compdb'], 1,
                   '',
                   ('ninja: error: build.ninja:2: lexing error\n'
                    '  command = echo "a\\\\b" \x01\x02\x1f\x7f café tab\there cr\rx $$HOME\n'
                    '                                              ^ near here\n'))

    def test_compdb_shell_quoting_in_json(self):
        """Shell-quoted paths inside JSON."""
        self.setup_tree(CHARS)
        self.check(['-t', 'compdb', 'cp'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cp \'in 1\' \'it\'\\\\\'\'s\' \'\\"q\\"\' \'out 1\'",\n'
                    '    "file": "in 1",\n'
                    '    "output": "out 1"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cp \'out 1\' \'back\\\\slash\' out2",\n'
                    '    "file": "out 1",\n'
                    '    "output": "out2"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cp ph top",\n'
                    '    "file": "ph",\n'
                    '    "output": "top"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_expand_rsp(self):
        """-x expands @file, -f file and --option-file=file (first occurrence only)."""
        self.setup_tree(RSP)
        self.check(['-t', 'compdb', '-x'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool i1 i2 @at.rsp end",\n'
                    '    "file": "i1",\n'
                    '    "output": "at"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool i1 i2 end",\n'
                    '    "file": "i1",\n'
                    '    "output": "dashf"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool i1 i2 end",\n'
                    '    "file": "i1",\n'
                    '    "output": "optfile"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool xbare.rsp end",\n'
                    '    "file": "i1",\n'
                    '    "output": "bare"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "-f i1 i2 -f first.rsp",\n'
                    '    "file": "i1",\n'
                    '    "output": "first"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool @norsp.rsp",\n'
                    '    "file": "i1",\n'
                    '    "output": "norsp"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tools -f x -f second_f.rsp",\n'
                    '    "file": "i1",\n'
                    '    "output": "second_f"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "lead.rsp tail",\n'
                    '    "file": "i1",\n'
                    '    "output": "lead"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_no_expand_without_x(self):
        """Without -x the command is untouched."""
        self.setup_tree(RSP)
        self.check(['-t', 'compdb', 'r'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool @at.rsp @at.rsp end",\n'
                    '    "file": "i1",\n'
                    '    "output": "at"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool -f dashf.rsp end",\n'
                    '    "file": "i1",\n'
                    '    "output": "dashf"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool --option-file=optfile.rsp end",\n'
                    '    "file": "i1",\n'
                    '    "output": "optfile"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool xbare.rsp end",\n'
                    '    "file": "i1",\n'
                    '    "output": "bare"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "-f @first.rsp -f first.rsp",\n'
                    '    "file": "i1",\n'
                    '    "output": "first"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tool @norsp.rsp",\n'
                    '    "file": "i1",\n'
                    '    "output": "norsp"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "tools -f x -f second_f.rsp",\n'
                    '    "file": "i1",\n'
                    '    "output": "second_f"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "lead.rsp tail",\n'
                    '    "file": "i1",\n'
                    '    "output": "lead"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_x_after_rule(self):
        """-x may follow rule names."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb', 'link', '-x'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "ld a.o b.o -o app lib.so",\n'
                    '    "file": "a.o",\n'
                    '    "output": "app"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_directory_after_C(self):
        """directory is the working directory after -C."""
        self.setup_tree(files={
                'sub/build.ninja': ('rule cc\n'
                                    '  command = cc $in\n'
                                    'build o: cc i.c\n'),
            })
        self.check(['-C', 'sub', '-t', 'compdb'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>/sub",\n'
                    '    "command": "cc i.c",\n'
                    '    "file": "i.c",\n'
                    '    "output": "o"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_help(self):
        """-h usage."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb', '-h'], 1,
                   ('usage: ninja -t compdb [options] [rules]\n'
                    '\n'
                    'options:\n'
                    '  -x     expand @rspfile style response file invocations\n'),
                   '')

    def test_compdb_bad_option(self):
        """Bad option."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb', '-z'], 1,
                   ('usage: ninja -t compdb [options] [rules]\n'
                    '\n'
                    'options:\n'
                    '  -x     expand @rspfile style response file invocations\n'),
                   "compdb: invalid option -- 'z'\n")

    def test_compdb_rule_named_twice(self):
        """An edge is printed once per naming of its rule."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb', 'cc', 'cc'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc x.c -o x.o",\n'
                    '    "file": "x.c",\n'
                    '    "output": "x.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc x.c -o x.o",\n'
                    '    "file": "x.c",\n'
                    '    "output": "x.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc y.c -o y.o",\n'
                    '    "file": "y.c",\n'
                    '    "output": "y.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc y.c -o y.o",\n'
                    '    "file": "y.c",\n'
                    '    "output": "y.o"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_expand_rsp_in_newline(self):
        """-x turns the newlines of $in_newline content into spaces."""
        self.setup_tree(files={
                'build.ninja': ('rule ar\n'
                                '  command = ar rcs $out @$out.rsp\n'
                                '  rspfile = $out.rsp\n'
                                '  rspfile_content = $in_newline\n'
                                'build lib.a: ar a.o b.o c.o\n'),
            })
        self.check(['-t', 'compdb', '-x', 'lib.a'], 0,
                   ('[\n'
                    ']\n'),
                   '')

class CompdbTargetsToolTest(ToolTestCase):

    def test_compdb_targets_post_order(self):
        """Edges needed by a target, inputs first, phony skipped."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb-targets', 'al'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c a.c -o a.o",\n'
                    '    "file": "a.c",\n'
                    '    "output": "a.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c b.c -o b.o",\n'
                    '    "file": "b.c",\n'
                    '    "output": "b.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "ld @app lib.so.rsp -o app lib.so",\n'
                    '    "file": "a.o",\n'
                    '    "output": "app"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_targets_dedup_multiple(self):
        """Several targets share edges once."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', 'prog', 'tool', 'x.o'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc x.c -o x.o",\n'
                    '    "file": "x.c",\n'
                    '    "output": "x.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc y.c -o y.o",\n'
                    '    "file": "y.c",\n'
                    '    "output": "y.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "link x.o y.o -o lib.a",\n'
                    '    "file": "x.o",\n'
                    '    "output": "lib.a"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "link main.c lib.a -o prog",\n'
                    '    "file": "main.c",\n'
                    '    "output": "prog"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "link tool.c lib.a -o tool",\n'
                    '    "file": "tool.c",\n'
                    '    "output": "tool"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_targets_order_only(self):
        """Order-only inputs' edges are included."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', 'y.o'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc x.c -o x.o",\n'
                    '    "file": "x.c",\n'
                    '    "output": "x.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc y.c -o y.o",\n'
                    '    "file": "y.c",\n'
                    '    "output": "y.o"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_targets_no_input_edges(self):
        """Edges without inputs are left out."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb-targets', 'val', 'gen.out'], 0,
                   ('[\n'
                    ']\n'),
                   '')

    def test_compdb_targets_expand(self):
        """-x expands response files."""
        self.setup_tree(BASIC)
        self.check(['-t', 'compdb-targets', '-x', 'app'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c a.c -o a.o",\n'
                    '    "file": "a.c",\n'
                    '    "output": "a.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc -c b.c -o b.o",\n'
                    '    "file": "b.c",\n'
                    '    "output": "b.o"\n'
                    '  },\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "ld a.o b.o -o app lib.so",\n'
                    '    "file": "a.o",\n'
                    '    "output": "app"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_targets_caret(self):
        """x^ works."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', 'x.c^'], 0,
                   ('[\n'
                    '  {\n'
                    '    "directory": "<DIR>",\n'
                    '    "command": "cc x.c -o x.o",\n'
                    '    "file": "x.c",\n'
                    '    "output": "x.o"\n'
                    '  }\n'
                    ']\n'),
                   '')

    def test_compdb_targets_needs_target(self):
        """No target: error and usage."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets'], 1,
                   ('usage: ninja -t compdb [-hx] target [targets]\n'
                    '\n'
                    'options:\n'
                    '  -h     display this help message\n'
                    '  -x     expand @rspfile style response file invocations\n'),
                   'ninja: error: compdb-targets expects the name of at least one target\n')

    def test_compdb_targets_unknown_fatal(self):
        """Unknown target is fatal, with a suggestion."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', 'prgo'], 1,
                   '',
                   "ninja: fatal: unknown target 'prgo', did you mean 'prog'?\n")

    def test_compdb_targets_source_fatal(self):
        """A source is not a target."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', './x.c'], 1,
                   '',
                   ("ninja: fatal: 'x.c' is not a target (i.e. it is not an output of any `build` statement)\n"))

    def test_compdb_targets_help(self):
        """-h usage (which says 'compdb')."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', '-h'], 1,
                   ('usage: ninja -t compdb [-hx] target [targets]\n'
                    '\n'
                    'options:\n'
                    '  -h     display this help message\n'
                    '  -x     expand @rspfile style response file invocations\n'),
                   '')

    def test_compdb_targets_bad_option(self):
        """Bad option."""
        self.setup_tree(TREE)
        self.check(['-t', 'compdb-targets', '-q', 'prog'], 1,
                   ('usage: ninja -t compdb [-hx] target [targets]\n'
                    '\n'
                    'options:\n'
                    '  -h     display this help message\n'
                    '  -x     expand @rspfile style response file invocations\n'),
                   "compdb-targets: invalid option -- 'q'\n")

class DepsToolTest(ToolTestCase):

    def test_deps_all_live_entries(self):
        """Every live entry in id order; VALID when the output is not newer."""
        self.setup_tree(DEPS, deps=DEPS_LOG, touch=DEPS_TOUCH, mtimes=DEPS_MTIMES)
        self.check(['-t', 'deps'], 0,
                   ('a.o: #deps 2, deps mtime 1700000000000000000 (VALID)\n'
                    '    a.c\n'
                    '    gen.h\n'
                    '\n'
                    'c.o: #deps 2, deps mtime 1700000000000000000 (VALID)\n'
                    '    c.c\n'
                    '    gen.h\n'
                    '\n'),
                   '')

    def test_deps_stale_newer_output(self):
        """STALE when the output is newer than the recorded mtime."""
        self.setup_tree(DEPS, deps=DEPS_LOG, touch=DEPS_TOUCH, mtimes={'a.o': 1800000000})
        self.check(['-t', 'deps', 'a.o'], 0,
                   ('a.o: #deps 2, deps mtime 1700000000000000000 (STALE)\n'
                    '    a.c\n'
                    '    gen.h\n'
                    '\n'),
                   '')

    def test_deps_stale_missing_output(self):
        """STALE when the output is missing."""
        self.setup_tree(DEPS, deps=DEPS_LOG, touch=['a.c'])
        self.check(['-t', 'deps', 'c.o'], 0,
                   ('c.o: #deps 2, deps mtime 1700000000000000000 (STALE)\n'
                    '    c.c\n'
                    '    gen.h\n'
                    '\n'),
                   '')

    def test_deps_not_found(self):
        """Targets without a record."""
        self.setup_tree(DEPS, deps=DEPS_LOG)
        self.check(['-t', 'deps', 'b.o', 'gen.h'], 0,
                   ('b.o: deps not found\n'
                    'gen.h: deps not found\n'),
                   '')

    def test_deps_unknown_target(self):
        """Unknown target (options are not parsed: -h is a target)."""
        self.setup_tree(DEPS, deps=DEPS_LOG)
        self.check(['-t', 'deps', '-h'], 1,
                   '',
                   "ninja: error: unknown target '-h', did you mean 'a.o'?\n")

    def test_deps_no_log(self):
        """No deps log: nothing."""
        self.setup_tree(DEPS)
        self.check(['-t', 'deps'], 0,
                   '',
                   '')

    def test_deps_dead_entry_hidden(self):
        """Entries whose edge lost its deps binding are hidden by default but shown on request."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen $out\n'
                                'rule cc\n'
                                '  command = cc $in -o $out\n'
                                '  depfile = $out.d\n'
                                'rule ccd\n'
                                '  command = cc $in -o $out\n'
                                '  depfile = $out.d\n'
                                'build gen.h: gen\n'
                                'build a.o: cc a.c\n'
                                'build b.o: ccd b.c\n'
                                'build c.o: cc c.c || gen.h\n'
                                'build all: phony a.o b.o c.o\n'),
            }, deps=DEPS_LOG, touch=DEPS_TOUCH, mtimes=DEPS_MTIMES)
        self.check(['-t', 'deps'], 0,
                   '',
                   '')

    def test_deps_dead_entry_explicit(self):
        """An explicitly named dead entry still prints."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen $out\n'
                                'rule cc\n'
                                '  command = cc $in -o $out\n'
                                '  depfile = $out.d\n'
                                'rule ccd\n'
                                '  command = cc $in -o $out\n'
                                '  depfile = $out.d\n'
                                'build gen.h: gen\n'
                                'build a.o: cc a.c\n'
                                'build b.o: ccd b.c\n'
                                'build c.o: cc c.c || gen.h\n'
                                'build all: phony a.o b.o c.o\n'),
            }, deps=DEPS_LOG, touch=DEPS_TOUCH, mtimes=DEPS_MTIMES)
        self.check(['-t', 'deps', 'a.o'], 0,
                   ('a.o: #deps 2, deps mtime 1700000000000000000 (VALID)\n'
                    '    a.c\n'
                    '    gen.h\n'
                    '\n'),
                   '')

    def test_deps_later_record_wins(self):
        """A later record for the same output replaces the earlier."""
        self.setup_tree(DEPS, deps=DEPS_LOG + [('a.o', 1500000000000000000, ['a.c', 'x.h', 'y.h'])], touch=DEPS_TOUCH, mtimes=DEPS_MTIMES)
        self.check(['-t', 'deps'], 0,
                   ('a.o: #deps 3, deps mtime 1500000000000000000 (STALE)\n'
                    '    a.c\n'
                    '    x.h\n'
                    '    y.h\n'
                    '\n'
                    'c.o: #deps 2, deps mtime 1700000000000000000 (VALID)\n'
                    '    c.c\n'
                    '    gen.h\n'
                    '\n'),
                   '')

    def test_deps_caret_reverse_lookup(self):
        """x^ falls back to the deps log for a node with no out-edges."""
        self.setup_tree(DEPS, deps=DEPS_LOG, touch=DEPS_TOUCH, mtimes=DEPS_MTIMES)
        self.check(['-t', 'deps', 'gen.h^'], 0,
                   ('c.o: #deps 2, deps mtime 1700000000000000000 (VALID)\n'
                    '    c.c\n'
                    '    gen.h\n'
                    '\n'),
                   '')

    def test_deps_bad_log_warns(self):
        """A bad deps log header: warning, then nothing."""
        self.setup_tree(DEPS, files={'.ninja_deps': 'garbage'})
        self.check(['-t', 'deps'], 0,
                   '',
                   'ninja: warning: bad deps log signature or version; starting over\n')

class MissingDepsToolTest(ToolTestCase):

    def test_missingdeps_found(self):
        """Depfile and deps-log deps on a generated header without an order: exit 3."""
        self.setup_tree(DEPS, deps=DEPS_LOG, touch=DEPS_TOUCH)
        self.check(['-t', 'missingdeps'], 3,
                   ('Missing dep: a.o uses gen.h (generated by gen)\n'
                    'Missing dep: b.o uses gen.h (generated by gen)\n'
                    'Processed 5 nodes.\n'
                    'Error: There are 2 missing dependency paths.\n'
                    '2 targets had depfile dependencies on 1 distinct generated inputs (from 1 rules)  without a non-depfile dep path to the generator.\n'
                    'There might be build flakiness if any of the targets listed above are built alone, or not late enough, in a clean output directory.\n'),
                   '')

    def test_missingdeps_clean_target(self):
        """An order-only dependency is a manifest path: nothing missing."""
        self.setup_tree(DEPS, deps=DEPS_LOG, touch=DEPS_TOUCH)
        self.check(['-t', 'missingdeps', 'c.o'], 0,
                   ('Processed 2 nodes.\n'
                    'No missing dependencies on generated files found.\n'),
                   '')

    def test_missingdeps_nothing_recorded(self):
        """Nothing recorded: nothing missing."""
        self.setup_tree(DEPS, files={'b.o.d': ''})
        self.check(['-t', 'missingdeps'], 0,
                   ('Processed 5 nodes.\n'
                    'No missing dependencies on generated files found.\n'),
                   '')

    def test_missingdeps_build_ninja_exception(self):
        """A dep on build.ninja excuses the whole node."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen\n'
                                'rule cc\n'
                                '  command = cc\n'
                                '  depfile = $out.d\n'
                                'build build.ninja: gen\n'
                                'build g.h: gen\n'
                                'build o: cc i\n'),
                'o.d': 'o: i g.h build.ninja\n',
            })
        self.check(['-t', 'missingdeps'], 0,
                   ('Processed 3 nodes.\n'
                    'No missing dependencies on generated files found.\n'),
                   '')

    def test_missingdeps_multiple_generators(self):
        """Several generators for one node: one line per generated file."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen\n'
                                'rule gen2\n'
                                '  command = gen2\n'
                                'rule cc\n'
                                '  command = cc\n'
                                '  depfile = $out.d\n'
                                'build z.h: gen\n'
                                'build y.h: gen2\n'
                                'build x.h w.h: gen\n'
                                'build out: cc src\n'),
                'out.d': 'out: src w.h x.h y.h z.h\n',
            })
        self.check(['-t', 'missingdeps', 'out'], 3,
                   ('Missing dep: out uses z.h (generated by gen)\n'
                    'Missing dep: out uses y.h (generated by gen2)\n'
                    'Missing dep: out uses w.h (generated by gen)\n'
                    'Missing dep: out uses x.h (generated by gen)\n'
                    'Processed 1 nodes.\n'
                    'Error: There are 2 missing dependency paths.\n'
                    '1 targets had depfile dependencies on 4 distinct generated inputs (from 2 rules)  without a non-depfile dep path to the generator.\n'
                    'There might be build flakiness if any of the targets listed above are built alone, or not late enough, in a clean output directory.\n'),
                   '')

    def test_missingdeps_depfile_for_other_output(self):
        """A depfile naming another output is ignored."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen\n'
                                'rule cc\n'
                                '  command = cc\n'
                                '  depfile = $out.d\n'
                                'build g.h: gen\n'
                                'build o: cc i\n'),
                'o.d': 'other: i g.h\n',
            })
        self.check(['-t', 'missingdeps'], 0,
                   ('Processed 2 nodes.\n'
                    'No missing dependencies on generated files found.\n'),
                   '')

    def test_missingdeps_unknown_target(self):
        """Unknown target."""
        self.setup_tree(DEPS)
        self.check(['-t', 'missingdeps', 'nope'], 1,
                   '',
                   "ninja: error: unknown target 'nope'\n")

    def test_missingdeps_transitive_path_ok(self):
        """A transitive manifest path to the generator is enough."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen\n'
                                'rule cc\n'
                                '  command = cc\n'
                                '  depfile = $out.d\n'
                                'build g.h: gen\n'
                                'build mid: gen || g.h\n'
                                'build o: cc i | mid\n'),
                'o.d': 'o: i g.h\n',
            })
        self.check(['-t', 'missingdeps'], 0,
                   ('Processed 3 nodes.\n'
                    'No missing dependencies on generated files found.\n'),
                   '')

class GraphToolTest(ToolTestCase):

    def test_graph_all(self):
        """Graphviz output: arrows for 1-in/1-out edges, ellipses otherwise, order-only dotted."""
        self.setup_tree(GRAPH)
        self.check(['-t', 'graph'], 0,
                   ('digraph ninja {\n'
                    'rankdir="LR"\n'
                    'node [fontsize=10, shape=box, height=0.25]\n'
                    'edge [fontsize=10]\n'
                    '"P1" [label="app"]\n'
                    '"P2" [label="link", shape=ellipse]\n'
                    '"P2" -> "P1"\n'
                    '"P3" -> "P2" [arrowhead=none]\n'
                    '"P4" -> "P2" [arrowhead=none]\n'
                    '"P3" [label="dir/a.o"]\n'
                    '"P5" -> "P3" [label=" cc"]\n'
                    '"P5" [label="dir/a.c"]\n'
                    '"P4" [label="b.o"]\n'
                    '"P6" [label="cc", shape=ellipse]\n'
                    '"P6" -> "P4"\n'
                    '"P7" -> "P6" [arrowhead=none]\n'
                    '"P8" -> "P6" [arrowhead=none]\n'
                    '"P9" -> "P6" [arrowhead=none style=dotted]\n'
                    '"P7" [label="b.c"]\n'
                    '"P8" [label="b.h"]\n'
                    '"P9" [label="stamp"]\n'
                    '"P10" [label="phony", shape=ellipse]\n'
                    '"P10" -> "P9"\n'
                    '}\n'),
                   '', pointers=True)

    def test_graph_target(self):
        """A target's subgraph; backslashes drawn as slashes."""
        self.setup_tree(GRAPH)
        self.check(['-t', 'graph', 'dir\\a.o'], 0,
                   ('digraph ninja {\n'
                    'rankdir="LR"\n'
                    'node [fontsize=10, shape=box, height=0.25]\n'
                    'edge [fontsize=10]\n'
                    '"P1" [label="dir/a.o"]\n'
                    '"P2" -> "P1" [label=" cc"]\n'
                    '"P2" [label="dir/a.c"]\n'
                    '}\n'),
                   '', pointers=True)

    def test_graph_shared_nodes_once(self):
        """Shared nodes and edges appear once."""
        self.setup_tree(TREE)
        self.check(['-t', 'graph', 'prog', 'tool'], 0,
                   ('digraph ninja {\n'
                    'rankdir="LR"\n'
                    'node [fontsize=10, shape=box, height=0.25]\n'
                    'edge [fontsize=10]\n'
                    '"P1" [label="prog"]\n'
                    '"P2" [label="link", shape=ellipse]\n'
                    '"P2" -> "P1"\n'
                    '"P3" -> "P2" [arrowhead=none]\n'
                    '"P4" -> "P2" [arrowhead=none]\n'
                    '"P3" [label="main.c"]\n'
                    '"P4" [label="lib.a"]\n'
                    '"P5" [label="link", shape=ellipse]\n'
                    '"P5" -> "P4"\n'
                    '"P6" -> "P5" [arrowhead=none]\n'
                    '"P7" -> "P5" [arrowhead=none]\n'
                    '"P6" [label="x.o"]\n'
                    '"P8" [label="cc", shape=ellipse]\n'
                    '"P8" -> "P6"\n'
                    '"P9" -> "P8" [arrowhead=none]\n'
                    '"P10" -> "P8" [arrowhead=none]\n'
                    '"P9" [label="x.c"]\n'
                    '"P10" [label="x.h"]\n'
                    '"P7" [label="y.o"]\n'
                    '"P11" [label="cc", shape=ellipse]\n'
                    '"P11" -> "P7"\n'
                    '"P12" -> "P11" [arrowhead=none]\n'
                    '"P6" -> "P11" [arrowhead=none style=dotted]\n'
                    '"P12" [label="y.c"]\n'
                    '"P13" [label="tool"]\n'
                    '"P14" [label="link", shape=ellipse]\n'
                    '"P14" -> "P13"\n'
                    '"P15" -> "P14" [arrowhead=none]\n'
                    '"P4" -> "P14" [arrowhead=none]\n'
                    '"P15" [label="tool.c"]\n'
                    '}\n'),
                   '', pointers=True)

    def test_graph_empty(self):
        """Empty manifest: just the frame."""
        self.setup_tree(EMPTY)
        self.check(['-t', 'graph'], 0,
                   ('digraph ninja {\n'
                    'rankdir="LR"\n'
                    'node [fontsize=10, shape=box, height=0.25]\n'
                    'edge [fontsize=10]\n'
                    '}\n'),
                   '')

    def test_graph_unknown_target(self):
        """Unknown target: error, no output."""
        self.setup_tree(GRAPH)
        self.check(['-t', 'graph', 'nope'], 1,
                   '',
                   "ninja: error: unknown target 'nope', did you mean 'app'?\n")

    def test_graph_loads_dyndep(self):
        """Dyndep information is loaded when an edge is drawn."""
        self.setup_tree(DYNDEP, files={
                'dd': ('ninja_dyndep_version = 1\n'
                       'build out | out.imp: dyndep | extra.in\n'
                       'build out2: dyndep\n'),
            })
        self.check(['-t', 'graph', 'out'], 0,
                   ('digraph ninja {\n'
                    'rankdir="LR"\n'
                    'node [fontsize=10, shape=box, height=0.25]\n'
                    'edge [fontsize=10]\n'
                    '"P1" [label="out"]\n'
                    '"P2" [label="touch", shape=ellipse]\n'
                    '"P2" -> "P1"\n'
                    '"P2" -> "P3"\n'
                    '"P4" -> "P2" [arrowhead=none]\n'
                    '"P5" -> "P2" [arrowhead=none]\n'
                    '"P6" -> "P2" [arrowhead=none style=dotted]\n'
                    '"P4" [label="in"]\n'
                    '"P5" [label="extra.in"]\n'
                    '"P6" [label="dd"]\n'
                    '"P7" -> "P6" [label=" cp"]\n'
                    '"P7" [label="dd.in"]\n'
                    '}\n'),
                   '', pointers=True)

    def test_graph_missing_dyndep_warns(self):
        """A missing dyndep file is a warning (with a blank line)."""
        self.setup_tree(DYNDEP)
        self.check(['-t', 'graph', 'out'], 0,
                   ('digraph ninja {\n'
                    'rankdir="LR"\n'
                    'node [fontsize=10, shape=box, height=0.25]\n'
                    'edge [fontsize=10]\n'
                    '"P1" [label="out"]\n'
                    '"P2" [label="touch", shape=ellipse]\n'
                    '"P2" -> "P1"\n'
                    '"P3" -> "P2" [arrowhead=none]\n'
                    '"P4" -> "P2" [arrowhead=none style=dotted]\n'
                    '"P3" [label="in"]\n'
                    '"P4" [label="dd"]\n'
                    '"P5" -> "P4" [label=" cp"]\n'
                    '"P5" [label="dd.in"]\n'
                    '}\n'),
                   ("ninja: warning: loading 'dd': No such file or directory\n"
                    '\n'), pointers=True)

class QueryToolTest(ToolTestCase):

    def test_query_edge_inputs_and_outputs(self):
        """Input kinds are marked | and ||."""
        self.setup_tree(BASIC)
        self.check(['-t', 'query', 'a.o', 'app'], 0,
                   ('a.o:\n'
                    '  input: cc\n'
                    '    a.c\n'
                    '    | h.h\n'
                    '    || order\n'
                    '  outputs:\n'
                    '    app\n'
                    '    lib.so\n'
                    'app:\n'
                    '  input: link\n'
                    '    a.o\n'
                    '    b.o\n'
                    '  validations:\n'
                    '    val\n'
                    '  outputs:\n'
                    '    al\n'),
                   '')

    def test_query_validations(self):
        """A validation node shows 'validation for'."""
        self.setup_tree(BASIC)
        self.check(['-t', 'query', 'val', 'in1', 'order'], 0,
                   ('val:\n'
                    '  input: touch\n'
                    '  outputs:\n'
                    '  validation for:\n'
                    '    app\n'
                    '    lib.so\n'
                    'in1:\n'
                    '  outputs:\n'
                    '    multi1\n'
                    '    multi2\n'
                    '    imp\n'
                    'order:\n'
                    '  input: phony\n'
                    '  outputs:\n'
                    '    a.o\n'),
                   '')

    def test_query_needs_target(self):
        """No target: error."""
        self.setup_tree(BASIC)
        self.check(['-t', 'query'], 1,
                   '',
                   'ninja: error: expected a target to query\n')

    def test_query_unknown_target(self):
        """Unknown target after a good one: the first is already printed."""
        self.setup_tree(BASIC)
        self.check(['-t', 'query', 'b.o', 'nope'], 1,
                   ('b.o:\n'
                    '  input: cc\n'
                    '    b.c\n'
                    '  outputs:\n'
                    '    app\n'
                    '    lib.so\n'),
                   "ninja: error: unknown target 'nope', did you mean 'app'?\n")

    def test_query_caret(self):
        """x^ resolves before querying."""
        self.setup_tree(BASIC)
        self.check(['-t', 'query', 'b.c^'], 0,
                   ('b.o:\n'
                    '  input: cc\n'
                    '    b.c\n'
                    '  outputs:\n'
                    '    app\n'
                    '    lib.so\n'),
                   '')

    def test_query_loads_dyndep(self):
        """Dyndep-discovered inputs appear as implicit."""
        self.setup_tree(DYNDEP, files={
                'dd': ('ninja_dyndep_version = 1\n'
                       'build out | out.imp: dyndep | extra.in\n'
                       'build out2: dyndep\n'),
            })
        self.check(['-t', 'query', 'out', 'out2'], 0,
                   ('out:\n'
                    '  input: touch\n'
                    '    in\n'
                    '    | extra.in\n'
                    '    || dd\n'
                    '  outputs:\n'
                    'out2:\n'
                    '  input: touch\n'
                    '    in2\n'
                    '    || dd\n'
                    '  outputs:\n'),
                   '')

    def test_query_missing_dyndep(self):
        """A missing dyndep file: warning plus an empty line."""
        self.setup_tree(DYNDEP)
        self.check(['-t', 'query', 'out'], 0,
                   ('out:\n'
                    '  input: touch\n'
                    '    in\n'
                    '    || dd\n'
                    '  outputs:\n'),
                   ("ninja: warning: loading 'dd': No such file or directory\n"
                    '\n'))

    def test_query_bad_dyndep(self):
        """A malformed dyndep file: the parse error as a warning."""
        self.setup_tree(DYNDEP, files={'dd': 'garbage\n'})
        self.check(['-t', 'query', 'out'], 0,
                   ('out:\n'
                    '  input: touch\n'
                    '    in\n'
                    '    || dd\n'
                    '  outputs:\n'),
                   ("ninja: warning: dd:1: expected '=', got newline\n"
                    'garbage\n'
                    '       ^ near here\n'
                    '\n'))

    def test_query_caret_via_deps_log(self):
        """x^ uses the deps log when the manifest has no consumer."""
        self.setup_tree(files={
                'build.ninja': ('rule gen\n'
                                '  command = gen $out\n'
                                'rule cc\n'
                                '  command = cc $in -o $out\n'
                                '  deps = gcc\n'
                                '  depfile = $out.d\n'
                                'rule ccd\n'
                                '  command = cc $in -o $out\n'
                                '  depfile = $out.d\n'
                                'build gen.h: gen\n'
                                'build a.o: cc a.c\n'
                                'build b.o: ccd b.c\n'
                                'build c.o: cc c.c\n'
                                'build all: phony a.o b.o c.o\n'),
            }, deps=DEPS_LOG)
        self.check(['-t', 'query', 'gen.h^'], 0,
                   ('a.o:\n'
                    '  input: cc\n'
                    '    a.c\n'
                    '  outputs:\n'
                    '    all\n'),
                   '')

    def test_query_caret_no_out_edge(self):
        """x^ with no consumer anywhere."""
        self.setup_tree(DEPS)
        self.check(['-t', 'query', 'all^'], 1,
                   '',
                   "ninja: error: 'all' has no out edge\n")

    def test_query_deps_not_shown(self):
        """Recorded deps are not edge inputs for query."""
        self.setup_tree(DEPS, deps=DEPS_LOG)
        self.check(['-t', 'query', 'a.o', 'gen.h'], 0,
                   ('a.o:\n'
                    '  input: cc\n'
                    '    a.c\n'
                    '  outputs:\n'
                    '    all\n'
                    'gen.h:\n'
                    '  input: gen\n'
                    '  outputs:\n'
                    '    c.o\n'),
                   '')

class TargetsToolTest(ToolTestCase):

    def test_targets_default_depth_one(self):
        """Roots with their rule."""
        self.setup_tree(BASIC)
        self.check(['-t', 'targets'], 0,
                   ('lib.so: link\n'
                    'val: touch\n'
                    'gen.out: gen\n'
                    'al: phony\n'
                    'multi1: touch\n'
                    'multi2: touch\n'
                    'imp: touch\n'),
                   '')

    def test_targets_depth_two(self):
        """Indented two levels."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'depth', '2'], 0,
                   ('all: phony\n'
                    '  prog: link\n'
                    '  tool: link\n'),
                   '')

    def test_targets_depth_zero_unlimited(self):
        """Depth 0 is unlimited; shared subtrees repeat."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'depth', '0'], 0,
                   ('all: phony\n'
                    '  prog: link\n'
                    '    main.c\n'
                    '    lib.a: link\n'
                    '      x.o: cc\n'
                    '        x.c\n'
                    '        x.h\n'
                    '      y.o: cc\n'
                    '        y.c\n'
                    '        x.o: cc\n'
                    '          x.c\n'
                    '          x.h\n'
                    '  tool: link\n'
                    '    tool.c\n'
                    '    lib.a: link\n'
                    '      x.o: cc\n'
                    '        x.c\n'
                    '        x.h\n'
                    '      y.o: cc\n'
                    '        y.c\n'
                    '        x.o: cc\n'
                    '          x.c\n'
                    '          x.h\n'),
                   '')

    def test_targets_depth_junk(self):
        """A non-number reads as 0 (unlimited)."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'depth', 'x'], 0,
                   ('all: phony\n'
                    '  prog: link\n'
                    '    main.c\n'
                    '    lib.a: link\n'
                    '      x.o: cc\n'
                    '        x.c\n'
                    '        x.h\n'
                    '      y.o: cc\n'
                    '        y.c\n'
                    '        x.o: cc\n'
                    '          x.c\n'
                    '          x.h\n'
                    '  tool: link\n'
                    '    tool.c\n'
                    '    lib.a: link\n'
                    '      x.o: cc\n'
                    '        x.c\n'
                    '        x.h\n'
                    '      y.o: cc\n'
                    '        y.c\n'
                    '        x.o: cc\n'
                    '          x.c\n'
                    '          x.h\n'),
                   '')

    def test_targets_depth_missing_number(self):
        """'depth' alone keeps depth 1."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'depth'], 0,
                   'all: phony\n',
                   '')

    def test_targets_all(self):
        """Every output with its rule."""
        self.setup_tree(BASIC)
        self.check(['-t', 'targets', 'all', 'ignored'], 0,
                   ('a.o: cc\n'
                    'b.o: cc\n'
                    'order: phony\n'
                    'app: link\n'
                    'lib.so: link\n'
                    'val: touch\n'
                    'gen.out: gen\n'
                    'al: phony\n'
                    'multi1: touch\n'
                    'multi2: touch\n'
                    'imp: touch\n'),
                   '')

    def test_targets_rule_name(self):
        """Outputs of a rule, sorted and unique."""
        self.setup_tree(BASIC)
        self.check(['-t', 'targets', 'rule', 'touch'], 0,
                   ('imp\n'
                    'multi1\n'
                    'multi2\n'
                    'val\n'),
                   '')

    def test_targets_rule_sources(self):
        """No rule name: inputs without a producer, repeats kept."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'rule'], 0,
                   ('x.c\n'
                    'x.h\n'
                    'y.c\n'
                    'main.c\n'
                    'tool.c\n'),
                   '')

    def test_targets_rule_unknown(self):
        """Unknown rule: nothing."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'rule', 'nope'], 0,
                   '',
                   '')

    def test_targets_bad_mode_suggestion(self):
        """Bad mode with a suggestion."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', 'dpeth'], 1,
                   '',
                   ("ninja: error: unknown target tool mode 'dpeth', did you mean 'depth'?\n"))

    def test_targets_bad_mode(self):
        """Bad mode without a suggestion."""
        self.setup_tree(TREE)
        self.check(['-t', 'targets', '-h'], 1,
                   '',
                   "ninja: error: unknown target tool mode '-h', did you mean 'all'?\n")

    def test_targets_cycle_no_roots(self):
        """A graph that is all cycle has no roots."""
        self.setup_tree(files={
                'build.ninja': ('rule r\n'
                                '  command = r\n'
                                'build a: r b\n'
                                'build b: r a\n'),
            })
        self.check(['-t', 'targets'], 1,
                   '',
                   'ninja: error: could not determine root nodes of build graph\n')

    def test_targets_empty(self):
        """Empty manifest: nothing."""
        self.setup_tree(EMPTY)
        self.check(['-t', 'targets'], 0,
                   '',
                   '')

class RulesToolTest(ToolTestCase):

    def test_rules_sorted(self):
        """Root-scope rules sorted, phony included, subninja rules not."""
        self.setup_tree(SUB)
        self.check(['-t', 'rules'], 0,
                   ('cc\n'
                    'gen\n'
                    'phony\n'),
                   '')

    def test_rules_descriptions(self):
        """-d prints descriptions unexpanded."""
        self.setup_tree(files={
                'build.ninja': ('rule b\n'
                                '  command = b\n'
                                '  description = B ${out} $in $$ $ x$:\n'
                                'rule a\n'
                                '  command = a\n'
                                '  description =\n'
                                'rule c\n'
                                '  command = c\n'),
            })
        self.check(['-t', 'rules', '-d'], 0,
                   ('a: \n'
                    'b: B ${out} ${in} $  x:\n'
                    'c\n'
                    'phony\n'),
                   '')

    def test_rules_help(self):
        """-h usage."""
        self.setup_tree(EMPTY)
        self.check(['-t', 'rules', '-h'], 1,
                   ('usage: ninja -t rules [options]\n'
                    '\n'
                    'options:\n'
                    '  -d     also print the description of the rule\n'
                    '  -h     print this message\n'),
                   '')

    def test_rules_bad_option(self):
        """Bad option."""
        self.setup_tree(EMPTY)
        self.check(['-t', 'rules', '--desc'], 1,
                   ('usage: ninja -t rules [options]\n'
                    '\n'
                    'options:\n'
                    '  -d     also print the description of the rule\n'
                    '  -h     print this message\n'),
                   "rules: invalid option -- '-'\n")

    def test_rules_extra_args_ignored(self):
        """Operands are ignored."""
        self.setup_tree(EMPTY)
        self.check(['-t', 'rules', 'zzz'], 0,
                   'phony\n',
                   '')

class LogsToolTest(ToolTestCase):

    def test_recompact_creates_builddir(self):
        """recompact creates $builddir even with no logs."""
        self.setup_tree(files={'build.ninja': 'builddir = out/dir\n'})
        self.check(['-t', 'recompact'], 0,
                   '',
                   '')
        self.assertTree(['build.ninja', 'out/', 'out/dir/'])

    def test_recompact_drops_dead_entries(self):
        """Entries for paths neither built nor on disk are dropped."""
        self.setup_tree(files={
                'build.ninja': ('rule r\n'
                                '  command = r\n'
                                'build a: r\n'),
            }, log=[('a', 5), ('gone', 6), ('kept', 7), ('a', 8)], touch=['kept'])
        self.check(['-t', 'recompact'], 0,
                   '',
                   '')
        self.assertTree(['.ninja_log', 'build.ninja', 'kept'])
        self.assertFileText('.ninja_log', ('# ninja log v7\n'
                                    '1\t2\t8\ta\t1234abcd\n'
                                    '1\t2\t7\tkept\t1234abcd\n'))

    def test_recompact_bad_log_warns(self):
        """A log of the wrong version: warning, deleted."""
        self.setup_tree(files={'build.ninja': '', '.ninja_log': '# ninja log v99\n'})
        self.check(['-t', 'recompact'], 0,
                   '',
                   'ninja: warning: build log version is too new; starting over\n')
        self.assertTree(['build.ninja'])

    def test_restat_updates_mtimes(self):
        """restat rewrites recorded mtimes from the disk."""
        self.setup_tree(log=[('a', 5), ('missing', 6)], touch=['a'], mtimes={'a': 1234567890})
        self.check(['-t', 'restat'], 0,
                   '',
                   '')
        self.assertTree(['.ninja_log', 'a'])
        self.assertFileText('.ninja_log', ('# ninja log v7\n'
                                    '1\t2\t1234567890000000000\ta\t1234abcd\n'
                                    '1\t2\t0\tmissing\t1234abcd\n'))

    def test_restat_selected_outputs(self):
        """Only the listed outputs are re-stat'ed."""
        self.setup_tree(log=[('a', 5), ('b', 6)], touch=['a', 'b'], mtimes={'a': 1234567890, 'b': 1234567891})
        self.check(['-t', 'restat', 'b'], 0,
                   '',
                   '')
        self.assertTree(['.ninja_log', 'a', 'b'])
        self.assertFileText('.ninja_log', ('# ninja log v7\n'
                                    '1\t2\t5\ta\t1234abcd\n'
                                    '1\t2\t1234567891000000000\tb\t1234abcd\n'))

    def test_restat_no_log(self):
        """No log: nothing to do."""
        self.setup_tree()
        self.check(['-t', 'restat'], 0,
                   '',
                   '')
        self.assertTree([])

    def test_restat_bad_version_silent(self):
        """A log of the wrong version is deleted without a word."""
        self.setup_tree(files={'.ninja_log': '# ninja log v3\n'})
        self.check(['-t', 'restat'], 0,
                   '',
                   '')
        self.assertTree([])

    def test_restat_ignores_builddir(self):
        """The manifest is not read: $builddir is ignored."""
        self.setup_tree(files={
                'build.ninja': 'builddir = bd\n',
                'bd/.ninja_log': ('# ninja log v7\n'
                                  '1\t2\t5\tx\t1234abcd\n'),
            })
        self.check(['-t', 'restat'], 0,
                   '',
                   '')
        self.assertTree(['bd/', 'bd/.ninja_log', 'build.ninja'])
        self.assertFileText('bd/.ninja_log', ('# ninja log v7\n'
                                    '1\t2\t5\tx\t1234abcd\n'))

    def test_restat_help(self):
        """-h usage on stdout."""
        self.setup_tree()
        self.check(['-t', 'restat', '-h'], 1,
                   'usage: ninja -t restat [outputs]\n',
                   '')

    def test_restat_bad_option(self):
        """Bad option."""
        self.setup_tree()
        self.check(['-t', 'restat', '--all'], 1,
                   'usage: ninja -t restat [outputs]\n',
                   "restat: invalid option -- '-'\n")


@unittest.skipUnless(shutil.which("dot"), "graphviz 'dot' not installed: graph output not validated")
class GraphvizAcceptsGraphTest(ToolTestCase):
    """`dot -Tsvg` must accept what -t graph prints."""

    def assertDotAccepts(self, *args):
        result = self.ninja("-t", "graph", *args)
        self.assertEqual(0, result.returncode, result.stderr)
        dot = subprocess.run(["dot", "-Tsvg"], input=result.stdout.encode(), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(0, dot.returncode, dot.stderr.decode())
        self.assertIn(b"<svg", dot.stdout)

    def test_dot_accepts_whole_graph(self):
        self.setup_tree(BASIC)
        self.assertDotAccepts()

    def test_dot_accepts_targets(self):
        self.setup_tree(TREE)
        self.assertDotAccepts("prog", "tool")

    def test_dot_accepts_backslash_paths(self):
        self.setup_tree(GRAPH)
        self.assertDotAccepts()

    def test_dot_accepts_dyndep_graph(self):
        self.setup_tree(DYNDEP, files={"dd": DYNDEP["dd.in"]})
        self.assertDotAccepts("out", "out2")


if __name__ == "__main__":
    unittest.main()
