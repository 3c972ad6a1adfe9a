"""Black-box tests for the build-manifest language (lexer, parser, scoping, graph building).

Every expected output below was recorded from reference ninja 1.13.2 and is asserted byte-exact.
Run against the reference itself to validate:

  NINJA=$(/work/shared/tools/reference-ninja.sh) python3 -m unittest -v test_manifest
"""

import os
import unittest

from harness import NinjaTestCase

# A rule whose command records exactly what ran: writes its own $out into $out.
ECHO = "rule r\n  command = echo $out > $out\n"


class ManifestCase(NinjaTestCase):
    """Helpers shared by all manifest tests."""

    def ninja(self, *args, **kwargs):
        # -j1 keeps the order of status lines deterministic when several edges run.
        return super().ninja("-j1", *args, **kwargs)

    def go(self, manifest, *args, files=None):
        """Writes build.ninja (str or bytes) plus extra files, runs ninja with args."""
        self.write("build.ninja", manifest)
        for rel, text in (files or {}).items():
            self.write(rel, text)
        return self.ninja(*args)

    def assertRun(self, res, rc, stdout, stderr=""):
        self.assertEqual((res.returncode, res.stdout, res.stderr), (rc, stdout, stderr), res)

    def assertError(self, manifest, stderr, *args, files=None):
        """A manifest that must fail to load: exit 1, nothing on stdout, exact stderr."""
        res = self.go(manifest, *args, files=files)
        self.assertRun(res, 1, "", stderr)

    def assertCommands(self, manifest, expected, *targets, files=None, stderr=""):
        """`-t commands [targets]` must succeed and print exactly `expected`."""
        res = self.go(manifest, "-t", "commands", *targets, files=files)
        self.assertRun(res, 0, expected, stderr)


# ---------------------------------------------------------------------------------------------
# Lexical syntax
# ---------------------------------------------------------------------------------------------
class TestLexer(ManifestCase):

    def test_empty_manifest_is_valid(self):
        self.assertRun(self.go(""), 0, "ninja: no work to do.\n")

    def test_blank_lines_and_comments_only(self):
        self.assertRun(self.go("\n\n# a comment\n   # indented comment\n\n"), 0, "ninja: no work to do.\n")

    def test_comment_then_build(self):
        res = self.go("# leading comment\n" + ECHO + "# between\nbuild a: r\n# trailing\n")
        self.assertRun(res, 0, "[1/1] echo a > a\n")
        self.assertEqual(self.read("a"), "a\n")

    def test_hash_inside_value_is_literal(self):
        self.assertCommands("x = foo # not a comment\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n",
                            "echo '[foo # not a comment]' > a\n")

    def test_hash_in_command_is_passed_to_shell(self):
        self.assertCommands("rule r\n  command = echo hi > $out # trailing\nbuild a: r\n",
                            "echo hi > a # trailing\n")

    def test_hash_on_build_line_is_a_path(self):
        res = self.go("rule r\n  command = echo $in > $out\nbuild a: r # b\n", "-t", "query", "a")
        self.assertRun(res, 0, "a:\n  input: r\n    #\n    b\n  outputs:\n")
        res = self.ninja()
        self.assertRun(res, 1, "", "ninja: error: '#', needed by 'a', missing and no known rule to make it\n")

    def test_comment_does_not_end_rule_block(self):
        # A comment line (even at column 0) inside a rule block keeps the block open.
        self.assertCommands("rule r\n  command = echo $description > $out\n# c\n  description = d\nbuild a: r\n",
                            "echo d > a\n")

    def test_comment_does_not_end_build_block(self):
        self.assertCommands("rule r\n  command = echo $x > $out\nbuild a: r\n# c\n  x = 1\n", "echo 1 > a\n")

    def test_blank_line_ends_build_block(self):
        self.assertError("rule r\n  command = echo $x > $out\nbuild a: r\n\n  x = 1\n",
                         "ninja: error: build.ninja:5: unexpected indent\n\n")

    def test_whitespace_only_line_ends_rule_block(self):
        self.assertError("rule r\n  command = x\n  \n  description = d\nbuild a: r\n",
                         "ninja: error: build.ninja:4: unexpected indent\n\n")

    def test_comment_inside_rule_block_then_unknown_variable(self):
        self.assertError(ECHO + "#c\n  x = 1\n",
                         "ninja: error: build.ninja:4: unexpected variable 'x'\n  x = 1\n       ^ near here\n")

    def test_variable_simple(self):
        self.assertCommands("x = 1\nrule r\n  command = echo $x > $out\nbuild a: r\n", "echo 1 > a\n")

    def test_value_leading_spaces_stripped_trailing_kept(self):
        self.assertCommands("x =   1   \nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[1   ]' > a\n")

    def test_value_leading_tab_kept(self):
        self.assertCommands("x =\t1\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[\t1]' > a\n")

    def test_value_with_equals_sign(self):
        self.assertCommands("x == y\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[= y]' > a\n")

    def test_escape_dollar_space_colon(self):
        self.assertCommands("x = $ $$ $:\nrule r\n  command = echo '[$x]' > $out\nbuild o: r\n", "echo '[ $ :]' > o\n")

    def test_escaped_leading_space_in_value(self):
        self.assertCommands("x = $  1\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[  1]' > a\n")

    def test_escapes_in_command(self):
        self.assertCommands(
            'a = x\nrule r\n  command = printf "%s|" "$$HOME" "a$ b" "c$:d" "$a.b" "${a}.b" > $out\nbuild o: r\n',
            'printf "%s|" "$HOME" "a b" "c:d" "x.b" "x.b" > o\n')

    def test_dollar_dollar_reaches_shell(self):
        res = self.go("rule r\n  command = v=ok; echo $$v > $out\nbuild o: r\n")
        self.assertRun(res, 0, "[1/1] v=ok; echo $v > o\n")
        self.assertEqual(self.read("o"), "ok\n")

    def test_braced_name_allows_dots(self):
        self.assertCommands("a.b = dotted\na = x\nrule r\n  command = echo ${a.b} $a.b > $out\nbuild o: r\n",
                            "echo dotted x.b > o\n")

    def test_dash_and_underscore_in_simple_names(self):
        self.assertCommands("b-x = dash\nb = B\n_x = U\nrule r\n  command = echo $b-x $b.x ${b}-x $_x > $out\nbuild o: r\n",
                            "echo dash B.x B-x U > o\n")

    def test_adjacent_references(self):
        self.assertCommands("a = A\nb = B\nrule r\n  command = echo $a$b ${a}${b} > $out\nbuild o: r\n",
                            "echo AB AB > o\n")

    def test_line_continuation_drops_leading_spaces(self):
        self.assertCommands("x = one $\n     two $\n  three\nrule r\n  command = echo \"$x\" > $out\nbuild o: r\n",
                            'echo "one two three" > o\n')

    def test_line_continuation_without_space_joins(self):
        self.assertCommands("x = a$\n$\n  b\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[ab]' > a\n")

    def test_line_continuation_in_build_line(self):
        self.assertCommands("rule r\n  command = echo $\n    hi > $out\nbuild $\n    o: $\n    r\n", "echo hi > o\n")

    def test_line_continuation_swallows_comment_line(self):
        self.assertCommands("x = a$\n# c\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[a# c]' > a\n")

    def test_continuation_then_blank_line_ends_value(self):
        self.assertCommands("x = a$\n\nrule r\n  command = echo '[$x]' > $out\nbuild a: r\n", "echo '[a]' > a\n")

    def test_continuation_in_variable_name_position(self):
        self.assertCommands("x$\n = 1\nrule r\n  command = echo $x > $out\nbuild a: r\n", "echo 1 > a\n")

    def test_bad_escape(self):
        self.assertError("x = $%\n",
                         "ninja: error: build.ninja:1: bad $-escape (literal $ must be written as $$)\n"
                         "x = $%\n    ^ near here\n")

    def test_bad_escape_unterminated_brace(self):
        self.assertError("x = ${a\n",
                         "ninja: error: build.ninja:1: bad $-escape (literal $ must be written as $$)\n"
                         "x = ${a\n    ^ near here\n")

    def test_bad_escape_dot_after_dollar(self):
        self.assertError("x = $.x\n",
                         "ninja: error: build.ninja:1: bad $-escape (literal $ must be written as $$)\n"
                         "x = $.x\n    ^ near here\n")

    def test_bad_escape_dollar_tab(self):
        self.assertError("x = a$\tb\n",
                         "ninja: error: build.ninja:1: bad $-escape (literal $ must be written as $$)\n"
                         "x = a$\tb\n     ^ near here\n")

    def test_caret_escape_is_not_supported_in_1_13(self):
        self.assertError("x = a$^b\n",
                         "ninja: error: build.ninja:1: bad $-escape (literal $ must be written as $$)\n"
                         "x = a$^b\n     ^ near here\n")

    def test_dollar_at_eof(self):
        self.assertError("x = ab$",
                         "ninja: error: build.ninja:1: bad $-escape (literal $ must be written as $$)\n"
                         "x = ab$\n      ^ near here\n")

    def test_continuation_at_eof(self):
        self.assertError("x = ab$\n", "ninja: error: build.ninja:2: unexpected EOF\n\n")

    def test_crlf_everywhere(self):
        manifest = (b"# comment\r\nx = 1\r\nrule r\r\n  command = echo $x $y > $out\r\n  description = D $out\r\n"
                    b"build a: r $\r\n    b\r\n  y = 2\r\nbuild b: phony\r\n\r\ndefault a\r\n")
        self.assertRun(self.go(manifest, "-t", "commands"), 0, "echo 1 2 > a\n")
        self.assertRun(self.ninja(), 0, "[1/1] D a\n")
        self.assertEqual(self.read("a"), "1 2\n")

    def test_crlf_continuation(self):
        self.assertCommands(b"x = one $\r\n   two\r\nrule r\r\n  command = echo \"$x\" > $out\r\nbuild o: r\r\n",
                            'echo "one two" > o\n')

    def test_lone_cr_in_value(self):
        self.assertError(b"x = a\rb\n",
                         "ninja: error: build.ninja:1: lexing error\nx = a\rb\n     ^ near here\n")

    def test_lone_cr_as_line_end(self):
        self.assertError(b"x = 1\rrule r\n  command = x\n",
                         "ninja: error: build.ninja:1: lexing error\nx = 1\rrule r\n     ^ near here\n")

    def test_lone_cr_at_eof_in_crlf_file(self):
        # The context line is printed up to '\n', so it contains the '\r'.
        self.assertError(b"rule r\r\n  command = echo $x > $out\r\nbuild a: r\r\n  x = 1\r",
                         "ninja: error: build.ninja:4: lexing error\n  x = 1\r\n       ^ near here\n")

    def test_lone_cr_in_path(self):
        self.assertError(b"rule r\r\n  command = x\r\nbuild a\r: r\r\n",
                         "ninja: error: build.ninja:3: lexing error\nbuild a\r: r\r\n       ^ near here\n")

    def test_lone_cr_only_file(self):
        self.assertError(b"\r", "ninja: error: build.ninja:1: lexing error\n\n")

    def test_cr_inside_comment_is_fine(self):
        self.assertRun(self.go(b"# c\rd\n"), 0, "ninja: no work to do.\n")

    def test_nul_byte_ends_input(self):
        # A NUL byte is treated as end of input; the context line stops at it.
        self.assertError(b"x = a\x00b\n", "ninja: error: build.ninja:1: unexpected EOF\nx = a\n     ^ near here\n")

    def test_nul_byte_in_comment(self):
        self.assertError(b"# a\x00b\nx = 1\n", "ninja: error: build.ninja:1: lexing error\n\n")

    def test_continuation_inside_path(self):
        res = self.go(ECHO + "build a$\n  b: r\n", "-t", "targets", "all")
        self.assertRun(res, 0, "ab: r\n")

    def test_escaped_trailing_space_in_path(self):
        self.assertCommands(ECHO + "build a$ : r\n", "echo 'a ' > 'a '\n")

    def test_missing_final_newline_after_variable(self):
        self.assertError("x = 3", "ninja: error: build.ninja:1: unexpected EOF\nx = 3\n     ^ near here\n")

    def test_missing_final_newline_after_build(self):
        self.assertError(ECHO + "build a: r",
                         "ninja: error: build.ninja:3: unexpected EOF\nbuild a: r\n          ^ near here\n")

    def test_missing_final_newline_after_rule_binding(self):
        self.assertError("rule r\n  command = x",
                         "ninja: error: build.ninja:2: unexpected EOF\n  command = x\n             ^ near here\n")

    def test_missing_final_newline_after_rule_name(self):
        self.assertError("rule r", "ninja: error: build.ninja:1: expected newline, got eof\nrule r\n      ^ near here\n")

    def test_missing_final_newline_after_bare_identifier(self):
        self.assertError("x", "ninja: error: build.ninja:1: expected '=', got eof\nx\n ^ near here\n")

    def test_missing_final_newline_after_comment(self):
        self.assertError("# c", "ninja: error: build.ninja:1: lexing error\n\n")

    def test_missing_final_newline_after_comment_line_two(self):
        self.assertError("x = 1\n#", "ninja: error: build.ninja:2: lexing error\n\n")

    def test_trailing_spaces_at_eof(self):
        self.assertError("x = 1\n   ", "ninja: error: build.ninja:2: unexpected indent\n\n")

    def test_tab_indent_top_level(self):
        self.assertError("\tx = 1\n", "ninja: error: build.ninja:1: tabs are not allowed, use spaces\n\n")

    def test_tab_indent_in_rule_ends_rule(self):
        self.assertError("rule r\n\tcommand = x\n", "ninja: error: build.ninja:2: expected 'command =' line\n\n")

    def test_tab_indent_after_binding(self):
        self.assertError("rule r\n  command = x\n\tdescription = y\n",
                         "ninja: error: build.ninja:3: tabs are not allowed, use spaces\n\n")

    def test_tab_after_variable_name(self):
        self.assertError("x\t= 1\n", "ninja: error: build.ninja:1: expected '=', got lexing error\nx\t= 1\n ^ near here\n")

    def test_tab_inside_value_kept(self):
        res = self.go("x = a\tb\nrule r\n  command = echo \"[$x]\" > $out\nbuild a: r\n")
        self.assertRun(res, 0, '[1/1] echo "[a\tb]" > a\n')
        self.assertEqual(self.read("a"), "[a\tb]\n")

    def test_tab_after_build_keyword_becomes_part_of_path(self):
        self.assertCommands(ECHO + "build\ta: r\n", "echo '\ta' > '\ta'\n")

    def test_unexpected_indent_top(self):
        self.assertError("  x = 1\n", "ninja: error: build.ninja:1: unexpected indent\n\n")

    def test_unexpected_indent_after_variable(self):
        self.assertError("x = 1\n  y = 2\n", "ninja: error: build.ninja:2: unexpected indent\n\n")

    def test_any_indent_width_accepted_for_bindings(self):
        self.assertCommands("rule r\n  command = echo $x > $out\nbuild a: r\n x = 1\n      y = 2\n", "echo 1 > a\n")

    def test_keywords_as_names(self):
        self.assertCommands("rule build\n  command = echo $out > $out\nbuild rule: build\nbuild pool: build\n"
                            "build default: build rule pool\nbuild include subninja: build\n",
                            "echo rule > rule\necho pool > pool\necho default > default\n"
                            "echo include subninja > include subninja\n")

    def test_keyword_prefix_is_identifier(self):
        self.assertCommands("buildx = 1\nrule r\n  command = echo $buildx > $out\nbuild a: r\n", "echo 1 > a\n")

    def test_keyword_pool_cannot_be_a_variable(self):
        self.assertError("pool = nope\n", "ninja: error: build.ninja:1: expected pool name\npool = nope\n     ^ near here\n")

    def test_keyword_default_cannot_be_a_variable(self):
        self.assertError("default = 1\n",
                         "ninja: error: build.ninja:1: unknown target '='\ndefault = 1\n         ^ near here\n")

    def test_keyword_build_cannot_be_a_variable(self):
        self.assertError("build = 1\n",
                         "ninja: error: build.ninja:1: expected ':', got newline ($ also escapes ':')\n"
                         "build = 1\n         ^ near here\n")


