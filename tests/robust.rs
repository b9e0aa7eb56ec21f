//! No text can make a position or move parser panic: random junk, made of the characters the
//! notations use plus a few strangers, goes into FEN, the Hub string and move parsing of every game.
//! Each call must return, `Ok` or `Err`; a panic fails the test.

use tempo::game::{Game, MoveList};
use tempo::variant::Variant;
use tempo::with_variant;
use tempo::zobrist::splitmix;

const ALPHABET: &[char] = &[
    'W', 'B', 'K', 'w', 'b', 'e', 'R', 'H', 'F', ':', ',', '-', 'x', 'X', '=', '.', '"', ' ', '0', '1', '2',
    '3', '4', '5', '9', 'a', 'c', 'h', 'j', 'z', '*', '>', '<', 'é', '\u{0}', '\t',
];

fn junk(seed: &mut u64, max_len: u64) -> String {
    *seed = splitmix(*seed);
    let len = *seed % max_len;
    (0..len)
        .map(|_| {
            *seed = splitmix(*seed);
            ALPHABET[(*seed % ALPHABET.len() as u64) as usize]
        })
        .collect()
}

fn hammer<G: Game>(rounds: usize, seed: &mut u64) {
    let start = G::start();
    let mut list = MoveList::new();
    start.generate(&mut list);
    let real: Vec<String> = list
        .iter()
        .map(|m| start.format_move(m, tempo::game::MoveStyle::Hub))
        .collect();
    for i in 0..rounds {
        let s = junk(seed, 80);
        let _ = G::from_fen(&s);
        let _ = G::from_hub(&s);
        let _ = start.parse_move(&s);
        // Near misses: a real FEN, Hub string or move with one character changed or cut.
        for base in [
            start.to_fen(),
            start.to_hub(),
            real.get(i % real.len().max(1)).cloned().unwrap_or_default(),
        ] {
            let mut chars: Vec<char> = base.chars().collect();
            if chars.is_empty() {
                continue;
            }
            *seed = splitmix(*seed);
            let at = (*seed % chars.len() as u64) as usize;
            chars[at] = ALPHABET[(*seed >> 32) as usize % ALPHABET.len()];
            let mutated: String = chars.iter().collect();
            let cut: String = base.chars().take(at).collect();
            for text in [mutated, cut] {
                if let Ok(p) = G::from_fen(&text) {
                    // Whatever reads must be usable: generate and print.
                    p.generate(&mut list);
                    let _ = p.to_fen();
                }
                if let Ok(p) = G::from_hub(&text) {
                    p.generate(&mut list);
                }
                let _ = start.parse_move(&text);
            }
        }
    }
}

#[test]
fn parsers_never_panic() {
    let mut seed = 0x5EED;
    for v in Variant::ALL {
        with_variant!(v, G => hammer::<G>(3_000, &mut seed));
    }
}
