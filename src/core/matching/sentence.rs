//! The sentence model behind the semantic matcher: all-MiniLM-L6-v2 (a six-layer BERT) fine-tuned
//! to route requests to skills (scripts/tune-model.py), shipped in the binary as float16
//! safetensors with its WordPiece tokenizer, run on the CPU with candle.
//! Texts become 384-float vectors by mean pooling over their tokens, L2-normalised, so that a dot
//! product is their cosine similarity.
//!
//! The model is the `semantic` cargo feature (on by default): built without it, the program has
//! no weights and no candle, and [`SentenceModel::shared`] says so ([`ModelError::NotBuiltIn`]).

use std::sync::{Mutex, OnceLock, PoisonError};

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
}

/// What the program's allocator is told when a run of many batches starts (`true`) and when
/// the last one running ends (`false`): each batch frees what the next one allocates again, so
/// an allocator that gives freed pages back to the system at once pays for them again on every
/// batch (a third of a cold embedding's time went to page faults). The binary sets it; without
/// it nothing is told.
pub type HeapHook = fn(bool);

static HEAP_HOOK: OnceLock<HeapHook> = OnceLock::new();
static LONG_RUNS: Mutex<usize> = Mutex::new(0);

/// Sets the [`HeapHook`] (once; a second call is ignored).
pub fn set_heap_hook(hook: HeapHook) {
    let _ = HEAP_HOOK.set(hook);
}

/// A run of many batches, told to the [`HeapHook`]: the first of those running at once says
/// `true`, the last to end `false` (also when it ends with an error).
pub(crate) struct LongRun;

impl LongRun {
    pub(crate) fn start() -> LongRun {
        let mut n = LONG_RUNS.lock().unwrap_or_else(PoisonError::into_inner);
        if *n == 0
            && let Some(hook) = HEAP_HOOK.get()
        {
            hook(true);
        }
        *n += 1;
        LongRun
    }
}

impl Drop for LongRun {
    fn drop(&mut self) {
        let mut n = LONG_RUNS.lock().unwrap_or_else(PoisonError::into_inner);
        *n = n.saturating_sub(1);
        if *n == 0
            && let Some(hook) = HEAP_HOOK.get()
        {
            hook(false);
        }
    }
}

/// The model itself: its weights and tokenizer in the binary, candle to run it.
#[cfg(feature = "semantic")]
mod model {
    use super::{DIM, MAX_TOKENS, ModelError};
    use crate::core::matching::bert::Bert;
    use candle_core::{DType, Device, Tensor};
    use candle_nn::VarBuilder;
    use std::sync::{Mutex, OnceLock, PoisonError};
    use tokenizers::{Tokenizer, TruncationParams};

