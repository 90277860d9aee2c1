//! The sentence model's network: the six-layer BERT encoder of all-MiniLM-L6-v2, written out on
//! plain float32 slices with one matrix-product kernel ([`matrix`](super::matrix)).
//!
//! A batch's texts are packed one after the other, with no padding: the per-token layers run
//! on every token of the batch at once, and each text attends only to its own tokens. A text's
//! vector is therefore the same whether it is embedded alone or in any batch. The operations
//! are those of Hugging Face's `BertModel` in its order (tests/fixtures/semantic holds that
//! model's vectors and an independent numpy pass).

use super::gelu::exp_f32s;
use super::matrix::{ARCH, Matrix, MatrixError, Panels, Store, product};
use half::f16;
use half::slice::HalfFloatSliceExt;

/// What is wrong with a weights file.
#[derive(Debug, thiserror::Error)]
pub(super) enum WeightsError {
    #[error("the weights file is shorter than its header")]
    Short,
    #[error("the weights file's header runs past its end")]
    HeaderPastEnd,
    #[error("the weights file's header is not JSON: {0}")]
    Header(#[from] serde_json::Error),
    #[error("the weights have no {0}")]
    Missing(String),
    #[error("{name} is {dtype:?} {dims:?}, not F16 {shape:?}")]
    Kind {
        name: String,
        dtype: Option<String>,
        dims: Option<Vec<usize>>,
        shape: Vec<usize>,
    },
    #[error("{0}'s bytes are not where its header says")]
    Misplaced(String),
}

/// The model's shape, from its config.json (fixed: the weights ship with the binary).
pub(super) const HIDDEN: usize = 384;
const LAYERS: usize = 6;
const HEADS: usize = 12;
const HEAD_SIZE: usize = HIDDEN / HEADS;
const INTERMEDIATE: usize = 1536;
const VOCABULARY: usize = 30522;
const POSITIONS: usize = 512;
const TOKEN_TYPES: usize = 2;
const LAYER_NORM_EPS: f32 = 1e-12;

/// The encoder, loaded from its weights (named as Hugging Face's `BertModel` saves them).
pub(super) struct Bert {
    /// The word embeddings stay in the file's float16 (each row widened when it is used): half
    /// of the model's memory.
    words: Vec<f16>,
    positions: Vec<f32>,
    /// Token type 0's row: every text is one sequence.
    token_type: Vec<f32>,
    norm: Norm,
    layers: Vec<Layer>,
}

/// A float16 safetensors file: its header, and the bytes after it.
pub(super) struct Safetensors<'a> {
    header: serde_json::Map<String, serde_json::Value>,
    data: &'a [u8],
}

