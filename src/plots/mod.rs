//! Figures, each a function generic over the drawing backend.

mod sequence_curves;

pub use sequence_curves::draw_sequence_curves;
