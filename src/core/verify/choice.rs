//! Whether a client's listing differs from the prediction only where the client decides as it
//! runs (`Library::choices`): a folder's entries in another order (Gemini CLI's unsorted glob),
//! another copy of a name (opencode's concurrent loads). Everything else must be byte for byte
//! the prediction's: the text around the entries, every other entry, the number of entries.

use crate::core::library::Library;
use crate::core::listing::{self, ListingOptions};

/// The names of the entries the client placed or picked otherwise, when that is all that
/// differs between `real` and the listing of `lib` with `on` and `opts`; `None` when anything
/// else differs too (or nothing is the client's to choose).
pub fn own_choice(
    lib: &Library,
    on: &dyn Fn(usize) -> bool,
    opts: &ListingOptions,
    real: &str,
) -> Option<Vec<String>> {
    if lib.choices.is_empty() {
        return None;
    }
    let predicted = listing::render(lib, on, opts);
    if predicted.texts.is_empty() || predicted.text == real {
        return None;
    }
    let joined = predicted
        .texts
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let at = predicted.text.find(&joined)?;
    let (head, tail) = (&predicted.text[..at], &predicted.text[at + joined.len()..]);
    let middle = real.strip_prefix(head)?.strip_suffix(tail)?;
    let chosen = predicted.client_choices(lib);
    // Each entry's place: the texts it may be listed with, and the folder whose entries the
    // client orders itself when it is one of them.
    let slots: Vec<Slot> = predicted
        .texts
        .iter()
        .map(|(index, text)| {
            let mut texts = vec![text.clone()];
            let mut folder = None;
            if let Some(i) = *index
                && chosen.contains_key(&i)
                && let Some(c) = lib.choices.get(&i)
            {
                folder.clone_from(&c.order);
                texts.extend(
                    c.copies
                        .iter()
                        .filter_map(|&k| copy_text(lib, on, opts, i, k)),
                );
            }
            Slot {
                index: *index,
                texts,
                folder,
            }
        })
        .collect();
    matched(&slots, middle).map(|moved| {
        let mut names: Vec<String> = moved
            .into_iter()
            .filter_map(|i| lib.skills.get(i).map(|s| s.name.clone()))
            .collect();
        names.sort();
        names.dedup();
        names
    })
}

/// One entry of the predicted listing.
struct Slot {
    index: Option<usize>,
    /// Its text as predicted, then as each other copy of its name would be listed.
    texts: Vec<String>,
    /// The folder whose entries may come in any order, when it is one of them.
    folder: Option<std::path::PathBuf>,
}

/// The entries of `middle` (the client's, joined by line breaks) taken slot by slot: at each
/// slot, the slot itself or an unused one of its folder, with any of its texts. The indexes of
/// the skills listed at another place or with another copy; `None` when `middle` is not made so.
fn matched(slots: &[Slot], middle: &str) -> Option<Vec<usize>> {
    let mut used = vec![false; slots.len()];
    let mut moved = Vec::new();
    let mut rest = middle;
    for (k, slot) in slots.iter().enumerate() {
        let last = k + 1 == slots.len();
        let candidates: Vec<usize> = match &slot.folder {
            Some(f) => (0..slots.len())
                .filter(|&j| !used[j] && slots[j].folder.as_ref() == Some(f))
                .collect(),
            None => vec![k],
        };
        let (j, t, after) = candidates.iter().find_map(|&j| {
            slots[j].texts.iter().enumerate().find_map(|(t, text)| {
                let after = rest.strip_prefix(text.as_str())?;
                let after = if last {
                    after.is_empty().then_some(after)?
                } else {
                    after.strip_prefix('\n')?
                };
                Some((j, t, after))
            })
        })?;
        if used[j] {
            return None;
        }
        used[j] = true;
        if j != k || t > 0 {
            moved.extend(slots[j].index);
        }
        rest = after;
    }
    rest.is_empty().then_some(moved)
}

/// How the listing would show copy `k` had the client kept it instead of `winner`.
fn copy_text(
    lib: &Library,
    on: &dyn Fn(usize) -> bool,
    opts: &ListingOptions,
    winner: usize,
    k: usize,
) -> Option<String> {
    let mut other = lib.clone();
    let copies: Vec<usize> = lib.choices.get(&winner)?.copies.clone();
    for &c in copies.iter().chain(std::iter::once(&winner)) {
        if let Some(s) = other.skills.get_mut(c) {
            s.shadowed_by = (c != k).then_some(k);
        }
    }
    let l = listing::render(&other, &|i| i == k || on(i), opts);
    l.texts
        .into_iter()
        .find(|(i, _)| *i == Some(k))
        .map(|(_, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(index: usize, texts: &[&str], folder: Option<&str>) -> Slot {
        Slot {
            index: Some(index),
            texts: texts.iter().map(|t| (*t).to_string()).collect(),
            folder: folder.map(std::path::PathBuf::from),
        }
    }

    #[test]
    fn a_folders_entries_may_come_in_any_order_and_nothing_else_may() {
        let slots = [
            slot(0, &["<a/>"], None),
            slot(1, &["<b/>"], Some("f")),
            slot(2, &["<c/>"], Some("f")),
            slot(3, &["<d/>"], None),
        ];
        assert_eq!(matched(&slots, "<a/>\n<b/>\n<c/>\n<d/>"), Some(vec![]));
        assert_eq!(matched(&slots, "<a/>\n<c/>\n<b/>\n<d/>"), Some(vec![2, 1]));
        // An entry outside the folder may not move, none may be missing or twice.
        assert_eq!(matched(&slots, "<d/>\n<b/>\n<c/>\n<a/>"), None);
        assert_eq!(matched(&slots, "<a/>\n<b/>\n<b/>\n<d/>"), None);
        assert_eq!(matched(&slots, "<a/>\n<b/>\n<d/>"), None);
        assert_eq!(matched(&slots, "<a/>\n<b/>\n<c/>\n<d/>\n<e/>"), None);
        assert_eq!(matched(&slots, "<a/>\n<b/>\n<c/>\n<d/>\n"), None);
    }

    #[test]
    fn a_copy_may_stand_for_its_name_only_at_its_place() {
        let slots = [
            slot(0, &["<a/>"], None),
            slot(1, &["<b project/>", "<b user/>"], None),
        ];
        assert_eq!(matched(&slots, "<a/>\n<b user/>"), Some(vec![1]));
        assert_eq!(matched(&slots, "<a/>\n<b project/>"), Some(vec![]));
        assert_eq!(matched(&slots, "<b user/>\n<a/>"), None);
        assert_eq!(matched(&slots, "<a/>\n<b other/>"), None);
    }
}