# ---------------------------------------------------------------------------------------------
# Variables, scoping and evaluation
# ---------------------------------------------------------------------------------------------
class TestVariables(ManifestCase):

    def test_shadowing_and_immediate_expansion(self):
        self.assertCommands("x = 1\nx = $x$x\nx = ${x}3\nrule r\n  command = echo $x > $out\nbuild o: r\n",
                            "echo 113 > o\n")

    def test_undefined_is_empty_and_no_forward_reference(self):
        self.assertCommands("y = $x\nx = 1\nrule r\n  command = echo [$y] [$undefined] > $out\nbuild o: r\n",
                            "echo [] [] > o\n")

    def test_edge_bindings_evaluated_in_file_scope(self):
        # b sees the file's $a at parse time; $out/$in are empty there; d's ${b} is the file's (unset) b.
        self.assertCommands("a = file\nrule r\n  command = echo [$b] [$c] [$d] > $out\nbuild o: r i\n"
                            "  b = $a\n  c = <$out|$in>\n  d = ${b}x\nbuild i: phony\na = changed\n",
                            "echo [file] [<|>] [x] > o\n")

    def test_edge_binding_cannot_see_its_own_earlier_binding(self):
        self.assertCommands("rule r\n  command = echo $x > $out\nbuild a: r\n  x = 1\n  x = ${x}2\n", "echo 2 > a\n")

    def test_edge_binding_overrides_in_rule_binding(self):
        self.assertCommands("rule r\n  command = echo $description > $out\n  description = -O $extra $in\n"
                            "extra = E1\nbuild o: r i1 i2\n  extra = E2\nbuild i1 i2: phony\n",
                            "echo -O E2 i1 i2 > o\n")

    def test_rule_binding_sees_file_scope_value_at_use_time(self):
        self.assertCommands("rule r\n  command = echo $description > $out\n  description = [$extra]\n"
                            "build o: r\nextra = late\n", "echo [late] > o\n")

    def test_lookup_edge_beats_rule_beats_file(self):
        self.assertCommands("rule r\n  command = echo $description > $out\n  description = fromrule\n"
                            "build b: r\n  x = 1\nbuild c: r\n  description = fromedge\n",
                            "echo fromrule > b\necho fromedge > c\n")

    def test_file_scope_shadows_rule_binding_for_edge_without_bindings(self):
        # Quirk: an edge with no bindings of its own looks in the file scope *before* the rule.
        self.assertCommands("description = fromfile\nrule r\n  command = echo $description > $out\n"
                            "  description = fromrule\nbuild a: r\nbuild b: r\n  x = 1\n",
                            "echo fromfile > a\necho fromrule > b\n")

    def test_file_scope_shadow_defined_after_build(self):
        self.assertCommands("rule r\n  command = echo $description > $out\n  description = fromrule\n"
                            "build a: r\ndescription = later\n", "echo later > a\n")

    def test_file_scope_shadow_only_for_own_file(self):
        # A parent-scope variable does not shadow the rule binding for an edge in a subninja...
        self.assertCommands("description = fromparent\nrule r\n  command = echo $description > $out\n"
                            "  description = fromrule\nsubninja sub.ninja\n", "echo fromrule > a\n",
                            files={"sub.ninja": "build a: r\n"})

    def test_subninja_scope_shadows_rule_binding(self):
        # ...but the subninja's own file scope does.
        self.assertCommands("rule r\n  command = echo $description > $out\n  description = fromrule\nsubninja sub.ninja\n",
                            "echo fromsub > a\necho fromrule > b\n",
                            files={"sub.ninja": "description = fromsub\nbuild a: r\nbuild b: r\n  x = 1\n"})

    def test_file_scope_description_used_when_rule_has_none(self):
        res = self.go("description = filedesc\nrule r\n  command = echo x > $out\nbuild a: r\n")
        self.assertRun(res, 0, "[1/1] filedesc\n")

    def test_file_scope_special_bindings_apply_to_edges(self):
        self.assertCommands("generator = 1\nrestat = 1\nrule r\n  command = echo $generator $restat > $out\n"
                            "build a: r\n", "echo 1 1 > a\n")

    def test_in_and_out_cannot_be_overridden(self):
        self.assertCommands("in = fileval\nrule r\n  command = echo $in > $out\nbuild o: r a\n  in = override\n"
                            "build a: phony\n", "echo a > o\n")

    def test_in_out_braced_and_in_newline(self):
        self.assertCommands("rule r\n  command = echo ${in} ${out} $in_newline > $out\nbuild o: r a\nbuild a: phony\n",
                            "echo a o a > o\n")

    def test_lazy_description_with_in_and_out(self):
        res = self.go("rule r\n  command = touch $out\n  description = BUILD $out FROM $in\nbuild o: r i\nbuild i: phony\n")
        self.assertRun(res, 0, "[1/1] BUILD o FROM i\n")
        self.assertTrue(self.exists("o"))

    def test_rule_binding_references_other_rule_binding(self):
        res = self.go("rule r\n  command = echo $description > $out\n  description = $out x $in\nbuild o: r\n")
        self.assertRun(res, 0, "[1/1] o x \n")
        self.assertEqual(self.read("o"), "o x\n")

    def test_description_from_edge_binding(self):
        res = self.go("rule r\n  command = echo $description > $out\nbuild a: r\n  description = edge desc\n")
        self.assertRun(res, 0, "[1/1] edge desc\n")
        self.assertEqual(self.read("a"), "edge desc\n")

    def test_empty_description_shows_command(self):
        res = self.go("rule r\n  command = echo x > $out\n  description =\nbuild a: r\n")
        self.assertRun(res, 0, "[1/1] echo x > a\n")

    def test_cycle_in_rule_variables_two(self):
        res = self.go("rule r\n  command = $description\n  description = $command\nbuild o: r\n", "-t", "commands")
        self.assertRun(res, 1, "", "ninja: fatal: cycle in rule variables: description -> command -> description\n")
        self.assertRun(self.ninja("-n"), 1, "",
                       "ninja: fatal: cycle in rule variables: description -> command -> description\n")

    def test_cycle_in_rule_variables_self(self):
        res = self.go("rule r\n  command = echo $command\nbuild o: r\n", "-t", "commands")
        self.assertRun(res, 1, "", "ninja: fatal: cycle in rule variables: command -> command\n")

    def test_cycle_in_rule_variables_three(self):
        res = self.go("rule r\n  command = echo $depfile\n  depfile = $description\n  description = $depfile\n"
                      "build o: r\n", "-t", "commands")
        self.assertRun(res, 1, "", "ninja: fatal: cycle in rule variables: depfile -> description -> depfile\n")

    def test_command_referenced_from_description_is_not_a_cycle(self):
        res = self.go("rule r\n  command = touch $out\n  description = $command\nbuild o: r\n")
        self.assertRun(res, 0, "[1/1] touch o\n")

    def test_edge_binding_overrides_rule_command(self):
        # The edge's own `command` wins; its $out is expanded in the file scope, i.e. empty.
        self.assertCommands("rule r\n  command = echo $in > $out\nbuild o: r\n  command = echo override > $out\n",
                            "echo override > \n")

    def test_edge_binding_referencing_rule_variable_name(self):
        self.assertCommands("rule r\n  command = echo $description > $out\nbuild o: r\n  description = $description!\n"
                            "description = D\n", "echo ! > o\n")

    def test_variable_with_spaces_in_path_stays_one_path(self):
        self.assertCommands("v = a b\nrule r\n  command = echo $in > $out\nbuild out: r $v\nbuild $v: phony\n",
                            "echo 'a b' > out\n")
        self.assertRun(self.ninja("-t", "targets", "all"), 0, "out: r\na b: phony\n")

    def test_variable_with_pipe_in_path_is_literal(self):
        res = self.go("v = a|b\nrule r\n  command = echo $in > $out\nbuild out: r $v | c\nbuild $v c: phony\n",
                      "-t", "query", "out")
        self.assertRun(res, 0, "out:\n  input: r\n    a|b\n    | c\n  outputs:\n")


