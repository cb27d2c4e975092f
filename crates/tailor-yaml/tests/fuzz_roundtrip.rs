//! Inputs the `yaml_roundtrip` fuzz target found (November 2026 long run, reduced by hand):
//! each must read back as it was, and writing it a second time must give the same bytes.
use tailor_yaml::{emit_document, parse_stream, Document, EmitOptions};

fn one(src: &str) -> Document {
    let mut docs = parse_stream(src).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    assert_eq!(docs.len(), 1, "{src:?}");
    docs.remove(0)
}

/// The fuzz target's property: the emitted text reads back to the same data, tags and
/// anchors, and emitting that (with the same options) gives the same bytes. Returns the text.
fn fixpoint(src: &str) -> String {
    let doc = one(src);
    let opts = EmitOptions {
        wide_sequences: doc.wide_sequences,
    };
    let once = emit_document(&doc, opts);
    let again = one(&once);
    assert_eq!(
        again.root.to_json().ok(),
        doc.root.to_json().ok(),
        "{src:?} -> {once:?}"
    );
    assert_eq!(props(&again.root), props(&doc.root), "{src:?} -> {once:?}");
    let twice = emit_document(&again, opts);
    assert_eq!(once, twice, "not a fixpoint: {src:?}");
    once
}

/// Every tag and anchor in document order.
fn props(n: &tailor_yaml::Node) -> Vec<(Option<String>, Option<String>)> {
    let mut out = vec![(n.tag().map(str::to_string), n.anchor().map(str::to_string))];
    match &n.value {
        tailor_yaml::Value::Mapping(pairs) => {
            for p in pairs {
                out.extend(props(&p.key));
                out.extend(props(&p.value));
            }
        }
        tailor_yaml::Value::Sequence(items) => items.iter().for_each(|i| out.extend(props(i))),
        _ => {}
    }
    out
}

#[test]
fn properties_alone_on_a_line_before_a_block_sequence() {
    // Written for `--- &a` / `-`, then refused: "block sequence entries are not allowed".
    assert_eq!(fixpoint("--- &a\n- x\n"), "&a\n- x\n");
    assert_eq!(fixpoint("&a\n- x\n"), "&a\n- x\n");
    assert_eq!(fixpoint("k:\n  !t\n  - x\n"), "k: !t\n- x\n");
}

#[test]
fn explicit_collection_key_keeps_its_properties() {
    // `? !l &x` above a mapping key lost both.
    assert_eq!(fixpoint("?   !l &x\n iV:\n"), "? &x !l\n  iV:\n:\n");
    assert_eq!(fixpoint("? &y\n- a\n: v\n"), "? &y\n  - a\n: v\n");
}

#[test]
fn foot_comment_of_a_sequence_is_read_back_where_it_was_written() {
    // Written at the dash's column, the comment went to the next key (wide sequence) or
    // below the `:` of an explicit key on the next trip.
    assert_eq!(
        fixpoint("a:\n  - x\n    # c\nb: 1\n"),
        "a:\n  - x\n    # c\nb: 1\n"
    );
    // An indentless sequence in an explicit key: the `:` goes on, so the comment opens the
    // value (go-yaml writes it there too).
    assert_eq!(fixpoint("?\n- a\n # c\n: v\n"), "? - a\n: v\n# c\n");
    fixpoint("- - a\n    # c\n- b\n");
    // Compact and top-level sequences keep go-yaml's placement: after an indentless
    // sequence whose mapping goes on, the comment opens the next key.
    assert_eq!(fixpoint("a:\n- x\n  # c\nb: 1\n"), "a:\n- x\n# c\nb: 1\n");
    assert_eq!(fixpoint("- a\n  # c\n- b\n"), "- a\n# c\n- b\n");
}

#[test]
fn comments_before_an_explicit_key_stay_above_it() {
    // The key's sequence took them as its first item's head, written after `?`.
    assert_eq!(fixpoint("a:\n#\n? -\n:\n"), "a:\n#\n? -\n:\n");
    assert_eq!(fixpoint("a:\n# c\n? - x\n: v\n"), "a:\n# c\n? - x\n: v\n");
}

#[test]
fn head_comment_of_an_explicit_keys_first_entry_goes_below_the_indicator() {
    // Written on the `?` line it was read back as a comment of the key itself.
    assert_eq!(fixpoint("?\n  # c\n  - x\n:\n"), "?\n  # c\n  - x\n:\n");
    // (A comment after the dash is the item's line comment.)
    assert_eq!(fixpoint("?\n- # c\n  x\n:\n"), "? - x # c\n:\n");
    assert_eq!(fixpoint("?\n  # c\n  a: b\n:\n"), "?\n  # c\n  a: b\n:\n");
}

