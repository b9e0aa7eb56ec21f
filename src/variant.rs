//! The variants Tempo plays, by name, and the one place where a runtime choice becomes a type.

use crate::draughts::hub_notation::HubNotation;
use std::fmt;
use std::str::FromStr;

/// A variant Tempo plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// International draughts (FMJD), 10x10.
    International,
    /// Russian draughts (Shashki), 8x8.
    Russian,
    /// Brazilian draughts, 8x8.
    Brazilian,
    /// English draughts / American checkers, 8x8.
    English,
    /// Frisian draughts, 10x10.
    Frisian,
    /// Frysk!: Frisian with five men a side.
    Frysk,
    /// Italian draughts, 8x8 mirrored.
    Italian,
    /// Spanish draughts, 8x8 mirrored.
    Spanish,
    /// Portuguese draughts, 8x8 mirrored.
    Portuguese,
    /// Czech draughts, 8x8.
    Czech,
    /// American pool checkers, 8x8.
    Pool,
    /// Thai draughts (Mak-hot), 8x8, eight men a side.
    Thai,
    /// Canadian draughts, 12x12.
    Canadian,
    /// Killer draughts: international with the halt rule.
    Killer,
    /// Breakthrough: international, the first king wins.
    Breakthrough,
    /// Antidraughts: international, a player who cannot move wins.
    Antidraughts,
    /// Turkish draughts (Dama), all 64 squares, orthogonal moves.
    Turkish,
    /// Armenian draughts (Tama), all 64 squares.
    Armenian,
    /// Sixteen Soldiers (Sholo Guti) on the 37-point alquerque board with triangles.
    SixteenSoldiers,
    /// MuchADo on the hexagonal board of side 4.
    MuchAdo,
}

impl Variant {
    /// Every variant, in the order `--help` lists them.
    pub const ALL: [Variant; 20] = [
        Variant::International,
        Variant::Russian,
        Variant::Brazilian,
        Variant::English,
        Variant::Frisian,
        Variant::Frysk,
        Variant::Italian,
        Variant::Spanish,
        Variant::Portuguese,
        Variant::Czech,
        Variant::Pool,
        Variant::Thai,
        Variant::Canadian,
        Variant::Killer,
        Variant::Breakthrough,
        Variant::Antidraughts,
        Variant::Turkish,
        Variant::Armenian,
        Variant::SixteenSoldiers,
        Variant::MuchAdo,
    ];

    /// The canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::International => "international",
            Variant::Russian => "russian",
            Variant::Brazilian => "brazilian",
            Variant::English => "english",
            Variant::Frisian => "frisian",
            Variant::Frysk => "frysk",
            Variant::Italian => "italian",
            Variant::Spanish => "spanish",
            Variant::Portuguese => "portuguese",
            Variant::Czech => "czech",
            Variant::Pool => "pool",
            Variant::Thai => "thai",
            Variant::Canadian => "canadian",
            Variant::Killer => "killer",
            Variant::Breakthrough => "breakthrough",
            Variant::Antidraughts => "antidraughts",
            Variant::Turkish => "turkish",
            Variant::Armenian => "armenian",
            Variant::SixteenSoldiers => "sixteen-soldiers",
            Variant::MuchAdo => "muchado",
        }
    }

    /// Other names accepted on input (Scan's `normal`, common English names).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Variant::International => &["normal", "standard", "10x10", "fmjd"],
            Variant::Russian => &["shashki"],
            Variant::Brazilian => &[],
            Variant::English => &["checkers", "american"],
            Variant::Frisian => &[],
            Variant::Frysk => &["frysk!"],
            Variant::Italian => &["italiana"],
            Variant::Spanish => &[],
            Variant::Portuguese => &[],
            Variant::Czech => &[],
            Variant::Pool => &["american-pool", "pool-checkers"],
            Variant::Thai => &["mak-hot", "makhot"],
            Variant::Canadian => &["12x12"],
            Variant::Killer => &[],
            Variant::Breakthrough => &["bt"],
            Variant::Antidraughts => &["losing", "giveaway"],
            Variant::Turkish => &["dama"],
            Variant::Armenian => &["tama"],
            Variant::SixteenSoldiers => &["sixteen", "sholo-guti"],
            Variant::MuchAdo => &["much-ado"],
        }
    }
}

