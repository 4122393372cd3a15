#!/usr/bin/env python3
"""Generate src/engine/yaml/tests_oracle.rs: unit tests whose expected values come from
the oracle (npm yaml 2.9.0). Run from the repo root: python3 oracle/mktests.py"""
import json, subprocess, os

CASES = [
    # (name, yaml)
    ("tab_after_colon", "name:\tvalue\n"),
    ("tab_after_colon_seq_indicator", "key:\t- a\n"),
    ("tab_after_colon_flow", "key:\t[a]\n"),
    ("tab_after_colon_quoted", "key:\t\"x\"\n"),
    ("tab_after_colon_comment", "key:\t# c\n"),
    ("tab_after_dash", "- \tx\n"),
    ("tab_after_dash2", "-\tx\n"),
    ("tab_after_colon_nested_map", "key:\ta: b\n"),
    ("tab_after_colon_number", "key:\t-1\n"),
    ("tab_indent_top", "\tkey: v\n"),
    ("tab_indent_nested", "a:\n\tb: c\n"),
    ("tab_indent_after_spaces", "a:\n \tb: c\n"),
    ("tab_inside_plain", "a: b\tc\n"),
    ("tab_before_colon", "a\t: b\n"),
    ("multi_doc_dashes_space", "name: a\n--- \nb: 2\n"),
    ("multi_doc_dots", "a: 1\n...\nb: 2\n"),
    ("multi_doc_leading_dots", "...\na: 1\n"),
    ("doc_end_then_comment", "a: 1\n...\n# c\n"),
    ("doc_end_trailing_content", "a: 1\n... x\n"),
    ("directive_without_doc_start", "%YAML 1.2\na: 1\n"),
    ("nulls", "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: nUll\n"),
    ("bools", "a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: yes\nh: on\ni: y\nj: tRue\n"),
    ("ints", "a: 017\nb: +1\nc: 0o17\nd: 0x1F\ne: -0x1F\nf: 1_000\ng: 0b11\nh: -0\ni: 0o8\nj: 0x\n"),
    ("big_ints", "a: 9007199254740993\nb: 123456789012345678901234567890\nc: 0xFFFFFFFFFFFFFFFFFF\n"),
    ("floats", "a: 1.\nb: .5\nc: 1e3\nd: -1.5E-3\ne: .inf\nf: -.Inf\ng: +.INF\nh: .nan\ni: .NaN\nj: 1e400\nk: 12e\nl: .\n"),
    ("timestamp_untagged_is_string", "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\n"),
    ("timestamps", "a: !!timestamp 2001-12-14\nb: !!timestamp 2001-12-14t21:59:43.10-05:00\nc: !!timestamp 2001-12-14 21:59:43.10\nd: !!timestamp 0099-01-01\ne: !!timestamp 2001-13-45\n"),
    ("timestamp_invalid", "a: !!timestamp abc\n"),
    ("tag_str", "a: !!str 123\nb: !!str\nc: !!str true\n"),
    ("tag_int_bad", "a: !!int abc\n"),
    ("tag_float_int_like", "a: !!float 1\nb: !!int 1.0\n"),
    ("tag_bool_yes", "a: !!bool yes\n"),
    ("tag_null", "a: !!null ~\nb: !!null x\n"),
    ("tag_binary", "a: !!binary aGVsbG8=\nb: !!binary |\n  aGVs\n  bG8=\n"),
    ("tag_set", "a: !!set {x, y}\n"),
    ("tag_set_bad", "a: !!set {x: 1}\n"),
    ("tag_omap", "a: !!omap [x: 1, y: 2]\n"),
    ("tag_omap_dup", "a: !!omap [x: 1, x: 2]\n"),
    ("tag_pairs", "a: !!pairs [x: 1, x: 2]\n"),
    ("tag_unknown_local", "a: !foo bar\n"),
    ("tag_map_on_seq", "a: !!map [x]\n"),
    ("tag_verbatim", "a: !<tag:yaml.org,2002:str> 1\n"),
    ("tag_nonspecific", "a: ! 12\n"),
    ("tag_undeclared_handle", "a: !e!x 1\n"),
    ("dup_keys", "name: a\nname: b\n"),
    ("dup_keys_numeric", "1: a\n0x1: b\n"),
    ("dup_keys_quoted", "name: a\n\"name\": b\n"),
    ("dup_keys_int_vs_string", "1: a\n\"1\": b\n"),
    ("dup_keys_null", "~: a\nnull: b\n"),
    ("merge_key_is_plain", "a: &x {b: 1}\n<<: *x\n"),
    ("merge_tagged", "a: &x {b: 1, c: 2}\nd:\n  !!merge <<: *x\n  c: 3\n"),
    ("aliases", "a: &x [1, 2]\nb: *x\nc: &s str\nd: *s\n"),
    ("alias_before_anchor", "a: *x\nb: &x 1\n"),
    ("alias_count_ok", "a: &a x\n" + "".join(f"b{i}: *a\n" for i in range(99))),
    ("alias_count_exceeded", "a: &a x\n" + "".join(f"b{i}: *a\n" for i in range(100))),
    ("billion_laughs", "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"),
    ("alias_empty", "a: *\n"),
    ("anchor_empty", "a: &\n"),
    ("key_null_bool_number", "~: a\ntrue: b\n1.5: c\n1e21: d\n-0: e\n0.1: f\n.nan: g\n.inf: h\n"),
    ("key_collection", "? [a, b]\n: c\n{x: 1}: d\n"),
    ("key_comment_after_comma", "metadata:\n  ? [a, # c\n   b]\n  : 1\n"),
    ("key_comment_before_comma", "? [a # c\n , b]\n: 1\n"),
    ("key_comment_own_line", "? [a,\n # c1\n # c2\n b]\n: 1\n"),
    ("key_blank_line", "? [a,\n\n b]\n: 1\n"),
    ("key_comment_after_bracket", "? [ # c\n a, b]\n: 1\n"),
    ("key_comment_trailing_comma", "? [a, b, # c\n ]\n: 1\n"),
    ("key_comment_nested", "? [[a] # c\n , {b: 1, # d\n c: 2}]\n: 1\n"),
    ("key_comment_implicit_pair", "? [a: 1 # c\n , b]\n: 1\n"),
    ("key_comment_map_key_value", "? {a # c\n : 1, b # d\n , c: 2 # e\n }\n: 1\n"),
    ("key_comment_omap", "? !!omap [a: 1, # c\n b: 2]\n: 1\n"),
    ("key_block_seq_comment", "? - a # c\n  - b\n: 1\n"),
    ("key_block_seq_comment_lines", "? - a # c\n      # d\n  - b\n  # e\n  - c\n: 1\n"),
    ("key_block_seq_blank_line", "metadata:\n  ? - a\n\n    - b\n  : 1\n"),
    ("key_block_map_comment", "? a: 1 # c\n  b: 2\n: 1\n"),
    ("key_block_map_comment_line", "? a: 1\n  # c\n  b: 2\n: 1\n"),
    ("key_block_map_explicit_key_comment", "? ? a # c\n  : 1\n: 2\n"),
    ("key_block_map_value_comment_before", "? a: # c\n    1\n: 2\n"),
    ("dropped_seq_tab_indent", "? x\n-\tb: 1\n"),
    ("dropped_seq_dup_keys", "? x\n- {a: 1, a: 2}\n"),
    ("dropped_seq_bad_int", "name: a\n? x: 1\n- !!int abc\n"),
    ("dropped_seq_empty_alias", "? x\n- *\nk: 1\n"),
    ("dropped_seq_empty_anchor", "? x\n- &\nk: 1\n"),
    ("dropped_seq_undeclared_handle", "a: 1\n? x: v\n-  !e!x y\nk: 1\n"),
    ("dropped_seq_block_in_flow", "? x\n- [a, {b: - c}]\nk: 1\n"),
    ("dropped_seq_reserved_char", "? x: 1\n-\t@x\nk: 1\n"),
    ("dropped_seq_unclosed_quote_swallows_rest", "? x\n- 'unterm\nk: 1\n"),
    ("dropped_seq_quote_ends_at_unindented_line", "? x\n- 'a\nk: 'v'\n"),
    ("dropped_seq_unclosed_flow", "? x\n- [a, b\n# c\n  c: d\nk: 1\n"),
    ("dropped_seq_flow_end_at_seq_column", "? x\n- [*\n]\nk: 1\n"),
    ("dropped_seq_block_scalar", "? x\n- |\n  *\n- *\nk: 1\n"),
    ("dropped_seq_nested_map", "m:\n  ? x\n  - *\n  k: 1\n"),
    ("dropped_seq_error_after_it", "? x\n- *\nk: [a\n"),
    ("dropped_seq_after_key_with_empty_value", "? x:\n- a\n"),
    ("dropped_seq_after_key_with_empty_value_error", "? x:\n- *\n-x: 1\n"),
    ("dropped_seq_two_sequences", "? x\n- *\n? y\n- !e!x z\nk: 1\n"),
    ("dropped_seq_anchor_not_set", "? x\n- &a [1\nk: *a\n"),
    ("set_null_comment_line_indented", "!!set\na: ~\n  # c"),
    ("set_null_comment_line_indented_then_entry", "!!set\na: ~\n  # c\nb:"),
    ("set_null_comment_line_after_blank", "!!set\na: ~\n\n  # c"),
    ("set_null_comment_line_not_indented", "!!set\na: ~\n# c\n  # d"),
    ("set_null_comment_line_tab_first", "!!set\na: ~\n\t# c"),
    ("set_null_comment_line_nested", "x: !!set\n  a: ~\n    # c\n  b: ~\n"),
    ("set_null_comment_line_at_map_indent", "x: !!set\n  a: ~\n  # c\n"),
    ("stray_colon_block_scalar_not_past_colon", "k: 1\n : |\n x"),
    ("stray_colon_block_scalar_past_colon", "k: 1\n : |\n  x"),
    ("stray_colon_block_scalar_blank_first", "k: 1\n : |\n\n x"),
    ("stray_colon_block_scalar_nested", "a:\n  b: 1\n   : |\n   x"),
    ("stray_colon_block_scalar_then_entry", "k: 1\n : |-\n x\nj: 2"),
    ("stray_colon_block_scalar_comment_line", "k: 1\n : |\n # c\n"),
    ("stray_colon_block_scalar_less_indented_line", "k: 1\n : |\n  x\n y\n"),
    ("stray_colon_block_scalar_explicit_key", "? x\n : |\n x\n"),
    ("key_alias_in_flow_map", "x: &x 1\n? {*x : 1}\n: 2\n"),
    ("key_proto", "__proto__: 1\nconstructor: 2\n"),
    ("key_order", "b: 1\na: 2\n2: x\n1: y\n10: z\n-1: w\n01: v\n4294967295: u\n4294967294: t\n"),
    ("key_reassign_keeps_position", "a: 1\nb: 2\n\"a\": 3\n"),
    ("top_empty", ""),
    ("top_comment_only", "# just a comment\n"),
    ("top_scalar", "hello\n"),
    ("top_seq", "- a\n- b\n"),
    ("top_date", "!!timestamp 2020-02-02\n"),
    ("nested_compact", "description: use: this\n"),
    ("nested_compact_continuation", "a: b\n  c: d\n"),
    ("implicit_key_multiline", "a\nb: c\n"),
    ("implicit_key_no_value", "a: b\nc\n"),
    ("flow_unclosed_seq", "description: [unclosed\n"),
    ("flow_unclosed_seq_eof", "description: [unclosed"),
    ("flow_unclosed_map", "description: {unclosed\n"),
    ("flow_unclosed_root", "[a, b\n"),
    ("flow_insufficient_indent", "a: [b,\nc]\n"),
    ("flow_plain_colon_brace", "a: {b:{c: d}, e:[f]}\n"),
    ("quote_unterminated", "a: \"unterminated\n"),
    ("quote_bad_continuation", "a: 'b\nc'\n"),
    ("escape_invalid", "a: \"\\q\"\n"),
    ("escapes", "a: \"\\t\\n\\x41\\u263A\\U0001F600\\\\\\\"\\/\\N\\_\\e\\0\"\n"),
    ("block_literal", "a: |\n  line1\n  line2\n"),
    ("block_folded", "a: >\n  folded\n  text\n\n  para\n"),
    ("block_chomp", "a: |-\n  x\nb: |+\n  x\n\nc: >2\n    y\n"),
    ("block_whitespace_lines", "m: >-\n  a\n   \n   \nv: 5\n"),
    ("block_tab_trailing", "k: |\n  x\n\ty\n"),
    ("block_in_seq", "k:\n- >-\n  text\n  end\n- |\n  x\n"),
    ("block_header_extra", "a: |x\n  y\n"),
    ("comment_no_space", "a: b #c\nd: e#f\n"),
    ("comment_must_be_separated", "a: \"b\"#c\n"),
    ("seq_on_same_line_as_key", "a: - b\n"),
    ("crlf", "a: b\r\nc:\r\n  - d\r\n"),
    ("unicode_utf16_column", "a: 𝄞\nb: c: d\n"),
    ("long_line_error", "description: " + "word " * 30 + "x: y\n"),
    ("pretty_previous_line", "a: 1\na: 2\n"),
    ("key_too_long", "k" * 1025 + ": v\n"),
    ("plain_reserved_char", "a: @b\n"),
    ("plain_directive_char", "a: %b\n"),
    ("flow_block_indicator", "a: [|]\n"),
    ("empty_values", "a:\nb: \"\"\nc: ''\nd: !!str\n"),
    ("explicit_key", "? a\n: b\n? c\n"),
    ("nested", "metadata:\n  tags: [a, b]\n  nested:\n    deep: true\n  list:\n    - x: 1\n      y: 2\n    - z\n"),
    ("deep_flow", "a: " + "[" * 1000 + "]" * 1000 + "\n"),
    # U+FEFF stripped at the start of the first content line: npm yaml's parser counts no
    # indentation on that line (saphyr patch 11)
    ("bom_indented_map", "\ufeff  a: 1\n  b: 2\n"),
    ("bom_indented_map_nests", "\ufeff  a:\n  b: 2\n"),
    ("bom_indented_map_then_col0", "\ufeff  a: 1\nb: 2\n"),
    ("bom_seq_item_same_line", "\ufeff- a\n"),
    ("bom_seq_empty_items", "\ufeff- - \n- b\n"),
    ("bom_indented_block_scalar", "\ufeff  a: |\n   x\n"),
    ("set_null_value_comment", "!!set\na: # c\nb:\n"),
    ("set_null_value_comment_next_line", "!!set\na:\n# c\nb:\n"),
    ("set_comment_after_blank_line", "!!set\na:\n\n# c\nb:\n"),
    ("map_comment_trailing_content", "a: 1\n\n[x]: 2\n"),
    ("map_comment_deeper_comment", "a: 1\n  # c\n[x]: 2\n"),
    ("root_block_scalar_tab_line", ">+\n\tx"),
    ("stray_indented_colon_after_entry", "name: a\ndescription: b\n : c\n"),
    ("stray_colon_after_nested_map", "a:\n  b: 1\n : v\n"),
    ("stray_colon_inner_map", "m:\n  k: 1\n   : v\n  z: 2\n"),
    ("stray_colon_after_flow_value", "k: [a,\n  b]\n : v\n"),
    ("stray_colon_twice_dup", "k: 1\n : v\n   : w\n"),
    ("stray_colon_after_explicit_key", "? x\n : v\n"),
    ("stray_colon_incomplete_nests", "k: &a\n : v\n"),
    ("stray_colon_block_seq_same_line", "k: 1\n : - a\n"),
    ("empty_key_block_seq_same_line", ": - a\n"),
    ("explicit_key_block_seq_same_line", "? x\n : - a\n"),
    ("stray_colon_plain_continuation", "k: 1\n : v\n w\n"),
    ('y11_bools', "%YAML 1.1\n--- \na: [y, Y, yes, Yes, YES, true, True, TRUE, on, On, ON]\nb: [n, N, no, No, NO, false, False, FALSE, off, Off, OFF]\nc: [yEs, oN, nO, tRUE, ye]\n"),
    ('y11_doc_start_tab', "%YAML 1.1\n---\t\nuser-invocable: yes\ndescription: on\n"),
    ('y11_doc_start_comment', "%YAML 1.1 # c\n--- # c\na: off\n"),
    ('y11_ints_bin_oct', "%YAML 1.1\n--- \na: [0b101, 0b_1, -0b11, +0b1_0, 0b, 0b2, 0B1, 017, 0_17, -017, +017, 08, 09, 0_, 00, -0, -00]\n"),
    ('y11_ints_dec_hex', "%YAML 1.1\n--- \na: [1_000, 1__0, _1, 1_, -1_000, 0x1F, 0x_1f, -0x1F, +0xff, 0x, 0xg, 0X1, 0x_, 0o17, 0o8]\n"),
    ('y11_big_ints', "%YAML 1.1\n--- \na: 0b10101010101010101010101010101010101010101010101010101010101010101010101010101010\nb: 01777777777777777777777\nc: 0xffffffffffffffffffff\nd: 123_456_789_012_345_678_901\n"),
    ('y11_sexagesimal', "%YAML 1.1\n--- \na: [1:30, 1:30:00, -1:30, +1:30, 190:20:30, 1_0:30, 1:60, 1:5, 1:05, 12:345, 1:30:, 1::30, 0:0, 1:3_0]\n"),
    ('y11_sexagesimal_float', "%YAML 1.1\n--- \na: [1:30.5, 1:30., 1:30._5, -1:30.5, 20:30:15.75, 2:3.4:5, 1:30.5.5]\n"),
    ('y11_floats', "%YAML 1.1\n--- \na: [1.0, 1., .5, ., -., +., ._, 1_0.5, 1_000.000_1, 1.0_0, _1.5, 1._]\n"),
    ('y11_floats_exp', "%YAML 1.1\n--- \na: [1e5, 1E5, 1e+5, 1e-5, 1.5e3, .e5, e5, E5, 1_e5, 1.e5, 1e, 1e5.5, 685.230_15e+03, +e1, 1e1_0]\n"),
    ('y11_floats_special', "%YAML 1.1\n--- \na: [.inf, -.Inf, +.INF, .nan, .NaN, .NAN, -.nan, 1.0e400, -0.0]\n"),
    ('y11_nulls', "%YAML 1.1\n--- \na: [~, null, Null, NULL, nULL, '', ]\nb:\n"),
    ('y11_timestamps', "%YAML 1.1\n--- \na: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10 -5\nd: 2001-12-15T02:59:43.1Z\ne: 2002-13-40\nf: 0099-06-30\ng: 2001-12-14x\nh: 2001-12-14 21:59:43 +05:30\n"),
    ('y11_number_keys', "%YAML 1.1\n--- \n0b101: a\n1_000: b\n1:30: c\n017: d\n0x1F: e\n1_0.5: f\n.5: g\ne5: h\n"),
    ('y11_bool_null_keys', "%YAML 1.1\n--- \nyes: a\nOff: b\n~: c\ny2: d\n"),
    ('y11_dup_yes_true', "%YAML 1.1\n--- \nyes: 1\ntrue: 2\n"),
    ('y11_dup_on_y', "%YAML 1.1\n--- \non: 1\nY: 2\n"),
    ('y11_dup_hex_dec', "%YAML 1.1\n--- \n0x10: 1\n16: 2\n"),
    ('y11_dup_sexagesimal', "%YAML 1.1\n--- \n1:30: 1\n90: 2\n"),
    ('y11_dup_bin_oct', "%YAML 1.1\n--- \n0b1111: 1\n017: 2\n"),
    ('y11_no_dup_dates', "%YAML 1.1\n--- \na:\n  ? !!str x\n  : 2001-12-14\n  y: 2001-12-14\n"),
    ('y11_merge', "%YAML 1.1\n--- \nbase: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n"),
    ('y11_merge_list', "%YAML 1.1\n--- \na: &a {x: 1}\nb: &c {x: 2, z: 3}\nm:\n  <<: [*a, *c]\n"),
    ('y11_merge_twice', "%YAML 1.1\n--- \nm:\n  <<: {a: 1}\n  <<: {b: 2, a: 3}\n"),
    ('y11_merge_quoted_not', "%YAML 1.1\n--- \nm:\n  \"<<\": {a: 1}\n  x: <<\n  l: [<<]\n"),
    ('y11_merge_str_tag', "%YAML 1.1\n--- \nm:\n  !!str <<: {a: 1}\n  ! <<: {b: 2}\n"),
    ('y11_merge_flow', "%YAML 1.1\n--- \nm: {<<: {a: 1}, b: 2}\nn: [<<: {c: 1}]\n"),
    ('y11_merge_bad_source', "%YAML 1.1\n--- \nm:\n  <<: 1\n"),
    ('y11_merge_pairs_source', "%YAML 1.1\n--- \nm:\n  <<: !!pairs [a: 1]\n"),
    ('y11_merge_anchor_symbol', "%YAML 1.1\n--- \nm:\n  &m <<: {a: 1}\n  b: *m\n"),
    ('y11_tags_scalar', "%YAML 1.1\n--- \na: [!!bool yes, !!bool Off, !!int 0b11, !!int 1:30, !!int 1_0, !!float 1:30.5, !!float 1_0.5, !!null ~, !!str yes, !!merge <<]\n"),
    ('y11_tags_unresolved', "%YAML 1.1\n--- \na: [!!bool x, !!int 0o7, !!int 1.5, !!float 1, !!timestamp x, !!merge x]\n"),
    ('y11_tags_collections', "%YAML 1.1\n--- \na: !!set {x, y}\nb: !!omap [x: 1]\nc: !!pairs [x: 1, x: 2]\nd: !!set [x]\ne: !!omap {x: 1}\nf: !!binary {x: 1}\ng: !!timestamp [x]\n"),
    ('y11_collection_key', "%YAML 1.1\n--- \n? [yes, 0b101, 017, 0x1F, 1:30, 1_000, 1.50, 1e5, ~, <<, off, !!str on, '1_0', !!int 1:30]\n: x\n"),
    ('y11_collection_key_tags', "%YAML 1.1\n--- \n? {a: !!binary {x: 1}, b: !!merge {}, c: -1:30.5, d: 0b10000000000000000000000000000000000000000000000000000000000001}\n: x\n"),
    ('y12_directive_is_core', "%YAML 1.2\n--- \na: yes\nb: 0b1\nc: 1:30\n"),
    ('y13_directive_warning_core', "%YAML 1.3\n--- \na: yes\nb: 1_000\n"),
    ('y20_directive_warning_core', "%YAML 2.0\n--- \na: on\n"),
    ('y11_then_12', "%YAML 1.1\n%YAML 1.2\n--- \na: yes\n"),
    ('y12_then_11', "%YAML 1.2\n%YAML 1.1\n--- \na: yes\n"),
    ('y11_then_13', "%YAML 1.1\n%YAML 1.3\n--- \na: yes\n"),
    ('y11_bad_version', "%YAML 1.1.1\n--- \na: yes\n"),
    ('y11_two_parts', "%YAML 1.1 1.2\n--- \na: !foo yes\n"),
    ('y11_without_doc_start', "%YAML 1.1\na: yes\nb: true\n"),
    # a flow collection key on an indented line after an entry with a value: the line's space
    # token is an item of its own in npm yaml's parser ("Map comment with trailing content")
    ("map_comment_indented_flow_key", "m:\n  k: 1\n  [f]: 1\n"),
    ("map_comment_indented_flow_map_key", "m:\n  k: 1\n  {f: 1}: 1\n"),
    ("map_comment_indented_flow_key_in_seq", "- k: 1\n  [f]: 1\n"),
    ("map_comment_indented_flow_key_after_nested_map", "m:\n  k:\n    x: 1\n  [f]: 1\n"),
    ("map_comment_indented_flow_key_after_multiline_flow", "m:\n  k: [x,\n    y]\n  [f]: 1\n"),
    ("map_comment_indented_flow_key_last_reported", "m:\n  k: 1\n  [f]: 1\n  [g]: 2\n"),
    ("map_comment_indented_flow_key_first_entry_ok", "m:\n  [f]: 1\n  k: 1\n"),
    ("map_comment_indented_flow_key_after_empty_ok", "m:\n  k:\n  [f]: 1\n"),
    ("map_comment_indented_flow_key_after_block_scalar_ok", "m:\n  k: |\n    x\n  [f]: 1\n"),
    ("map_comment_indented_flow_key_after_tag_only_ok", "m:\n  k: !!str\n  [f]: 1\n"),
    ("map_comment_root_flow_key_ok", "k: 1\n[f]: 1\n"),
    # a `\r` not followed by `\n` is content, but white space after `-`, `?`, `:` and before `#`
    ("lone_cr_after_colon", "k:\r v\n"),
    ("lone_cr_after_colon_no_space", "a:\rb\n"),
    ("lone_cr_after_dash", "-\rx\n"),
    ("lone_cr_after_question", "?\rx\n"),
    ("lone_cr_after_colon_in_flow", "{a:\rb}\n"),
    ("lone_cr_before_seq", "a:\r- b\n"),
    ("lone_cr_before_comment", "a: x\r#c\n"),
    ("lone_cr_after_space_before_comment", "a: x \r#c\n"),
    ("lone_cr_value_start_before_comment", "a: \r#c\n"),
    ("lone_cr_after_anchor", "a: &x\rb\n"),
    ("lone_cr_after_anchor_and_space", "a: &x \rb\n"),
    ("lone_cr_in_key", "a\r: b\n"),
    ("lone_cr_in_flow_seq", "a: [b,\rc]\n"),
    # a merge whose source is a !!set: each set value is destructured as [key, value]
    ("merge_set_source_destructures", "m:\n  !!merge <<: !!set {ab, c}\n  x: 1\n"),
    ("merge_set_source_empty_string", "m:\n  !!merge <<: !!set {\"\"}\n"),
    ("merge_set_source_list_key", "m:\n  !!merge <<: !!set {[p, q]}\n"),
    ("merge_set_source_not_iterable", "m:\n  !!merge <<: !!set {1}\n"),
    ("merge_set_source_astral", "m:\n  !!merge <<: !!set {\"\U0001F600x\"}\n"),
    ("merge_set_source_yaml11", "%YAML 1.1\n---\nm:\n  <<: !!set {ab}\n"),
]