#[test]
fn comment_above_root_properties_stays_above_them() {
    // A document head comment is written without its blank line; read back it opened the
    // first key, which is written below the root's properties.
    assert_eq!(fixpoint("# c\n\n!t\na: 1\n"), "# c\n!t\na: 1\n");
    assert_eq!(fixpoint("# c\n&x\n- a\n"), "# c\n&x\n- a\n");
    // Properties before the first key, not the mapping: the comment is the key's.
    assert_eq!(fixpoint("# c\n!t a: 1\n"), "# c\n!t a: 1\n");
}

#[test]
fn properties_on_the_line_below_the_roots_keep_their_key() {
    // `! -dashreid-:` below `!` was read as the plain key `! -dashreid-`.
    let d = one("!\n# c\n! k: v\n");
    let pairs = d.root.pairs().unwrap();
    assert_eq!(
        (pairs[0].key.tag(), pairs[0].key.as_str()),
        (Some("!"), Some("k"))
    );
    assert_eq!(d.root.tag(), Some("!"));
    fixpoint("!\n# c\n! k: v\n");
    fixpoint("&a\n&b k: v\n");
}

#[test]
fn first_key_comment_of_an_item_is_written_at_the_dash() {
    // Written two columns in above `- `, it was read back as the item's and moved out.
    assert_eq!(fixpoint("-\n  # c\n  a: 1\n-\n"), "# c\n- a: 1\n-\n");
    fixpoint("k:\n- # c\n  a: 1\n");
}

/// go-yaml's scanner keeps a comment line to its line break, blanks after its last word
/// included, and kpt writes them back; an object written from its tree did drop them
/// (corpus: istio's and argo-cd's comments, `-o resource-list`).
#[test]
fn comments_keep_their_trailing_blanks() {
    assert_eq!(
        fixpoint("# head \t\nk: v # line  \n# foot \n"),
        "# head \t\nk: v # line  \n# foot \n"
    );
    assert_eq!(
        fixpoint("a:\r\n  # c \r\n  b: 1\r\n"),
        "a:\n  # c \n  b: 1\n"
    );
}

#[test]
fn foot_comment_of_a_block_scalar_item_stays_a_comment() {
    // The last item's foot was written under the item's content: after a block scalar, at
    // its content's column, where it reads back as more text (session-4 long run).
    assert_eq!(fixpoint("- |-\n  a\n # c\n"), "- |-\n  a\n# c\n");
    assert_eq!(
        fixpoint("k:\n  - |-\n    a\n   # c\n"),
        "k:\n  - |-\n    a\n   # c\n"
    );
    assert_eq!(
        fixpoint("?\n-\n # \n d\n\n r"),
        "? - |-\n    d\n    r\n   # \n:\n"
    );
    // Plain items keep their foot under the content.
    assert_eq!(fixpoint("k:\n  - a\n    # c\n"), "k:\n  - a\n    # c\n");
}

#[test]
fn block_scalar_starting_with_a_tab_gets_an_indentation_indicator() {
    // Written as `k: |` with the tab right after the indentation, which no reader accepts
    // (session-4 long run).
    assert_eq!(fixpoint("k: |1\n \tx\n"), "k: |2\n  \tx\n");
    assert_eq!(fixpoint("k: >1\n \tx\n"), "k: >2\n  \tx\n");
}

#[test]
fn comments_of_an_empty_flow_collection_on_the_first_line() {
    // Written below `a: []`, on the stream's first line, where go-yaml's scanner reads no
    // foot: a blank line after them would not come back (found by yaml_roundtrip, 2026-11-28).
    assert_eq!(
        fixpoint("a: [ # c\n\n  # d\n]\nc: {}\n"),
        "a: []\n# c\n# d\nc: {}\n"
    );
    assert_eq!(fixpoint("a: [b, # c\n]\nc: 1\n"), "a: [b, # c\n]\nc: 1\n");
}