impl<'a> Safetensors<'a> {
    /// Reads the header (an 8-byte little-endian length, then that much JSON).
    pub(super) fn read(bytes: &'a [u8]) -> Result<Safetensors<'a>, WeightsError> {
        let (len, rest) = bytes.split_first_chunk::<8>().ok_or(WeightsError::Short)?;
        // A length past what this machine can address runs past the end too.
        let len = usize::try_from(u64::from_le_bytes(*len)).unwrap_or(usize::MAX);
        if len > rest.len() {
            return Err(WeightsError::HeaderPastEnd);
        }
        let (header, data) = rest.split_at(len);
        let header = serde_json::from_slice(header)?;
        Ok(Safetensors { header, data })
    }

    /// A float16 tensor's values, checked to have `shape`.
    fn f16s(&self, name: &str, shape: &[usize]) -> Result<Vec<f16>, WeightsError> {
        let entry = self
            .header
            .get(name)
            .ok_or_else(|| WeightsError::Missing(name.to_string()))?;
        // A list of sizes in the header, as numbers of this machine's width.
        let sizes = |key: &str| -> Option<Vec<usize>> {
            entry
                .get(key)?
                .as_array()?
                .iter()
                .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
                .collect()
        };
        let dtype = entry.get("dtype").and_then(serde_json::Value::as_str);
        let dims = sizes("shape");
        let offsets = sizes("data_offsets");
        if dtype != Some("F16") || dims.as_deref() != Some(shape) {
            return Err(WeightsError::Kind {
                name: name.to_string(),
                dtype: dtype.map(str::to_string),
                dims,
                shape: shape.to_vec(),
            });
        }
        let bytes = match offsets.as_deref() {
            Some(&[start, end]) if end - start.min(end) == 2 * shape.iter().product::<usize>() => {
                self.data.get(start..end)
            }
            _ => None,
        }
        .ok_or_else(|| WeightsError::Misplaced(name.to_string()))?;
        // Pairs of bytes as arrays, not slices: the loop becomes a copy (the word embeddings are
        // 11.7 million values, read by every run that loads the model).
        let (pairs, _) = bytes.as_chunks::<2>();
        Ok(pairs.iter().map(|&b| f16::from_le_bytes(b)).collect())
    }

    /// A float16 tensor widened to float32 (exact: every float16 is a float32), in one call.
    fn f32s(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, WeightsError> {
        Ok(self.f16s(name, shape)?.to_f32_vec())
    }
}

impl Bert {
    pub(super) fn load(file: &Safetensors) -> Result<Bert, WeightsError> {
        let token_types = file.f32s(
            "embeddings.token_type_embeddings.weight",
            &[TOKEN_TYPES, HIDDEN],
        )?;
        Ok(Bert {
            words: file.f16s("embeddings.word_embeddings.weight", &[VOCABULARY, HIDDEN])?,
            positions: file.f32s(
                "embeddings.position_embeddings.weight",
                &[POSITIONS, HIDDEN],
            )?,
            token_type: token_types[..HIDDEN].to_vec(),
            norm: Norm::load(file, "embeddings.LayerNorm")?,
            layers: (0..LAYERS)
                .map(|i| Layer::load(file, &format!("encoder.layer.{i}")))
                .collect::<Result<_, _>>()?,
        })
    }

    /// The last layer's output for a batch of texts' token ids, packed: row `r` (of
    /// [`HIDDEN`] floats) is the batch's `r`-th token, the texts one after the other.
    /// `work` holds the buffers of the pass, kept from one call to the next.
    pub(super) fn forward(
        &self,
        texts: &[&[u32]],
        work: &mut Work,
    ) -> Result<Vec<f32>, MatrixError> {
        let tokens: usize = texts.iter().map(|t| t.len()).sum();
        let mut hidden = vec![0f32; tokens * HIDDEN];
        let mut rows = hidden.chunks_exact_mut(HIDDEN);
        for text in texts {
            for (position, &id) in text.iter().enumerate() {
                let Some(row) = rows.next() else { break };
                // The word's row widened in one go (exact: every float16 is a float32), then
                // `word + token type + position`, added in that order.
                if let Some(word) = self
                    .words
                    .get(id as usize * HIDDEN..(id as usize + 1) * HIDDEN)
                {
                    word.convert_to_f32_slice(row);
                }
                for (h, t) in row.iter_mut().zip(&self.token_type) {
                    *h += t;
                }
                if let Some(place) = self
                    .positions
                    .get(position * HIDDEN..(position + 1) * HIDDEN)
                {
                    for (h, p) in row.iter_mut().zip(place) {
                        *h += p;
                    }
                }
            }
        }
        self.norm.apply(&mut hidden);
        for layer in &self.layers {
            layer.forward(&mut hidden, texts, work)?;
        }
        Ok(hidden)
    }
}

/// Buffers a forward pass reuses from layer to layer, and a run of passes from one to the next.
#[derive(Default)]
pub(super) struct Work {
    qkv: Vec<f32>,
    context: Vec<f32>,
    scores: Vec<f32>,
    attended: Vec<f32>,
    inner: Vec<f32>,
    /// A head's keys (as columns) and values, laid out for the product.
    keys: Panels,
    values: Panels,
}

/// Layer normalisation over each row of [`HIDDEN`] floats, with its learnt scale and shift.
struct Norm {
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Norm {
    fn load(file: &Safetensors, name: &str) -> Result<Norm, WeightsError> {
        Ok(Norm {
            weight: file.f32s(&format!("{name}.weight"), &[HIDDEN])?,
            bias: file.f32s(&format!("{name}.bias"), &[HIDDEN])?,
        })
    }

    fn apply(&self, rows: &mut [f32]) {
        for row in rows.chunks_exact_mut(HIDDEN) {
            let (sum, sum2) = row
                .iter()
                .fold((0f32, 0f32), |(s, s2), &v| (s + v, s2 + v * v));
            let mean = sum / HIDDEN as f32;
            let var = sum2 / HIDDEN as f32 - mean * mean;
            let inv_std = (var + LAYER_NORM_EPS).sqrt().recip();
            for ((v, w), b) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
                *v = (*v - mean) * inv_std * w + b;
            }
        }
    }
}

/// A dense layer: `x · Wᵀ + b`, with `W` as saved (`outputs` rows of `inputs`).
struct Dense {
    /// `Wᵀ` (`inputs` rows of `outputs`), laid out at load time in the kernel's panels, so
    /// that the product reads the weights front to back.
    weight: Panels,
    bias: Vec<f32>,
}

impl Dense {
    /// Several dense layers of one input as one, their outputs side by side: `W` of each
    /// (float16, `outputs` rows of `inputs`, as saved), stacked, and their biases.
    fn new(weights: &[Vec<f16>], bias: Vec<f32>, inputs: usize) -> Dense {
        // Widened in one call (exact), then laid out reading `W`'s rows as `Wᵀ`'s columns:
        // element by element, a call for each float16, this was a third of a warm hybrid
        // `match`'s instructions.
        let stacked: Vec<f32> = weights.concat().to_f32_vec();
        let outputs = stacked.len() / inputs;
        let mut weight = Panels::default();
        // The shape is the slice's by construction: `outputs` columns of `inputs` floats each.
        if weight
            .fill(Matrix::new(&stacked, inputs, outputs, 1, inputs))
            .is_err()
        {
            weight = Panels::from_fn(inputs, outputs, |k, j| stacked[j * inputs + k]);
        }
        Dense { weight, bias }
    }

    fn load(
        file: &Safetensors,
        name: &str,
        inputs: usize,
        outputs: usize,
    ) -> Result<Dense, WeightsError> {
        Self::joined(file, &[name], inputs, outputs)
    }

    /// The layers `names`, each `inputs` to `outputs`, as one.
    fn joined(
        file: &Safetensors,
        names: &[impl AsRef<str>],
        inputs: usize,
        outputs: usize,
    ) -> Result<Dense, WeightsError> {
        let mut weights = Vec::new();
        let mut bias = Vec::new();
        for name in names.iter().map(AsRef::as_ref) {
            weights.push(file.f16s(&format!("{name}.weight"), &[outputs, inputs])?);
            bias.extend(file.f32s(&format!("{name}.bias"), &[outputs])?);
        }
        Ok(Dense::new(&weights, bias, inputs))
    }

    /// `out` becomes the layer's output for the rows of `x`.
    fn apply(&self, x: &[f32], out: &mut Vec<f32>) -> Result<(), MatrixError> {
        self.apply_to(x, out, Store::Bias(&self.bias))
    }

    /// `out` becomes the layer's output for the rows of `x`, through GELU.
    fn apply_gelu(&self, x: &[f32], out: &mut Vec<f32>) -> Result<(), MatrixError> {
        self.apply_to(x, out, Store::BiasGelu(&self.bias))
    }

    fn apply_to(&self, x: &[f32], out: &mut Vec<f32>, store: Store) -> Result<(), MatrixError> {
        let (inputs, outputs) = (self.weight.rows(), self.weight.columns());
        let rows = x.len() / inputs;
        // Every element is written by the product: not zeroed first, only grown.
        out.resize(rows * outputs, 0.0);
        product(
            Matrix::new(x, rows, inputs, inputs, 1),
            &self.weight,
            out,
            outputs,
            store,
        )
    }
}

/// One encoder layer: self-attention, then the feed-forward block, each added to its input and
/// normalised.
struct Layer {
    /// Query, key and value, one product: each token's row is its `HIDDEN` query floats, then
    /// its key's, then its value's.
    qkv: Dense,
    attention_out: Dense,
    attention_norm: Norm,
    intermediate: Dense,
    output: Dense,
    output_norm: Norm,
}

impl Layer {
    fn load(file: &Safetensors, name: &str) -> Result<Layer, WeightsError> {
        let dense = |part: &str, inputs, outputs| {
            Dense::load(file, &format!("{name}.{part}"), inputs, outputs)
        };
        Ok(Layer {
            qkv: Dense::joined(
                file,
                &["query", "key", "value"].map(|p| format!("{name}.attention.self.{p}")),
                HIDDEN,
                HIDDEN,
            )?,
            attention_out: dense("attention.output.dense", HIDDEN, HIDDEN)?,
            attention_norm: Norm::load(file, &format!("{name}.attention.output.LayerNorm"))?,
            intermediate: dense("intermediate.dense", HIDDEN, INTERMEDIATE)?,
            output: dense("output.dense", INTERMEDIATE, HIDDEN)?,
            output_norm: Norm::load(file, &format!("{name}.output.LayerNorm"))?,
        })
    }

    fn forward(
        &self,
        hidden: &mut Vec<f32>,
        texts: &[&[u32]],
        work: &mut Work,
    ) -> Result<(), MatrixError> {
        self.attention(hidden, texts, work)?;
        self.attention_out
            .apply(&work.context, &mut work.attended)?;
        for (a, h) in work.attended.iter_mut().zip(hidden.iter()) {
            *a += h;
        }
        self.attention_norm.apply(&mut work.attended);
        self.intermediate
            .apply_gelu(&work.attended, &mut work.inner)?;
        self.output.apply(&work.inner, hidden)?;
        for (h, a) in hidden.iter_mut().zip(&work.attended) {
            *h += a;
        }
        self.output_norm.apply(hidden);
        Ok(())
    }

    /// Multi-head self-attention of each text over its own tokens, into `work.context`
    /// (a row of [`HIDDEN`] per token, head after head).
    fn attention(
        &self,
        hidden: &[f32],
        texts: &[&[u32]],
        work: &mut Work,
    ) -> Result<(), MatrixError> {
        const WIDTH: usize = 3 * HIDDEN;
        self.qkv.apply(hidden, &mut work.qkv)?;
        // Every element is written below, head by head: not zeroed first, only grown.
        work.context.resize(hidden.len(), 0.0);
        let scale = (HEAD_SIZE as f32).sqrt();
        let mut first = 0;
        for text in texts {
            let len = text.len();
            let rows = first * WIDTH..(first + len) * WIDTH;
            let qkv = &work.qkv[rows];
            let context = &mut work.context[first * HIDDEN..(first + len) * HIDDEN];
            for head in 0..HEADS {
                let at = head * HEAD_SIZE;
                let query = Matrix::new(&qkv[at..], len, HEAD_SIZE, WIDTH, 1);
                // Kᵀ: the keys' rows read as columns.
                work.keys
                    .fill(Matrix::new(&qkv[HIDDEN + at..], HEAD_SIZE, len, 1, WIDTH))?;
                work.scores.resize(len * len, 0.0);
                product(query, &work.keys, &mut work.scores, len, Store::Set)?;
                softmax(&mut work.scores, len, scale);
                work.values.fill(Matrix::new(
                    &qkv[2 * HIDDEN + at..],
                    len,
                    HEAD_SIZE,
                    WIDTH,
                    1,
                ))?;
                product(
                    Matrix::new(&work.scores, len, len, len, 1),
                    &work.values,
                    &mut context[at..],
                    HIDDEN,
                    Store::Set,
                )?;
            }
            first += len;
        }
        Ok(())
    }
}

/// Each row of `len` attention scores divided by `scale`, then made weights that sum to 1: on
/// vectors of the row (its last elements one by one), the exponential [`exp_f32s`].
fn softmax(scores: &mut [f32], len: usize, scale: f32) {
    ARCH.dispatch(Softmax { scores, len, scale });
}

/// A head's rows of scores, waiting for the vector instructions to run the softmax with.
struct Softmax<'a> {
    scores: &'a mut [f32],
    len: usize,
    scale: f32,
}

impl pulp::WithSimd for Softmax<'_> {
    type Output = ();

