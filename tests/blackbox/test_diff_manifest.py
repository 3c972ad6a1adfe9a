"""Differential corpus for the manifest language: every case runs through our ninja and reference
ninja 1.13.2 and must produce identical exit codes, stdout, stderr, file lists and file contents.

Each entry of CASES is (name, files, runs):
  files  a manifest string/bytes (written as build.ninja) or a {path: content} dict
  runs   a list of argument tuples run in order in the same tree (default: DEFAULT_RUNS)
One test method is generated per case, so a divergence names the manifest that caused it.
Real builds use -j1 so that output order is deterministic.
"""

import os
import unittest

from harness import DifferentialTestCase, is_ronin_private

ECHO = "rule r\n  command = echo $out > $out\n"
ECHO_IN = "rule r\n  command = echo [$in] [$out] > $out\n"
TOUCH = "rule t\n  command = touch $out\n"

# -t commands, a dry run, a real build, then a second build (usually "no work to do").
DEFAULT_RUNS = [("-t", "commands"), ("-n", "-j1"), ("-j1",), ("-j1",)]
# For manifests that must not touch the file system outside the temp dir (../ or absolute outputs).
NO_BUILD = [("-t", "commands"), ("-n", "-j1"), ("-t", "targets", "all")]

LONG = "x" * 60 + " = $%" + "b" * 30 + "\n"

