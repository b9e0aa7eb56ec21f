//! Rules facts of each square-board variant.
//!
//! A variant is a unit type implementing [`Rules`]: a list of constants, each stating one rule and
//! citing the article it comes from. Defaults are the FMJD rules of international draughts (rules.md
//! §5), so a variant states only what differs (the approach of dctl's rule traits). The generator
//! reads the constants at compile time: `if R::FLYING_KINGS` costs nothing at run time.

use super::geom::{Board8, Board8Full, Board8Mirrored, Board10, Board12, Geometry};
use crate::game::Repetition;
use std::fmt::Debug;
use std::hash::Hash;

/// Which capture sequences a player may choose among.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// Free choice among complete sequences (Russian, English).
    Free,
    /// The sequence that captures the most pieces, a king counting as a man (FMJD 4.13).
    Quantity,
    /// The sequence of highest value, a king worth less than two men and more than one; on equal
    /// value a capture with a king goes first (Frisian Art. 11-12).
    FrisianValue,
    /// The most pieces, then the most kings among them (Spanish and Portuguese rules).
    QuantityThenKings,
    /// The most pieces; then a capture with a king; then the most kings; then the sequence that
    /// meets the kings earliest, the jump of every king compared in turn, first with first, then
    /// second with second (FID RegTec art. 6.9, Italian).
    Italian,
    /// When a king can capture, a king must capture; otherwise free choice (Czech rules).
    KingFirst,
}

/// What happens when a man reaches its promotion row in the middle of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapturePromotion {
    /// It stays a man and goes on capturing; it promotes only if it ends there (FMJD 4.15).
    Stays,
    /// It becomes a king at once and goes on capturing as a king (FSR 1.5.15, Russian).
    ContinuesAsKing,
    /// It becomes a king and the move ends there (English checkers).
    EndsMove,
}

/// Which lines pieces step and capture along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Movement {
    /// The draughts family: men step diagonally forward, kings move diagonally, captures run along
    /// the diagonals (and the orthogonals too when `ORTHOGONAL_CAPTURES` is set, Frisian).
    Diagonal,
    /// Turkish draughts: men step and capture straight forward or sideways; kings move and capture
    /// along ranks and files.
    Orthogonal,
    /// Armenian draughts (Tama): men step forward, diagonally forward or sideways and capture
    /// forward or sideways; kings move along all eight lines and capture along ranks and files.
    Tama,
}

/// The counted draw rules of a variant, decided from the position and its two clocks (plies since
/// the last capture or man move, and plies since the current material balance arose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawRules {
    /// None (Breakthrough, Antidraughts: lidraughts declares no counted draws).
    None,
    /// FMJD 6.2-6.4, counted in plies as lidraughts counts them: 25 moves each with only king
    /// moves (50 plies); three pieces with a king against a lone king, 16 moves each (32 plies);
    /// two kings, king and man, or a king against a lone king, 5 moves each (10 plies).
    Fmjd,
    /// FMJD-64 / FSR 7.2.4-7.2.8 (rules.md §3.4, D-R1, D-R2; lidraughts plies).
    Russian,
    /// Frisian Art. 18 and 21 (D-F2): two kings against one, 7 moves each (14 plies); one king
    /// against one, 2 moves each (4 plies).
    Frisian,
    /// No capture and no man move for `n` plies: English (40 moves each, 80 plies), Italian
    /// (D-A2: 40 moves each), pool and the house rule of variants without a known rule (D-A3).
    Reversible(u16),
}

/// How a game is won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A player who cannot move (no pieces left, or all blocked) loses (FMJD 6.1).
    Standard,
    /// The first player to crown a king wins (Breakthrough).
    FirstKing,
    /// A player who cannot move wins (Antidraughts).
    NoMoveWins,
}

/// How squares are written in move notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Square numbers, `32-28`, `28x19` (FMJD 8.2).
    Numeric,
    /// Coordinates, `c3-d4`, `c3:e5:g7` (Russian and Brazilian practice).
    Algebraic,
}