    // Inlined into pulp's function compiled with the vector instructions.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, simd: S) {
        let scale = simd.splat_f32s(self.scale);
        for row in self.scores.chunks_exact_mut(self.len) {
            let (vectors, rest) = S::as_mut_simd_f32s(row);
            let mut top = simd.splat_f32s(f32::NEG_INFINITY);
            for v in vectors.iter_mut() {
                *v = simd.div_f32s(*v, scale);
                top = simd.max_f32s(top, *v);
            }
            let mut max = simd.reduce_max_f32s(top);
            for v in rest.iter_mut() {
                *v /= self.scale;
                max = max.max(*v);
            }
            let shift = simd.splat_f32s(max);
            let mut sums = simd.splat_f32s(0.0);
            for v in vectors.iter_mut() {
                *v = exp_f32s(simd, simd.sub_f32s(*v, shift));
                sums = simd.add_f32s(sums, *v);
            }
            let mut sum = simd.reduce_sum_f32s(sums);
            for v in rest.iter_mut() {
                *v = exp_f32s(pulp::Scalar::new(), *v - max);
                sum += *v;
            }
            let total = simd.splat_f32s(sum);
            for v in vectors.iter_mut() {
                *v = simd.div_f32s(*v, total);
            }
            for v in rest.iter_mut() {
                *v /= sum;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::gelu::{erf, exp_f32s, gelu, gelu_f32s};
    use super::*;

    fn file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(data);
        bytes
    }

    /// A joined layer's product is each part's product side by side, the weights as saved
    /// (`outputs` rows of `inputs`) giving the schoolbook `x · Wᵀ + b`.
    #[test]
    fn a_joined_dense_layer_is_its_parts_side_by_side() {
        // Part p: 3 outputs of 2 inputs, W[o][i] = p * 10 + o * 2 + i (as saved, rows of inputs).
        let weights: Vec<Vec<f16>> = (0..2)
            .map(|p| {
                (0..3 * 2)
                    .map(|x| f16::from_f32((p * 10 + x) as f32))
                    .collect()
            })
            .collect();
        let joined = Dense::new(&weights, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0], 2);
        let x = [1.0, -2.0, 0.5, 4.0];
        let mut out = Vec::new();
        joined.apply(&x, &mut out).unwrap();
        for (r, xs) in x.chunks_exact(2).enumerate() {
            for p in 0..2 {
                for o in 0..3 {
                    let w = |i: usize| (p * 10 + o * 2 + i) as f32;
                    let want = xs[0] * w(0) + xs[1] * w(1) + p as f32;
                    assert_eq!(
                        out[r * 6 + p * 3 + o],
                        want,
                        "row {r}, part {p}, output {o}"
                    );
                }
            }
        }
    }