CASES = [
    # --- basic / lexical ------------------------------------------------------------------------
    ("empty", "", None),
    ("only_comments", "\n\n# a comment\n   # indented\n\n", None),
    ("simple_echo", ECHO + "build a: r\n", None),
    ("comment_inside_rule_block", "rule r\n  command = echo $description > $out\n# c\n  description = d\nbuild a: r\n", None),
    ("comment_inside_build_block", "rule r\n  command = echo $x > $out\nbuild a: r\n# c\n  x = 1\n", None),
    ("blank_line_ends_build_block", "rule r\n  command = echo $x > $out\nbuild a: r\n\n  x = 1\n", None),
    ("hash_in_value_and_command", "x = a # b\nrule r\n  command = echo '$x' > $out # c\nbuild a: r\n", None),
    ("hash_on_build_line_is_path", "rule r\n  command = echo $in > $out\nbuild a: r # b\n",
     [("-t", "query", "a"), ("-j1",)]),
    ("crlf_file", b"# c\r\nx = 1\r\nrule r\r\n  command = echo $x $y > $out\r\n  description = D $out\r\n"
                  b"build a: r $\r\n    b\r\n  y = 2\r\nbuild b: phony\r\n\r\ndefault a\r\n", None),
    ("lone_cr_in_value", b"x = a\rb\n", None),
    ("lone_cr_line_end", b"x = 1\rrule r\n  command = x\n", None),
    ("lone_cr_at_eof_crlf", b"rule r\r\n  command = echo $x > $out\r\nbuild a: r\r\n  x = 1\r", None),
    ("cr_in_comment", b"# c\rd\n", None),
    ("nul_byte_in_value", b"x = a\x00b\nrule r\n  command = x\n", None),
    ("nul_byte_in_comment", b"# a\x00b\nx = 1\n", None),
    ("eof_after_variable", "x = 3", None),
    ("eof_after_comment", "x = 1\n# c", None),
    ("eof_after_build", ECHO + "build a: r", None),
    ("eof_after_rule_name", "rule r", None),
    ("eof_after_identifier", "x", None),
    ("eof_after_default", ECHO + "build a: r\ndefault a", None),
    ("eof_trailing_spaces", "x = 1\n   ", None),
    ("eof_continuation", "x = 1 $\n", None),
    ("eof_dollar", "x = ab$", None),
    ("tab_indent", "\tx = 1\n", None),
    ("tab_in_rule_block", "rule r\n\tcommand = x\n", None),
    ("tab_in_value", "x = a\tb\nrule r\n  command = echo \"[$x]\" > $out\nbuild a: r\n", None),
    ("tab_after_build_keyword", ECHO + "build\ta: r\n", NO_BUILD),
    ("tab_after_name", "x\t= 1\n", None),
    ("unexpected_indent", "x = 1\n  y = 2\n", None),
    ("any_indent_width", "rule r\n  command = echo $x $y > $out\nbuild a: r\n x = 1\n        y = 2\n", None),
    ("keywords_as_names", "rule build\n  command = echo $out > $out\nbuild rule: build\nbuild pool: build\n"
                          "build default: build rule pool\nbuild include subninja: build\n", None),
    ("keyword_prefix_identifier", "buildx = 1\nrulex = 2\nrule r\n  command = echo $buildx $rulex > $out\nbuild a: r\n", None),
    ("keyword_pool_as_variable", "pool = x\n", None),
    ("keyword_default_as_variable", "default = x\n", None),
    ("keyword_include_as_variable", "include = x\n", None),
    # --- escapes ----------------------------------------------------------------------------------
    ("escapes", 'a = x\na.b = dotted\nrule r\n  command = printf "%s|" "$$HOME" "a$ b" "c$:d" "$a.b" "${a}.b" "${a.b}" > $out\n'
                "build o: r\n", None),
    ("dash_underscore_names", "b-x = dash\nb = B\n_x = U\n- = D\nrule r\n  command = echo $b-x $b.x ${b}-x $_x ${-} > $out\n"
                              "build o: r\n", None),
    ("continuations", "x = one $\n     two $\n  three\nrule r\n  command = echo \"$x\" $\n    > $out\nbuild $\n    o: $\n    r\n", None),
    ("continuation_swallows_comment", "x = a$\n# c\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", None),
    ("continuation_in_name", "x$\n = 1\nrule r\n  command = echo $x > $out\nbuild a: r\n", None),
    ("continuation_in_path", ECHO + "build a$\n  b: r\n", None),
    ("escaped_trailing_space_path", ECHO + "build a$ : r\n", None),
    ("bad_escape_percent", "x = $%\n", None),
    ("bad_escape_brace", "x = ${a\n", None),
    ("bad_escape_empty_brace", "x = ${}\n", None),
    ("bad_escape_caret", "x = a$^b\n", None),
    ("bad_escape_tab", "x = a$\tb\n", None),
    ("bad_escape_in_name", "x$ y = 1\n", None),
    ("dollar_at_line_start", "$x = 1\n", None),
    ("value_whitespace", "x =   1   \ny =\t2\nz = $  3\nrule r\n  command = echo '[$x][$y][$z]' > $out\nbuild a: r\n", None),
    # --- variables and scoping ------------------------------------------------------------------
    ("shadowing_immediate", "x = 1\nx = $x$x\nx = ${x}3\ny = $later\nlater = L\nrule r\n  command = echo $x [$y] > $out\n"
                            "build o: r\n", None),
    ("edge_binding_file_scope", "a = file\nrule r\n  command = echo [$b] [$c] [$d] > $out\nbuild o: r i\n"
                                "  b = $a\n  c = <$out|$in>\n  d = ${b}x\nbuild i: phony\na = changed\n", None),
    ("edge_binding_rebinding", "rule r\n  command = echo $x > $out\nbuild a: r\n  x = 1\n  x = ${x}2\n", None),
    ("rule_binding_lazy", "rule r\n  command = echo $description > $out\n  description = -O $extra $in\nextra = E1\n"
                          "build o: r i1 i2\n  extra = E2\nbuild i1 i2: phony\nbuild p: r\n", None),
    ("file_scope_shadows_rule_binding", "description = fromfile\nrule r\n  command = echo $description > $out\n"
                                        "  description = fromrule\nbuild a: r\nbuild b: r\n  x = 1\n", None),
    ("file_scope_shadow_defined_later", "rule r\n  command = echo $description > $out\n  description = fromrule\n"
                                        "build a: r\ndescription = later\n", None),
    ("edge_overrides_command", "rule r\n  command = echo $in > $out\nbuild o: r\n  command = echo override > $out\n",
     [("-t", "commands"), ("-n", "-j1")]),
    ("in_out_not_overridable", "in = fileval\nout = fileout\nrule r\n  command = echo $in > $out\nbuild o: r a\n"
                               "  in = override\nbuild a: phony\n", None),
    ("special_bindings_from_file_scope", "generator = 1\nrestat = 1\ndescription = DESC $out\n"
                                         "rule r\n  command = echo $generator $restat > $out\nbuild a: r\n", None),
    ("cycle_rule_vars_two", "rule r\n  command = $description\n  description = $command\nbuild o: r\n", None),
    ("cycle_rule_vars_self", "rule r\n  command = echo $command\nbuild o: r\n", None),
    ("cycle_rule_vars_three", "rule r\n  command = echo $depfile\n  depfile = $description\n  description = $depfile\n"
                              "build o: r\n", None),
    ("description_is_command", "rule r\n  command = touch $out\n  description = $command\nbuild o: r\n", None),
    # --- rules and pools -------------------------------------------------------------------------
    ("rule_all_bindings", "pool p\n  depth = 2\nrule r\n  command = echo $description > $out\n  depfile = $out.d\n"
                          "  dyndep =\n  description = DESC $out\n  deps = gcc\n  generator = 1\n  pool = p\n"
                          "  restat = 1\n  rspfile = $out.rsp\n  rspfile_content = $in\n  msvc_deps_prefix = Note:\n"
                          "build o: r i\nbuild i: phony\n", None),
    ("rule_unknown_variable", "rule r\n  command = x\n  foo = bar\n", None),
    ("rule_missing_command", "rule r\n  description = x\n", None),
    ("rule_rspfile_alone", "rule r\n  command = x\n  rspfile = y\n", None),
    ("rule_rspfile_content_alone", "rule r\n  command = x\n  rspfile_content = y\n", None),
    ("rspfile_in_newline", "rule r\n  command = cat $rspfile > $out\n  rspfile = $out.rsp\n  rspfile_content = $in_newline\n"
                           "build o: r a b$ c\nbuild a b$ c: phony\n", None),
    ("rule_duplicate", "rule r\n  command = x\nrule r\n  command = y\n", None),
    ("rule_phony_redefined", "rule phony\n  command = x\n", None),
    ("rule_duplicate_command_binding", "rule r\n  command = echo 1 > $out\n  command = echo 2 > $out\nbuild a: r\n", None),
    ("rule_name_missing", "rule\n", None),
    ("rule_name_extra", "rule r r\n", None),
    ("rule_name_keyword_after", "rule r default\n", None),
    ("rule_binding_no_equals", "rule r\n  command\n", None),
    ("rule_binding_no_name", "rule r\n  = x\n", None),
    ("rule_used_before_defined", "build a: r\nrule r\n  command = x\n", None),
    ("pool_negative", "pool p\n  depth = -1\n", None),
    ("pool_garbage_depth", "pool p\n  depth = 3x\nrule r\n  command = echo > $out\n  pool = p\nbuild a: r\n", None),
    ("pool_empty_depth", "pool p\n  depth =\nrule r\n  command = echo > $out\n  pool = p\nbuild a: r\n", None),
    ("pool_missing_depth", "pool p\n", None),
    ("pool_unknown_var", "pool p\n  foo = 1\n", None),
    ("pool_no_name", "pool\n", None),
    ("pool_duplicate", "pool p\n  depth = 1\npool p\n  depth = 2\n", None),
    ("pool_console_duplicate", "pool console\n  depth = 1\n", None),
    ("pool_unknown_in_rule", "rule r\n  command = echo > $out\n  pool = nope\nbuild a: r\n", None),
    ("pool_unknown_on_edge", "rule r\n  command = echo > $out\nbuild a: r\n  pool = nope\n", None),
    ("pool_empty_opt_out", "rule r\n  command = echo > $out\n  pool = nope\nbuild a: r\n  pool =\n", None),
    ("pool_console", "rule r\n  command = echo $out > $out\n  pool = console\nbuild a: r\n", None),
    ("pool_var_evaluated_in_file_scope", "pool p\n  depth = 1\nrule r\n  command = echo $out > $out\n"
                                         "build a: r\n  pool = ${pp}\n  pp = p\n", None),
    ("deps_unknown_type", "rule r\n  command = echo > $out\n  deps = foo\nbuild a: r\n", [("-t", "commands")]),
    # --- build statements ------------------------------------------------------------------------
    ("all_input_kinds", ECHO_IN + TOUCH + "build o1 o2 | io1 io2: r e1 e2 | i1 i2 || oo1 oo2 |@ v1 v2\n"
                        "build e1 e2 i1 i2 oo1 oo2: t\nbuild v1 v2: t\n",
     [("-t", "commands", "o1"), ("-t", "query", "o1"), ("-t", "inputs", "o1"), ("-j1", "o1"), ("-j1", "o1")]),
    ("zero_explicit_outputs", "rule r\n  command = echo [$in] [$out] > log\nbuild | io1: r a\nbuild a: phony\n", None),
    ("empty_pipe_sections", ECHO + "build a: r b |\nbuild c: r b ||\nbuild d: r b |@\nbuild e f | : r\nbuild b: phony\n", None),
    ("pipe_repeated_before_colon", ECHO + "build a | | b: r\n", None),
    ("pipe_repeated_after_rule", ECHO + "build a: r | | b\n", None),
    ("validation_pipe_repeated", ECHO + "build a: r |@ |@ b\n", None),
    ("colon_spacing", ECHO + "build a:r\nbuild b :r\nbuild  c  :  r  \n", None),
    ("expected_path", ECHO + "build: r\n", None),
    ("expected_path_bare", ECHO + "build\n", None),
    ("expected_colon", ECHO + "build a\n", None),
    ("escaped_colon_output", ECHO + "build a$: r\n", None),
    ("escaped_colon_input", "rule r\n  command = echo $in > $out\nbuild a: r b$:c\nbuild b$:c: phony\n", None),
    ("expected_build_command_name", ECHO + "build a:\n", None),
    ("rule_name_from_variable", "n = r\n" + ECHO + "build a: $n\n", None),
    ("unknown_build_rule", ECHO + "build a: nope\n", None),
    ("expected_newline_got_colon", ECHO + "build a: r b:\n", None),
    ("edge_block_bad_name", ECHO + "build a: r b\n  :x = 1\n", None),
    ("edge_block_no_equals", ECHO + "build a: r\n  x y\n", None),
    ("empty_path_output", "e =\n" + ECHO + "build $e: r\n", None),
    ("empty_path_input", "e =\n" + ECHO + "build a: r $e\n", None),
    ("empty_path_order_only", "e =\n" + ECHO + "build a: r || $e\n", None),
    ("empty_path_default", "e =\n" + ECHO + "build a: r\ndefault $e\n", None),
    ("empty_path_from_out_in_input", "rule r\n  command = echo $in > $out\nbuild o: r $out\n", None),
    ("variable_path_with_space_and_pipe", "v = a b\nw = c|d\nrule r\n  command = echo $in > $out\nbuild out: r $v $w\n"
                                          "build $v $w: phony\n", None),
    ("dyndep_not_input_rule", "rule r\n  command = echo x > $out\n  dyndep = dd\nbuild a: r\n", None),
    ("dyndep_not_input_edge", "rule r\n  command = echo x > $out\nbuild a: r |@ dd\n  dyndep = dd\n", None),
    ("dyndep_canonical_missing_file", "rule r\n  command = echo x > $out\nbuild a: r | ./dd\n  dyndep = x/../dd\n", None),
    ("missing_input", "rule r\n  command = echo $in > $out\nbuild a: r b\nbuild c: r a\n", None),
    ("output_dir_with_space", ECHO + "build out$ dir/f: r\n", None),
    ("implicit_output_target", "rule t\n  command = touch $out imp\nbuild o | imp: t\n", [("-j1", "imp"), ("-j1", "imp")]),
    ("validation_build", TOUCH + "build a: t |@ v\nbuild v: t\n", [("-j1", "a"), ("-j1", "a")]),
    # --- quoting ---------------------------------------------------------------------------------
    ("quoting_in", "rule r\n  command = printf '%s\\n' $in > $out\nbuild out: r a$ b c\"d e'f g$$h i&j k(l) m+n-o_p/q.r"
                   " s,t u=v w@x y~z ab*c x$:y p%q A\\B c!d h#i e;f\n"
                   "build a$ b c\"d e'f g$$h i&j k(l) m+n-o_p/q.r s,t u=v w@x y~z ab*c x$:y p%q A\\B c!d h#i e;f: phony\n",
     None),
    ("quoting_out", ECHO + "build x$ y 'q: r\n", None),
    ("quoting_in_newline", "rule r\n  command = printf '[%s]\\n' $in_newline > $out\nbuild out: r a b$ c d\n"
                           "build a b$ c d: phony\n", [("-t", "commands"), ("-j1",)]),
    ("quoting_utf8", "rule r\n  command = echo $in > $out\nbuild \u00e9t\u00e9: r caf\u00e9\nbuild caf\u00e9: phony\n".encode("utf-8"),
     None),
    # --- paths -----------------------------------------------------------------------------------
    ("canonical_outputs", ECHO + "build ./a: r\nbuild b//c: r\nbuild d/../e: r\nbuild f/: r\nbuild ./g/./h/../i: r\n",
     [("-t", "commands"), ("-t", "targets", "all"), ("-j1", "a", "./e", "b//c", "f/", "g/h/../i", "b///c"), ("-j1",)]),
    ("canonical_dotdot", ECHO + "build ../x: r\nbuild a/../../b/./c: r\nbuild j/..: r\n", NO_BUILD),
    ("canonical_absolute", ECHO + "build /tmp/../abs//x: r\n", [("-t", "targets", "all")]),
    ("canonical_inputs", "rule r\n  command = printf '%s\\n' $in > $out\nbuild out: r ./a b//c d/../e f/\n"
                         "build a b/c e f: phony\n", None),
    ("dup_output_canonical", ECHO + "build ./a: r\nbuild a: r\n", None),
    ("dup_output_after_bindings", ECHO + "build a: r\nbuild a: r\n  x = 1\n\n\nbuild c: r\n", None),
    ("dup_output_after_comments", ECHO + "build a: r\n# comment\n\nbuild a: r\n# comment\n\n", None),
    ("dup_output_implicit", ECHO + "build a b: r\nbuild c | b: r\n", None),
    ("dup_output_phony", "build a: phony\nbuild a: phony\n", None),
    ("dup_output_dupbuild_flag", ECHO + "build a: r\nbuild a: r\n", [("-w", "dupbuild=warn"), ("-w", "dupbuild=err")]),
    ("output_twice_same_edge", ECHO + "build a a: r\n", None),
    ("output_twice_explicit_implicit", ECHO + "build a | ./a: r\n", None),
    # --- defaults and roots ----------------------------------------------------------------------
    ("default_cumulative", ECHO + "build a: r\nbuild b: r\nbuild c: r\ndefault a\ndefault c a\n", None),
    ("default_unknown", ECHO + "build a: r\ndefault nope\n", None),
    ("default_before_build", ECHO + "default a\nbuild a: r\n", None),
    ("default_empty", ECHO + "build a: r\ndefault\n", None),
    ("default_colon", ECHO + "build a: r\ndefault a:\n", None),
    ("default_pipe", ECHO + "build a: r\ndefault a | b\n", None),
    ("default_variable_canonical", ECHO + "build a: r\nbuild b: r\nd = a\ndefault $d ./b/../a\n", None),
    ("default_escaped_space", ECHO + "build a: r\ndefault a$ b\n", None),
    ("roots", ECHO + "build a: r\nbuild b: r a\nbuild c: r a\nbuild d: r\n",
     [("-t", "targets"), ("-t", "commands"), ("-j1",), ("-j1",)]),
    ("roots_order_only_validation", ECHO + "build a: r\nbuild b: r a\nbuild c: r | a\nbuild d: r || c\nbuild e: r |@ d\n",
     [("-t", "targets"), ("-t", "commands"), ("-j1",), ("-j1",)]),
    ("no_roots", ECHO + "build a: r b\nbuild b: r a\n", None),
    # --- cycles ----------------------------------------------------------------------------------
    ("cycle_two", ECHO + "build a: r b\nbuild b: r a\nbuild top: r a\n", [("top",), ("b",), ("-t", "commands", "a")]),
    ("cycle_three", ECHO + "build a: r b\nbuild b: r c\nbuild c: r a\nbuild top: r a\n", [("top",), ("c",)]),
    ("cycle_self_implicit_order_only", ECHO + "build a: r | a\nbuild b: r || b\nbuild c d: r d\n", [("a",), ("b",), ("c",)]),
    ("phonycycle_default", "build a: phony a\n", [(), ("a",), ("-t", "query", "a"), ("-t", "targets", "all")]),
    ("phonycycle_err", "build a: phony a\n", [("-w", "phonycycle=err", "a"), ("-w", "phonycycle=warn", "a")]),
    ("phonycycle_with_other_inputs", TOUCH + "build x: t\nbuild a: phony b a x || c\nbuild b c: phony\n",
     [("-j1", "a"), ("-w", "phonycycle=err", "a")]),
    ("phonycycle_implicit_not_special", "build a: phony | a\nbuild b c: phony b\n", [("a",), ("b",)]),
    ("phonycycle_consumer", "rule r\n  command = echo $in > $out\nbuild a: phony a\nbuild b: r a\n",
     [("-j1", "b"), ("-t", "query", "a")]),
    # --- CLI targets -----------------------------------------------------------------------------
    ("caret_targets", ECHO + "build foo.o: r foo.c\nbuild bar.o: r foo.c\nbuild foo.c: r\nbuild app: r foo.o bar.o\n",
     [("-n", "foo.c^"), ("-n", "./foo.c^"), ("-n", "app^"), ("-n", "nothere^"), ("-n", "foo.c^^"),
      ("-t", "commands", "foo.c^"), ("-t", "query", "foo.c^"), ("-j1", "foo.c^")]),
    ("caret_literal_target", ECHO + "build a^: r\nbuild b: r a^\n", [("a^",), ("-j1", "b")]),
    ("unknown_target_suggestions", ECHO + "build foo.o: r\nbuild app: r foo.o\nbuild abcdefgh: r\n",
     [("fooo.o",), ("ap",), ("abcdexxx",), ("abcdxxxx",), ("ABCDEFGH",), ("clean",), ("help",), ("abcdefghijk",)]),
    ("target_named_clean", ECHO + "build clean: r\nbuild help: r\n", [("-j1", "clean"), ("-j1", "help")]),
    # --- include / subninja ----------------------------------------------------------------------
    ("include_same_scope", {"build.ninja": "x = top\ninclude inc.ninja\nbuild a: r\nbuild b: r2\n",
                            "inc.ninja": "x = inc\nrule r2\n  command = echo r2 $x > $out\nrule r\n  command = echo $x > $out\n"},
     None),
    ("include_duplicate_rule", {"build.ninja": ECHO + "include inc.ninja\n", "inc.ninja": "rule r\n  command = y\n"}, None),
    ("subninja_child_scope", {"build.ninja": "x = top\nrule r\n  command = echo $x > $out\nsubninja sub.ninja\nbuild a: r\n",
                              "sub.ninja": "x = sub\nbuild s: r\nrule r2\n  command = echo r2 > $out\nbuild s2: r2\n"}, None),
    ("subninja_rule_leak", {"build.ninja": ECHO + "subninja sub.ninja\nbuild a: r2\n",
                            "sub.ninja": "rule r2\n  command = echo r2 > $out\n"}, None),
    ("subninja_shadows_rule", {"build.ninja": "x = top\nrule r\n  command = echo $x > $out\nsubninja sub.ninja\nbuild a: r\n",
                               "sub.ninja": "rule r\n  command = echo sub $x > $out\nbuild s: r\n"}, None),
    ("subninja_shadows_phony", {"build.ninja": "subninja s.ninja\n",
                                "s.ninja": "rule phony\n  command = echo hi > $out\nbuild a: phony\n"}, None),
    ("subninja_variable_leak", {"build.ninja": "rule r\n  command = echo [$x] [$y] > $out\nsubninja sub.ninja\n"
                                               "build a: r\n  x = $z\n",
                                "sub.ninja": "z = subz\nbuild s: r\n  x = $z\n"}, None),
    ("subninja_parent_later_vars", {"build.ninja": "rule r\n  command = echo [$x] [$y] > $out\nx = top\nsubninja sub.ninja\n"
                                                   "build a: r\ny = late\n",
                                    "sub.ninja": "y = sub\nbuild s: r\nz = subz\n"}, None),
    ("subninja_nested_scopes", {"build.ninja": "rule r\n  command = echo [$x] > $out\nx = top\nsubninja sub.ninja\n",
                                "sub.ninja": "subninja sub2.ninja\nx = mid\n", "sub2.ninja": "build deep: r\n"}, None),
    ("subninja_rule_binding_vs_scopes", {"build.ninja": "description = fromparent\nrule r\n  command = echo $description > $out\n"
                                                        "  description = fromrule\nsubninja sub.ninja\nsubninja sub2.ninja\n",
                                         "sub.ninja": "build a: r\n",
                                         "sub2.ninja": "description = fromsub\nbuild b: r\nbuild c: r\n  x = 1\n"}, None),
    ("subninja_default_global", {"build.ninja": ECHO + "subninja sub.ninja\nbuild a: r\n", "sub.ninja": "build s: r\ndefault s\n"},
     None),
    ("include_relative_to_cwd", {"build.ninja": "rule r\n  command = echo $x > $out\ninclude sub/inc.ninja\nsubninja sub/s.ninja\n",
                                 "sub/inc.ninja": "include other.ninja\n", "sub/s.ninja": "subninja other2.ninja\n",
                                 "other.ninja": "x = top-other\nbuild a: r\n", "sub/other.ninja": "x = sub-other\nbuild a: r\n",
                                 "other2.ninja": "build b: r\n  x = top2\n", "sub/other2.ninja": "build b: r\n  x = sub2\n"},
     None),
    ("include_with_f_and_C", {"dir/build.ninja": "include inc.ninja\n",
                              "dir/inc.ninja": "rule r\n  command = echo $x > $out\nbuild a: r\n  x = 1\n"},
     [("-f", "dir/build.ninja"), ("-C", "dir", "-t", "commands"), ("-C", "dir", "-j1"), ("-C", "dir", "-j1")]),
    ("include_variable_path", {"build.ninja": "d = sub\ninclude $d/inc.ninja\ninclude a$ b.ninja\n",
                               "sub/inc.ninja": "rule r\n  command = echo $x > $out\nbuild a: r\n  x = inc\n",
                               "a b.ninja": "build c: r\n"}, None),
    ("include_missing", "rule r\n  command = x\n\ninclude missing.ninja\n", None),
    ("subninja_missing", "\nsubninja missing.ninja\n", None),
    ("include_missing_nested", {"build.ninja": "include inc.ninja\n", "inc.ninja": "\n\ninclude deeper.ninja\n"}, None),
    ("include_no_path", "include\n", None),
    ("include_extra_token", {"build.ninja": "include a b\n", "a": ECHO}, None),
    ("include_colon", "include a:b\n", None),
    ("include_eof", {"build.ninja": "include a", "a": ECHO}, None),
    ("include_error_inside", {"build.ninja": "include a\n", "a": ECHO + "build o: r"}, None),
    ("include_with_indent", {"build.ninja": "include a\n  x = 1\n", "a": ECHO}, None),
    ("include_recursive", {"build.ninja": ECHO + "include inc.ninja\n", "inc.ninja": "include build.ninja\n"}, None),
    ("include_dup_output", {"build.ninja": ECHO + "build a: r\ninclude s.ninja\n", "s.ninja": "\nbuild a: r\n  x = 1\n"}, None),
    ("subninja_twice", {"build.ninja": ECHO + "subninja s.ninja\nsubninja s.ninja\n",
                        "s.ninja": "rule q\n  command = echo q > $out\n"}, None),
    # --- ninja_required_version ------------------------------------------------------------------
    ("version_ok", "ninja_required_version = 1.13\n" + ECHO + "build o: r\n", None),
    ("version_ok_patch", "ninja_required_version = 1.13.99\n" + ECHO + "build o: r\n", None),
    # (1.14 is accepted: ronin reads its manifest language; test_diff_next compares it with 1.14.)
    ("version_minor_newer", "ninja_required_version = 1.15\n" + ECHO + "build o: r\n", None),
    ("version_major_newer", "ninja_required_version = 2\n" + ECHO + "build o: r\n", None),
    ("version_major_older", "ninja_required_version = 0.9\n" + ECHO + "build o: r\n", None),
    ("version_garbage", "ninja_required_version = abc\n" + ECHO + "build o: r\n", None),
    ("version_empty", "ninja_required_version =\n" + ECHO + "build o: r\n", None),
    ("version_leading_zeros", "ninja_required_version = 01.013.7\n" + ECHO + "build o: r\n", None),
    ("version_before_syntax_error", "v = 1.20\nninja_required_version = $v\nbad line here\n", None),
    ("version_in_subninja", {"build.ninja": "subninja s.ninja\n" + ECHO + "build o: r\n",
                             "s.ninja": "ninja_required_version = 0.1\n"}, None),
    ("version_as_edge_binding", "rule r\n  command = echo $ninja_required_version > $out\nbuild o: r\n"
                                "  ninja_required_version = 5.0\n", None),
    # --- error format ----------------------------------------------------------------------------
    ("error_basic", "x 3\n", None),
    ("error_got_keyword", "x build\n", None),
    ("error_column_zero", "= x\n", None),
    ("error_pipe_at_start", "|\n", None),
    ("error_long_line", LONG, None),
    ("error_72_columns", "x" * 67 + " = $%\n", None),
    ("error_71_columns", "x" * 66 + " = $%\n", None),
    ("error_column_71", "x" * 68 + " = $%" + "b" * 30 + "\n", None),
    ("error_column_past_72", "x = " + "a" * 80 + " $%\n", None),
    ("error_in_included_subdir_file", {"build.ninja": "include sub/inc.ninja\n", "sub/inc.ninja": "\nbad\n"}, None),
    ("error_missing_manifest", {"other.ninja": ECHO + "build a: r\n"}, [(), ("-f", "nope.ninja"), ("-f", "other.ninja", "-j1")]),
    ("error_indented_variable_at_eof", ECHO + "build a: r\n  ", None),
]


def _snapshot(root, ignore=(".ninja_log", ".ninja_deps")):
    """{relative path: bytes} of every regular file under root, minus the logs."""
    found = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if name in ignore or is_ronin_private(name):
                continue
            with open(full, "rb") as f:
                found[rel] = f.read()
    return found


class TestDiffManifest(DifferentialTestCase):
    """One generated test per corpus entry (see CASES)."""

    def run_case(self, files, runs):
        if not isinstance(files, dict):
            files = {"build.ninja": files}
        self.write_files(files)
        for args in (runs if runs is not None else DEFAULT_RUNS):
            self.assertSameRun(*args)
        self.assertEqual(_snapshot(self.ref_dir), _snapshot(self.ours_dir), "file contents differ")


def _make_test(files, runs):
    def test(self):
        self.run_case(files, runs)
    return test


_seen = set()
for _name, _files, _runs in CASES:
    assert _name not in _seen, "duplicate case name " + _name
    _seen.add(_name)
    setattr(TestDiffManifest, "test_" + _name, _make_test(_files, _runs))


class TestCorpusSize(unittest.TestCase):
    def test_corpus_is_large_enough(self):
        self.assertGreaterEqual(len(CASES), 60)


if __name__ == "__main__":
    unittest.main(verbosity=2)