impl Variant {
    /// How the Hub dialect numbers this variant's squares: pydraughts' convention for the ten
    /// variants pydraughts plays (the only Hub client on boards other than 10x10), Tempo's own
    /// numbering for the others (`protocol.md` 4.2). The UCI-style dialect, FEN and PDN always use
    /// Tempo's numbering.
    pub fn hub_notation(self) -> HubNotation {
        match self {
            // pydraughts numbers the 8x8 board of Russian and Brazilian from a1 (its moves `9-13`,
            // `10-13`...), Turkish from a1 too, all 64 squares; its position strings are Tempo's.
            Variant::Russian | Variant::Brazilian => HubNotation::rows_flipped(32, 4),
            Variant::Turkish => HubNotation::rows_flipped(64, 8),
            // Black moves first in English; pydraughts calls it White and turns the board so that
            // its men stand on the last squares of the string; moves are standard English.
            Variant::English => HubNotation::turned_swapped(32),
            // Same squares as pydraughts (10x10: Scan's own numbering; Italian), or no pydraughts
            // variant at all.
            Variant::International
            | Variant::Frisian
            | Variant::Frysk
            | Variant::Italian
            | Variant::Killer
            | Variant::Breakthrough
            | Variant::Antidraughts
            | Variant::Spanish
            | Variant::Portuguese
            | Variant::Czech
            | Variant::Pool
            | Variant::Thai
            | Variant::Canadian
            | Variant::Armenian
            | Variant::SixteenSoldiers
            | Variant::MuchAdo => HubNotation::SAME,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant {:?}; known variants: {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == key || v.aliases().contains(&key.as_str()))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Runs generic code for the position type of a runtime [`Variant`]:
/// `with_variant!(v, G => perft::<G>(&G::start(), 5, dup))`.
#[macro_export]
macro_rules! with_variant {
    ($v:expr, $g:ident => $body:expr) => {
        match $v {
            $crate::variant::Variant::International => {
                type $g = $crate::draughts::International;
                $body
            }
            $crate::variant::Variant::Russian => {
                type $g = $crate::draughts::Russian;
                $body
            }
            $crate::variant::Variant::Brazilian => {
                type $g = $crate::draughts::Brazilian;
                $body
            }
            $crate::variant::Variant::English => {
                type $g = $crate::draughts::English;
                $body
            }
            $crate::variant::Variant::Frisian => {
                type $g = $crate::draughts::Frisian;
                $body
            }
            $crate::variant::Variant::Frysk => {
                type $g = $crate::draughts::Frysk;
                $body
            }
            $crate::variant::Variant::Italian => {
                type $g = $crate::draughts::Italian;
                $body
            }
            $crate::variant::Variant::Spanish => {
                type $g = $crate::draughts::Spanish;
                $body
            }
            $crate::variant::Variant::Portuguese => {
                type $g = $crate::draughts::Portuguese;
                $body
            }
            $crate::variant::Variant::Czech => {
                type $g = $crate::draughts::Czech;
                $body
            }
            $crate::variant::Variant::Pool => {
                type $g = $crate::draughts::Pool;
                $body
            }
            $crate::variant::Variant::Thai => {
                type $g = $crate::draughts::Thai;
                $body
            }
            $crate::variant::Variant::Canadian => {
                type $g = $crate::draughts::Canadian;
                $body
            }
            $crate::variant::Variant::Killer => {
                type $g = $crate::draughts::Killer;
                $body
            }
            $crate::variant::Variant::Breakthrough => {
                type $g = $crate::draughts::Breakthrough;
                $body
            }
            $crate::variant::Variant::Antidraughts => {
                type $g = $crate::draughts::Antidraughts;
                $body
            }
            $crate::variant::Variant::Turkish => {
                type $g = $crate::draughts::Turkish;
                $body
            }
            $crate::variant::Variant::Armenian => {
                type $g = $crate::draughts::Armenian;
                $body
            }
            $crate::variant::Variant::SixteenSoldiers => {
                type $g = $crate::games::Sixteen;
                $body
            }
            $crate::variant::Variant::MuchAdo => {
                type $g = $crate::games::MuchAdo;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_parse() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            for a in v.aliases() {
                assert_eq!(a.parse::<Variant>(), Ok(v));
            }
        }
        assert_eq!("Normal".parse::<Variant>(), Ok(Variant::International));
        assert_eq!("shashki".parse::<Variant>(), Ok(Variant::Russian));
        assert_eq!("checkers".parse::<Variant>(), Ok(Variant::English));
        assert_eq!("bt".parse::<Variant>(), Ok(Variant::Breakthrough));
        assert_eq!("losing".parse::<Variant>(), Ok(Variant::Antidraughts));
        assert!("chess".parse::<Variant>().is_err());
    }

    #[test]
    fn pydraughts_names_parse_and_only_its_four_boards_change_numbering() {
        // pydraughts' own names for its ten variants.
        for name in [
            "standard",
            "frisian",
            "frysk!",
            "antidraughts",
            "breakthrough",
            "italian",
            "russian",
            "brazilian",
            "english",
            "american",
            "turkish",
        ] {
            assert!(name.parse::<Variant>().is_ok(), "{name}");
        }
        let changed: Vec<Variant> = Variant::ALL
            .into_iter()
            .filter(|v| !v.hub_notation().is_same())
            .collect();
        assert_eq!(
            changed,
            [
                Variant::Russian,
                Variant::Brazilian,
                Variant::English,
                Variant::Turkish
            ]
        );
        assert_eq!(Variant::Russian.hub_notation(), Variant::Brazilian.hub_notation());
        assert_eq!(Variant::Turkish.hub_notation().square_to_tempo(17), Some(41));
        assert_eq!(Variant::English.hub_notation().move_to_tempo("12-16"), "12-16");
    }
}