/// The rules facts of one variant of the square-board family.
pub trait Rules: 'static + Copy + Default + Debug + Eq + Hash + Send + Sync {
    /// Board layout.
    type Board: Geometry;
    /// The variant's canonical name.
    const NAME: &'static str;
    /// The initial position as PDN FEN.
    const START: &'static str;
    /// Which lines pieces step and capture along.
    const MOVEMENT: Movement = Movement::Diagonal;
    /// Kings move and capture at any distance (FMJD 3.9, 4.3); otherwise one step.
    const FLYING_KINGS: bool = true;
    /// Men capture backwards as well as forwards (FMJD 4.2).
    const MEN_CAPTURE_BACKWARD: bool = true;
    /// Men may capture kings (Italian rules forbid it).
    const MEN_CAPTURE_KINGS: bool = true;
    /// Captured pieces leave the board as they are jumped, instead of after the move (FMJD 4.11);
    /// a sequence then never turns back 180 degrees (Thai, Turkish).
    const IMMEDIATE_REMOVAL: bool = false;
    /// A capturing king lands on the square right behind the captured piece (Thai).
    const KING_LANDS_BEHIND: bool = false;
    /// When the last piece a king captures is a king, it halts right behind it (Killer draughts).
    const HALT_BEHIND_KING: bool = false;
    /// Captures also run along the orthogonal lines of dark squares (Frisian Art. 7).
    const ORTHOGONAL_CAPTURES: bool = false;
    /// A man reaching the promotion row during a capture (FMJD 4.15).
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::Stays;
    /// Capture precedence (FMJD 4.13-4.14).
    const PRECEDENCE: Precedence = Precedence::Quantity;
    /// Most consecutive non-capturing moves with the same king while the player also has men;
    /// 0 = no limit (Frisian Art. 17: 3).
    const KING_MOVE_LIMIT: u8 = 0;
    /// Move notation.
    const NOTATION: Notation = Notation::Numeric;
    /// Capture separator when writing moves (FMJD 8.2: `x`; Russian practice: `:`).
    const CAPTURE_SEPARATOR: char = 'x';
    /// What a repeated position means (FMJD 6.1: the third occurrence is a draw).
    const REPETITION: Repetition = Repetition::Draw(3);
    /// How the game is won.
    const GOAL: Goal = Goal::Standard;
    /// The counted draw rules.
    const DRAWS: DrawRules = DrawRules::Fmjd;
    /// The variant whose endgame positions these are, by name: its own, unless it differs from
    /// another only in its start position, whose endgame tables it then reads (Frysk!: Frisian's).
    const ENDGAME: &'static str = Self::NAME;
}

/// International draughts, FMJD rules of November 2015 (rules.md §5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InternationalRules;
impl Rules for InternationalRules {
    type Board = Board10;
    const NAME: &'static str = "international";
    // FMJD 2.8, 3.3: Black on 1-20, White on 31-50, White moves first.
    const START: &'static str = "W:W31-50:B1-20";
}

/// Brazilian draughts: the international rules on 8x8 (rules.md §6; dctl `brazilian = international`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BrazilianRules;
impl Rules for BrazilianRules {
    type Board = Board8;
    const NAME: &'static str = "brazilian";
    const START: &'static str = "W:W21-32:B1-12";
    const NOTATION: Notation = Notation::Algebraic;
    // lidraughts applies the FMJD-64 (Russian) draw rules to Brazilian (rules.md §6).
    const DRAWS: DrawRules = DrawRules::Russian;
}

/// Russian draughts (Shashki), FSR code and FMJD-64 rules (rules.md §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RussianRules;
impl Rules for RussianRules {
    type Board = Board8;
    const NAME: &'static str = "russian";
    const START: &'static str = "W:W21-32:B1-12";
    // rules.md §3.3: free choice among capture sequences, no majority rule.
    const PRECEDENCE: Precedence = Precedence::Free;
    // FSR 1.5.15: a man reaching the last row during a capture goes on as a king.
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::ContinuesAsKing;
    const NOTATION: Notation = Notation::Algebraic;
    const CAPTURE_SEPARATOR: char = ':';
    // FSR 7.2.3-7.2.8 (rules.md §3.4).
    const DRAWS: DrawRules = DrawRules::Russian;
}

