//! The Lazy Skills views of the app: listing modes on the Prompt screen, the cost-when-used
//! column, and resources opened from the detail pane.

mod tui_common;

use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use skillscope::core::listing::{self, Format, ListingOptions};
use skillscope::core::modes::ListingMode;
use skillscope::core::tokens::{Encoding, count};
use tui_common::{fixture, harness};

#[test]
fn prompt_mode_key_lists_only_what_the_test_message_makes_relevant() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("library");
    fixture(&root);
    let mut h = harness(&[&root], 100, 30);
    h.key(KeyCode::Char('3'))
        .chars("what's the weather in Paris?");
    h.settle();
    h.key(KeyCode::BackTab);
    assert!(h.screen().contains("m mode"), "the footer offers the key");
    h.key(KeyCode::Char('m'));
    h.settle();
    assert_eq!(h.app.prompt.mode, ListingMode::All);
    h.key(KeyCode::Char('m'));
    h.settle();
    let preview = h.app.preview.as_ref().unwrap();
    assert_eq!(preview.mode, ListingMode::Auto);
    let text = &preview.listing.text;
    assert!(text.contains("**weather**"), "{text}");
    assert!(
        !text.contains("pdf-tools") && !text.contains("team-notes"),
        "{text}"
    );
    // Every figure is the count of the listing it stands for.
    assert_eq!(preview.tokens as usize, count(Encoding::O200kBase, text));
    let enabled = listing::render(
        &h.app.lib,
        &|i| h.app.enabled[i],
        &ListingOptions {
            format: Format::Markdown,
            ..ListingOptions::default()
        },
    );
    let cmp = &preview.comparison;
    let modes: Vec<ListingMode> = cmp.modes.iter().map(|m| m.mode).collect();
    assert_eq!(modes, ListingMode::ALL);
    assert_eq!(
        cmp.get(ListingMode::Enabled).unwrap().tokens as usize,
        count(Encoding::O200kBase, &enabled.text)
    );
    assert_eq!(cmp.get(ListingMode::Auto).unwrap().tokens, preview.tokens);
    let saving = cmp.saving(ListingMode::Auto, ListingMode::All).unwrap();
    assert!(saving > 0.0, "{saving}");
    let screen = h.screen();
    assert!(screen.contains("mode auto"), "{screen}");
    assert!(screen.contains("vs all"), "{screen}");
    assert!(screen.contains("1 relevant → 1 listed"), "{screen}");
    assert_snapshot!("prompt_auto_mode", screen);

    // Without a message, auto lists nothing and says where the message comes from.
    h.key(KeyCode::Char('3')).key(KeyCode::Esc);
    h.settle();
    h.key(KeyCode::BackTab);
    let empty = h.screen();
    assert!(empty.contains("type one in the Test box"), "{empty}");
    assert_eq!(h.app.preview.as_ref().unwrap().listing.entries.len(), 0);
}
