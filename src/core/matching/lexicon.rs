//! The words of a library, each stored once with its stem and whether it counts, so building an
//! index tokenises every text once and stems every distinct word once.

use super::text::{each_word, is_content_word, stem};
use crate::core::library::Library;
use crate::core::skill::Skill;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hash for short words (the Fx scheme). The keys are the library's own words, not
/// attacker-chosen input to a server, so flooding resistance buys nothing here.
#[derive(Debug, Default, Clone, Copy)]
pub struct WordHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl WordHasher {
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(SEED);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub type WordMap<V> = HashMap<Box<str>, V, BuildHasherDefault<WordHasher>>;

/// One distinct lowercased word.
#[derive(Debug)]
pub struct WordEntry {
    pub text: Box<str>,
    pub stem: u32,
}

#[derive(Debug, Default)]
pub struct Lexicon {
    word_ids: WordMap<u32>,
    pub words: Vec<WordEntry>,
    stem_ids: WordMap<u32>,
    pub stems: Vec<Box<str>>,
    /// For each stem, the first word that had it: what to show instead of the bare stem.
    pub stem_word: Vec<u32>,
}

impl Lexicon {
    pub fn with_capacity(words: usize) -> Lexicon {
        Lexicon {
            word_ids: WordMap::with_capacity_and_hasher(
                words,
                std::hash::BuildHasherDefault::default(),
            ),
            words: Vec::with_capacity(words),
            stem_ids: WordMap::with_capacity_and_hasher(
                words,
                std::hash::BuildHasherDefault::default(),
            ),
            stems: Vec::with_capacity(words),
            stem_word: Vec::with_capacity(words),
        }
    }

    /// The id of a lowercased word, added when new.
    pub fn intern(&mut self, lower: &str) -> u32 {
        if let Some(&id) = self.word_ids.get(lower) {
            return id;
        }
        let id = self.words.len() as u32;
        let s = stem(lower);
        let stem = if let Some(&st) = self.stem_ids.get(s.as_str()) {
            st
        } else {
            let st = self.stems.len() as u32;
            self.stems.push(s.clone().into_boxed_str());
            self.stem_word.push(id);
            self.stem_ids.insert(s.into_boxed_str(), st);
            st
        };
        self.words.push(WordEntry {
            text: lower.into(),
            stem,
        });
        self.word_ids.insert(lower.into(), id);
        id
    }

    pub fn word(&self, lower: &str) -> Option<u32> {
        self.word_ids.get(lower).copied()
    }

    pub fn stem_id(&self, stem: &str) -> Option<u32> {
        self.stem_ids.get(stem).copied()
    }

    /// What to show for a stem: a word of the library that has it.
    pub fn stem_display(&self, stem: u32) -> &str {
        &self.words[self.stem_word[stem as usize] as usize].text
    }
}

/// The fields of a skill that say what it is for, in the order [`SkillWords::field`] numbers them.
pub const FIELD_COUNT: usize = 4;

fn field_texts(skill: &Skill, field: usize) -> impl Iterator<Item = &str> {
    let fm = &skill.frontmatter;
    let one = match field {
        0 => Some(skill.name.as_str()),
        1 => Some(skill.description()),
        2 => fm.when_to_use.as_deref(),
        _ => None,
    };
    let triggers = if field == 3 {
        fm.triggers.as_slice()
    } else {
        &[]
    };
    one.into_iter().chain(triggers.iter().map(String::as_str))
}

/// The content words of each field (name, description, `when_to_use`, triggers) of some
/// skills, as lexicon word ids.
#[derive(Debug, Default)]
pub struct SkillWords {
    ids: Vec<u32>,
    /// Per skill, where each field's ids start, and where the last one ends.
    bounds: Vec<[u32; FIELD_COUNT + 1]>,
}

impl SkillWords {
    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    /// How many word ids all skills hold together.
    pub fn total(&self) -> usize {
        self.ids.len()
    }

    pub fn field(&self, doc: usize, field: usize) -> &[u32] {
        let b = &self.bounds[doc];
        &self.ids[b[field] as usize..b[field + 1] as usize]
    }