# ---------------------------------------------------------------------------------------------
# Rules and pools
# ---------------------------------------------------------------------------------------------
class TestRulesAndPools(ManifestCase):

    def test_rule_with_every_reserved_binding(self):
        manifest = ("pool p\n  depth = 2\nrule r\n  command = echo $description > $out\n  depfile = $out.d\n"
                    "  dyndep =\n  description = DESC $out\n  deps = gcc\n  generator = 1\n  pool = p\n"
                    "  restat = 1\n  rspfile = $out.rsp\n  rspfile_content = $in\n  msvc_deps_prefix = Note:\n"
                    "build o: r i\nbuild i: phony\n")
        self.assertRun(self.go(manifest, "-t", "commands"), 0, "echo DESC o > o\n")
        self.assertRun(self.ninja(), 0, "[1/1] DESC o\n")
        self.assertEqual(self.read("o"), "DESC o\n")
        self.assertFalse(self.exists("o.rsp"))

    def test_unknown_rule_variable(self):
        self.assertError("rule r\n  command = x\n  foo = bar\n",
                         "ninja: error: build.ninja:3: unexpected variable 'foo'\n  foo = bar\n           ^ near here\n")

    def test_in_is_not_a_rule_variable(self):
        self.assertError("rule r\n  command = echo $in > $out\n  in = ruleval\n",
                         "ninja: error: build.ninja:3: unexpected variable 'in'\n  in = ruleval\n              ^ near here\n")

    def test_missing_command(self):
        self.assertError("rule r\n  description = x\n", "ninja: error: build.ninja:3: expected 'command =' line\n\n")

    def test_missing_command_no_bindings(self):
        self.assertError("rule r\nx = 1\n", "ninja: error: build.ninja:2: expected 'command =' line\n\n")

    def test_rspfile_without_content(self):
        self.assertError("rule r\n  command = x\n  rspfile = y\n",
                         "ninja: error: build.ninja:4: rspfile and rspfile_content need to be both specified\n\n")

    def test_rspfile_content_without_rspfile(self):
        self.assertError("rule r\n  command = x\n  rspfile_content = y\n",
                         "ninja: error: build.ninja:4: rspfile and rspfile_content need to be both specified\n\n")

    def test_rspfile_content_in_newline(self):
        res = self.go("rule r\n  command = cat $rspfile > $out\n  rspfile = $out.rsp\n  rspfile_content = $in_newline\n"
                      "build o: r a b$ c\nbuild a b$ c: phony\n")
        self.assertRun(res, 0, "[1/1] cat o.rsp > o\n")
        self.assertEqual(self.read("o"), "a\n'b c'")
        self.assertFalse(self.exists("o.rsp"))

    def test_duplicate_rule(self):
        self.assertError("rule r\n  command = x\nrule r\n  command = y\n",
                         "ninja: error: build.ninja:3: duplicate rule 'r'\nrule r\n      ^ near here\n")

    def test_phony_rule_cannot_be_redefined_at_top(self):
        self.assertError("rule phony\n  command = x\n",
                         "ninja: error: build.ninja:1: duplicate rule 'phony'\nrule phony\n          ^ near here\n")

    def test_duplicate_command_binding_last_wins(self):
        self.assertCommands("rule r\n  command = echo 1 > $out\n  command = echo 2 > $out\nbuild a: r\n", "echo 2 > a\n")

    def test_rule_name_with_dots_and_dashes(self):
        self.assertCommands("rule r.x-y_z\n  command = echo $out > $out\nbuild a: r.x-y_z\n", "echo a > a\n")

    def test_rule_name_missing(self):
        self.assertError("rule\n", "ninja: error: build.ninja:1: expected rule name\nrule\n    ^ near here\n")

    def test_rule_name_extra_token(self):
        self.assertError("rule r r\n",
                         "ninja: error: build.ninja:1: expected newline, got identifier\nrule r r\n       ^ near here\n")

    def test_rule_name_followed_by_keyword(self):
        self.assertError("rule r build\n",
                         "ninja: error: build.ninja:1: expected newline, got 'build'\nrule r build\n       ^ near here\n")

    def test_rule_binding_without_equals(self):
        self.assertError("rule r\n  command\n",
                         "ninja: error: build.ninja:2: expected '=', got newline\n  command\n         ^ near here\n")

    def test_rule_binding_without_name(self):
        self.assertError("rule r\n  = x\n", "ninja: error: build.ninja:2: expected variable name\n  = x\n  ^ near here\n")

    def test_build_before_rule_definition(self):
        self.assertError("build a: r\nrule r\n  command = x\n",
                         "ninja: error: build.ninja:1: unknown build rule 'r'\nbuild a: r\n         ^ near here\n")

    def test_pool_negative_depth(self):
        self.assertError("pool p\n  depth = -1\n",
                         "ninja: error: build.ninja:2: invalid pool depth\n  depth = -1\n            ^ near here\n")

    def test_pool_non_numeric_depth_is_zero(self):
        res = self.go("pool p\n  depth = abc\nrule r\n  command = echo > $out\n  pool = p\nbuild a: r\n")
        self.assertRun(res, 0, "[1/1] echo > a\n")

    def test_pool_missing_depth(self):
        self.assertError("pool p\n", "ninja: error: build.ninja:2: expected 'depth =' line\n\n")

    def test_pool_unknown_variable(self):
        self.assertError("pool p\n  foo = 1\n",
                         "ninja: error: build.ninja:2: unexpected variable 'foo'\n  foo = 1\n         ^ near here\n")

    def test_pool_missing_name(self):
        self.assertError("pool\n", "ninja: error: build.ninja:1: expected pool name\npool\n    ^ near here\n")

    def test_duplicate_pool(self):
        self.assertError("pool p\n  depth = 1\npool p\n  depth = 2\n",
                         "ninja: error: build.ninja:3: duplicate pool 'p'\npool p\n      ^ near here\n")

    def test_console_pool_is_predefined(self):
        self.assertError("pool console\n  depth = 1\n",
                         "ninja: error: build.ninja:1: duplicate pool 'console'\npool console\n            ^ near here\n")

    def test_unknown_pool_in_rule(self):
        self.assertError("rule r\n  command = echo > $out\n  pool = nope\nbuild a: r\n",
                         "ninja: error: build.ninja:5: unknown pool name 'nope'\n\n")

    def test_unknown_pool_on_edge(self):
        self.assertError("rule r\n  command = echo > $out\nbuild a: r\n  pool = nope\n",
                         "ninja: error: build.ninja:5: unknown pool name 'nope'\n\n")

    def test_empty_pool_binding_opts_out_of_rule_pool(self):
        res = self.go("rule r\n  command = echo > $out\n  pool = nope\nbuild a: r\n  pool =\n")
        self.assertRun(res, 0, "[1/1] echo > a\n")
        self.assertTrue(self.exists("a"))

    def test_pool_depth_zero_and_dotted_name(self):
        res = self.go("pool p.q-r\n  depth = 0\nrule r\n  command = echo $out > $out\n  pool = p.q-r\nbuild a: r\n")
        self.assertRun(res, 0, "[1/1] echo a > a\n")

    def test_pool_from_variable(self):
        res = self.go("pool p\n  depth = 1\nv = p\nrule r\n  command = echo $out > $out\n  pool = $v\nbuild a: r\n")
        self.assertRun(res, 0, "[1/1] echo a > a\n")

    def test_deps_unknown_type_is_fatal(self):
        self.write("a", "")
        res = self.go("rule r\n  command = echo > $out\n  deps = foo\nbuild a: r\n", "-n")
        self.assertRun(res, 1, "", "ninja: fatal: unknown deps type 'foo'\n")


