//! The values of PDN tags that name things outside the move text: the `GameType` of each variant
//! and the variant a `GameType` names, the variant a game without one can only be (from its FEN
//! and its moves), and today's `Date`. The match manager, the DXP player and game analysis share
//! them from here.

use crate::variant::Variant;

/// The PDN `GameType` of a variant: the long form for the types pydraughts writes, the number
/// alone for the other standard ones, `None` where PDN has no number.
pub fn game_type(v: Variant) -> Option<&'static str> {
    Some(match v {
        Variant::International | Variant::Killer | Variant::Breakthrough | Variant::Antidraughts => {
            "20,W,10,10,N2,0"
        }
        Variant::English => "21,B,8,8,N1,0",
        Variant::Italian => "22,W,8,8,N2,1",
        Variant::Pool => "23",
        Variant::Spanish => "24",
        Variant::Russian => "25,W,8,8,A0,0",
        Variant::Brazilian => "26,W,8,8,A0,0",
        Variant::Canadian => "27",
        Variant::Portuguese => "28",
        Variant::Czech => "29",
        Variant::Turkish => "30,W,8,8,A0,0",
        Variant::Thai => "31",
        Variant::Frisian | Variant::Frysk => "40,W,10,10,N2,0",
        _ => return None,
    })
}

/// The variant a PDN `GameType` tag names (the number before the first comma; 20 is
/// International, the type Killer, Breakthrough and Antidraughts games also carry, and 40 is
/// Frisian, which Frysk! games also carry), or `None` for a type Tempo does not play.
pub fn variant_of_game_type(tag: &str) -> Option<Variant> {
    let number: u32 = tag.split(',').next()?.trim().parse().ok()?;
    [
        Variant::International,
        Variant::English,
        Variant::Italian,
        Variant::Pool,
        Variant::Spanish,
        Variant::Russian,
        Variant::Brazilian,
        Variant::Canadian,
        Variant::Portuguese,
        Variant::Czech,
        Variant::Turkish,
        Variant::Thai,
        Variant::Frisian,
    ]
    .into_iter()
    .find(|&v| game_type(v).and_then(|t| t.split(',').next()?.parse::<u32>().ok()) == Some(number))
}

/// Today's date as PDN writes it (`YYYY.MM.DD`, UTC), from the system clock.
pub fn pdn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day count since 1970-01-01 (the proleptic calendar: eras of 400 years
/// of 146,097 days, years starting in March so that the leap day comes last).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-03-01 is day 11017; 2024-02-29 is day 19782.
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
