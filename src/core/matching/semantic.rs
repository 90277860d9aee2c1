//! The `semantic` matcher: each skill's fields as sentence vectors (remembered in the library
//! index by the hash of their text), the message as one more, ranked by cosine similarity.

use super::sentence::{DIM, MODEL_ID, ModelError, SentenceModel, dot};
use super::{Hit, HitField, Match, top_scores};
use crate::core::library::Library;
use crate::core::skill::Skill;
use rustc_hash::FxHashMap;

/// The least similarity the best skill must reach for the message to load anything: the
/// nearest skill to a greeting or a remark about the weather stays below it. Chosen on the first
/// library's paraphrase sets (tests/eval) and their small talk: see docs/matching.md.
pub const MIN_BEST_SIMILARITY: f32 = 0.25;
/// The least similarity of a skill taken beside a best one that reached [`MIN_BEST_SIMILARITY`].
pub const MIN_SIMILARITY: f32 = 0.2;
/// Skills this far below the best one are not candidates beside it.
pub const MAX_BEHIND_BEST: f32 = 0.2;

/// The key a field's vector is remembered under: the model and recipe, the field, its text.
pub type VectorKey = [u8; 32];

/// The texts of a skill that get a vector, with the field each stands for. The description is
/// read with the name before it, as an agent's listing shows it (a skill without one is known
/// by its name). The name has no vector of its own: a short name is near too many messages,
/// small talk among them.
pub fn field_texts(skill: &Skill) -> Vec<(HitField, String)> {
    let fm = &skill.frontmatter;
    let mut out = vec![description_text(skill).map_or_else(
        || (HitField::Name, spoken_name(skill)),
        |d| (HitField::Description, d),
    )];
    if let Some(w) = fm.when_to_use.as_deref().filter(|w| !w.trim().is_empty()) {
        out.push((HitField::WhenToUse, w.trim().to_string()));
    }
    if !fm.triggers.is_empty() {
        out.push((HitField::Triggers, fm.triggers.join("; ")));
    }
    out
}

/// The name as words: `on-call-handoff` reads as `on call handoff`.
fn spoken_name(skill: &Skill) -> String {
    skill.name.replace(['-', '_'], " ")
}

/// The text of a skill's description vector, `name: description`, when it has a description.
fn description_text(skill: &Skill) -> Option<String> {
    let d = skill.description().trim();
    (!d.is_empty()).then(|| format!("{}: {d}", spoken_name(skill)))
}

/// The key a skill's description vector is remembered under, when it has a description (the
/// `overlap` rule compares descriptions by these vectors).
pub fn description_key(skill: &Skill) -> Option<VectorKey> {
    description_text(skill).map(|t| key(HitField::Description, &t))
}

/// How many texts a long embedding makes before it may save the library index (shortest
/// first: two seconds' work at the start of the corpus, thirteen at its end).
pub const CHECKPOINT: usize = 512;
/// The least time between two of those saves: each writes the whole index (10 MB for the
/// corpus), and saving after every part of short texts cost the corpus's cold run 2–3 s.
pub const CHECKPOINT_GAP: std::time::Duration = std::time::Duration::from_secs(10);

/// What the library index keeps: the vector of each of `keys` that is made or remembered, once.
/// Only this library's fields are kept: a changed description's old vector goes.
fn entries(
    keys: &[VectorKey],
    fresh: &FxHashMap<VectorKey, Vec<f32>>,
    remembered: &FxHashMap<VectorKey, Vec<f32>>,
) -> Vec<(VectorKey, Vec<f32>)> {
    let mut kept = rustc_hash::FxHashSet::default();
    keys.iter()
        .filter(|k| kept.insert(**k))
        .filter_map(|k| {
            let v = fresh.get(k).or_else(|| remembered.get(k))?;
            (v.len() == DIM).then(|| (*k, v.clone()))
        })
        .collect()
}

/// The key of one field's text.
pub fn key(field: HitField, text: &str) -> VectorKey {
    let mut h = blake3::Hasher::new();
    h.update(MODEL_ID.as_bytes());
    h.update(&[0]);
    h.update(field.as_str().as_bytes());
    h.update(&[0]);
    h.update(text.as_bytes());
    *h.finalize().as_bytes()
}

