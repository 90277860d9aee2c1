//! The Test box's semantic and hybrid columns, answered on a worker: embedding the message takes
//! the sentence model about 12 ms, too long for a keystroke. One run at a time; keys typed while
//! it runs leave only the newest message waiting, and an answer is shown only if the message,
//! the index and the competing skills it was worked out for are still those of the Test box.

use super::{TestBox, TestCx};
use crate::core::matching::Matcher;
use crate::tui::answers::TEST_TOP_K;
use crate::tui::answers::{Columns, Over, Question};
use crate::tui::event::{Event, JobEvent};
use crate::tui::state::matching::Asked;
use std::sync::mpsc::Sender;

/// The columns of one message, in the order of the matchers asked.
/// Works out the semantic and hybrid columns for `question` over `over`, in the library's
/// numbering.
fn answer(over: Over, question: Question, request: u64, tx: Sender<Event>) {
    std::thread::spawn(move || {
        let competes = |i: usize| question.competing.get(i).copied().unwrap_or(false);
        let mut columns = over.index().query_many(
            &question.message,
            &Matcher::BY_MEANING,
            &competes,
            TEST_TOP_K,
        );
        if let Over::View(view) = &over {
            view.to_library(&mut columns);
        }
        let _ = tx.send(Event::Job(JobEvent::MatchedByMeaning {
            request,
            question: Box::new(question),
            columns,
        }));
    });
}

impl TestBox {
    /// Shows the lexical columns of the message, already worked out, and asks for the semantic
    /// ones: kept if they answer this very question, else worked out on a worker while they
    /// show that they wait. With no message, or before the skills' vectors are made, there is
    /// nothing to ask (the columns say why).
    pub(super) fn show_columns(
        &mut self,
        lexical: Columns,
        over: Over,
        question: Question,
        cx: &mut TestCx,
    ) {
        let old = std::mem::replace(&mut self.results, lexical);
        let meaning = &mut cx.matching.meaning;
        if meaning.shown.as_ref() == Some(&question) {
            meaning.wanted = None;
            self.results
                .extend(old.into_iter().filter(|(m, _)| m.needs_vectors()));
            return;
        }
        meaning.shown = None;
        self.results
            .extend(Matcher::BY_MEANING.map(|m| (m, Vec::new())));
        if question.message.trim().is_empty() || !over.index().has_vectors() {
            meaning.wanted = None;
            return;
        }
        meaning.wanted = Some(Asked { question, over });
        start_meaning(cx);
    }

    /// The semantic columns for `question`: shown if it is still the one asked, else the
    /// newest question is asked now.
    pub(super) fn on_matched_by_meaning(
        &mut self,
        request: u64,
        question: Question,
        columns: Columns,
        cx: &mut TestCx,
    ) {
        cx.matching.meaning.job.finish(request);
        let current = cx
            .matching
            .meaning
            .wanted
            .as_ref()
            .is_some_and(|a| a.question == question);
        if !current {
            start_meaning(cx);
            return;
        }
        cx.matching.meaning.wanted = None;
        for (matcher, found) in columns {
            if let Some(column) = self.results.iter_mut().find(|(m, _)| *m == matcher) {
                column.1 = found;
            }
        }
        cx.matching.meaning.shown = Some(question);
    }
}

/// Starts the worker on the question waiting, unless it is busy: its answer then asks again.
fn start_meaning(cx: &mut TestCx) {
    let Some(asked) = &cx.matching.meaning.wanted else {
        return;
    };
    let (question, over) = (asked.question.clone(), asked.over.clone());
    if let Some(request) = cx.matching.meaning.job.start() {
        answer(over, question, request, cx.tx.clone());
    }
}

#[cfg(test)]
#[cfg(feature = "semantic")]
mod tests {
    use super::*;
    use crate::core::front::load::LibrarySpec;
    use crate::core::matching::Index;
    use crate::core::matching::semantic::SkillVectors;
    use crate::core::matching::testlib;
    use crate::tui::app::App;
    use crate::tui::app::{Embedding, MatcherIndex, Options};
    use std::sync::Arc;
    use std::sync::mpsc::{self, Receiver};
    use std::time::Duration;

