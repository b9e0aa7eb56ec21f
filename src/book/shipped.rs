//! The books compiled into the binary (`books/<variant>.book`), as the evaluation's weights are:
//! Hub `book=true` (UCI `OwnBook`) with no book file plays from the variant's shipped book.
//!
//! docs/book.md gives the command that built each file, its size and its build time.

use super::Book;

/// The book file compiled in for a variant (by its name, as `Game::NAME`), if one ships. To ship a
/// book for another variant, build it into `books/` and add its line here.
pub fn bytes(variant: &str) -> Option<&'static [u8]> {
    match variant {
        "international" => Some(include_bytes!("../../books/international.book")),
        "russian" => Some(include_bytes!("../../books/russian.book")),
        "brazilian" => Some(include_bytes!("../../books/brazilian.book")),
        "english" => Some(include_bytes!("../../books/english.book")),
        "frisian" => Some(include_bytes!("../../books/frisian.book")),
        _ => None,
    }
}

/// The shipped book of a variant, read and checked.
///
/// # Errors
/// No book ships for the variant (the message says how to name one), or the compiled-in bytes
/// are refused by [`Book::from_bytes`] (a build of a damaged file).
pub fn load(variant: &str) -> Result<Book, String> {
    let bytes = bytes(variant).ok_or_else(|| {
        format!("no book ships for {variant}; name one with book-file (tempo book build makes one)")
    })?;
    let book = Book::from_bytes(bytes.to_vec()).map_err(|e| format!("the shipped book of {variant}: {e}"))?;
    if book.variant() != variant {
        return Err(format!(
            "the shipped book of {variant} is a book of {}",
            book.variant()
        ));
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{Brazilian, English, Frisian, International, Russian};
    use crate::game::Game;

    fn check<G: Game>() {
        let name = G::NAME;
        let book = load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(book.variant(), name);
        assert!(book.len() > 100, "{name}: {} positions", book.len());
        assert!(
            book.find(G::start().key()).is_some_and(|e| e.expanded()),
            "{name}: the initial position is not expanded"
        );
        assert!(!book.moves(&G::start()).is_empty());
    }

    /// Every shipped book reads back, is of its variant, and its root is expanded, so that a game
    /// from the initial position starts from the book.
    #[test]
    fn every_shipped_book_loads_and_starts_at_the_root() {
        check::<International>();
        check::<Russian>();
        check::<Brazilian>();
        check::<English>();
        check::<Frisian>();
        assert!(load("turkish").unwrap_err().contains("no book ships for turkish"));
    }
}
