//! The sentence model behind the semantic matcher: all-MiniLM-L6-v2 (a six-layer BERT) fine-tuned
//! to route requests to skills (scripts/tune-model.py), shipped in the binary as float16
//! safetensors with its WordPiece tokenizer ([`wordpiece`](super::wordpiece)), run on the CPU by
//! its network written out in [`bert`](super::bert).
//! Texts become 384-float vectors by mean pooling over their tokens, L2-normalised, so that a dot
//! product is their cosine similarity.
//!
//! The model is the `semantic` cargo feature (on by default): built without it, the program has
//! no weights, and [`SentenceModel::shared`] says so ([`ModelError::NotBuiltIn`]).

/// Length of every vector.
pub const DIM: usize = 384;
/// Texts are cut to this many tokens, the length the model was trained on; a skill's
/// description of the usual length fits whole.
pub const MAX_TOKENS: usize = 128;
/// Names the model and the recipe (pooling, length): a remembered vector made otherwise is not
/// reused.
pub const MODEL_ID: &str = "all-MiniLM-L6-v2+routing-1/f16/mean/128";

/// Whether this program has the model: built with the `semantic` feature.
pub const BUILT_IN: bool = cfg!(feature = "semantic");

/// What the program says where the semantic and hybrid matchers would show, built without them.
pub const NOT_BUILT_IN: &str = "not built in: skillscope was built without the semantic feature";

#[derive(Debug, thiserror::Error, Clone)]
/// Why the sentence model gave no vector.
pub enum ModelError {
    /// Its weights or tokenizer could not be read.
    #[error("the sentence model cannot be loaded: {0}")]
    Load(String),
    /// A forward pass or the tokenizer failed on a text.
    #[error("the sentence model failed: {0}")]
    Run(String),
    /// The program was built without the `semantic` feature.
    #[error("the sentence model is {NOT_BUILT_IN}")]
    NotBuiltIn,
    /// The weights are neither in the binary nor installed (a build from the published crate
    /// before `skillscope model install`).
    #[error("the sentence model is not installed: {how}")]
    NotInstalled {
        /// What to do about it.
        how: String,
    },
}

/// The model itself: its weights and tokenizer in the binary, run by [`Bert`].
#[cfg(feature = "semantic")]
mod model {
    use super::{DIM, MAX_TOKENS, ModelError};
    use crate::core::matching::bert::{Bert, HIDDEN, Safetensors, Work};
    use crate::core::matching::wordpiece::WordPiece;
    use std::sync::{Mutex, OnceLock, PoisonError};

