//! Which evaluation each variant of the square-board family evaluates with: the weights compiled
//! into the binary, a weight file named by the `eval-file` option (decoded by [`super::weights`]),
//! the hand-set evaluation, or International's network (`<network>`, [`super::network`]).
//!
//! # Registry
//!
//! Each learnable variant has a slot. The slot starts on the variant's default evaluation: its
//! embedded weights (`weights/<variant>.bin`, compiled in with `include_bytes!` in [`embedded`] and
//! decoded once, on first use) when the variant is listed in [`LEARNED_BY_DEFAULT`], the hand
//! evaluation otherwise. Weights become a variant's default only after they beat the hand evaluation
//! in a match; until then they are chosen with `<learned>`. [`load_file`] (the `eval-file` option)
//! decodes a file into the next of [`MAX_LOADS`] cells of the slot, set once each (`OnceLock`),
//! and points the slot at it; [`restore_default`] points it back. A loaded net is kept until the process ends, so a search that
//! is still reading the old one is never left with freed memory, and there is no `unsafe` code: the
//! cost is a bounded amount of memory (at most [`MAX_LOADS`] nets a variant, 420 KB each on
//! 10x10, 17 MB with big windows). The hot path ([`current`]) is one atomic load and a `OnceLock` read.

use super::features::learnable;
use super::table::Net;
use super::weights::{MAX_FILE_BYTES, decode};
use crate::draughts::rules::Rules;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// The variants that can have learned weights, in slot order.
pub const LEARNABLE: [&str; 15] = [
    "international",
    "russian",
    "brazilian",
    "english",
    "frisian",
    "frysk",
    "italian",
    "spanish",
    "portuguese",
    "czech",
    "pool",
    "thai",
    "canadian",
    "killer",
    "breakthrough",
];

/// The weights compiled into the binary for a variant: `weights/<variant>.bin`. To ship weights of
/// another variant, add its line here.
pub fn embedded(variant: &str) -> Option<&'static [u8]> {
    match variant {
        "international" => Some(include_bytes!("../../weights/international.bin")),
        "russian" => Some(include_bytes!("../../weights/russian.bin")),
        "english" => Some(include_bytes!("../../weights/english.bin")),
        "brazilian" => Some(include_bytes!("../../weights/brazilian.bin")),
        "frisian" => Some(include_bytes!("../../weights/frisian.bin")),
        _ => None,
    }
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The slot of a variant name, `usize::MAX` for a variant without one.
const fn slot_of(name: &str) -> usize {
    let mut i = 0;
    while i < LEARNABLE.len() {
        if same(LEARNABLE[i], name) {
            return i;
        }
        i += 1;
    }
    usize::MAX
}

/// The registry slot of a rules type, computed at compile time.
struct SlotOf<R>(std::marker::PhantomData<R>);
impl<R: Rules> SlotOf<R> {
    const INDEX: usize = if learnable::<R>() {
        slot_of(R::NAME)
    } else {
        usize::MAX
    };
    const LEARNED: bool = learned_by_default(R::NAME);
    const NETWORK: bool = same(R::NAME, NETWORK_VARIANT);
}

/// The variant that ships a network evaluation (`weights/international.nn`,
/// [`crate::eval::network`]), chosen with `<network>`. It is not the default: it beat the pattern
/// weights by SPRT at 0.1 s a move but scored less than they did against Scan 2.0
/// (docs/records/evaluation.md).
pub const NETWORK_VARIANT: &str = "international";

/// `current` of a slot: the network, with the embedded tables for the positions it leaves them
/// ([`crate::eval::network::WINDOW`]).
const NETWORK: usize = usize::MAX - 2;

/// Weight files one process can load per variant.
pub const MAX_LOADS: usize = 64;

/// `current` of a slot: its embedded weights.
const EMBEDDED: usize = 0;
/// `current` of a slot: the variant's default ([`LEARNED_BY_DEFAULT`]).
const DEFAULT: usize = usize::MAX - 1;

/// Variants whose embedded weights are their default evaluation: those whose weights beat the hand
/// evaluation by SPRT in a `tempo match` against the binary before (docs/selfplay-and-training.md). A
/// variant that ships weights but is not listed starts on the hand evaluation, and its embedded
/// weights are chosen with `<learned>`.
pub const LEARNED_BY_DEFAULT: &[&str] = &["international", "russian", "english", "brazilian", "frisian"];

const fn learned_by_default(name: &str) -> bool {
    let mut i = 0;
    while i < LEARNED_BY_DEFAULT.len() {
        if same(LEARNED_BY_DEFAULT[i], name) {
            return true;
        }
        i += 1;
    }
    false
}
/// `current` of a slot: the hand-set evaluation.
const HAND: usize = usize::MAX;