    /// Weights widened in one call and laid out from `W`'s rows are the panels laid out value
    /// by value from each float16 (the load's old path), on sizes that fill no panel evenly; the
    /// float16 file read as pairs of bytes gives each value its bits.
    #[test]
    fn a_dense_layer_is_laid_out_as_value_by_value() {
        for (inputs, outputs) in [(5, 3), (7, 45), (40, 70)] {
            let weights: Vec<Vec<f16>> = (0..2)
                .map(|p| {
                    (0..outputs * inputs)
                        .map(|x| f16::from_f32(((x * 37 + p * 11) % 101) as f32 / 7.0 - 6.5))
                        .collect()
                })
                .collect();
            let stacked = weights.concat();
            let dense = Dense::new(&weights, vec![0.0; 2 * outputs], inputs);
            let want =
                Panels::from_fn(inputs, 2 * outputs, |k, j| stacked[j * inputs + k].to_f32());
            assert_eq!(dense.weight, want, "{inputs} × {outputs}");
        }
        let values = [1.0f32, -2.5, 65504.0, 0.000_061_035_156, -0.0];
        let bytes: Vec<u8> = values
            .iter()
            .flat_map(|&v| f16::from_f32(v).to_le_bytes())
            .collect();
        let header = r#"{"w":{"dtype":"F16","shape":[5],"data_offsets":[0,10]}}"#;
        let file = file(header, &bytes);
        let st = Safetensors::read(&file).unwrap();
        assert_eq!(st.f32s("w", &[5]).unwrap(), values);
    }