    /// The weights in the binary, when the build found them (a git checkout).
    #[cfg(skillscope_embedded_model)]
    static EMBEDDED: Option<&[u8]> = Some(include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/model/model.safetensors"
    )));
    #[cfg(not(skillscope_embedded_model))]
    static EMBEDDED: Option<&[u8]> = None;
    static TOKENIZER: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/model/tokenizer.json"
    ));

    /// The weights `skillscope model install` put in the data folder.
    fn read_installed() -> Result<Vec<u8>, ModelError> {
        use crate::core::matching::weights;
        let path = weights::installed_path();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ModelError::NotInstalled {
                    how: weights::how_to_install(),
                });
            }
            Err(e) => return Err(ModelError::Load(format!("{}: {e}", path.display()))),
        };
        if bytes.len() as u64 != weights::SIZE {
            return Err(ModelError::Load(format!(
                "{} is {} bytes, not the model's {}: {}",
                path.display(),
                bytes.len(),
                weights::SIZE,
                weights::how_to_install()
            )));
        }
        Ok(bytes)
    }

    /// Tokens a batch may hold. Attention is quadratic in a text's length, so texts go in by
    /// length, and two batches run at once, one on each core.
    const BATCH_TOKENS: usize = 512;
    const BATCH_TEXTS: usize = 64;

    /// The loaded model and its tokenizer.
    pub struct SentenceModel {
        bert: Bert,
        tokenizer: WordPiece,
    }

    impl std::fmt::Debug for SentenceModel {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("SentenceModel")
        }
    }

    impl SentenceModel {
        /// The model, loaded on first use (a few hundredths of a second and about 45 MB: the
        /// layers' weights are widened to float32, the word embeddings stay float16) and kept
        /// for the process.
        pub fn shared() -> Result<&'static SentenceModel, ModelError> {
            static MODEL: OnceLock<Result<SentenceModel, ModelError>> = OnceLock::new();
            MODEL
                .get_or_init(SentenceModel::load)
                .as_ref()
                .map_err(Clone::clone)
        }

        /// Loads the model from the weights in the binary, else from the installed ones
        /// ([`weights`](crate::core::matching::weights)).
        pub fn load() -> Result<SentenceModel, ModelError> {
            use crate::core::matching::weights;
            let installed;
            let bytes: &[u8] = if let Some(b) = EMBEDDED.filter(|_| weights::uses_embedded()) {
                b
            } else {
                installed = read_installed()?;
                &installed
            };
            let load = |e: &dyn std::fmt::Display| ModelError::Load(e.to_string());
            let file = Safetensors::read(bytes).map_err(|e| load(&e))?;
            let bert = Bert::load(&file).map_err(|e| load(&e))?;
            let tokenizer = WordPiece::from_json(TOKENIZER).map_err(|e| load(&e))?;
            Ok(SentenceModel { bert, tokenizer })
        }

        /// The token ids of a text, as the model reads it (with `[CLS]` and `[SEP]`, cut to
        /// [`MAX_TOKENS`]).
        pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, ModelError> {
            Ok(self.tokenizer.encode(text, MAX_TOKENS))
        }

        /// One text's vector.
        pub fn embed(&self, text: &str) -> Result<Vec<f32>, ModelError> {
            let ids = self.token_ids(text)?;
            self.forward(&[ids.as_slice()], &mut Work::default())?
                .pop()
                .ok_or_else(|| ModelError::Run("no vector came out".into()))
        }

        /// The vectors of many texts, in order; `progress` is told how many are done after each
        /// batch. A text's vector does not depend on the batch it is in.
        pub fn embed_many(
            &self,
            texts: &[&str],
            progress: &(dyn Fn(usize) + Sync),
        ) -> Result<Vec<Vec<f32>>, ModelError> {
            use rayon::prelude::*;
            let ids: Vec<Vec<u32>> = texts
                .iter()
                .map(|t| self.token_ids(t))
                .collect::<Result<_, _>>()?;
            let mut order: Vec<usize> = (0..texts.len()).collect();
            order.sort_by_key(|&i| ids[i].len());
            let mut batches: Vec<&[usize]> = Vec::new();
            let mut rest = order.as_slice();
            while !rest.is_empty() {
                let mut end = 1;
                let mut tokens = ids[rest[0]].len();
                while end < rest.len()
                    && end < BATCH_TEXTS
                    && tokens + ids[rest[end]].len() <= BATCH_TOKENS
                {
                    tokens += ids[rest[end]].len();
                    end += 1;
                }
                let (batch, after) = rest.split_at(end);
                batches.push(batch);
                rest = after;
            }
            // Counted under a lock, so the count told never goes down.
            let done = Mutex::new(0usize);
            let vectors: Vec<Vec<Vec<f32>>> = batches
                .par_iter()
                .map_init(Work::default, |work, batch| {
                    let refs: Vec<&[u32]> = batch.iter().map(|&i| ids[i].as_slice()).collect();
                    let v = self.forward(&refs, work)?;
                    let mut n = done.lock().unwrap_or_else(PoisonError::into_inner);
                    *n += batch.len();
                    progress(*n);
                    Ok(v)
                })
                .collect::<Result<_, ModelError>>()?;
            let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
            for (batch, vs) in batches.iter().zip(vectors) {
                for (&i, v) in batch.iter().zip(vs) {
                    out[i] = v;
                }
            }
            Ok(out)
        }

        /// Runs a batch of token id lists through the model: mean of the last layer over each
        /// text's tokens, L2-normalised.
        fn forward(&self, batch: &[&[u32]], work: &mut Work) -> Result<Vec<Vec<f32>>, ModelError> {
            let hidden = self
                .bert
                .forward(batch, work)
                .map_err(|e| ModelError::Run(e.to_string()))?;
            let mut first = 0;
            Ok(batch
                .iter()
                .map(|text| {
                    let rows = &hidden[first * HIDDEN..(first + text.len()) * HIDDEN];
                    first += text.len();
                    let mut mean = vec![0f32; DIM];
                    for row in rows.chunks_exact(HIDDEN) {
                        for (m, v) in mean.iter_mut().zip(row) {
                            *m += v;
                        }
                    }
                    let count = text.len().max(1) as f32;
                    for m in &mut mean {
                        *m /= count;
                    }
                    let norm = mean.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
                    for m in &mut mean {
                        *m /= norm;
                    }
                    mean
                })
                .collect())
        }
    }
}