/// English draughts / American checkers (rules.md §6; usacheckers rules 1.17-1.32 via dctl).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EnglishRules;
impl Rules for EnglishRules {
    type Board = Board8;
    const NAME: &'static str = "english";
    // Black (on 1-12) moves first.
    const START: &'static str = "B:W21-32:B1-12";
    // Kings move and capture one square at a time.
    const FLYING_KINGS: bool = false;
    // Men move and capture forward only.
    const MEN_CAPTURE_BACKWARD: bool = false;
    // Free choice among captures; a capture, once begun, must be completed.
    const PRECEDENCE: Precedence = Precedence::Free;
    // A man reaching the king row is crowned and the move ends.
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::EndsMove;
    // 40 moves each without a capture or a man move (dctl: 80 reversible plies).
    const DRAWS: DrawRules = DrawRules::Reversible(80);
}

/// Frisian draughts, Official Rules 2011 (rules.md §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FrisianRules;
impl Rules for FrisianRules {
    type Board = Board10;
    const NAME: &'static str = "frisian";
    // Art. 1-6: Black men on 1-20, White men on 31-50, White moves first.
    const START: &'static str = "W:W31-50:B1-20";
    // Art. 7, 9, 10: captures along diagonals and orthogonal lines, men forwards and backwards.
    const ORTHOGONAL_CAPTURES: bool = true;
    // Art. 11-12: highest value, king priority on equal value.
    const PRECEDENCE: Precedence = Precedence::FrisianValue;
    // Art. 17: at most three consecutive non-capturing moves with the same king.
    const KING_MOVE_LIMIT: u8 = 3;
    // D-F1: the official rules have no repetition rule.
    const REPETITION: Repetition = Repetition::Ignored;
    // D-F2: 2 kings v 1 king and 1 king v 1 king.
    const DRAWS: DrawRules = DrawRules::Frisian;
}

/// Frysk!: Frisian rules with five men each on the back row (rules.md §2.9; lidraughts `Frysk.scala`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FryskRules;
impl Rules for FryskRules {
    type Board = Board10;
    const NAME: &'static str = "frysk";
    const START: &'static str = "W:W46-50:B1-5";
    const ORTHOGONAL_CAPTURES: bool = FrisianRules::ORTHOGONAL_CAPTURES;
    const PRECEDENCE: Precedence = FrisianRules::PRECEDENCE;
    const KING_MOVE_LIMIT: u8 = FrisianRules::KING_MOVE_LIMIT;
    const REPETITION: Repetition = FrisianRules::REPETITION;
    const DRAWS: DrawRules = FrisianRules::DRAWS;
    // Every rule above is Frisian's: a Frysk! position is a Frisian position.
    const ENDGAME: &'static str = FrisianRules::NAME;
}

/// Italian draughts, FID rules (RegTec 2008 art. 5-10, via dctl `italian.hpp`; rules.md §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ItalianRules;
impl Rules for ItalianRules {
    // The board shows a light square at each player's lower left; FID numbering 1 = a8 .. 32 = h1.
    type Board = Board8Mirrored;
    const NAME: &'static str = "italian";
    const START: &'static str = "W:W21-32:B1-12";
    // Kings move and capture one square at a time.
    const FLYING_KINGS: bool = false;
    // Men capture forwards only, and never a king.
    const MEN_CAPTURE_BACKWARD: bool = false;
    const MEN_CAPTURE_KINGS: bool = false;
    // Most pieces, then with a king, then most kings, then the kings met earliest (each compared).
    const PRECEDENCE: Precedence = Precedence::Italian;
    // A man reaching the last row is crowned and the move ends.
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::EndsMove;
    // D-A2: fourfold repetition, as dctl encodes FID RegTec 9.3 b1.
    const REPETITION: Repetition = Repetition::Draw(4);
    // D-A2: 40 moves each without a man move or a capture (FID RegTec 10.4 via dctl).
    const DRAWS: DrawRules = DrawRules::Reversible(80);
}