# ---------------------------------------------------------------------------------------------
# Build statements
# ---------------------------------------------------------------------------------------------
class TestBuildStatements(ManifestCase):

    FULL = ("rule r\n  command = echo [$in] [$out] > $out\nrule t\n  command = touch $out\n"
            "build o1 o2 | io1 io2: r e1 e2 | i1 i2 || oo1 oo2 |@ v1 v2\n"
            "build e1 e2 i1 i2 oo1 oo2: t\nbuild v1 v2: t\n")

    def test_all_input_kinds_in_query(self):
        res = self.go(self.FULL, "-t", "query", "o1")
        self.assertRun(res, 0, "o1:\n  input: r\n    e1\n    e2\n    | i1\n    | i2\n    || oo1\n    || oo2\n"
                               "  validations:\n    v1\n    v2\n  outputs:\n")

    def test_in_and_out_exclude_implicit(self):
        self.assertCommands(self.FULL, "touch e1 e2 i1 i2 oo1 oo2\necho [e1 e2] [o1 o2] > o1 o2\n", "o1")

    def test_inputs_tool_lists_order_only_but_not_validations(self):
        self.assertRun(self.go(self.FULL, "-t", "inputs", "o1"), 0, "e1\ne2\ni1\ni2\noo1\noo2\n")

    def test_validation_built_when_edge_built(self):
        res = self.go("rule t\n  command = touch $out\nbuild a: t |@ v\nbuild v: t\n", "a")
        self.assertRun(res, 0, "[1/2] touch a\n[2/2] touch v\n")
        self.assertTrue(self.exists("v"))

    def test_implicit_output_is_a_target(self):
        res = self.go("rule t\n  command = touch $out imp\nbuild o | imp: t\n", "imp")
        self.assertRun(res, 0, "[1/1] touch o imp\n")

    def test_zero_explicit_outputs(self):
        res = self.go("rule t\n  command = touch out io1\nbuild | io1: t\n", "-t", "targets", "all")
        self.assertRun(res, 0, "io1: t\n")
        self.assertRun(self.ninja(), 0, "[1/1] touch out io1\n")
        self.assertTrue(self.exists("io1"))

    def test_zero_explicit_outputs_out_is_empty(self):
        res = self.go("rule r\n  command = echo [$in] [$out] > log\nbuild | io1: r a\nbuild a: phony\n")
        self.assertRun(res, 0, "[1/1] echo [a] [] > log\n")
        self.assertEqual(self.read("log"), "[a] []\n")

    def test_empty_pipe_sections_accepted(self):
        self.assertCommands(ECHO + "build a: r b |\nbuild b: phony\n", "echo a > a\n")
        self.assertCommands(ECHO + "build a: r b ||\nbuild b: phony\n", "echo a > a\n")
        self.assertCommands(ECHO + "build a: r b |@\nbuild b: phony\n", "echo a > a\n")
        self.assertCommands(ECHO + "build a b | : r\n", "echo a b > a b\n")

    def test_repeated_pipe_before_colon(self):
        self.assertError(ECHO + "build a | | b: r\n",
                         "ninja: error: build.ninja:3: expected ':', got '|' ($ also escapes ':')\n"
                         "build a | | b: r\n          ^ near here\n")

    def test_repeated_pipe_after_rule(self):
        self.assertError(ECHO + "build a: r | | b\n",
                         "ninja: error: build.ninja:3: expected newline, got '|'\nbuild a: r | | b\n             ^ near here\n")

    def test_repeated_double_pipe(self):
        self.assertError(ECHO + "build a: r || || b\n",
                         "ninja: error: build.ninja:3: expected newline, got '||'\nbuild a: r || || b\n              ^ near here\n")

    def test_repeated_validation_pipe(self):
        self.assertError(ECHO + "build a: r |@ |@ b\n",
                         "ninja: error: build.ninja:3: expected newline, got '|@'\nbuild a: r |@ |@ b\n              ^ near here\n")

    def test_colon_spacing_variants(self):
        self.assertCommands(ECHO + "build a:r\nbuild b :r\nbuild  c  :  r  \n", "echo a > a\necho b > b\necho c > c\n")

    def test_expected_path_no_outputs(self):
        self.assertError(ECHO + "build: r\n", "ninja: error: build.ninja:3: expected path\nbuild: r\n     ^ near here\n")

    def test_expected_path_bare_build(self):
        self.assertError(ECHO + "build\n", "ninja: error: build.ninja:3: expected path\nbuild\n     ^ near here\n")

    def test_expected_colon(self):
        self.assertError(ECHO + "build a\n",
                         "ninja: error: build.ninja:3: expected ':', got newline ($ also escapes ':')\n"
                         "build a\n       ^ near here\n")

    def test_escaped_colon_is_part_of_path(self):
        self.assertError(ECHO + "build a$: r\n",
                         "ninja: error: build.ninja:3: expected ':', got newline ($ also escapes ':')\n"
                         "build a$: r\n           ^ near here\n")

    def test_escaped_colon_in_input(self):
        self.assertCommands("rule r\n  command = echo $in > $out\nbuild a: r b$:c\nbuild b$:c: phony\n", "echo 'b:c' > a\n")

    def test_expected_build_command_name(self):
        self.assertError(ECHO + "build a:\n",
                         "ninja: error: build.ninja:3: expected build command name\nbuild a:\n        ^ near here\n")

    def test_rule_name_cannot_be_variable(self):
        self.assertError("n = r\n" + ECHO + "build a: $n\n",
                         "ninja: error: build.ninja:4: expected build command name\nbuild a: $n\n         ^ near here\n")

    def test_unknown_build_rule(self):
        self.assertError(ECHO + "build a: nope\n",
                         "ninja: error: build.ninja:3: unknown build rule 'nope'\nbuild a: nope\n         ^ near here\n")

    def test_expected_newline_got_colon(self):
        self.assertError(ECHO + "build a: r b:\n",
                         "ninja: error: build.ninja:3: expected newline, got ':'\nbuild a: r b:\n            ^ near here\n")

    def test_expected_variable_name_in_edge_block(self):
        self.assertError(ECHO + "build a: r b\n  :x = 1\n",
                         "ninja: error: build.ninja:4: expected variable name\n  :x = 1\n  ^ near here\n")

    def test_expected_equals_in_edge_block(self):
        self.assertError(ECHO + "build a: r\n  x y\n",
                         "ninja: error: build.ninja:4: expected '=', got identifier\n  x y\n    ^ near here\n")

    def test_empty_path_output(self):
        self.assertError("e =\n" + ECHO + "build $e: r\n", "ninja: error: build.ninja:5: empty path\n\n")

    def test_empty_path_input(self):
        self.assertError("e =\n" + ECHO + "build a: r $e\n", "ninja: error: build.ninja:5: empty path\n\n")

    def test_empty_path_validation(self):
        self.assertError("e =\n" + ECHO + "build a: r |@ $e\n", "ninja: error: build.ninja:5: empty path\n\n")

    def test_empty_path_default(self):
        self.assertError("e =\n" + ECHO + "build a: r\ndefault $e\n",
                         "ninja: error: build.ninja:5: empty path\ndefault $e\n          ^ near here\n")

    def test_dyndep_not_an_input_from_rule(self):
        self.assertError("rule r\n  command = echo x > $out\n  dyndep = dd\nbuild a: r\n",
                         "ninja: error: build.ninja:5: dyndep 'dd' is not an input\n\n")

    def test_dyndep_not_an_input_from_edge(self):
        self.assertError("rule r\n  command = echo x > $out\nbuild a: r\n  dyndep = dd\n",
                         "ninja: error: build.ninja:5: dyndep 'dd' is not an input\n\n")

    def test_dyndep_validation_is_not_an_input(self):
        self.assertError("rule r\n  command = echo x > $out\nbuild a: r |@ dd\n  dyndep = dd\n",
                         "ninja: error: build.ninja:5: dyndep 'dd' is not an input\n\n")

    def test_dyndep_implicit_input_accepted_and_canonicalized(self):
        res = self.go("rule r\n  command = echo x > $out\nbuild a: r | ./dd\n  dyndep = x/../dd\n", "-n")
        self.assertRun(res, 1, "", "ninja: error: loading 'dd': No such file or directory\n")

    def test_missing_input(self):
        res = self.go("rule r\n  command = echo $in > $out\nbuild a: r b\nbuild c: r a\n", "c")
        self.assertRun(res, 1, "", "ninja: error: 'b', needed by 'a', missing and no known rule to make it\n")

    def test_output_directory_created_for_path_with_space(self):
        res = self.go(ECHO + "build out$ dir/f: r\n")
        self.assertRun(res, 0, "[1/1] echo 'out dir/f' > 'out dir/f'\n")
        self.assertEqual(self.read("out dir/f"), "out dir/f\n")