/// Built without the `semantic` feature: a model that never loads (no value of it exists, so
/// nothing can embed with it).
#[cfg(not(feature = "semantic"))]
mod model {
    use super::ModelError;

    /// The sentence model, not built into this program.
    #[derive(Debug)]
    pub enum SentenceModel {}

    impl SentenceModel {
        /// Always [`ModelError::NotBuiltIn`].
        pub fn shared() -> Result<&'static SentenceModel, ModelError> {
            Err(ModelError::NotBuiltIn)
        }

        /// Always [`ModelError::NotBuiltIn`].
        pub fn load() -> Result<SentenceModel, ModelError> {
            Err(ModelError::NotBuiltIn)
        }

        /// Never called: no model exists to call it on.
        pub fn token_ids(&self, _text: &str) -> Result<Vec<u32>, ModelError> {
            match *self {}
        }

        /// Never called: no model exists to call it on.
        pub fn embed(&self, _text: &str) -> Result<Vec<f32>, ModelError> {
            match *self {}
        }

        /// Never called: no model exists to call it on.
        pub fn embed_many(
            &self,
            _texts: &[&str],
            _progress: &(dyn Fn(usize) + Sync),
        ) -> Result<Vec<Vec<f32>>, ModelError> {
            match *self {}
        }
    }
}

pub use model::SentenceModel;