/// Spanish draughts (rules.md §6; dctl `spanish.hpp`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpanishRules;
impl Rules for SpanishRules {
    // Mirrored board: a dark square at each player's near right.
    type Board = Board8Mirrored;
    const NAME: &'static str = "spanish";
    const START: &'static str = "W:W21-32:B1-12";
    // Men capture forwards only; flying kings.
    const MEN_CAPTURE_BACKWARD: bool = false;
    // The most pieces, then the most kings.
    const PRECEDENCE: Precedence = Precedence::QuantityThenKings;
    // D-A3 house rule (no rule known to rules.md): 50 moves each without capture or man move.
    const DRAWS: DrawRules = DrawRules::Reversible(100);
}

/// Portuguese draughts (damas clássicas): the Spanish rules (rules.md §6, PDN GameType 28).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PortugueseRules;
impl Rules for PortugueseRules {
    type Board = Board8Mirrored;
    const NAME: &'static str = "portuguese";
    const START: &'static str = SpanishRules::START;
    const MEN_CAPTURE_BACKWARD: bool = SpanishRules::MEN_CAPTURE_BACKWARD;
    const PRECEDENCE: Precedence = SpanishRules::PRECEDENCE;
    const DRAWS: DrawRules = SpanishRules::DRAWS;
}

/// Czech draughts (rules.md §6; dctl `czech.hpp`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CzechRules;
impl Rules for CzechRules {
    type Board = Board8;
    const NAME: &'static str = "czech";
    const START: &'static str = "W:W21-32:B1-12";
    // Men capture forwards only; flying kings.
    const MEN_CAPTURE_BACKWARD: bool = false;
    // A king capture goes first when a king can capture; otherwise free choice.
    const PRECEDENCE: Precedence = Precedence::KingFirst;
    const NOTATION: Notation = Notation::Algebraic;
    const CAPTURE_SEPARATOR: char = ':';
    // D-A3 house rule: 50 moves each without capture or man move.
    const DRAWS: DrawRules = DrawRules::Reversible(100);
}

/// American pool checkers (APCA rules via dctl `pool.hpp`; rules.md §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PoolRules;
impl Rules for PoolRules {
    type Board = Board8;
    const NAME: &'static str = "pool";
    // Black (on 1-12) moves first (PDN GameType 23,B).
    const START: &'static str = "B:W21-32:B1-12";
    // Men capture backwards, kings fly, free choice; a man is crowned only when it ends on the
    // last row (CapturePromotion::Stays, the default).
    const PRECEDENCE: Precedence = Precedence::Free;
    // dctl max_reversible_moves = 30 (APCA rule 26, unit not verified): read as 30 moves each,
    // 60 plies; a house rule under D-A3.
    const DRAWS: DrawRules = DrawRules::Reversible(60);
}

/// Thai draughts, Mak-hot (rules.md §6; dctl `thai.hpp`, mindsports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ThaiRules;
impl Rules for ThaiRules {
    type Board = Board8;
    const NAME: &'static str = "thai";
    // Eight men a side on the two rows nearest each player (mindsports, Wikipedia "Mak-hot");
    // Black moves first (PDN GameType 31,B).
    const START: &'static str = "B:W25-32:B1-8";
    // Men capture forwards only; free choice among sequences.
    const MEN_CAPTURE_BACKWARD: bool = false;
    const PRECEDENCE: Precedence = Precedence::Free;
    // Captured pieces are removed as they are jumped (dctl `is_passing_capture`), and a sequence
    // goes on only straight or at a right angle.
    const IMMEDIATE_REMOVAL: bool = true;
    // A flying king lands on the square right behind the piece it captures.
    const KING_LANDS_BEHIND: bool = true;
    // A man reaching the last row during a capture stops there and is crowned.
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::EndsMove;
    // PDN GameType 31: captures are written with `-`.
    const CAPTURE_SEPARATOR: char = '-';
    // D-A3 house rule: 50 moves each without capture or man move.
    const DRAWS: DrawRules = DrawRules::Reversible(100);
}