/// Every skill's field vectors, one row each.
#[derive(Debug, Default)]
pub struct SkillVectors {
    /// Row-major, [`DIM`] floats per row.
    rows: Vec<f32>,
    /// The skill and field of each row; a skill's rows are consecutive.
    owners: Vec<(u32, HitField)>,
    /// The key of each row's text.
    keys: Vec<VectorKey>,
    /// How many fields had to be embedded (the others were remembered).
    pub embedded: usize,
}

/// How far the embedding of a library has come: fields done, fields to embed.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

impl SkillVectors {
    /// How many distinct field texts of `lib` have no remembered vector: the work
    /// [`SkillVectors::build`] has to do (0 on a warm start).
    pub fn missing(lib: &Library) -> usize {
        let remembered = lib.remembered_vectors();
        lib.skills
            .iter()
            .flat_map(field_texts)
            .map(|(f, t)| key(f, &t))
            .filter(|k| !remembered.contains_key(k))
            .collect::<rustc_hash::FxHashSet<_>>()
            .len()
    }

    /// The vectors of every skill of `lib`: remembered ones from the library index, the others
    /// embedded (and then remembered for the next run; the caller saves the index). `progress`
    /// hears how many of the missing fields are done. A long run saves what it has made after
    /// every [`CHECKPOINT`] texts, at most once in [`CHECKPOINT_GAP`], so a run stopped
    /// half-way (the app quit, the command interrupted) leaves the next one only the rest to do.
    pub fn build(lib: &Library, progress: Progress) -> Result<SkillVectors, ModelError> {
        Self::build_saving_every(lib, progress, CHECKPOINT, CHECKPOINT_GAP)
    }

    fn build_saving_every(
        lib: &Library,
        progress: Progress,
        every: usize,
        gap: std::time::Duration,
    ) -> Result<SkillVectors, ModelError> {
        // Vectors remembered by a build with the model are not used either: the message could
        // not be embedded to compare with them.
        if !super::sentence::BUILT_IN {
            return Err(ModelError::NotBuiltIn);
        }
        let remembered = lib.remembered_vectors();
        let mut owners = Vec::new();
        let mut keys = Vec::new();
        let mut texts = Vec::new();
        for (i, skill) in lib.skills.iter().enumerate() {
            for (field, text) in field_texts(skill) {
                owners.push((i as u32, field));
                keys.push(key(field, &text));
                texts.push(text);
            }
        }
        // Each text once: copies of a skill in several collections share their vectors.
        let mut seen = rustc_hash::FxHashSet::default();
        let mut todo: Vec<usize> = (0..keys.len())
            .filter(|&r| !remembered.contains_key(&keys[r]) && seen.insert(keys[r]))
            .collect();
        // Shortest first, so each part's batches hold texts of one length, as one run's would.
        todo.sort_by_key(|&r| texts[r].len());
        let mut fresh: FxHashMap<VectorKey, Vec<f32>> = FxHashMap::default();
        if !todo.is_empty() {
            let model = SentenceModel::shared()?;
            progress(0, todo.len());
            let parts: Vec<&[usize]> = todo.chunks(every.max(1)).collect();
            let mut saved = std::time::Instant::now();
            for (n, part) in parts.iter().enumerate() {
                let refs: Vec<&str> = part.iter().map(|&r| texts[r].as_str()).collect();
                let before = fresh.len();
                let vecs = model.embed_many(&refs, &|done| progress(before + done, todo.len()))?;
                fresh.extend(part.iter().map(|&r| keys[r]).zip(vecs));
                if n + 1 < parts.len() && saved.elapsed() >= gap {
                    lib.remember_vectors(entries(&keys, &fresh, &remembered));
                    // A cache: a failed write costs this run nothing.
                    let _ = lib.save_index();
                    saved = std::time::Instant::now();
                }
            }
        }
        let mut rows = Vec::with_capacity(keys.len() * DIM);
        for k in &keys {
            match fresh.get(k).or_else(|| remembered.get(k)) {
                Some(v) if v.len() == DIM => rows.extend_from_slice(v),
                _ => rows.extend(std::iter::repeat_n(0.0, DIM)),
            }
        }
        if !todo.is_empty() {
            lib.remember_vectors(entries(&keys, &fresh, &remembered));
        }
        Ok(SkillVectors {
            rows,
            owners,
            keys,
            embedded: todo.len(),
        })
    }