struct Slot {
    /// [`DEFAULT`], [`EMBEDDED`], [`HAND`], or 1 + the cell of `loaded` in use.
    current: AtomicUsize,
    embedded: OnceLock<Option<Net>>,
    loaded: [OnceLock<(Net, String)>; MAX_LOADS],
    /// Cells of `loaded` used so far.
    used: Mutex<usize>,
}

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_CELL: OnceLock<(Net, String)> = OnceLock::new();
#[allow(clippy::declare_interior_mutable_const)]
const EMPTY_SLOT: Slot = Slot {
    current: AtomicUsize::new(DEFAULT),
    embedded: OnceLock::new(),
    loaded: [EMPTY_CELL; MAX_LOADS],
    used: Mutex::new(0),
};

static SLOTS: [Slot; LEARNABLE.len()] = [EMPTY_SLOT; LEARNABLE.len()];

fn embedded_net(slot: &'static Slot, name: &str) -> Option<&'static Net> {
    slot.embedded
        .get_or_init(|| {
            let bytes = embedded(name)?;
            let (w, h) = board_of(name)?;
            // The embedded files are checked by the tests: a failure here is a build mistake.
            Some(decode(bytes, name, w, h).unwrap_or_else(|e| panic!("weights/{name}.bin: {e}")))
        })
        .as_ref()
}

/// The board size of a learnable variant.
fn board_of(name: &str) -> Option<(u32, u32)> {
    match name {
        "canadian" => Some((12, 12)),
        "international" | "frisian" | "frysk" | "killer" | "breakthrough" => Some((10, 10)),
        _ if slot_of(name) != usize::MAX => Some((8, 8)),
        _ => None,
    }
}

/// The weights variant `R` evaluates with now, if any.
#[inline(always)]
pub fn current<R: Rules>() -> Option<&'static Net> {
    let index = SlotOf::<R>::INDEX;
    if index == usize::MAX {
        return None;
    }
    let slot = &SLOTS[index];
    match slot.current.load(Ordering::Acquire) {
        DEFAULT if SlotOf::<R>::LEARNED => embedded_net(slot, R::NAME),
        DEFAULT | HAND => None,
        EMBEDDED | NETWORK => embedded_net(slot, R::NAME),
        i => slot.loaded[i - 1].get().map(|(net, _)| net),
    }
}

/// Whether variant `R` evaluates with the network now: chosen with `<network>` where it ships one.
#[inline(always)]
pub fn network_on<R: Rules>() -> bool {
    let index = SlotOf::<R>::INDEX;
    if !SlotOf::<R>::NETWORK || index == usize::MAX {
        return false;
    }
    SLOTS[index].current.load(Ordering::Acquire) == NETWORK
}

fn slot(variant: &str) -> Result<&'static Slot, String> {
    match slot_of(variant) {
        usize::MAX => Err(format!(
            "{variant} has no learned evaluation (only the square-board variants with dark squares \
             and a normal goal have one; {variant} uses its hand-set evaluation)"
        )),
        i => Ok(&SLOTS[i]),
    }
}

/// Loads the weight file at `path` for `variant` and evaluates with it from now on.
///
/// # Errors
/// A variant without learned evaluation, a file that cannot be read or is refused by [`decode`],
/// or more than [`MAX_LOADS`] loads for the variant in this process.
pub fn load_file(variant: &str, path: &str) -> Result<(), String> {
    let slot = slot(variant)?;
    let (w, h) = board_of(variant).ok_or("no board")?;
    // Only a regular file of bounded size: a FIFO would block the protocol thread in `open`
    // (`ping` unanswered), and /dev/zero would be read until the memory ran out.
    let bytes = crate::fsutil::read_capped(std::path::Path::new(path), MAX_FILE_BYTES)?;
    let net = decode(&bytes, variant, w, h).map_err(|e| format!("{path}: {e}"))?;
    let mut used = slot.used.lock().unwrap_or_else(|e| e.into_inner());
    if *used >= MAX_LOADS {
        return Err(format!(
            "{path}: already {MAX_LOADS} weight files loaded for {variant} in this process"
        ));
    }
    let cell = *used;
    *used += 1;
    let _ = slot.loaded[cell].set((net, path.to_string()));
    slot.current.store(cell + 1, Ordering::Release);
    Ok(())
}

/// Evaluates `variant` with its default evaluation again ([`LEARNED_BY_DEFAULT`]).
///
/// # Errors
/// A variant without learned evaluation.
pub fn restore_default(variant: &str) -> Result<(), String> {
    slot(variant)?.current.store(DEFAULT, Ordering::Release);
    Ok(())
}