# ---------------------------------------------------------------------------------------------
# Shell quoting of $in / $out
# ---------------------------------------------------------------------------------------------
class TestQuoting(ManifestCase):

    NAMES = ["a b", 'c"d', "e'f", "g$h", "i&j", "k(l)", "m+n-o_p/q.r", "s,t", "u=v", "w@x", "y~z",
             "ab*c", "x:y", "p%q", "A\\B", "c!d", "h#i", "e;f"]

    @staticmethod
    def esc(name):
        return name.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")

    def test_in_quoting(self):
        paths = " ".join(self.esc(n) for n in self.NAMES)
        manifest = "rule r\n  command = printf '%s\\n' $in > $out\nbuild out: r " + paths + "\nbuild " + paths + ": phony\n"
        quoted = ("'a b' 'c\"d' 'e'\\''f' 'g$h' 'i&j' 'k(l)' m+n-o_p/q.r 's,t' 'u=v' 'w@x' 'y~z' 'ab*c' "
                  "'x:y' 'p%q' 'A\\B' 'c!d' 'h#i' 'e;f'")
        self.assertCommands(manifest, "printf '%s\\n' " + quoted + " > out\n")
        res = self.ninja()
        self.assertRun(res, 0, "[1/1] printf '%s\\n' " + quoted + " > out\n")
        self.assertEqual(self.read("out"), "".join(n + "\n" for n in self.NAMES))

    def test_out_quoting_with_quote_and_space(self):
        res = self.go(ECHO + "build x$ y 'q: r\n", "-t", "commands")
        self.assertRun(res, 0, "echo 'x y' ''\\''q' > 'x y' ''\\''q'\n")
        self.assertRun(self.ninja(), 0, "[1/1] echo 'x y' ''\\''q' > 'x y' ''\\''q'\n")
        self.assertEqual(self.read("x y"), "x y 'q 'q\n")

    def test_in_newline_quoting(self):
        self.assertCommands("rule r\n  command = printf '[%s]\\n' $in_newline > $out\nbuild out: r a b$ c d\n"
                            "build a b$ c d: phony\n", "printf '[%s]\\n' a\n'b c'\nd > out\n")

    def test_utf8_paths_are_quoted(self):
        self.assertCommands("rule r\n  command = echo $in > $out\nbuild \u00e9t\u00e9: r caf\u00e9\nbuild caf\u00e9: phony\n"
                            .encode("utf-8"),
                            "echo 'caf\u00e9' > '\u00e9t\u00e9'\n")

    def test_safe_characters_unquoted(self):
        self.assertCommands("rule r\n  command = echo $in > $out\nbuild o: r A-z_0+9/x.y\nbuild A-z_0+9/x.y: phony\n",
                            "echo A-z_0+9/x.y > o\n")