    /// The vectors of `view`'s skills, taken from these by the key of each field's text: a view
    /// of the same library (one agent's skills) embeds nothing. A field these do not hold gets
    /// no row, so it is never near a message.
    pub fn for_view(&self, view: &Library) -> SkillVectors {
        let row_of: FxHashMap<&VectorKey, usize> =
            self.keys.iter().enumerate().map(|(r, k)| (k, r)).collect();
        let mut out = SkillVectors::default();
        for (i, skill) in view.skills.iter().enumerate() {
            for (field, text) in field_texts(skill) {
                let k = key(field, &text);
                if let Some(&r) = row_of.get(&k) {
                    out.rows
                        .extend_from_slice(&self.rows[r * DIM..(r + 1) * DIM]);
                    out.owners.push((i as u32, field));
                    out.keys.push(k);
                }
            }
        }
        out
    }

    /// Each enabled skill's best field similarity to the message vector `q`, with every field's
    /// similarity, best first.
    pub(super) fn similarities(
        &self,
        q: &[f32],
        enabled: &dyn Fn(usize) -> bool,
    ) -> Vec<(u32, Vec<(HitField, f32)>)> {
        let mut out: Vec<(u32, Vec<(HitField, f32)>)> = Vec::new();
        for (r, &(skill, field)) in self.owners.iter().enumerate() {
            if !enabled(skill as usize) {
                continue;
            }
            let sim = dot(q, &self.rows[r * DIM..(r + 1) * DIM]);
            match out.last_mut() {
                Some((s, fields)) if *s == skill => fields.push((field, sim)),
                _ => out.push((skill, vec![(field, sim)])),
            }
        }
        for (_, fields) in &mut out {
            fields.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
        out
    }

    /// Every vector by the key of its text (a text several skills share once).
    pub fn by_key(&self) -> FxHashMap<VectorKey, Vec<f32>> {
        self.keys
            .iter()
            .enumerate()
            .map(|(r, k)| (*k, self.rows[r * DIM..(r + 1) * DIM].to_vec()))
            .collect()
    }

    /// How many skills have vectors.
    pub fn skills(&self) -> usize {
        self.owners.last().map_or(0, |o| o.0 as usize + 1)
    }
}

/// The message's vector (an error when the model cannot run: the matcher then finds nothing).
pub(super) fn message_vector(message: &str) -> Result<Vec<f32>, ModelError> {
    SentenceModel::shared()?.embed(message)
}

/// Whether the model's vocabulary holds `word` whole (one WordPiece token): a dictionary word
/// rather than a brand or a name. True when the model cannot be loaded (nothing is taken for a
/// name then).
pub(super) fn whole_word(word: &str) -> bool {
    SentenceModel::shared()
        .ok()
        .and_then(|m| m.token_ids(word).ok())
        .is_none_or(|ids| ids.len() <= 3)
}

/// The hits of a semantic match: every field with its similarity, nearest first.
pub(super) fn hits(fields: &[(HitField, f32)]) -> Vec<Hit> {
    fields
        .iter()
        .map(|&(field, sim)| Hit {
            term: field.as_str().to_string(),
            field,
            spans: Vec::new(),
            similarity: Some(sim),
        })
        .collect()
}

/// The `semantic` matcher's answer: when the best skill's nearest field reaches
/// [`MIN_BEST_SIMILARITY`], the skills at least [`MIN_SIMILARITY`] and within [`MAX_BEHIND_BEST`]
/// of it, best first.
pub(super) fn query(
    vectors: &SkillVectors,
    q: &[f32],
    enabled: &dyn Fn(usize) -> bool,
    k: usize,
    names: &[String],
) -> Vec<Match> {
    let sims = vectors.similarities(q, enabled);
    nearest(&sims, &|_, sim| sim, k, names)
        .into_iter()
        .map(|(skill, score, fields)| Match {
            skill: skill as usize,
            score,
            hits: hits(fields),
            name_indices: Vec::new(),
        })
        .collect()
}

/// A skill's fields with their similarity to the message, nearest first.
type Fields = [(HitField, f32)];

/// The skills near enough to the message, best first, each with its fields (nearest first):
/// every skill of `sims` scored by `score` (from the skill and its nearest field's similarity),
/// none unless the best reaches [`MIN_BEST_SIMILARITY`], then those at least [`MIN_SIMILARITY`],
/// the best `k`, no further than [`MAX_BEHIND_BEST`] behind the best. The semantic and hybrid
/// matchers' one cut.
pub(super) fn nearest<'a>(
    sims: &'a [(u32, Vec<(HitField, f32)>)],
    score: &dyn Fn(u32, f32) -> f32,
    k: usize,
    names: &[String],
) -> Vec<(u32, f32, &'a Fields)> {
    let by_skill: FxHashMap<u32, &Fields> = sims.iter().map(|(s, f)| (*s, f.as_slice())).collect();
    let scored: Vec<(u32, f32)> = sims
        .iter()
        .filter_map(|(s, f)| Some((*s, score(*s, f.first()?.1))))
        .filter(|&(_, score)| score >= MIN_SIMILARITY)
        .collect();
    let top = top_scores(scored, names, k);
    let best = top.first().map_or(0.0, |t| t.1);
    if best < MIN_BEST_SIMILARITY {
        return Vec::new();
    }
    top.into_iter()
        .take_while(|&(_, s)| s >= best - MAX_BEHIND_BEST)
        .map(|(skill, score)| (skill, score, by_skill.get(&skill).copied().unwrap_or(&[])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testlib::library;
    #[cfg(feature = "semantic")]
    use super::super::testlib::names;
    use super::super::{Index, Matcher};
    use super::*;

    fn fixture() -> (tempfile::TempDir, Library) {
        library(&[
            (
                "handoff",
                "name: on-call-handoff\ndescription: Master on-call shift handoffs with context transfer, escalation procedures and documentation.",
            ),
            (
                "prose",
                "name: avoid-ai-writing\ndescription: Audit and rewrite prose so it stops reading as machine-generated.",
            ),
            (
                "pdf",
                "name: pdf\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\nwhen_to_use: When a file ends in .pdf.",
            ),
            (
                "k8s",
                "name: kubernetes-deploy\ndescription: Deploy containers to a cluster with Helm charts and rollbacks.\ntriggers: [ship it to the cluster]",
            ),
        ])
    }

    #[cfg(feature = "semantic")]
    fn index(lib: &Library) -> Index {
        let idx = Index::build(lib);
        let v = SkillVectors::build(lib, &|_, _| {}).unwrap();
        assert_eq!(v.skills(), lib.skills.len());
        assert!(idx.set_vectors(std::sync::Arc::new(v)));
        idx
    }

    #[test]
    fn every_field_with_text_gets_a_vector_and_a_key_of_its_own() {
        let (_t, lib) = fixture();
        let pdf = &lib.skills[lib.find("pdf").unwrap()];
        let fields: Vec<HitField> = field_texts(pdf).iter().map(|f| f.0).collect();
        assert_eq!(fields, [HitField::Description, HitField::WhenToUse]);
        let k8s = &lib.skills[lib.find("kubernetes-deploy").unwrap()];
        let texts = field_texts(k8s);
        assert!(
            texts[0]
                .1
                .starts_with("kubernetes deploy: Deploy containers")
        );
        assert_eq!(
            texts[1],
            (HitField::Triggers, "ship it to the cluster".into())
        );
        assert_ne!(
            key(HitField::Name, "pdf"),
            key(HitField::Description, "pdf")
        );
        assert_eq!(key(HitField::Name, "pdf"), key(HitField::Name, "pdf"));
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn a_text_two_skills_share_is_embedded_once_and_both_get_its_vector() {
        let (_t, lib) = library(&[
            (
                "a/pdf",
                "name: pdf\ndescription: Extract text and tables from PDF files.",
            ),
            (
                "b/pdf",
                "name: pdf\ndescription: Extract text and tables from PDF files.",
            ),
            (
                "sql",
                "name: sql\ndescription: Make slow database queries faster.",
            ),
        ]);
        assert_eq!(SkillVectors::missing(&lib), 2);
        let v = SkillVectors::build(&lib, &|_, _| {}).unwrap();
        assert_eq!(v.embedded, 2);
        assert_eq!(v.skills(), 3);
        assert_eq!(v.rows[..DIM], v.rows[DIM..2 * DIM]);
        assert_ne!(v.rows[..DIM], v.rows[2 * DIM..]);
        assert!((dot(&v.rows[..DIM], &v.rows[..DIM]) - 1.0).abs() < 1e-4);
    }

    /// Embeds five skills' descriptions two at a time, saving at most once in `gap`; returns
    /// what another process would find in the index at each step (texts made, vectors saved),
    /// and how many texts the next run would have left once this one has saved.
    #[cfg(feature = "semantic")]
    fn long_run(gap: std::time::Duration) -> (Vec<(usize, usize)>, usize) {
        use crate::core::index::IndexStore;
        use crate::core::scan::ScanOptions;
        use crate::core::source::{Agent, Root, Scope};
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("lib");
        for (dir, text) in [
            ("a", "Extract text and tables from PDF files."),
            ("b", "Make slow database queries faster."),
            ("c", "Deploy containers to a cluster."),
            ("d", "Write release notes from merged pull requests."),
            ("e", "Turn meeting transcripts into minutes."),
        ] {
            let d = root.join(dir);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(
                d.join("SKILL.md"),
                format!("---\nname: {dir}\ndescription: {text}\n---\n"),
            )
            .unwrap();
        }
        let store = IndexStore::in_dir(t.path().join("cache"));
        let load = || {
            Library::load_indexed(
                vec![Root::new(&root, Agent::Path, Scope::Path)],
                &ScanOptions::default(),
                &store,
            )
            .0
        };
        let lib = load();
        let seen = std::sync::Mutex::new(Vec::new());
        let v = SkillVectors::build_saving_every(
            &lib,
            &|done, _| {
                seen.lock()
                    .unwrap()
                    .push((done, load().remembered_vectors().len()));
            },
            2,
            gap,
        )
        .unwrap();
        assert_eq!(v.embedded, 5);
        assert!(lib.save_index().is_none());
        (seen.into_inner().unwrap(), SkillVectors::missing(&load()))
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn a_long_run_saves_what_it_has_made_as_it_goes() {
        let (seen, left) = long_run(std::time::Duration::ZERO);
        // Two made: two saved before the next part starts; four made: four saved.
        assert!(seen.contains(&(2, 0)), "{seen:?}");
        assert!(
            seen.iter().any(|&(done, saved)| done > 2 && saved == 2),
            "{seen:?}"
        );
        assert!(
            seen.iter().any(|&(done, saved)| done > 4 && saved == 4),
            "{seen:?}"
        );
        assert_eq!(left, 0);
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn saves_during_a_run_are_at_least_the_gap_apart() {
        let (seen, left) = long_run(std::time::Duration::from_hours(1));
        // Within the hour no part is saved before the run ends; the end saves it all.
        assert!(seen.iter().all(|&(_, saved)| saved == 0), "{seen:?}");
        assert_eq!(seen.last().map(|s| s.0), Some(5));
        assert_eq!(left, 0);
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn a_paraphrase_finds_its_skill_and_says_which_field_was_nearest() {
        let (_t, lib) = fixture();
        let idx = index(&lib);
        let got = idx.query(
            "this essay reads like a chatbot produced it",
            Matcher::Semantic,
            &|_| true,
            5,
        );
        assert_eq!(names(&lib, &got).first(), Some(&"avoid-ai-writing"));
        let h = &got[0].hits;
        assert_eq!(h[0].field, HitField::Description);
        assert_eq!(h[0].similarity, Some(got[0].score));
        assert!(h.windows(2).all(|w| w[0].similarity >= w[1].similarity));
        assert!(h.iter().all(|h| h.spans.is_empty()));
    }

    #[test]
    fn nothing_is_taken_unless_the_best_reaches_the_gate_then_the_floor_applies() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let sims = |best: f32| {
            vec![
                (0, vec![(HitField::Description, best)]),
                (1, vec![(HitField::Description, MIN_SIMILARITY + 0.01)]),
                (2, vec![(HitField::Description, MIN_SIMILARITY - 0.01)]),
            ]
        };
        let taken = |best: f32| -> Vec<u32> {
            nearest(&sims(best), &|_, s| s, 5, &names)
                .into_iter()
                .map(|(d, _, _)| d)
                .collect()
        };
        // Above the floor, below the gate: a message nothing stands out for loads nothing.
        assert!(taken(MIN_BEST_SIMILARITY - 0.01).is_empty());
        // Once the best reaches the gate, skills above the floor come with it, the others not.
        assert_eq!(taken(MIN_BEST_SIMILARITY + 0.01), vec![0, 1]);
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn small_talk_finds_nothing() {
        let (_t, lib) = fixture();
        let idx = index(&lib);
        for msg in [
            "good morning!",
            "thanks, that is all for today",
            "what's the weather like in Paris?",
        ] {
            for m in [Matcher::Semantic, Matcher::Hybrid] {
                let got = idx.query(msg, m, &|_| true, 5);
                assert!(got.is_empty(), "{m} {msg}: {:?}", names(&lib, &got));
            }
        }
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn hybrid_takes_what_either_side_finds_and_explains_both() {
        let (_t, lib) = fixture();
        let idx = index(&lib);
        // Words bm25 knows, and a meaning semantic knows.
        let got = idx.query("merge these pdf documents", Matcher::Hybrid, &|_| true, 5);
        assert_eq!(names(&lib, &got).first(), Some(&"pdf"));
        assert!(got[0].hits.iter().any(|h| h.similarity.is_some()));
        assert!(got[0].hits.iter().any(|h| !h.spans.is_empty()));
        let got = idx.query(
            "this essay reads like a chatbot produced it",
            Matcher::Hybrid,
            &|_| true,
            5,
        );
        assert_eq!(names(&lib, &got).first(), Some(&"avoid-ai-writing"));
    }

    #[test]
    #[cfg(feature = "semantic")]
    fn disabled_skills_never_compete_and_no_vectors_means_no_answer() {
        let (_t, lib) = fixture();
        let bare = Index::build(&lib);
        assert!(!bare.has_vectors());
        let msg = "this essay reads like a chatbot produced it";
        assert!(bare.query(msg, Matcher::Semantic, &|_| true, 5).is_empty());
        let idx = index(&lib);
        let prose = lib.find("avoid-ai-writing").unwrap();
        for m in [Matcher::Semantic, Matcher::Hybrid] {
            let got = idx.query(msg, m, &|i| i != prose, 5);
            assert!(got.iter().all(|g| g.skill != prose), "{m}");
        }
    }

    #[test]
    #[cfg(not(feature = "semantic"))]
    fn without_the_model_no_vectors_are_made_nor_remembered_ones_used() {
        let (_t, lib) = fixture();
        lib.remember_vectors(vec![(
            description_key(&lib.skills[0]).unwrap(),
            vec![0.5; DIM],
        )]);
        let e = SkillVectors::build(&lib, &|_, _| {}).unwrap_err();
        assert!(matches!(e, ModelError::NotBuiltIn), "{e}");
        let idx = Index::build(&lib);
        assert!(!Matcher::Semantic.built_in() && !Matcher::Hybrid.built_in());
        assert!(Matcher::LEXICAL.iter().all(|m| m.built_in()));
        assert!(
            idx.query("pdf files", Matcher::Semantic, &|_| true, 5)
                .is_empty()
        );
    }
}