/// Canadian draughts: the international rules on 12x12 with 30 men a side (rules.md §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CanadianRules;
impl Rules for CanadianRules {
    type Board = Board12;
    const NAME: &'static str = "canadian";
    const START: &'static str = "W:W43-72:B1-30";
}

/// Killer draughts: international rules plus the halt rule (mindsports, dctl `killer.hpp`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KillerRules;
impl Rules for KillerRules {
    type Board = Board10;
    const NAME: &'static str = "killer";
    const START: &'static str = InternationalRules::START;
    // A king whose last captured piece is a king lands right behind it.
    const HALT_BEHIND_KING: bool = true;
}

/// Breakthrough: international rules; the first player to crown a king wins (lidraughts
/// `Breakthrough.scala`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BreakthroughRules;
impl Rules for BreakthroughRules {
    type Board = Board10;
    const NAME: &'static str = "breakthrough";
    const START: &'static str = InternationalRules::START;
    const GOAL: Goal = Goal::FirstKing;
    // lidraughts Breakthrough: no draw rules.
    const DRAWS: DrawRules = DrawRules::None;
    const REPETITION: Repetition = Repetition::Ignored;
}

/// Antidraughts: international rules; a player who cannot move wins (lidraughts
/// `Antidraughts.scala`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AntidraughtsRules;
impl Rules for AntidraughtsRules {
    type Board = Board10;
    const NAME: &'static str = "antidraughts";
    const START: &'static str = InternationalRules::START;
    const GOAL: Goal = Goal::NoMoveWins;
    // lidraughts Antidraughts: threefold repetition only.
    const DRAWS: DrawRules = DrawRules::None;
}

/// Turkish draughts, Dama (rules.md §6; Wikipedia; perft from the kish engine).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurkishRules;
impl Rules for TurkishRules {
    // All 64 squares; 16 men a side on the second and third rows; White moves first.
    type Board = Board8Full;
    const NAME: &'static str = "turkish";
    const START: &'static str = "W:W41-56:B9-24";
    // Men step and capture forward or sideways, kings along ranks and files, at any distance.
    const MOVEMENT: Movement = Movement::Orthogonal;
    // The most pieces, a king counting as a man.
    const PRECEDENCE: Precedence = Precedence::Quantity;
    // Pieces leave the board as they are jumped; no 180-degree turn within a capture.
    const IMMEDIATE_REMOVAL: bool = true;
    // A man reaching the last row during a capture is crowned and goes on as a king.
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::ContinuesAsKing;
    const NOTATION: Notation = Notation::Algebraic;
    // D-A3 house rule: 50 moves each without capture or man move.
    const DRAWS: DrawRules = DrawRules::Reversible(100);
}

/// Armenian draughts, Tama (rules.md §6; Ludii `Tama.lud`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArmenianRules;
impl Rules for ArmenianRules {
    type Board = Board8Full;
    const NAME: &'static str = "armenian";
    const START: &'static str = TurkishRules::START;
    // Men step forward, diagonally forward or sideways; kings move along all eight lines; all
    // captures along ranks and files.
    const MOVEMENT: Movement = Movement::Tama;
    const PRECEDENCE: Precedence = Precedence::Quantity;
    // Removal as in Turkish draughts (the spec is silent; rules.md §8 groups them); no 180 turn.
    const IMMEDIATE_REMOVAL: bool = true;
    // A man crowned during a capture goes on as a king (rules.md §6).
    const CAPTURE_PROMOTION: CapturePromotion = CapturePromotion::ContinuesAsKing;
    const NOTATION: Notation = Notation::Algebraic;
    // D-A3 house rule: 50 moves each without capture or man move.
    const DRAWS: DrawRules = DrawRules::Reversible(100);
}