# ---------------------------------------------------------------------------------------------
# Path canonicalisation and duplicate outputs
# ---------------------------------------------------------------------------------------------
class TestPaths(ManifestCase):

    CANON = ECHO + ("build ./a: r\nbuild b//c: r\nbuild d/../e: r\nbuild ../x: r\nbuild f/: r\n"
                    "build ./g/./h/../i: r\nbuild j/..: r\n")

    def test_canonical_outputs(self):
        self.assertCommands(self.CANON, "echo a > a\necho b/c > b/c\necho e > e\necho ../x > ../x\n"
                                        "echo f > f\necho g/i > g/i\necho . > .\n")

    def test_canonical_targets_listing(self):
        res = self.go(self.CANON, "-t", "targets", "all")
        self.assertRun(res, 0, "a: r\nb/c: r\ne: r\n../x: r\nf: r\ng/i: r\n.: r\n")

    def test_cli_targets_are_canonicalized(self):
        self.write("build.ninja", ECHO + "build ./a: r\nbuild b//c: r\nbuild d/../e: r\nbuild f/: r\nbuild ./g/./h/../i: r\n")
        res = self.ninja("a", "./e", "b//c", "f/", "g/h/../i", "b///c")
        self.assertRun(res, 0, "[1/5] echo a > a\n[2/5] echo b/c > b/c\n[3/5] echo e > e\n[4/5] echo f > f\n"
                               "[5/5] echo g/i > g/i\n")
        self.assertEqual(self.read("g/i"), "g/i\n")

    def test_leading_dotdot_kept(self):
        res = self.go(ECHO + "build a/../../b/./c: r\n", "-t", "targets", "all")
        self.assertRun(res, 0, "../b/c: r\n")

    def test_absolute_path_canonicalized(self):
        res = self.go(ECHO + "build /tmp/../abs//x: r\n", "-t", "targets", "all")
        self.assertRun(res, 0, "/abs/x: r\n")

    def test_inputs_canonicalized_in_dollar_in(self):
        res = self.go("rule r\n  command = printf '%s\\n' $in > $out\nbuild out: r ./a b//c d/../e\nbuild a b/c e: phony\n")
        self.assertRun(res, 0, "[1/1] printf '%s\\n' a b/c e > out\n")
        self.assertEqual(self.read("out"), "a\nb/c\ne\n")

    def test_input_with_trailing_slash_matches_node(self):
        self.assertCommands(ECHO + "build a: r\nbuild b: r a/\n", "echo a > a\necho b > b\n", "b")

    def test_dot_and_dotslash_targets(self):
        self.write("build.ninja", ECHO + "build j/..: r\n")
        self.assertRun(self.ninja("-n", "./"), 0, "[1/1] echo . > .\n")

    def test_multiple_rules_generate(self):
        self.assertError(ECHO + "build ./a: r\nbuild a: r\n", "ninja: error: build.ninja:5: multiple rules generate a\n\n")

    def test_multiple_rules_generate_line_after_bindings(self):
        self.assertError(ECHO + "build a: r\nbuild a: r\n  x = 1\n\n\nbuild c: r\n",
                         "ninja: error: build.ninja:6: multiple rules generate a\n\n")

    def test_multiple_rules_generate_line_skips_comments(self):
        self.assertError(ECHO + "build a: r\n# comment\n\nbuild a: r\n# comment\n\n",
                         "ninja: error: build.ninja:8: multiple rules generate a\n\n")

    def test_multiple_rules_generate_implicit_output(self):
        self.assertError(ECHO + "build a b: r\nbuild c | b: r\n", "ninja: error: build.ninja:5: multiple rules generate b\n\n")

    def test_multiple_rules_generate_phony(self):
        self.assertError("build a: phony\nbuild a: phony\n", "ninja: error: build.ninja:3: multiple rules generate a\n\n")

    def test_multiple_rules_generate_in_included_file(self):
        self.assertError(ECHO + "build a: r\ninclude s.ninja\n", "ninja: error: s.ninja:3: multiple rules generate a\n\n",
                         files={"s.ninja": "\nbuild a: r\n"})

    def test_dupbuild_flag_is_deprecated(self):
        res = self.go(ECHO + "build a: r\nbuild a: r\n", "-w", "dupbuild=warn")
        self.assertRun(res, 1, "", "ninja: warning: deprecated warning 'dupbuild'\n"
                                   "ninja: error: build.ninja:5: multiple rules generate a\n\n")

    def test_output_listed_twice(self):
        self.assertError(ECHO + "build a a: r\n", "ninja: error: build.ninja:4: a is defined as an output multiple times\n\n")

    def test_output_listed_twice_after_canonicalization(self):
        self.assertError(ECHO + "build a ./a: r\n", "ninja: error: build.ninja:4: a is defined as an output multiple times\n\n")

    def test_output_listed_as_explicit_and_implicit(self):
        self.assertError(ECHO + "build a | a: r\n", "ninja: error: build.ninja:4: a is defined as an output multiple times\n\n")


# ---------------------------------------------------------------------------------------------
# Defaults, root nodes, CLI targets
# ---------------------------------------------------------------------------------------------
class TestDefaultsAndTargets(ManifestCase):

    def test_default_cumulative(self):
        res = self.go(ECHO + "build a: r\nbuild b: r\nbuild c: r\ndefault a\ndefault c\n")
        self.assertRun(res, 0, "[1/2] echo a > a\n[2/2] echo c > c\n")
        self.assertFalse(self.exists("b"))

    def test_default_repeated_target(self):
        res = self.go(ECHO + "build a: r\nbuild b: r\ndefault a b a\n")
        self.assertRun(res, 0, "[1/2] echo a > a\n[2/2] echo b > b\n")

    def test_default_before_build_is_unknown(self):
        self.assertError(ECHO + "default a\nbuild a: r\n",
                         "ninja: error: build.ninja:3: unknown target 'a'\ndefault a\n         ^ near here\n")

    def test_default_unknown_target(self):
        self.assertError(ECHO + "build a: r\ndefault nope\n",
                         "ninja: error: build.ninja:4: unknown target 'nope'\ndefault nope\n            ^ near here\n")

    def test_default_empty(self):
        self.assertError(ECHO + "build a: r\ndefault\n",
                         "ninja: error: build.ninja:4: expected target name\ndefault\n       ^ near here\n")

    def test_default_colon(self):
        self.assertError(ECHO + "build a: r\ndefault a:\n",
                         "ninja: error: build.ninja:4: expected newline, got ':'\ndefault a:\n         ^ near here\n")

    def test_default_pipe(self):
        self.assertError(ECHO + "build a: r\ndefault a | b\n",
                         "ninja: error: build.ninja:4: expected newline, got '|'\ndefault a | b\n          ^ near here\n")

    def test_default_variable_and_canonical(self):
        res = self.go(ECHO + "build a: r\nbuild b: r\nd = a\ndefault $d ./b/../a\n")
        self.assertRun(res, 0, "[1/1] echo a > a\n")

    def test_default_in_subninja_is_global(self):
        res = self.go(ECHO + "subninja sub.ninja\nbuild a: r\n", files={"sub.ninja": "build s: r\ndefault s\n"})
        self.assertRun(res, 0, "[1/1] echo s > s\n")
        self.assertFalse(self.exists("a"))

    def test_root_nodes_without_default(self):
        res = self.go(ECHO + "build a: r\nbuild b: r a\nbuild c: r a\nbuild d: r\n", "-t", "targets")
        self.assertRun(res, 0, "b: r\nc: r\nd: r\n")
        self.assertRun(self.ninja("-t", "commands"), 0, "echo a > a\necho b > b\necho c > c\necho d > d\n")

    def test_roots_with_order_only_and_validation(self):
        res = self.go(ECHO + "build a: r\nbuild b: r a\nbuild c: r | a\nbuild d: r || c\nbuild e: r |@ d\n",
                      "-t", "targets")
        self.assertRun(res, 0, "b: r\nd: r\ne: r\n")
        res = self.ninja()
        self.assertEqual(res.returncode, 0)
        for f in "abcde":
            self.assertEqual(self.read(f), f + "\n")

    def test_could_not_determine_root_nodes(self):
        res = self.go(ECHO + "build a: r b\nbuild b: r a\n")
        self.assertRun(res, 1, "", "ninja: error: could not determine root nodes of build graph\n")

    def test_unknown_target_suggestion(self):
        self.write("build.ninja", ECHO + "build foo.o: r\nbuild app: r foo.o\n")
        self.assertRun(self.ninja("fooo.o"), 1, "", "ninja: error: unknown target 'fooo.o', did you mean 'foo.o'?\n")
        self.assertRun(self.ninja("ap"), 1, "", "ninja: error: unknown target 'ap', did you mean 'app'?\n")

    def test_unknown_target_edit_distance_limit(self):
        self.write("build.ninja", ECHO + "build abcdefgh: r\n")
        self.assertRun(self.ninja("abcdexxx"), 1, "",
                       "ninja: error: unknown target 'abcdexxx', did you mean 'abcdefgh'?\n")
        self.assertRun(self.ninja("abcdxxxx"), 1, "", "ninja: error: unknown target 'abcdxxxx'\n")
        self.assertRun(self.ninja("ABCDEFGH"), 1, "", "ninja: error: unknown target 'ABCDEFGH'\n")
        self.assertRun(self.ninja("abcdefghijk"), 1, "",
                       "ninja: error: unknown target 'abcdefghijk', did you mean 'abcdefgh'?\n")

    def test_unknown_target_clean_and_help(self):
        self.write("build.ninja", ECHO + "build foo.o: r\n")
        self.assertRun(self.ninja("clean"), 1, "",
                       "ninja: error: unknown target 'clean', did you mean 'ninja -t clean'?\n")
        self.assertRun(self.ninja("help"), 1, "", "ninja: error: unknown target 'help', did you mean 'ninja -h'?\n")

    def test_target_named_clean_is_buildable(self):
        res = self.go(ECHO + "build clean: r\n", "clean")
        self.assertRun(res, 0, "[1/1] echo clean > clean\n")

    def test_caret_target(self):
        self.write("build.ninja", ECHO + "build foo.o: r foo.c\nbuild bar.o: r foo.c\nbuild foo.c: r\n"
                                         "build app: r foo.o bar.o\n")
        self.assertRun(self.ninja("-n", "foo.c^"), 0, "[1/2] echo foo.c > foo.c\n[2/2] echo foo.o > foo.o\n")
        self.assertRun(self.ninja("-n", "./foo.c^"), 0, "[1/2] echo foo.c > foo.c\n[2/2] echo foo.o > foo.o\n")
        self.assertRun(self.ninja("-t", "commands", "foo.c^"), 0, "echo foo.c > foo.c\necho foo.o > foo.o\n")

    def test_caret_target_without_out_edge(self):
        self.write("build.ninja", ECHO + "build app: r\n")
        self.assertRun(self.ninja("-n", "app^"), 1, "", "ninja: error: 'app' has no out edge\n")
        self.assertRun(self.ninja("-n", "nothere^"), 1, "", "ninja: error: unknown target 'nothere'\n")

    def test_caret_only_one_stripped(self):
        self.write("build.ninja", ECHO + "build foo.c: r\n")
        self.assertRun(self.ninja("foo.c^^"), 1, "", "ninja: error: unknown target 'foo.c^', did you mean 'foo.c'?\n")

    def test_target_literally_ending_in_caret_is_unreachable(self):
        self.write("build.ninja", ECHO + "build a^: r\nbuild b: r a^\n")
        self.assertRun(self.ninja("a^"), 1, "", "ninja: error: unknown target 'a', did you mean 'a^'?\n")