RELAXED = {'deep_flow'}

def rs(s):
    """Rust string literal for s."""
    out = ['"']
    for ch in s:
        if ch == '\\': out.append('\\\\')
        elif ch == '"': out.append('\\"')
        elif ch == '\n': out.append('\\n')
        elif ch == '\t': out.append('\\t')
        elif ch == '\r': out.append('\\r')
        elif ord(ch) < 0x20 or ch in '\u2028\u2029\ufeff' or 0xd800 <= ord(ch) <= 0xdfff:
            out.append('\\u{%x}' % ord(ch))
        else: out.append(ch)
    out.append('"')
    return ''.join(out)

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    inputs = [c[1] for c in CASES]
    path = '/tmp/mktests.json'
    json.dump(inputs, open(path, 'w'))
    out = subprocess.run(['node', os.path.join(here, "oracle.js"), path], capture_output=True, text=True, check=True).stdout
    out = subprocess.run(['node', os.path.join(here, 'oracle.js'), path], capture_output=True, text=True, check=True).stdout
    results = [json.loads(l) for l in out.split('\n') if l]
    lines = ['// @generated by tools/yaml-oracle/mktests.py from npm yaml 2.9.0 results; do not edit by hand.',
             '// Each test parses an input and compares with what `YAML.parse` produced.',
             '',
             'use super::tests::{check_err, check_err_relaxed, check_ok};',
             '']
    for (name, text), res in zip(CASES, results):
        lines.append('#[test]')
        lines.append(f'fn oracle_{name}() {{')
        lines.append(f'    let text = {rs(text)};')
        if 'ok' in res:
            lines.append(f'    let expected = r##"{json.dumps(res["ok"])}"##;')
            lines.append(f'    let warnings: &[&str] = &[{", ".join(rs(w) for w in res["warnings"])}];')
            lines.append('    check_ok(text, expected, warnings);')
        else:
            e = res['err']
            pos = e['pos']
            p = f'Some(({pos["line"]}, {pos["col"]}))' if pos else 'None'
            if name in RELAXED:
                lines.append('    // the position npm yaml reports here depends on where its stack overflowed')
                lines.append(f'    check_err_relaxed(text, {rs(e["name"])}, {rs(e["message"])});')
            else:
                lines.append(f'    check_err(text, {rs(e["name"])}, {rs(e["message"])}, {p}, {rs(e["pretty"])});')
        lines.append('}')
        lines.append('')
    src = '\n'.join(lines)
    open(os.path.join(root, 'src/engine/yaml/tests_oracle.rs'), 'w').write(src)
    print(f'{len(CASES)} tests')

main()