/// The cosine of two unit vectors.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(all(test, feature = "semantic"))]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Reference {
        max_tokens: usize,
        cases: Vec<Case>,
    }

    #[derive(serde::Deserialize)]
    struct Case {
        text: String,
        ids: Vec<u32>,
        vector: Vec<f32>,
    }

    fn reference() -> Reference {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/semantic/reference.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[derive(serde::Deserialize)]
    struct Recorded {
        cases: Vec<RecordedCase>,
    }

    #[derive(serde::Deserialize)]
    struct RecordedCase {
        text: String,
        ids: Vec<u32>,
        alone: String,
    }

    /// Float32 little-endian bytes in base64, as the fixture keeps them.
    fn floats(b64: &str) -> Vec<f32> {
        use base64::Engine;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// The vectors candle-transformers' `BertModel` made, to float32 rounding (the sums are
    /// added in another order), and each text's vector the same bits alone and in a batch.
    #[test]
    fn vectors_are_those_candle_transformers_made_and_do_not_depend_on_the_batch() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/semantic/candle-transformers.json"
        );
        let r: Recorded = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(
            r.cases.iter().any(|c| c.ids.len() == MAX_TOKENS),
            "a text is cut"
        );
        let model = SentenceModel::shared().unwrap();
        let texts: Vec<&str> = r.cases.iter().map(|c| c.text.as_str()).collect();
        let batched = model.embed_many(&texts, &|_| {}).unwrap();
        for (c, b) in r.cases.iter().zip(&batched) {
            assert_eq!(model.token_ids(&c.text).unwrap(), c.ids, "{}", c.text);
            let alone = model.embed(&c.text).unwrap();
            let want = floats(&c.alone);
            assert_eq!(want.len(), DIM);
            let worst = alone
                .iter()
                .zip(&want)
                .map(|(g, w)| (g - w).abs())
                .fold(0f32, f32::max);
            assert!(worst < 1e-6, "{}: off by {worst}", c.text);
            assert!(
                alone.iter().zip(b).all(|(a, b)| a.to_bits() == b.to_bits()),
                "{}: batched differs from alone",
                c.text
            );
        }
    }

    /// Hugging Face tokenizers' ids for texts that reach every step of the tokenizer.
    #[test]
    fn token_ids_are_those_of_the_tokenizers_library() {
        #[derive(serde::Deserialize)]
        struct Ids {
            cases: Vec<IdsCase>,
        }
        #[derive(serde::Deserialize)]
        struct IdsCase {
            why: String,
            text: String,
            ids: Vec<u32>,
            ids_cut_at_128: Vec<u32>,
        }
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/semantic/wordpiece.json"
        );
        let r: Ids = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        assert!(r.cases.len() >= 20);
        let model = SentenceModel::shared().unwrap();
        for c in &r.cases {
            assert_eq!(
                model.token_ids(&c.text).unwrap(),
                c.ids_cut_at_128,
                "{}",
                c.why
            );
        }
        let tokenizer = crate::core::matching::wordpiece::WordPiece::from_json(
            &std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/assets/model/tokenizer.json"
            ))
            .unwrap(),
        )
        .unwrap();
        for c in &r.cases {
            assert_eq!(tokenizer.encode(&c.text, usize::MAX), c.ids, "{}", c.why);
        }
    }

    #[test]
    fn vectors_equal_an_independent_numpy_forward_pass() {
        let r = reference();
        assert_eq!(r.max_tokens, MAX_TOKENS);
        let model = SentenceModel::shared().unwrap();
        let texts: Vec<&str> = r.cases.iter().map(|c| c.text.as_str()).collect();
        // One at a time and batched (padded) must both agree with the reference.
        let batched = model.embed_many(&texts, &|_| {}).unwrap();
        for (c, b) in r.cases.iter().zip(&batched) {
            assert_eq!(model.token_ids(&c.text).unwrap(), c.ids, "{}", c.text);
            let one = model.embed(&c.text).unwrap();
            assert_eq!(one.len(), DIM);
            for v in [&one, b] {
                let worst = v
                    .iter()
                    .zip(&c.vector)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0f32, f32::max);
                assert!(worst < 1e-3, "{}: off by {worst}", c.text);
            }
        }
    }

    #[test]
    fn vectors_are_unit_length_and_meaning_is_near() {
        let model = SentenceModel::shared().unwrap();
        let v = model
            .embed_many(
                &[
                    "how do I join two PDF files into one",
                    "Combine several documents into a single file",
                    "what a lovely sunny day",
                ],
                &|_| {},
            )
            .unwrap();
        for x in &v {
            assert!((dot(x, x) - 1.0).abs() < 1e-4);
        }
        assert!(dot(&v[0], &v[1]) > dot(&v[0], &v[2]) + 0.2);
    }

    #[test]
    fn progress_counts_up_to_every_text() {
        let model = SentenceModel::shared().unwrap();
        let seen = std::sync::Mutex::new(Vec::new());
        let texts: Vec<String> = (0..70).map(|i| format!("text number {i}")).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let out = model
            .embed_many(&refs, &|n| seen.lock().unwrap().push(n))
            .unwrap();
        assert_eq!(out.len(), 70);
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.last(), Some(&70));
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
    }
}

#[cfg(all(test, not(feature = "semantic")))]
mod tests {
    use super::*;

    #[test]
    fn without_the_feature_the_model_says_it_is_not_built_in() {
        const { assert!(!BUILT_IN) };
        let e = SentenceModel::shared().unwrap_err();
        assert!(matches!(e, ModelError::NotBuiltIn));
        assert!(
            e.to_string().contains("built without the semantic feature"),
            "{e}"
        );
    }
}