# ---------------------------------------------------------------------------------------------
# Dependency cycles and self-referencing phony
# ---------------------------------------------------------------------------------------------
class TestCycles(ManifestCase):

    def test_two_node_cycle(self):
        self.write("build.ninja", ECHO + "build a: r b\nbuild b: r a\n")
        self.assertRun(self.ninja("a"), 1, "", "ninja: error: dependency cycle: a -> b -> a\n")
        self.assertRun(self.ninja("b"), 1, "", "ninja: error: dependency cycle: b -> a -> b\n")

    def test_three_node_cycle_reached_from_outside(self):
        self.write("build.ninja", ECHO + "build a: r b\nbuild b: r c\nbuild c: r a\nbuild top: r a\n")
        self.assertRun(self.ninja("top"), 1, "", "ninja: error: dependency cycle: a -> b -> c -> a\n")

    def test_self_cycle_via_implicit_and_order_only(self):
        self.write("build.ninja", ECHO + "build a: r | a\nbuild b: r || b\n")
        self.assertRun(self.ninja("a"), 1, "", "ninja: error: dependency cycle: a -> a\n")
        self.assertRun(self.ninja("b"), 1, "", "ninja: error: dependency cycle: b -> b\n")

    def test_cycle_through_second_output(self):
        self.write("build.ninja", ECHO + "build a b: r b\n")
        self.assertRun(self.ninja("a"), 1, "", "ninja: error: dependency cycle: b -> b\n")

    def test_phony_self_reference_warns(self):
        res = self.go("build a: phony a\n", "a")
        self.assertRun(res, 0, "ninja: no work to do.\n",
                       "ninja: warning: phony target 'a' names itself as an input; ignoring [-w phonycycle=warn]\n")

    def test_phony_self_reference_err(self):
        res = self.go("build a: phony a\n", "-w", "phonycycle=err", "a")
        self.assertRun(res, 1, "", "ninja: error: dependency cycle: a -> a [-w phonycycle=err]\n")

    def test_phony_self_reference_explicit_warn(self):
        res = self.go("build a: phony b a\nbuild b: phony\n", "-w", "phonycycle=warn", "a")
        self.assertRun(res, 0, "ninja: no work to do.\n",
                       "ninja: warning: phony target 'a' names itself as an input; ignoring [-w phonycycle=warn]\n")

    def test_phony_self_reference_still_not_a_root(self):
        # Quirk: the dropped input still leaves 'a' with an out-edge, so no root is found.
        res = self.go("build a: phony a\n")
        self.assertRun(res, 1, "", "ninja: warning: phony target 'a' names itself as an input; ignoring "
                                   "[-w phonycycle=warn]\nninja: error: could not determine root nodes of build graph\n")

    def test_phony_self_reference_warning_on_tools(self):
        res = self.go("build a: phony a\n", "-t", "query", "a")
        self.assertRun(res, 0, "a:\n  input: phony\n  outputs:\n    a\n",
                       "ninja: warning: phony target 'a' names itself as an input; ignoring [-w phonycycle=warn]\n")

    def test_phony_self_reference_via_implicit_is_a_cycle(self):
        res = self.go("build a: phony | a\n", "a")
        self.assertRun(res, 1, "", "ninja: error: dependency cycle: a -> a\n")

    def test_phony_with_two_outputs_self_reference_is_a_cycle(self):
        res = self.go("build a b: phony a\n", "b")
        self.assertRun(res, 1, "", "ninja: error: dependency cycle: a -> a\n")

    def test_phony_self_reference_canonicalized(self):
        res = self.go("build a: phony ./a\n", "a")
        self.assertRun(res, 0, "ninja: no work to do.\n",
                       "ninja: warning: phony target 'a' names itself as an input; ignoring [-w phonycycle=warn]\n")


# ---------------------------------------------------------------------------------------------
# include / subninja
# ---------------------------------------------------------------------------------------------
class TestIncludeSubninja(ManifestCase):

    R = "rule r\n  command = echo $x > $out\n"

    def test_include_shares_scope(self):
        self.assertCommands("x = top\ninclude inc.ninja\nbuild a: r\nbuild b: r2\n", "echo inc > a\necho r2 inc > b\n",
                            files={"inc.ninja": "x = inc\nrule r2\n  command = echo r2 $x > $out\n" + self.R})

    def test_include_duplicate_rule(self):
        self.assertError("x = top\n" + self.R + "include inc.ninja\n",
                         "ninja: error: inc.ninja:1: duplicate rule 'r'\nrule r\n      ^ near here\n",
                         files={"inc.ninja": "rule r\n  command = echo inc > $out\n"})

    def test_subninja_child_scope(self):
        self.assertCommands("x = top\n" + self.R + "subninja sub.ninja\nbuild a: r\n",
                            "echo sub > s\necho r2 > s2\necho top > a\n",
                            files={"sub.ninja": "x = sub\nbuild s: r\nrule r2\n  command = echo r2 > $out\nbuild s2: r2\n"})

    def test_subninja_rules_do_not_leak(self):
        self.assertError("x = top\n" + self.R + "subninja sub.ninja\nbuild a: r2\n",
                         "ninja: error: build.ninja:5: unknown build rule 'r2'\nbuild a: r2\n         ^ near here\n",
                         files={"sub.ninja": "rule r2\n  command = echo r2 > $out\n"})

    def test_subninja_may_shadow_parent_rule(self):
        self.assertCommands("x = top\n" + self.R + "subninja sub.ninja\n", "echo sub top > s\n",
                            files={"sub.ninja": "rule r\n  command = echo sub $x > $out\nbuild s: r\n"})

    def test_subninja_duplicate_rule_within_itself(self):
        self.assertError(self.R + "subninja sub.ninja\n",
                         "ninja: error: sub.ninja:3: duplicate rule 'r'\nrule r\n      ^ near here\n",
                         files={"sub.ninja": "rule r\n  command = a\nrule r\n  command = b\n"})

    def test_subninja_may_shadow_phony(self):
        res = self.go("subninja s.ninja\n", files={"s.ninja": "rule phony\n  command = echo hi > $out\nbuild a: phony\n"})
        self.assertRun(res, 0, "[1/1] echo hi > a\n")
        self.assertEqual(self.read("a"), "hi\n")

    def test_subninja_variables_do_not_leak(self):
        self.assertCommands("rule r\n  command = echo [$x] [$y] > $out\nsubninja sub.ninja\nbuild a: r\n  x = $z\n",
                            "echo [subz] [] > s\necho [] [] > a\n",
                            files={"sub.ninja": "z = subz\nbuild s: r\n  x = $z\n"})

    def test_subninja_sees_parent_variables_defined_later(self):
        self.assertCommands("rule r\n  command = echo [$x] [$y] > $out\nx = top\nsubninja sub.ninja\nbuild a: r\ny = late\n",
                            "echo [top] [sub] > s\necho [top] [late] > a\n",
                            files={"sub.ninja": "y = sub\nbuild s: r\nz = subz\n"})

    def test_nested_subninja_sees_intermediate_scope_defined_later(self):
        self.assertCommands("rule r\n  command = echo [$x] > $out\nx = top\nsubninja sub.ninja\n", "echo [mid] > deep\n",
                            files={"sub.ninja": "subninja sub2.ninja\nx = mid\n", "sub2.ninja": "build deep: r\n"})

    def test_include_inside_subninja_uses_subninja_scope(self):
        res = self.go("subninja sub.ninja\n",
                      files={"sub.ninja": "include inc.ninja\nbuild b: r\n  x = sub\n", "inc.ninja": self.R})
        self.assertRun(res, 0, "[1/1] echo sub > b\n")

    def test_include_path_relative_to_cwd(self):
        self.assertCommands(self.R + "include sub/inc.ninja\n", "echo top-other > a\n",
                            files={"sub/inc.ninja": "include other.ninja\n", "other.ninja": "x = top-other\nbuild a: r\n",
                                   "sub/other.ninja": "x = sub-other\nbuild a: r\n"})

    def test_subninja_path_relative_to_cwd(self):
        self.assertCommands(self.R + "subninja sub/inc.ninja\n", "echo top-other > a\n",
                            files={"sub/inc.ninja": "subninja other.ninja\n", "other.ninja": "x = top-other\nbuild a: r\n",
                                   "sub/other.ninja": "x = sub-other\nbuild a: r\n"})

    def test_include_relative_to_cwd_with_f(self):
        self.write("dir/build.ninja", "include inc.ninja\n")
        self.write("dir/inc.ninja", self.R + "build a: r\n  x = 1\n")
        self.assertRun(self.ninja("-f", "dir/build.ninja"), 1, "",
                       "ninja: error: dir/build.ninja:1: loading 'inc.ninja': No such file or directory\n"
                       "include inc.ninja\n                 ^ near here\n")
        self.assertRun(self.ninja("-C", "dir", "-t", "commands"), 0, "echo 1 > a\n")

    def test_include_path_with_variable_and_escaped_space(self):
        self.assertCommands("d = sub\ninclude $d/inc.ninja\ninclude a$ b.ninja\n", "echo inc > a\necho  > c\n",
                            files={"sub/inc.ninja": self.R + "build a: r\n  x = inc\n", "a b.ninja": "build c: r\n"})

    def test_missing_include(self):
        self.assertError(self.R + "\ninclude missing.ninja\n",
                         "ninja: error: build.ninja:4: loading 'missing.ninja': No such file or directory\n"
                         "include missing.ninja\n                     ^ near here\n")

    def test_missing_subninja(self):
        self.assertError(self.R + "\nsubninja missing.ninja\n",
                         "ninja: error: build.ninja:4: loading 'missing.ninja': No such file or directory\n"
                         "subninja missing.ninja\n                      ^ near here\n")

    def test_missing_nested_include_reports_includer(self):
        self.assertError("include inc.ninja\n",
                         "ninja: error: inc.ninja:3: loading 'deeper.ninja': No such file or directory\n"
                         "include deeper.ninja\n                    ^ near here\n",
                         files={"inc.ninja": "\n\ninclude deeper.ninja\n"})

    def test_include_without_path(self):
        self.assertError("include\n", "ninja: error: build.ninja:1: loading '': No such file or directory\n"
                                      "include\n       ^ near here\n")

    def test_include_extra_token(self):
        self.assertError("include a b\n", "ninja: error: build.ninja:1: expected newline, got identifier\n"
                                          "include a b\n          ^ near here\n", files={"a": self.R})

    def test_include_path_stops_at_colon(self):
        self.assertError("include a:b\n", "ninja: error: build.ninja:1: loading 'a': No such file or directory\n"
                                          "include a:b\n         ^ near here\n")

    def test_include_at_eof_without_newline(self):
        self.assertError("include a", "ninja: error: build.ninja:1: unexpected EOF\ninclude a\n         ^ near here\n",
                         files={"a": self.R})

    def test_error_inside_included_file(self):
        self.assertError("include a\n", "ninja: error: a:3: unexpected EOF\nbuild o: r\n          ^ near here\n",
                         files={"a": self.R + "build o: r"})

    def test_include_cannot_take_bindings(self):
        self.assertError("include a\n  x = 1\n", "ninja: error: build.ninja:2: unexpected indent\n\n",
                         files={"a": self.R})

    def test_recursive_include(self):
        self.assertError(self.R + "include inc.ninja\n",
                         "ninja: error: build.ninja:1: duplicate rule 'r'\nrule r\n      ^ near here\n",
                         files={"inc.ninja": "include build.ninja\n"})

    def test_same_subninja_twice(self):
        res = self.go(self.R + "subninja sub.ninja\nsubninja sub.ninja\n",
                      files={"sub.ninja": "rule q\n  command = echo q > $out\n"})
        self.assertRun(res, 0, "ninja: no work to do.\n")