/// The `eval-file` option (Hub `eval-file`, UCI `EvalFile`): loads the file at `value` for
/// `variant`, restores the variant's default evaluation when `value` is empty or `<default>`,
/// selects the embedded weights with `<learned>` or the hand-set evaluation with `<hand>`.
///
/// # Errors
/// As [`load_file`].
pub fn set_eval_file(variant: &str, value: &str) -> Result<(), String> {
    let value = value.trim();
    if value.is_empty() || value == DEFAULT_LABEL {
        if slot_of(variant) != usize::MAX {
            restore_default(variant)?;
        }
        return Ok(());
    }
    if value == HAND_LABEL {
        if slot_of(variant) != usize::MAX {
            slot(variant)?.current.store(HAND, Ordering::Release);
        }
        return Ok(());
    }
    if value == NETWORK_LABEL {
        let slot = slot(variant)?;
        if variant != NETWORK_VARIANT {
            return Err(format!(
                "{variant} ships no network (only {NETWORK_VARIANT} does); its evaluations are \
                 {LEARNED_LABEL}, {HAND_LABEL} or a weight file"
            ));
        }
        // A network file named by TEMPO_NET is read now, so that a bad one is this error and not
        // a search without it.
        crate::eval::network::shipped()?;
        slot.current.store(NETWORK, Ordering::Release);
        return Ok(());
    }
    if value == LEARNED_LABEL {
        let slot = slot(variant)?;
        if embedded(variant).is_none() {
            return Err(format!(
                "{variant} ships no weights (weights/{variant}.bin); load a file with a path"
            ));
        }
        slot.current.store(EMBEDDED, Ordering::Release);
        return Ok(());
    }
    load_file(variant, value)
}

/// The value of the `eval-file` option that stands for the variant's default evaluation.
pub const DEFAULT_LABEL: &str = "<default>";
/// The value of the `eval-file` option that selects the embedded weights.
pub const LEARNED_LABEL: &str = "<learned>";
/// The value of the `eval-file` option that selects the shipped network (International).
pub const NETWORK_LABEL: &str = "<network>";
/// The value of the `eval-file` option that selects the hand-set evaluation.
pub const HAND_LABEL: &str = "<hand>";

/// What `variant` evaluates with: the path of a loaded file, or `<default>`.
pub fn current_label(variant: &str) -> String {
    let Ok(slot) = slot(variant) else {
        return DEFAULT_LABEL.to_string();
    };
    match slot.current.load(Ordering::Acquire) {
        DEFAULT => DEFAULT_LABEL.to_string(),
        EMBEDDED => LEARNED_LABEL.to_string(),
        NETWORK => NETWORK_LABEL.to_string(),
        HAND => HAND_LABEL.to_string(),
        i => slot.loaded[i - 1]
            .get()
            .map_or_else(|| DEFAULT_LABEL.to_string(), |(_, p)| p.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::KING_ATTACKED;
    use super::super::weights::decode_for;
    use super::*;
    use crate::draughts::geom::Geometry;
    use crate::draughts::rules::{InternationalRules, ItalianRules, TurkishRules};

    /// Every shipped weight file decodes; International's, written before the king terms, reads
    /// them as zero.
    #[test]
    fn embedded_weights_decode() {
        for name in LEARNABLE {
            if let Some(bytes) = embedded(name) {
                let (w, h) = board_of(name).unwrap();
                decode(bytes, name, w, h).unwrap();
            }
        }
        assert!(current::<TurkishRules>().is_none());
        let old = decode_for::<InternationalRules>(embedded("international").unwrap()).unwrap();
        assert_eq!(old.linear[KING_ATTACKED], [0, 0]);
        assert_eq!(old.kings, 0);
    }

    #[test]
    fn the_default_follows_the_list_and_learned_needs_shipped_weights() {
        // Italian ships no weights: `<learned>` is refused and the slot keeps its default.
        assert!(embedded("italian").is_none());
        let err = set_eval_file("italian", LEARNED_LABEL).unwrap_err();
        assert!(err.contains("ships no weights"), "{err}");
        assert_eq!(current_label("italian"), DEFAULT_LABEL);
        assert!(current::<ItalianRules>().is_none());
        // International ships weights; whether they are its default follows the list.
        assert_eq!(
            current::<InternationalRules>().is_some(),
            LEARNED_BY_DEFAULT.contains(&"international")
        );
        // (Switching International here would change the evaluation under the other unit tests
        // of this process; tests/eval_file.rs switches it in an engine process of its own.)
    }

    #[test]
    fn board_sizes_match_the_rules() {
        use crate::draughts::rules::*;
        fn check<R: Rules>() {
            assert_eq!(
                board_of(R::NAME),
                Some((<R::Board as Geometry>::WIDTH, <R::Board as Geometry>::HEIGHT)),
                "{}",
                R::NAME
            );
            assert_ne!(SlotOf::<R>::INDEX, usize::MAX);
        }
        check::<InternationalRules>();
        check::<RussianRules>();
        check::<BrazilianRules>();
        check::<EnglishRules>();
        check::<FrisianRules>();
        check::<FryskRules>();
        check::<ItalianRules>();
        check::<SpanishRules>();
        check::<PortugueseRules>();
        check::<CzechRules>();
        check::<PoolRules>();
        check::<ThaiRules>();
        check::<CanadianRules>();
        check::<KillerRules>();
        check::<BreakthroughRules>();
        assert_eq!(SlotOf::<AntidraughtsRules>::INDEX, usize::MAX);
        assert_eq!(SlotOf::<ArmenianRules>::INDEX, usize::MAX);
    }
}
