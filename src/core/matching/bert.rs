//! The sentence model's network: the six-layer BERT encoder of all-MiniLM-L6-v2, on candle's
//! tensors and layers. It does what candle-transformers' `BertModel` did for this model, the
//! same operations in the same order, so its vectors are the same to the bit
//! (tests/fixtures/semantic/candle-transformers.json), without compiling that crate's whole
//! model zoo for one encoder.

use candle_core::{D, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, Module, VarBuilder, embedding, layer_norm, linear};

/// The model's shape, from its config.json (fixed: the weights ship with the binary).
pub(super) const HIDDEN: usize = 384;
const LAYERS: usize = 6;
const HEADS: usize = 12;
const HEAD_SIZE: usize = HIDDEN / HEADS;
const INTERMEDIATE: usize = 1536;
const VOCABULARY: usize = 30522;
const POSITIONS: usize = 512;
const TOKEN_TYPES: usize = 2;
const LAYER_NORM_EPS: f64 = 1e-12;

/// The encoder, loaded from its weights (named as Hugging Face's `BertModel` saves them).
pub(super) struct Bert {
    embeddings: Embeddings,
    layers: Vec<Layer>,
}

impl Bert {
    pub(super) fn load(vb: &VarBuilder) -> Result<Bert> {
        let embeddings = Embeddings::load(&vb.pp("embeddings"))?;
        let layers = (0..LAYERS)
            .map(|i| Layer::load(&vb.pp(format!("encoder.layer.{i}"))))
            .collect::<Result<_>>()?;
        Ok(Bert { embeddings, layers })
    }

    /// The last layer's output, `(batch, tokens, HIDDEN)`, for token ids, token types and an
    /// attention mask (1 for a token, 0 for padding), each `(batch, tokens)`.
    pub(super) fn forward(&self, ids: &Tensor, types: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let mut hidden = self.embeddings.forward(ids, types)?;
        // Padding gets the lowest float added to its attention scores: after the softmax, no
        // token attends to it.
        let mask = mask.unsqueeze(1)?.unsqueeze(1)?.to_dtype(hidden.dtype())?;
        let lowest = Tensor::new(f32::MIN, mask.device())?.to_dtype(hidden.dtype())?;
        let mask = (mask.ones_like()? - &mask)?.broadcast_mul(&lowest)?;
        for layer in &self.layers {
            hidden = layer.forward(&hidden, &mask)?;
        }
        Ok(hidden)
    }
}

/// Each token's vector before the first layer: its word's, its type's and its position's,
/// normalised.
struct Embeddings {
    words: Embedding,
    positions: Embedding,
    types: Embedding,
    norm: LayerNorm,
}

impl Embeddings {
    fn load(vb: &VarBuilder) -> Result<Embeddings> {
        Ok(Embeddings {
            words: embedding(VOCABULARY, HIDDEN, vb.pp("word_embeddings"))?,
            positions: embedding(POSITIONS, HIDDEN, vb.pp("position_embeddings"))?,
            types: embedding(TOKEN_TYPES, HIDDEN, vb.pp("token_type_embeddings"))?,
            norm: layer_norm(HIDDEN, LAYER_NORM_EPS, vb.pp("LayerNorm"))?,
        })
    }

    fn forward(&self, ids: &Tensor, types: &Tensor) -> Result<Tensor> {
        let (_, len) = ids.dims2()?;
        let sum = (self.words.forward(ids)? + self.types.forward(types)?)?;
        let positions: Vec<u32> = (0..len as u32).collect();
        let positions = Tensor::new(positions.as_slice(), ids.device())?;
        let sum = sum.broadcast_add(&self.positions.forward(&positions)?)?;
        self.norm.forward(&sum)
    }
}

/// One encoder layer: self-attention, then the feed-forward block, each added to its input and
/// normalised.
struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

impl Layer {
    fn load(vb: &VarBuilder) -> Result<Layer> {
        let norm = |name: &str| layer_norm(HIDDEN, LAYER_NORM_EPS, vb.pp(name));
        Ok(Layer {
            query: linear(HIDDEN, HIDDEN, vb.pp("attention.self.query"))?,
            key: linear(HIDDEN, HIDDEN, vb.pp("attention.self.key"))?,
            value: linear(HIDDEN, HIDDEN, vb.pp("attention.self.value"))?,
            attention_out: linear(HIDDEN, HIDDEN, vb.pp("attention.output.dense"))?,
            attention_norm: norm("attention.output.LayerNorm")?,
            intermediate: linear(HIDDEN, INTERMEDIATE, vb.pp("intermediate.dense"))?,
            output: linear(INTERMEDIATE, HIDDEN, vb.pp("output.dense"))?,
            output_norm: norm("output.LayerNorm")?,
        })
    }

    fn forward(&self, input: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let attended = self.attention(input, mask)?;
        let attended = self.attention_out.forward(&attended)?;
        let attended = self.attention_norm.forward(&(attended + input)?)?;
        // The exact (erf) GELU, as the model was trained with.
        let inner = self.intermediate.forward(&attended)?.gelu_erf()?;
        let out = self.output.forward(&inner)?;
        self.output_norm.forward(&(out + &attended)?)
    }

    /// Multi-head self-attention: `(batch, tokens, HIDDEN)` in and out.
    fn attention(&self, input: &Tensor, mask: &Tensor) -> Result<Tensor> {
        // (batch, tokens, HIDDEN) → (batch, HEADS, tokens, HEAD_SIZE)
        let heads = |x: Tensor| -> Result<Tensor> {
            let (batch, tokens, _) = x.dims3()?;
            x.reshape((batch, tokens, HEADS, HEAD_SIZE))?
                .transpose(1, 2)?
                .contiguous()
        };
        let query = heads(self.query.forward(input)?)?;
        let key = heads(self.key.forward(input)?)?;
        let value = heads(self.value.forward(input)?)?;
        let scores = (query.matmul(&key.t()?)? / (HEAD_SIZE as f64).sqrt())?;
        let scores = scores.broadcast_add(mask)?;
        let weights = candle_nn::ops::softmax(&scores, D::Minus1)?;
        weights
            .matmul(&value)?
            .transpose(1, 2)?
            .contiguous()?
            .flatten_from(D::Minus2)
    }
}
