//! Black-box tests of `tempo show`: the drawing of every kind of board, the SVG image, bad input.

use std::process::{Command, Output};

fn tempo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(args)
        .output()
        .expect("the tempo binary runs")
}

/// Runs `tempo show` and returns its standard output, asserting success.
fn show(args: &[&str]) -> String {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    let out = tempo(&all);
    assert!(
        out.status.success(),
        "tempo {all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The drawing without the key to the glyphs, which names each glyph once.
fn board_part(text: &str) -> &str {
    text.split("\n○ White man").next().unwrap_or(text)
}

fn count(text: &str, c: char) -> usize {
    board_part(text).chars().filter(|&x| x == c).count()
}

/// The line of the drawing for a rank (`" 8 │..."`).
fn rank_line(text: &str, rank: u32) -> &str {
    let prefix = format!("{rank:>2} ");
    text.lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no rank {rank} in\n{text}"))
}

#[test]
fn international_start_shows_every_man_and_the_empty_squares_numbers() {
    let t = show(&["--variant", "international"]);
    assert_eq!(count(&t, '○'), 20);
    assert_eq!(count(&t, '●'), 20);
    assert!(t.contains("White to move"));
    // Rows 6 and 5 are empty: their squares show their numbers, and each row its range.
    assert!(rank_line(&t, 6).contains("21    22    23    24    25"));
    assert!(rank_line(&t, 6).ends_with("21-25"));
    assert!(rank_line(&t, 5).ends_with("26-30"));
    assert!(rank_line(&t, 1).ends_with("46-50"));
}

#[test]
fn kings_and_side_to_move_follow_the_fen() {
    let t = show(&["--variant", "international", "--fen", "B:W28,K46:BK5,K23,19"]);
    assert_eq!(count(&t, '○'), 1);
    assert_eq!(count(&t, '♔'), 1);
    assert_eq!(count(&t, '●'), 1);
    assert_eq!(count(&t, '♚'), 2);
    assert!(t.contains("Black to move"));
    // Square 46 is a1: the king stands in the first cell of rank 1.
    assert!(rank_line(&t, 1).starts_with(" 1 │ ♔ "));
}

#[test]
fn english_starts_with_black_and_a1_dark() {
    let t = show(&["--variant", "english"]);
    assert!(t.contains("Black to move"));
    assert_eq!(count(&t, '○'), 12);
    assert_eq!(count(&t, '●'), 12);
    // a1 is dark and square 29 (FMJD numbering): a man in the first cell.
    assert!(rank_line(&t, 1).starts_with(" 1 │ ○ "));
    assert!(rank_line(&t, 5).starts_with(" 5 │13 "));
}

#[test]
fn mirrored_boards_put_square_one_on_a8() {
    for v in ["italian", "spanish", "portuguese"] {
        let t = show(&["--variant", v, "--fen", "W:W32:B1"]);
        // 1 = a8, 32 = h1: the corner squares of the mirrored board.
        assert!(rank_line(&t, 8).starts_with(" 8 │ ● "), "{v}:\n{t}");
        assert!(rank_line(&t, 1).contains(" ○ │"), "{v}:\n{t}");
        assert!(rank_line(&t, 1).ends_with("29-32"), "{v}:\n{t}");
        assert!(rank_line(&t, 5).starts_with(" 5 │   13 "), "{v}:\n{t}");
    }
}

#[test]
fn canadian_board_has_twelve_files_and_72_squares() {
    let t = show(&["--variant", "canadian"]);
    assert_eq!(count(&t, '○'), 30);
    assert_eq!(count(&t, '●'), 30);
    assert!(t.lines().next().unwrap_or("").trim_end().ends_with('l'));
    assert!(rank_line(&t, 1).ends_with("67-72"));
}

#[test]
fn full_boards_show_coordinates_and_every_square() {
    for v in ["turkish", "armenian"] {
        let t = show(&["--variant", v]);
        assert_eq!(count(&t, '○'), 16, "{v}");
        assert_eq!(count(&t, '●'), 16, "{v}");
        // 64 squares, 32 of them empty, each a dot; no square numbers inside the board.
        assert_eq!(count(&t, '·'), 32, "{v}");
        assert!(rank_line(&t, 8).ends_with('│'), "{v}: {}", rank_line(&t, 8));
    }
}

#[test]
fn sixteen_soldiers_is_drawn_as_its_graph() {
    let t = show(&["--variant", "sixteen-soldiers"]);
    assert_eq!(count(&t, '○'), 16);
    assert_eq!(count(&t, '●'), 16);
    assert_eq!(count(&t, '·'), 5);
    // The triangles' bases: three points on ranks 1 and 9, joined by one line each.
    assert!(rank_line(&t, 9).contains("●───────●───────●"));
    assert!(rank_line(&t, 9).ends_with("a9-e9"));
    assert!(rank_line(&t, 1).ends_with("a1-e1"));
    assert!(t.contains('╲') && t.contains('╱') && t.contains('│'));
}

#[test]
fn muchado_is_drawn_as_a_hexagon_with_reserves() {
    let t = show(&["--variant", "muchado", "--fen", "B:Wa1,Kd4:Bc6,Kd7:R3,5"]);
    assert_eq!(count(&t, '○'), 1);
    assert_eq!(count(&t, '♔'), 1);
    assert_eq!(count(&t, '●'), 1);
    assert_eq!(count(&t, '♚'), 1);
    assert_eq!(count(&t, '·'), 33);
    assert!(t.contains("Black to move"));
    assert!(t.contains("Reserve: White 3, Black 5"));
    assert!(rank_line(&t, 4).ends_with("a4-g4"));
    // Rank 7 is the short top edge: four cells, d7 the leftmost (a black king).
    assert!(rank_line(&t, 7).contains("♚───·───·───·"));
}

#[test]
fn ascii_drawing_is_plain_ascii() {
    for v in ["international", "sixteen", "muchado", "turkish"] {
        let t = show(&["--variant", v, "--ascii"]);
        assert!(t.is_ascii(), "{v}:\n{t}");
    }
    let t = show(&["--variant", "international", "--ascii"]);
    assert_eq!(t.matches('w').count(), 20 + 1, "20 men and `w` of the key:\n{t}");
}

#[test]
fn bad_fen_is_reported_with_a_failure_exit() {
    let out = tempo(&["show", "--variant", "international", "--fen", "W:W51:B1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad FEN") && err.contains("51"), "{err}");
    assert!(out.stdout.is_empty());
    let out = tempo(&["show", "--variant", "nosuchgame"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
}

/// Checks that every tag is closed in order; returns the number of elements.
fn check_tag_balance(svg: &str) -> usize {
    let mut stack: Vec<String> = Vec::new();
    let mut elements = 0;
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let end = after.find('>').expect("every tag ends");
        let tag = &after[..end];
        rest = &after[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.trim()),
                "closing tag out of order"
            );
        } else {
            elements += 1;
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '/')
                .collect();
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        assert!(!tag.contains('<'), "a stray < inside a tag: {tag}");
    }
    assert!(stack.is_empty(), "unclosed tags: {stack:?}");
    elements
}

fn svg_of(variant: &str, fen: Option<&str>, name: &str) -> String {
    let path = std::env::temp_dir().join(format!("tempo-show-{}-{name}.svg", std::process::id()));
    let path_s = path.to_string_lossy().to_string();
    let mut args = vec!["--variant", variant, "--svg", &path_s];
    if let Some(f) = fen {
        args.extend_from_slice(&["--fen", f]);
    }
    show(&args);
    let svg = std::fs::read_to_string(&path).expect("the SVG file was written");
    let _ = std::fs::remove_file(&path);
    svg
}

#[test]
fn svg_is_well_formed_and_holds_every_piece() {
    let svg = svg_of("international", Some("B:W28,31-35,K46:BK5,K23,19,1-3"), "intl");
    assert!(svg.starts_with("<svg "));
    assert!(check_tag_balance(&svg) > 100);
    assert_eq!(svg.matches(r#"class="piece "#).count(), 13);
    assert_eq!(svg.matches(r#"class="piece white king""#).count(), 1);
    assert_eq!(svg.matches(r#"class="piece black king""#).count(), 2);
    assert_eq!(svg.matches(r#"class="piece white man""#).count(), 6);
    assert!(svg.contains("Black to move"));
    // 50 dark squares, each numbered.
    assert!(svg.contains(">50</text>") && svg.contains(">1</text>"));
}

#[test]
fn svg_draws_the_odd_boards_as_graphs() {
    let svg = svg_of("sixteen", None, "sixteen");
    check_tag_balance(&svg);
    assert_eq!(svg.matches(r#"class="piece "#).count(), 32);
    // Sixteen Soldiers has 76 edges (docs/odd-boards.md), one line each.
    assert_eq!(svg.matches("<line ").count(), 76);
    assert!(svg.contains(">a9</text>"));

    let svg = svg_of("muchado", None, "muchado");
    check_tag_balance(&svg);
    assert_eq!(svg.matches(r#"class="piece "#).count(), 18);
    assert!(svg.contains("Reserve: White 4, Black 4"));
    // The hexagon of side 4: 37 cells, 90 neighbour pairs.
    assert_eq!(svg.matches("<line ").count(), 90);

    let svg = svg_of("turkish", None, "turkish");
    check_tag_balance(&svg);
    assert_eq!(svg.matches(r#"class="piece "#).count(), 32);
}

#[test]
fn unwritable_svg_path_is_an_error() {
    let out = tempo(&["show", "--svg", "/nonexistent-dir/x/board.svg"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
}