    /// The approximation against the exact error function (double precision) on a fine grid
    /// over every input that matters and past the clamp: never further than its stated bound,
    /// odd, and 1 beyond ±4.
    #[test]
    fn erf_is_within_its_bound() {
        let mut worst = (0f64, 0f32);
        for i in -600_000..=600_000 {
            let x = i as f32 * 1e-5;
            let got = erf(x);
            let err = (f64::from(got) - libm::erf(f64::from(x))).abs();
            if err > worst.0 {
                worst = (err, x);
            }
            assert_eq!(got.to_bits(), (-erf(-x)).to_bits(), "odd at {x}");
        }
        assert!(worst.0 < 5e-7, "off by {} at {}", worst.0, worst.1);
        for x in [4.0f32, 9.0, 1e30, f32::INFINITY] {
            assert!((erf(x) - 1.0).abs() < 1e-7, "{x}: {}", erf(x));
        }
        // GELU: 0 at 0, x far right, 0 far left.
        let mut v = [0.0f32, 10.0, -10.0];
        gelu(&mut v);
        assert_eq!(v, [0.0, 10.0, 0.0]);
    }

    /// GELU on vectors, as the feed-forward layer's product applies it, gives each lane the bits
    /// of GELU on that value alone.
    #[test]
    fn gelu_on_vectors_is_gelu_on_each_value() {
        struct Lanes<'a>(&'a [f32], &'a mut Vec<f32>);
        impl pulp::WithSimd for Lanes<'_> {
            type Output = ();
            #[allow(clippy::inline_always)]
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) {
                let (vectors, rest) = S::as_simd_f32s(self.0);
                for &v in vectors {
                    let mut line = [0f32; 64];
                    let (o, _) = S::as_mut_simd_f32s(&mut line[..S::F32_LANES]);
                    o[0] = gelu_f32s(simd, v);
                    self.1.extend_from_slice(&line[..S::F32_LANES]);
                }
                for &v in rest {
                    self.1.push(gelu_f32s(pulp::Scalar, v));
                }
            }
        }
        let xs: Vec<f32> = (-50_000..50_000)
            .map(|i| i as f32 * 1.7e-4)
            .chain([0.0, -0.0, 9.0, -9.0, 1e20])
            .collect();
        let mut got = Vec::new();
        pulp::Arch::new().dispatch(Lanes(&xs, &mut got));
        let mut want = xs.clone();
        gelu(&mut want);
        assert_eq!(got.len(), want.len());
        for ((x, g), w) in xs.iter().zip(&got).zip(&want) {
            assert_eq!(g.to_bits(), w.to_bits(), "gelu({x}): {g} vs {w}");
        }
    }

    /// The softmax's exponential on vectors against the exact one (double precision), on a fine
    /// grid of the shifted scores it is given (never above 0): within 1e-7 of it relatively (a
    /// unit in the last place is 1.2e-7), 1 at 0, and below the least normal float's order under
    /// -87, where it is taken as `e^-87`.
    #[test]
    fn exp_is_within_its_bound() {
        struct Lanes<'a>(&'a [f32], &'a mut Vec<f32>);
        impl pulp::WithSimd for Lanes<'_> {
            type Output = ();
            #[allow(clippy::inline_always)]
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) {
                let (vectors, rest) = S::as_simd_f32s(self.0);
                for &v in vectors {
                    let mut line = [0f32; 64];
                    let (o, _) = S::as_mut_simd_f32s(&mut line[..S::F32_LANES]);
                    o[0] = exp_f32s(simd, v);
                    self.1.extend_from_slice(&line[..S::F32_LANES]);
                }
                for &v in rest {
                    self.1.push(exp_f32s(pulp::Scalar::new(), v));
                }
            }
        }
        let xs: Vec<f32> = (0..=2_000_000)
            .map(|i| i as f32 * -4.4e-5)
            .chain([0.0, -0.0, -87.0, -87.5, -1e30, f32::NEG_INFINITY])
            .collect();
        for scalar in [false, true] {
            let mut got = Vec::new();
            if scalar {
                pulp::WithSimd::with_simd(Lanes(&xs, &mut got), pulp::Scalar::new());
            } else {
                pulp::Arch::new().dispatch(Lanes(&xs, &mut got));
            }
            let mut worst = (0f64, 0f32);
            for (&x, &g) in xs.iter().zip(&got) {
                if x < -87.0 {
                    assert!((0.0..1.7e-38).contains(&g), "e^{x}: {g}");
                    continue;
                }
                let want = f64::from(x).exp();
                let err = (f64::from(g) - want).abs() / want;
                if err > worst.0 {
                    worst = (err, x);
                }
            }
            assert!(worst.0 < 1e-7, "off by {} at {}", worst.0, worst.1);
            assert_eq!(got[xs.len() - 6], 1.0);
        }
        // A row of the softmax: weights that sum to 1, each that of the exact softmax.
        let row: Vec<f32> = (0..37).map(|i| ((i * 7) % 23) as f32 - 11.5).collect();
        let mut weights = row.clone();
        softmax(&mut weights, row.len(), 5.0);
        let exact: Vec<f64> = row.iter().map(|&v| (f64::from(v) / 5.0).exp()).collect();
        let sum: f64 = exact.iter().sum();
        for (w, e) in weights.iter().zip(&exact) {
            assert!((f64::from(*w) - e / sum).abs() < 1e-7, "{w} vs {}", e / sum);
        }
    }

    /// A damaged weights file is an error that says what is wrong, never a panic.
    #[test]
    fn a_damaged_weights_file_is_an_error() {
        assert!(matches!(
            Safetensors::read(b"1234"),
            Err(WeightsError::Short)
        ));
        let past = Safetensors::read(&file("{}", b"")[..9]).err().unwrap();
        assert!(matches!(past, WeightsError::HeaderPastEnd), "{past}");
        assert!(past.to_string().contains("past its end"), "{past}");
        let not_json = Safetensors::read(&file("{x", b"")).err().unwrap();
        assert!(matches!(not_json, WeightsError::Header(_)), "{not_json}");
        let bytes = file(
            r#"{"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"c":{"dtype":"F16","shape":[4],"data_offsets":[0,8]}}"#,
            &[0, 60, 0, 64],
        );
        let st = Safetensors::read(&bytes).unwrap();
        assert_eq!(st.f32s("a", &[2]).unwrap(), [1.0, 2.0]);
        let said = |name: &str, shape: &[usize]| st.f32s(name, shape).unwrap_err().to_string();
        assert!(said("a", &[3]).contains("not F16 [3]"));
        assert!(said("b", &[1]).contains("F32"));
        assert!(said("c", &[4]).contains("not where its header says"));
        assert!(said("d", &[1]).contains("no d"));
    }
}