#[test]
fn flow_comments_below_the_first_line() {
    // Comments right below the stream's first line close nothing (go-yaml's scanner has no
    // foot line there): a foot read further down, written on the first line's next line,
    // comes back a head, so no blank line is written after it (yaml_roundtrip, 2026-11-28).
    assert_eq!(
        fixpoint("\n  x: [a,\n    #:,c1\n\n   W # c2\n  ]"),
        "x: [a,\n  #:,c1\n  W, # c2\n]\n"
    );
    assert_eq!(
        fixpoint("data:\n !x: [a, # l1\n    # c1\n\n    # c2\n\n    # c3\n    b l1 ]\n"),
        "data: !x: [a, # l1\n  # c1\n  # c2\n\n  # c3\n  b l1]\n"
    );
}

#[test]
fn a_foot_after_an_empty_value_is_not_parted() {
    // An empty collection's comments below a pair whose value is empty: read back as the next
    // key's head (a `:` is the last token), so no blank line after them (yaml_roundtrip,
    // 2026-11-28).
    let once = fixpoint("? !a: [ # p\n  # d\n]\nk: 1\n");
    assert!(!once.contains("\n\n"), "{once:?}");
}

#[test]
fn a_foot_below_a_block_scalar_whose_text_ends_like_an_indicator() {
    // The scalar's last line ends in `?`: still a block scalar, which the comment below closes
    // (yaml_roundtrip, 2026-11-28: the blank line after it came and went).
    fixpoint("- |- # c\n  x ?\n# foot\n\n# head\n- y\n");
    fixpoint("-\n  #  a:-\n\n  n# * ? ? #  a:-B\n#  t\n-\n  #  a:-\n\n  n#\n");
}

#[test]
fn a_head_comment_of_a_nested_sequence_is_kept() {
    // It was dropped on the `- - a` line, where there is no place for it (yaml_roundtrip,
    // 2026-11-28; kpt writes `- # c` and the nested sequence below, which reads the same).
    assert_eq!(
        fixpoint("- x\n-\n  # c\n  - a: 2\n"),
        "- x\n-\n  # c\n  - a: 2\n"
    );
    fixpoint("-\n  # c\n  a: 2\n-\n  # c\n a: 2\n-\n # c\n  a:#: 1\n-\n 2\n-\n\n -\n  # c-\n  #\n  a: 2\n");
}

#[test]
fn a_foot_below_a_kept_block_scalar() {
    // The blank lines `|+` keeps are the scalar's: the comment right below them closes it
    // (yaml_roundtrip, 2026-11-28: a blank line between two comments came and went).
    fixpoint("k: |+\n\n\n# c\n\n# cc\n\n# c\nn: h\n");
}

#[test]
fn a_key_too_long_to_be_implicit_is_written_with_a_question_mark() {
    // A flow collection as a key, over 1,024 characters on one line, was written as an
    // implicit key, which libyaml does not read (yaml_roundtrip, 2026-11-28; so in 5349ff3).
    let long = vec!["abcdefghij"; 120].join(", ");
    let block = fixpoint(&format!("? [{long}]\n: v\n"));
    assert_eq!(block, format!("? [{long}]\n: v\n"));
    let flow = fixpoint(&format!("k: {{? [{long}]: v}}\n"));
    assert_eq!(flow, format!("k: {{? [{long}]: v}}\n"));
    // Short ones stay implicit.
    assert_eq!(fixpoint("[a, b]: v\n"), "[a, b]: v\n");
    assert_eq!(fixpoint("k: {[a]: v}\n"), "k: {[a]: v}\n");
}

#[test]
fn a_foot_below_a_folded_scalar() {
    // go-yaml writes a folded scalar's last break as an empty line, so the comment below it
    // reads back as the next key's head: no blank line after it (yaml_roundtrip, 2026-11-28).
    assert_eq!(
        fixpoint("x: >\n  a\n# c\n\ny: 1\n"),
        "x: >\n  a\n\n# c\ny: 1\n"
    );
    assert_eq!(
        fixpoint("x: |\n  a\n# c\n\ny: 1\n"),
        "x: |\n  a\n# c\n\ny: 1\n"
    );
    fixpoint("x: >2\n  `n\n #  iee: >2\n \ney: |+\n  k|+\n  kep\n");
}

#[test]
fn feet_one_after_another_are_parted_as_the_first() {
    // An empty collection's comments and the pair's foot below it, on the stream's first
    // line's next lines: one run for the parser, which reads no foot there (yaml_roundtrip,
    // 2026-11-28: the second was parted by a blank line that did not come back).
    fixpoint("a: [ #p\n  # c\n\n  #x\n  # c\n]\n  #d\n \nc: {}\n");
}