    static WEIGHTS: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/model/model.safetensors"
    ));
    static TOKENIZER: &[u8] = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/model/tokenizer.json"
    ));

    /// Padded tokens a batch may hold: attention is quadratic in the length, so long texts go in
    /// small batches and short ones in large. Small batches, two at once, keep each core's working
    /// set small: the corpus embedded in 59–62 s with 512, 64–65 s with 1,024 or 256, 65–70 s with
    /// 4,096 (docs/performance.md).
    const BATCH_TOKENS: usize = 512;
    const BATCH_TEXTS: usize = 64;

    /// The loaded model and its tokenizer.
    pub struct SentenceModel {
        bert: Bert,
        tokenizer: Tokenizer,
    }

    impl std::fmt::Debug for SentenceModel {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("SentenceModel")
        }
    }

    impl SentenceModel {
        /// The model, loaded on first use (about a tenth of a second and 90 MB: the weights are
        /// widened to float32, which the CPU kernels compute in) and kept for the process.
        pub fn shared() -> Result<&'static SentenceModel, ModelError> {
            static MODEL: OnceLock<Result<SentenceModel, ModelError>> = OnceLock::new();
            MODEL
                .get_or_init(SentenceModel::load)
                .as_ref()
                .map_err(Clone::clone)
        }

        /// Loads the model from the bytes in the binary.
        pub fn load() -> Result<SentenceModel, ModelError> {
            let vb = VarBuilder::from_slice_safetensors(WEIGHTS, DType::F32, &Device::Cpu)
                .map_err(|e| ModelError::Load(e.to_string()))?;
            let bert = Bert::load(&vb).map_err(|e| ModelError::Load(e.to_string()))?;
            let mut tokenizer =
                Tokenizer::from_bytes(TOKENIZER).map_err(|e| ModelError::Load(e.to_string()))?;
            // The file pads every text to 128 tokens; batches are padded to their longest instead.
            tokenizer.with_padding(None);
            tokenizer
                .with_truncation(Some(TruncationParams {
                    max_length: MAX_TOKENS,
                    ..TruncationParams::default()
                }))
                .map_err(|e| ModelError::Load(e.to_string()))?;
            Ok(SentenceModel { bert, tokenizer })
        }

        /// The token ids of a text, as the model reads it (with `[CLS]` and `[SEP]`, cut to
        /// [`MAX_TOKENS`]).
        pub fn token_ids(&self, text: &str) -> Result<Vec<u32>, ModelError> {
            let enc = self
                .tokenizer
                .encode(text, true)
                .map_err(|e| ModelError::Run(e.to_string()))?;
            Ok(enc.get_ids().to_vec())
        }

        /// One text's vector.
        pub fn embed(&self, text: &str) -> Result<Vec<f32>, ModelError> {
            let ids = self.token_ids(text)?;
            let mut out = self.forward(&[ids.as_slice()])?;
            out.pop()
                .ok_or_else(|| ModelError::Run("no vector came out".into()))
        }

        /// The vectors of many texts, in order; `progress` is told how many are done after each
        /// batch. Texts are batched by length, so little of a batch is padding, and two batches run
        /// at once: candle spreads only its matrix products over the cores, so one batch at a time
        /// leaves a core idle through every other operation.
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
                // Sorted by length, so the last text of a batch is its longest.
                let mut end = 1;
                while end < rest.len()
                    && end < BATCH_TEXTS
                    && (end + 1) * ids[rest[end]].len() <= BATCH_TOKENS
                {
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
                .map(|batch| {
                    let refs: Vec<&[u32]> = batch.iter().map(|&i| ids[i].as_slice()).collect();
                    let v = self.forward(&refs)?;
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
        /// text's tokens (padding left out), L2-normalised.
        fn forward(&self, batch: &[&[u32]]) -> Result<Vec<Vec<f32>>, ModelError> {
            let len = batch.iter().map(|b| b.len()).max().unwrap_or(0);
            if len == 0 {
                return Ok(vec![vec![0.0; DIM]; batch.len()]);
            }
            let mut ids = Vec::with_capacity(batch.len() * len);
            let mut mask = Vec::with_capacity(batch.len() * len);
            for b in batch {
                ids.extend_from_slice(b);
                ids.resize(ids.len() + len - b.len(), 0);
                mask.extend(std::iter::repeat_n(1u32, b.len()));
                mask.resize(mask.len() + len - b.len(), 0);
            }
            let dev = &Device::Cpu;
            let ids = Tensor::from_vec(ids, (batch.len(), len), dev)?;
            let mask = Tensor::from_vec(mask, (batch.len(), len), dev)?;
            let types = ids.zeros_like()?;
            let hidden = self.bert.forward(&ids, &types, &mask)?;
            let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
            let counts = mask.sum(1)?;
            let mean = summed.broadcast_div(&counts)?;
            let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?;
            let unit = mean.broadcast_div(&norm.clamp(1e-12, f32::MAX)?)?;
            Ok(unit.to_vec2::<f32>()?)
        }
    }

    impl From<candle_core::Error> for ModelError {
        fn from(e: candle_core::Error) -> ModelError {
            ModelError::Run(e.to_string())
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
        batched: String,
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

    #[test]
    fn vectors_are_bit_for_bit_those_candle_transformers_made() {
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
            for (got, want) in [(&alone, floats(&c.alone)), (b, floats(&c.batched))] {
                assert_eq!(want.len(), DIM);
                let differ = got
                    .iter()
                    .zip(&want)
                    .filter(|(g, w)| g.to_bits() != w.to_bits())
                    .count();
                assert_eq!(differ, 0, "{}: {differ} of {DIM} floats differ", c.text);
            }
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