# ---------------------------------------------------------------------------------------------
# ninja_required_version
# ---------------------------------------------------------------------------------------------
class TestRequiredVersion(ManifestCase):

    R = "rule r\n  command = echo $x > $out\nbuild o: r\n"

    def version(self, v):
        return self.go("ninja_required_version = %s\n" % v + self.R, "-t", "commands")

    def fatal(self, v):
        return ("ninja: fatal: ninja version (1.13.2) incompatible with build file "
                "ninja_required_version version (%s).\n" % v)

    def warning(self, v):
        return ("ninja: warning: ninja executable version (1.13.2) greater than build file "
                "ninja_required_version (%s); versions may be incompatible.\n" % v)

    def test_compatible_versions_are_silent(self):
        for v in ["1.13", "1.13.2", "1.13.9", "1", "1.0", "1.12.99", "1.2.3.4", "1.x", "1.13extra"]:
            with self.subTest(v=v):
                self.assertRun(self.version(v), 0, "echo  > o\n")

    def test_newer_minor_is_fatal(self):
        self.assertRun(self.version("1.15"), 1, "", self.fatal("1.15"))

    def test_the_1_14_language_is_accepted(self):
        # ronin reads 1.14's $^ escape, so a manifest requiring 1.14 is no
        # error (Ninja 1.13.2 refuses it; doc/manual.md says so).
        for v in ["1.14", "1.14.0", "1.14.0.git"]:
            with self.subTest(v=v):
                self.assertRun(self.version(v), 0, "echo  > o\n")

    def test_newer_major_is_fatal(self):
        self.assertRun(self.version("2"), 1, "", self.fatal("2"))

    def test_older_major_warns(self):
        self.assertRun(self.version("0.9"), 0, "echo  > o\n", self.warning("0.9"))

    def test_garbage_version_warns(self):
        self.assertRun(self.version("abc"), 0, "echo  > o\n", self.warning("abc"))

    def test_empty_version_warns(self):
        self.assertRun(self.version(""), 0, "echo  > o\n", self.warning(""))

    def test_version_from_variable_is_fatal_early(self):
        # Checked as soon as the line is parsed: later syntax errors are never reached.
        res = self.go(self.R + "v = 1.20\nninja_required_version = $v\nbad line here\n", "-t", "commands")
        self.assertRun(res, 1, "", self.fatal("1.20"))

    def test_version_in_subninja(self):
        res = self.go("subninja s.ninja\n" + self.R, "-t", "commands",
                      files={"s.ninja": "ninja_required_version = 0.1\n"})
        self.assertRun(res, 0, "echo  > o\n", self.warning("0.1"))

    def test_version_on_edge_is_plain_binding(self):
        self.assertCommands("rule r\n  command = echo $ninja_required_version > $out\nbuild o: r\n"
                            "  ninja_required_version = 5.0\n", "echo 5.0 > o\n")


# ---------------------------------------------------------------------------------------------
# Parse error format
# ---------------------------------------------------------------------------------------------
class TestErrorFormat(ManifestCase):

    BAD = "bad $-escape (literal $ must be written as $$)"

    def test_basic_format(self):
        self.assertError("x 3\n", "ninja: error: build.ninja:1: expected '=', got identifier\nx 3\n  ^ near here\n")

    def test_line_number_counts(self):
        self.assertError("\n\n# c\nx: y\n", "ninja: error: build.ninja:4: expected '=', got ':'\nx: y\n ^ near here\n")

    def test_context_omitted_at_column_zero(self):
        self.assertError("= x\n", "ninja: error: build.ninja:1: unexpected '='\n\n")
        self.assertError(":\n", "ninja: error: build.ninja:1: unexpected ':'\n\n")
        self.assertError("||\n", "ninja: error: build.ninja:1: unexpected '||'\n\n")

    def test_lexing_error_at_column_zero(self):
        self.assertError("$x = 1\n", "ninja: error: build.ninja:1: lexing error\n\n")

    def test_expected_equals_got_lexing_error(self):
        self.assertError("x$ y = 1\n", "ninja: error: build.ninja:1: expected '=', got lexing error\nx$ y = 1\n ^ near here\n")

    def test_long_line_truncated(self):
        line = "x" * 60 + " = $%" + "b" * 30
        self.assertError(line + "\n", "ninja: error: build.ninja:1: %s\n%s...\n%s^ near here\n"
                         % (self.BAD, line[:72], " " * 63))

    def test_line_of_exactly_72_columns_gets_ellipsis(self):
        line = "x" * 67 + " = $%"
        self.assertEqual(len(line), 72)
        self.assertError(line + "\n", "ninja: error: build.ninja:1: %s\n%s...\n%s^ near here\n"
                         % (self.BAD, line, " " * 70))

    def test_line_of_71_columns_not_truncated(self):
        line = "x" * 66 + " = $%"
        self.assertError(line + "\n", "ninja: error: build.ninja:1: %s\n%s\n%s^ near here\n"
                         % (self.BAD, line, " " * 69))

    def test_error_at_column_71_still_has_context(self):
        line = "x" * 68 + " = $%" + "b" * 30
        self.assertError(line + "\n", "ninja: error: build.ninja:1: %s\n%s...\n%s^ near here\n"
                         % (self.BAD, line[:72], " " * 71))

    def test_context_omitted_at_column_72_or_more(self):
        self.assertError("x = " + "a" * 80 + " $%\n", "ninja: error: build.ninja:1: %s\n\n" % self.BAD)

    def test_error_in_other_file_uses_its_name(self):
        self.assertError("include sub/inc.ninja\n", "ninja: error: sub/inc.ninja:2: expected '=', got newline\nbad\n   ^ near here\n",
                         files={"sub/inc.ninja": "\nbad\n"})

    def test_missing_manifest(self):
        res = self.ninja()
        self.assertRun(res, 1, "", "ninja: error: loading 'build.ninja': No such file or directory\n")

    def test_missing_manifest_with_f(self):
        res = self.ninja("-f", "other.ninja")
        self.assertRun(res, 1, "", "ninja: error: loading 'other.ninja': No such file or directory\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