    /// The app over a small library, its index and the skills' vectors in.
    fn app() -> (tempfile::TempDir, tempfile::TempDir, App, Receiver<Event>) {
        let (lib_dir, lib) = testlib::library(&[
            (
                "pdf",
                "name: pdf\ndescription: Extract text and tables from PDF files, merge documents.",
            ),
            (
                "sql",
                "name: sql-tuning\ndescription: Make slow database queries faster.",
            ),
        ]);
        let dir = tempfile::tempdir().unwrap();
        let (tx, rx) = mpsc::channel();
        let spec = LibrarySpec::of_paths(vec![lib_dir.path().to_path_buf()]);
        let mut app = App::new(spec, lib, Options::isolated(dir.path()), tx);
        let index = Index::build(&app.lib);
        let vectors = SkillVectors::build(&app.lib, &|_, _| {}).unwrap();
        assert!(index.set_vectors(Arc::new(vectors)));
        app.matching.index = MatcherIndex::Ready(Arc::new(index));
        app.matching.embedding = Embedding::Done;
        (lib_dir, dir, app, rx)
    }

    /// The next semantic answer a worker sends; the app handles every other result meanwhile.
    fn next_answer(app: &mut App, rx: &Receiver<Event>) -> (u64, Question, Columns) {
        loop {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(Event::Job(JobEvent::MatchedByMeaning {
                    request,
                    question,
                    columns,
                })) => return (request, *question, columns),
                Ok(other) => app.handle(other),
                Err(e) => panic!("no answer came: {e}"),
            }
        }
    }

    fn names(app: &App, columns: &Columns, matcher: Matcher) -> Vec<String> {
        columns
            .iter()
            .find(|(m, _)| *m == matcher)
            .map(|(_, ms)| {
                ms.iter()
                    .map(|m| app.lib.skills[m.skill].name.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn type_message(app: &mut App, message: &str) {
        app.screens.test.message = message.to_string();
        app.run_matchers();
    }

    #[test]
    fn a_late_answer_for_an_old_message_is_not_shown_and_the_new_message_is_asked() {
        let (_lib, _dir, mut app, rx) = app();
        type_message(&mut app, "merge these pdf documents");
        assert!(app.matching.meaning.pending());
        // The lexical columns answer at once.
        assert_eq!(
            names(&app, &app.screens.test.results, Matcher::Bm25),
            ["pdf"]
        );
        // Typed on while the first message is embedded.
        type_message(&mut app, "my database queries are too slow");

        let (request, question, columns) = next_answer(&mut app, &rx);
        assert_eq!(question.message(), "merge these pdf documents");
        assert_eq!(names(&app, &columns, Matcher::Semantic), ["pdf"]);
        app.handle(Event::Job(JobEvent::MatchedByMeaning {
            request,
            question: Box::new(question),
            columns,
        }));
        // Not shown for the new message: the columns still wait, and the new message is asked.
        assert!(app.matching.meaning.pending());
        assert!(!app.matching.meaning.settled());
        for m in Matcher::BY_MEANING {
            assert!(names(&app, &app.screens.test.results, m).is_empty(), "{m}");
        }
        assert_eq!(
            names(&app, &app.screens.test.results, Matcher::Bm25),
            ["sql-tuning"]
        );

        let (request, question, columns) = next_answer(&mut app, &rx);
        assert_eq!(question.message(), "my database queries are too slow");
        app.handle(Event::Job(JobEvent::MatchedByMeaning {
            request,
            question: Box::new(question),
            columns,
        }));
        assert!(app.matching.meaning.settled());
        for m in Matcher::BY_MEANING {
            assert_eq!(
                names(&app, &app.screens.test.results, m),
                ["sql-tuning"],
                "{m}"
            );
        }
    }

    #[test]
    fn an_answer_for_a_message_cleared_meanwhile_is_dropped() {
        let (_lib, _dir, mut app, rx) = app();
        type_message(&mut app, "merge these pdf documents");
        type_message(&mut app, "");
        assert!(!app.matching.meaning.pending());
        let (request, question, columns) = next_answer(&mut app, &rx);
        app.handle(Event::Job(JobEvent::MatchedByMeaning {
            request,
            question: Box::new(question),
            columns,
        }));
        assert!(app.matching.meaning.settled());
        for m in Matcher::BY_MEANING {
            assert!(names(&app, &app.screens.test.results, m).is_empty(), "{m}");
        }
    }

    #[test]
    fn the_same_question_again_keeps_its_answer_and_asks_nothing() {
        let (_lib, _dir, mut app, rx) = app();
        type_message(&mut app, "merge these pdf documents");
        let (request, question, columns) = next_answer(&mut app, &rx);
        app.handle(Event::Job(JobEvent::MatchedByMeaning {
            request,
            question: Box::new(question),
            columns,
        }));
        assert_eq!(
            names(&app, &app.screens.test.results, Matcher::Semantic),
            ["pdf"]
        );
        app.run_matchers();
        assert!(app.matching.meaning.settled());
        assert_eq!(
            names(&app, &app.screens.test.results, Matcher::Semantic),
            ["pdf"]
        );
    }
}