    pub fn fields(&self, doc: usize) -> [&[u32]; FIELD_COUNT] {
        std::array::from_fn(|f| self.field(doc, f))
    }
}

/// A slice of skills tokenised on its own, with ids local to it.
struct Chunk {
    /// Content words only: stop-words never reach the lexicon.
    words: Vec<Box<str>>,
    words_out: SkillWords,
}

fn tokenize_chunk(lib: &Library, skills: &[usize]) -> Chunk {
    // Stop-words are looked up like the others, under the id `NOT_CONTENT`.
    const NOT_CONTENT: u32 = u32::MAX;
    // About four new words per skill in real libraries; sizing up front saves the rehashes.
    let mut map: WordMap<u32> = WordMap::with_capacity_and_hasher(
        skills.len() * 4,
        std::hash::BuildHasherDefault::default(),
    );
    let mut words: Vec<Box<str>> = Vec::with_capacity(skills.len() * 4);
    let mut out = SkillWords {
        ids: Vec::with_capacity(skills.len() * 40),
        bounds: Vec::with_capacity(skills.len()),
    };
    let mut buf = String::new();
    for &i in skills {
        let skill = &lib.skills[i];
        let mut b = [0u32; FIELD_COUNT + 1];
        for (f, start) in b.iter_mut().take(FIELD_COUNT).enumerate() {
            *start = out.ids.len() as u32;
            for text in field_texts(skill, f) {
                each_word(text, &mut buf, |w, _| {
                    let id = if let Some(&id) = map.get(w) {
                        id
                    } else {
                        let id = if is_content_word(w) {
                            words.push(w.into());
                            words.len() as u32 - 1
                        } else {
                            NOT_CONTENT
                        };
                        map.insert(w.into(), id);
                        id
                    };
                    if id != NOT_CONTENT {
                        out.ids.push(id);
                    }
                });
            }
        }
        b[FIELD_COUNT] = out.ids.len() as u32;
        out.bounds.push(b);
    }
    Chunk {
        words,
        words_out: out,
    }
}

/// Tokenises the given skills, in parallel slices whose word ids are then mapped onto one
/// lexicon; the result lists the skills in the order given.
pub fn tokenize(lib: &Library, skills: &[usize]) -> (Lexicon, SkillWords) {
    let per = skills
        .len()
        .div_ceil(rayon::current_num_threads().max(1) * 2)
        .max(256);
    let chunks: Vec<Chunk> = skills
        .par_chunks(per)
        .map(|c| tokenize_chunk(lib, c))
        .collect();
    let mut lx = Lexicon::with_capacity(chunks.first().map_or(0, |c| c.words.len()) * 2);
    let mut all = SkillWords {
        ids: Vec::with_capacity(chunks.iter().map(|c| c.words_out.ids.len()).sum()),
        bounds: Vec::with_capacity(skills.len()),
    };
    for c in chunks {
        let remap: Vec<u32> = c.words.iter().map(|w| lx.intern(w)).collect();
        let base = all.ids.len() as u32;
        all.ids
            .extend(c.words_out.ids.iter().map(|&id| remap[id as usize]));
        all.bounds
            .extend(c.words_out.bounds.iter().map(|b| b.map(|x| x + base)));
    }
    (lx, all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::matching::text::stem;

    #[test]
    fn interning_shares_stems_and_keeps_a_display_word() {
        let mut lx = Lexicon::default();
        let a = lx.intern("testing");
        let b = lx.intern("tests");
        assert_ne!(a, b);
        assert_eq!(lx.intern("testing"), a);
        assert_eq!(lx.words[a as usize].stem, lx.words[b as usize].stem);
        assert_eq!(lx.stem_display(lx.words[b as usize].stem), "testing");
        assert_eq!(lx.stem_id(&stem("tested")), Some(lx.words[a as usize].stem));
        assert_eq!(lx.stem_id("zebra"), None);
    }

    #[test]
    fn tokenize_keeps_skill_order_and_content_words_across_chunks() {
        let skills: Vec<(String, String)> = (0..600)
            .map(|i| (format!("s{i}"), format!("name: s{i}\ndescription: The word{} and shared\nwhen_to_use: when w{i}\ntriggers: [go now, the end]", i % 7)))
            .collect();
        let refs: Vec<(&str, &str)> = skills
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let (_t, lib) = super::super::testlib::library(&refs);
        let order: Vec<usize> = (0..lib.len()).rev().collect();
        let (lx, words) = tokenize(&lib, &order);
        assert_eq!(words.len(), 600);
        assert_eq!(lx.word("the"), None, "stop-words stay out of the lexicon");
        for (doc, &i) in order.iter().enumerate() {
            let text = |f: usize| -> Vec<&str> {
                words
                    .field(doc, f)
                    .iter()
                    .map(|&id| &*lx.words[id as usize].text)
                    .collect()
            };
            let skill = &lib.skills[i];
            let n: usize = skill.name[1..].parse().unwrap();
            assert_eq!(text(0), [skill.name.as_str()]);
            assert_eq!(text(1), [format!("word{}", n % 7).as_str(), "shared"]);
            assert_eq!(text(2), [format!("w{n}").as_str()]);
            assert_eq!(text(3), ["go", "end"]);
        }
    }

    #[test]
    fn hasher_separates_close_words() {
        use std::hash::BuildHasher;
        let h = BuildHasherDefault::<WordHasher>::default();
        assert_ne!(h.hash_one("abcdefgh1"), h.hash_one("abcdefgh2"));
        assert_ne!(h.hash_one("ab"), h.hash_one("ba"));
    }
}
